def ascii_logit(
    norm: str,
    memo: dict[str, float],
    pairs: dict[str, dict[str, float]],
    bias: float,
    window: int,
    stride: int,
    head: int,
    tail: int,
) -> float | None: ...
def ascii_words(text: str) -> set[str]: ...
