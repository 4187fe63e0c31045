"""What the number detectors share: where a number may start and end (not inside a
longer number), its digit groups, the cue words of a reference that is no personal
number (ISBN, DOI...), and whether the line calls a number something else
(:func:`called_otherwise`)."""

from __future__ import annotations

import re

__all__ = [
    "DIGIT_GROUP",
    "NOT_NUMBER_CUE",
    "NUMBER_END",
    "NUMBER_START",
    "REFERENCE_WORDS",
    "Span",
    "called_otherwise",
    "digits_of",
    "line_before",
    "word_near",
]

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


#: Words that call a number the identifier of a thing or an event (a case, a ticket, an
#: order...), not of a person: an SSN- or phone-shaped number after one of them is that
#: identifier (:func:`called_otherwise`).
REFERENCE_WORDS = re.compile(
    r"(?i)\b(?:case|ticket|reference|ref|order|invoice|tracking|shipment|parcel|confirmation"
    r"|booking|reservation|claim|transaction|txn|serial|sku|part|model|request|incident"
    r"|batch|lot|build|job|receipt|voucher|coupon|certificate|permit)\b"
)


def line_before(text: str, start: int, width: int = 60) -> Span:
    """The at most ``width`` characters before ``start`` on its line."""
    line_start = text.rfind("\n", max(0, start - width), start) + 1
    return max(line_start, start - width), start


def word_near(words: re.Pattern[str], text: str, start: int, end: int, width: int = 60) -> bool:
    """Whether ``words`` matches within ``width`` characters before or after ``[start,
    end)``, on the same line."""
    if words.search(text, *line_before(text, start, width)):
        return True
    line_end = text.find("\n", end, end + width)
    stop = min(end + width, len(text) if line_end < 0 else line_end)
    return words.search(text, end, stop) is not None


_LABEL_GAP = re.compile(r"(?i)(?:[\s:#=(\-]|\b(?:number|no|nr|num|id|code|file|is|was)\b\.?)*")


def called_otherwise(
    text: str,
    start: int,
    end: int,
    others: re.Pattern[str],
    own: re.Pattern[str],
    *,
    label: bool = False,
) -> bool:
    """Whether the line calls the number at ``[start, end)`` something else: a word of
    ``others`` (account, case, reference...) within 60 characters before it, with no other
    number between that word and it (a label names the value right after it: in
    ``log row: 2025-06-14T10:22Z AUTH 3832...`` the row's words are not the number's name),
    and no word of ``own`` (card, SSN, phone...) within 60 characters on either side. With
    ``label``, the word must be the number's label: only ``number``, ``no.``, ``ID``,
    ``code``, ``file``, ``is``, ``was`` and punctuation between them ("reference is
    595-245-7623", "Case file 703-02-3873", not "case handled by Dana, 020 7123 4567").

    >>> from monitor.scoring.leakage.cards import CARD_WORD
    >>> t = "Case file 703-02-3873 was opened."
    >>> called_otherwise(t, 10, 21, REFERENCE_WORDS, CARD_WORD, label=True)
    True
    >>> t = "Transaction log: 2025-06-14T10:22:05Z AUTH 38324331539163"
    >>> called_otherwise(t, 43, 57, REFERENCE_WORDS, CARD_WORD)
    False
    """
    a, b = line_before(text, start)
    i = b
    while i > a and not text[i - 1].isdigit():
        i -= 1  # after the last digit before the number: the words that name it
    if label:
        ends = [m.end() for m in others.finditer(text, i, b)]  # 60 characters at most
        if not ends or not _LABEL_GAP.fullmatch(text, ends[-1], b):
            return False
    elif not others.search(text, i, b):
        return False
    return not word_near(own, text, start, end)
