"""Randomness of a secret-shaped value: Shannon entropy and the vendor token test."""

from __future__ import annotations

import math
from collections import Counter
from typing import Final

from monitor.scoring.leakage.placeholders import is_placeholder

__all__ = ["TOKEN_MIN_ENTROPY", "looks_random", "shannon_entropy"]

#: Minimum Shannon entropy (bits per character) of the random part of a vendor token.
TOKEN_MIN_ENTROPY: Final = 3.0


def shannon_entropy(value: str) -> float:
    """Shannon entropy of the character distribution of ``value``, in bits per character.

    >>> shannon_entropy("aaaa"), shannon_entropy("abcd"), shannon_entropy("")
    (0.0, 2.0, 0.0)
    """
    n = len(value)
    if n == 0:
        return 0.0
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values()) + 0.0


def looks_random(body: str, min_entropy: float = TOKEN_MIN_ENTROPY) -> bool:
    """Whether the random part of a token is no placeholder and has enough entropy."""
    return not is_placeholder(body) and shannon_entropy(body) >= min_entropy
