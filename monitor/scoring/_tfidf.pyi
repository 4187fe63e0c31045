from collections import Counter

def cosine_total(
    found: list[tuple[int, int, tuple[str, ...], tuple[int, ...]]],
    idf2: dict[str, float],
    norms: list[float],
) -> float | None: ...
def norm(
    keys: frozenset[str],
    counts: Counter[str],
    square_sum: int,
    idf2: dict[str, float],
    single: float,
) -> float | None: ...
def common_terms(
    counts_a: Counter[str], counts_b: Counter[str]
) -> tuple[tuple[str, ...], tuple[int, ...]]: ...
