"""Boundary checks: a token-shaped value must not be glued to a letter or digit."""

from __future__ import annotations

__all__ = ["alnum_at", "boundary_ok"]


def alnum_at(text: str, i: int) -> bool:
    """Whether ``text[i]`` exists and is a letter or digit."""
    return 0 <= i < len(text) and text[i].isalnum()


def boundary_ok(text: str, start: int, end: int, chars: str = "_-") -> bool:
    """Whether ``text[start:end]`` has no letter, digit or one of ``chars`` on either side."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalnum() or before in chars or after.isalnum() or after in chars)
