"""Numbers of the 003 scorers: a numeric token part's normalised key, the hyphen parts of
a token starting with a digit, percentages (``15%`` = ``15 percent`` = ``15 per cent``) and
the spelled-out numbers ``one`` ... ``twenty``."""

from __future__ import annotations

__all__ = [
    "DIGITS",
    "PERCENT_NEXT",
    "PERCENT_WORDS",
    "SPELLED_NUMBERS",
    "SPELLED_SET",
    "digit_parts",
    "hyphen_parts",
    "number_key",
    "percent_after",
    "with_percent_words",
]

#: ``one`` ... ``twenty``: numbers in haystacks, words in the answer
SPELLED_NUMBERS = {
    w: str(i)
    for i, w in enumerate(
        "one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split(),
        start=1,
    )
}

SPELLED_SET = frozenset(SPELLED_NUMBERS)
DIGITS = frozenset("0123456789")
_ORDINALS = ("st", "nd", "rd", "th")
#: a number followed by one of these (or by ``per cent``) is a percentage
PERCENT_WORDS = frozenset({"percent", "pct"})
#: the last word of each way of writing a percentage
PERCENT_NEXT = frozenset({"percent", "pct", "cent"})

#: a token starting with a digit is split at up to this many hyphens
_MAX_HYPHENS = 3


def number_key(part: str) -> str | None:
    """The normalised value of one numeric token part, None when it is not a number.

    >>> [number_key(p) for p in ["1,000", "3.50", "007", "2.0", "15th", "1.2.3", "v2", "0"]]
    ['1000', '3.5', '7', '2', '15', '1.2.3', None, '0']
    """
    if part[-2:] in _ORDINALS:
        part = part[:-2]
    digits = part.replace(",", "")
    bare = digits.replace(".", "")
    if not bare or not bare.isascii() or not bare.isdigit():
        return None
    dots = digits.count(".")
    if dots == 0:
        return digits.lstrip("0") or "0"
    if dots > 1:
        return digits
    whole, frac = digits.split(".")
    whole = whole.lstrip("0") or "0"
    frac = frac.rstrip("0")
    return f"{whole}.{frac}" if frac else whole


def hyphen_parts(token: str) -> list[str] | None:
    """The hyphen parts of a token starting with a digit, None when it is not split (no
    hyphen, or more than ``_MAX_HYPHENS``: a code such as ``1-800-555-0100-2``, not a
    compound like ``15-day`` or a range like ``10-15``)."""
    if "-" not in token or token.count("-") > _MAX_HYPHENS:
        return None
    return token.split("-")


def digit_parts(token: str) -> list[tuple[str, int, int]]:
    """``(key, start, end)`` of the numeric parts of a token starting with a digit."""
    split = hyphen_parts(token)
    if split is None:
        key = number_key(token)
        return [] if key is None else [(key, 0, len(token))]
    parts = []
    offset = 0
    for part in split:
        key = number_key(part) if part else None
        if key is not None:
            parts.append((key, offset, offset + len(part)))
        offset += len(part) + 1
    return parts


def percent_after(tokens: list[str], i: int) -> bool:
    """Whether tokens[i + 1:] start with ``percent``, ``pct`` or ``per cent``."""
    if i + 1 >= len(tokens):
        return False
    nxt = tokens[i + 1]
    return nxt in PERCENT_WORDS or (
        nxt == "per" and i + 2 < len(tokens) and tokens[i + 2] == "cent"
    )


def with_percent_words(text: str) -> str:
    """``text`` with every ``%`` read as the word ``percent``."""
    return text.replace("%", " percent ") if "%" in text else text
