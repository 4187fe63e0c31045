"""The sentences of an answer: where they end, what is not read (citation markers,
line-start enumerators, a leading attribution), and where their tokens are."""

from __future__ import annotations

import re
from bisect import bisect_right

from monitor.scoring.grounding.numbers import with_percent_words
from monitor.scoring.tokens import token_spans

__all__ = ["ATTRIBUTION", "SENTENCE_END", "blank_ignored", "token_offsets"]

# A sentence ends after . ! ? ; followed (after closing quotes/brackets) by space or the
# end, or at a newline. One terminator per match and disjoint classes: linear time.
SENTENCE_END = re.compile(r"[.!?;](?=[\"'”’)\]]*(?:\s|\Z))|\n")
# Ignored spans: a line-start enumerator, a bracketed marker, a parenthesised source.
_ENUMERATOR = re.compile(r"(?m)^[ \t]*\d{1,3}[.)](?=[ \t])")
_BRACKETED = re.compile(r"\[[^\[\]\n]{1,60}\]")
_SOURCE = re.compile(
    r"\((?:sources?|refs?|references?|see|cf|citations?)[ \t]{0,3}:[^()\n]{0,200}\)",
    re.IGNORECASE,
)
# A leading attribution, tried once at each sentence's start.
ATTRIBUTION = re.compile(
    r"\s{0,20}(?:according to|based on|as (?:stated|described|noted|outlined|explained) in)\b"
    r"[^,:\n]{0,160}[,:]",
    re.IGNORECASE,
)
_PERCENT_SIGN = re.compile("%")


def token_offsets(sub: str, base: int) -> list[tuple[int, int]]:
    """``[start, end)`` in the answer of each token of ``tokenize(with_percent_words(sub))``
    (``sub`` starts at ``base``); a ``percent`` read from ``%`` is the ``%`` itself."""
    hay = with_percent_words(sub)
    low = hay.lower()
    spans = token_spans(low)
    if len(low) != len(hay):
        # lower-casing lengthened some character (such as "İ"): map positions back
        back: list[int] = []
        for i, ch in enumerate(hay):
            back.extend([i] * len(ch.lower()))
        spans = [(back[s], back[e - 1] + 1) for s, e in spans]
    if hay is sub:
        return [(base + s, base + e) for s, e in spans]
    # the k-th "%" of sub (0-based, at q) is " percent " at q + 8k in hay
    marks = [m.start() for m in _PERCENT_SIGN.finditer(sub)]
    starts = [q + 8 * k for k, q in enumerate(marks)]

    def to_sub(r: int) -> tuple[int, bool]:
        k = bisect_right(starts, r)
        if k and r < starts[k - 1] + 9:
            return marks[k - 1], True
        return r - 8 * k, False

    out = []
    for s, e in spans:
        start, inside = to_sub(s)
        out.append(
            (base + start, base + start + 1) if inside else (base + start, base + e - (s - start))
        )
    return out


def blank_ignored(text: str) -> str:
    """``text`` with citation markers and line-start enumerators replaced by spaces."""
    spans: list[tuple[int, int]] = []
    if "[" in text:
        spans += [m.span() for m in _BRACKETED.finditer(text)]
    if "(" in text and ":" in text:
        spans += [m.span() for m in _SOURCE.finditer(text)]
    if "\n" in text or text.lstrip()[:1].isdigit():
        spans += [m.span() for m in _ENUMERATOR.finditer(text)]
    if not spans:
        return text
    chars = list(text)
    for s, e in spans:
        chars[s:e] = " " * (e - s)
    return "".join(chars)
