from collections import Counter

def redundancy(
    counts: list[Counter[str]], idf2_by_df: list[float], single: float
) -> float | None: ...
