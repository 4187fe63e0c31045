"""The term of a token, memoised: what claims, context and labels are compared by.

A token's *content term* is :func:`monitor.scoring.tokens.content_terms`' (three or more
characters, not a stop word, plural-stemmed); its *grounding term* is the same, except that
a token starting with a digit has the term of its last word part (``day`` of ``15-day``).

The memo holds tokens up to 64 characters, 200,000 of them per table. A full table is
replaced (never cleared in place), so a caller holding the old table keeps a consistent
view."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from monitor.scoring.grounding.numbers import DIGITS, hyphen_parts, number_key
from monitor.scoring.tokens import STOP_WORDS, count_terms, stem

__all__ = [
    "TokenMemo",
    "clear_term_memos",
    "content_term",
    "content_term_counts",
    "grounding_term",
    "terms_of",
]

_MEMO_SIZE = 200_000
_MEMO_TOKEN_CHARS = 64


def _is_term(token: str) -> bool:
    # the filter of tokens.content_terms, for one token (a call of content_terms([token])
    # per token would double the cost of a memo miss)
    return len(token) > 2 and token not in STOP_WORDS


def grounding_term(token: str) -> str:
    """The term of a token ("" for none); a digit token's is its last word part's."""
    if token[0] not in DIGITS:
        return stem(token) if _is_term(token) else ""
    for part in reversed(hyphen_parts(token) or ()):
        if part and number_key(part) is None and _is_term(part):
            return stem(part)
    return ""


def content_term(token: str) -> str:
    """:func:`monitor.scoring.tokens.content_terms` of one token ("" for none)."""
    return stem(token) if _is_term(token) else ""


class TokenMemo:
    """A bounded memo of a function of one token."""

    __slots__ = ("_fn", "_table")

    def __init__(self, fn: Callable[[str], str]) -> None:
        self._fn = fn
        self._table: dict[str, str] = {}

    def map(self, tokens: list[str]) -> list[str]:
        """The function of every token, through the memo."""
        table = self._table
        try:
            return list(map(table.__getitem__, tokens))
        except KeyError:
            pass
        # the distinct new tokens, found in C (not a Python loop over every token)
        missing = set(tokens).difference(table)
        if len(table) + len(missing) > _MEMO_SIZE:
            table = self._table = {}
            missing = set(tokens)
        fn = self._fn
        unkept: dict[str, str] = {}  # tokens too long for the memo
        for t in missing:
            if len(t) <= _MEMO_TOKEN_CHARS:
                table[t] = fn(t)
            else:
                unkept[t] = fn(t)
        if not unkept:
            return list(map(table.__getitem__, tokens))
        return [table[t] if t in table else unkept[t] for t in tokens]

    def counts(self, tokens: list[str]) -> dict[str, int]:
        """How often each term (not "") of the tokens occurs: ``Counter(self.map(tokens))``
        without "", as a plain dict (which the garbage collector does not track: its keys
        and values are strings and numbers), counted in C from the memo when it knows
        every token."""
        counts: dict[str, int] = {}
        if count_terms(counts, tokens, self._table):
            return counts
        found = Counter(self.map(tokens))
        del found[""]
        return dict(found)

    def clear(self) -> None:
        """Forget every memoised token."""
        self._table = {}


_TERMS = TokenMemo(grounding_term)
_CONTENT_TERMS = TokenMemo(content_term)
#: :func:`grounding_term` of every token, through the memo
terms_of = _TERMS.map
#: how often each :func:`content_term` occurs among tokens, through the memo
content_term_counts = _CONTENT_TERMS.counts


def clear_term_memos() -> None:
    """Forget every memoised token term."""
    _TERMS.clear()
    _CONTENT_TERMS.clear()
