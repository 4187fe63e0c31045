"""What the number detectors share: where a number may start and end (not inside a
longer number), its digit groups, and the cue words of a reference that is no personal
number (ISBN, DOI...)."""

from __future__ import annotations

import re

__all__ = ["DIGIT_GROUP", "NOT_NUMBER_CUE", "NUMBER_END", "NUMBER_START", "Span", "digits_of"]

#: Regular expression fragments: not inside a longer number (``1.5``, ``3/4``, ``1-2``).
NUMBER_START = r"(?<![0-9])(?<![0-9][.\-/])"
NUMBER_END = r"(?![0-9]|[.\-/][0-9])"
DIGIT_GROUP = re.compile(r"[0-9]+")
NOT_NUMBER_CUE = re.compile(r"(?i)\b(?:isbn(?:-1[03])?|issn|doi|arxiv)\b[^0-9\n]{0,8}$")

#: A ``[start, end)`` range of the text: a fictional or example number claims its span.
Span = tuple[int, int]


def digits_of(s: str) -> str:
    """The digits of ``s``, separators dropped."""
    return "".join(DIGIT_GROUP.findall(s))
