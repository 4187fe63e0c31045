"""The analysis of one text (tokens, terms, numbers, phrase, trigrams), kept in the
process's :mod:`~monitor.scoring.chunk_cache` and shared by context quality and grounding:
the chunks are analysed once for both, and a chunk retrieved again later costs a
dictionary look-up. Results are the same with or without the cache."""

from __future__ import annotations

from collections import Counter
from itertools import chain

from monitor.scoring.chunk_cache import chunk_cache, untracked
from monitor.scoring.grounding.numbers import (
    DIGITS,
    PERCENT_NEXT,
    SPELLED_NUMBERS,
    SPELLED_SET,
    digit_parts,
    percent_after,
    with_percent_words,
)
from monitor.scoring.grounding.terms import clear_term_memos, content_term_counts, terms_of
from monitor.scoring.tokens import tokenize, trigram_keys, trigram_set

__all__ = ["TextAnalysis", "analyse", "clear_caches"]

#: up to this many "%" a text is tokenised piece by piece, beyond it twice
_SPLIT_PERCENTS = 16


class TextAnalysis:
    """What the 003 scorers need of one text, each part computed on first use.

    ``tokens`` are :func:`~monitor.scoring.tokens.tokenize`'s (what context quality counts);
    ``hay`` the same with ``%`` read as ``percent`` (where terms, numbers and phrases are
    looked for, so ``15%`` and ``15 percent`` are the same phrase).

    >>> a = TextAnalysis("Employees get 15% off, fifteen days and a 2-day trip.")
    >>> sorted(a.terms)
    ['day', 'employee', 'fifteen', 'get', 'percent', 'trip']
    >>> a.numbers, a.spelled
    ({'15%': [2], '2': [9]}, {'15': [5]})
    >>> len(a.tokens), len(a.hay)
    (10, 11)
    """

    __slots__ = (
        "_content_counts",
        "_numbers",
        "_phrase",
        "_spelled",
        "_term_list",
        "_terms",
        "_text",
        "_tokens",
        "_trigram_keys",
        "_trigrams",
        "hay",
    )

    def __init__(self, text: str) -> None:
        percents = text.count("%")
        self._text: str | None = None
        self._tokens: list[str] | None
        if not percents:
            self._tokens = self.hay = untracked(tokenize(text))
        elif percents > _SPLIT_PERCENTS:
            self._text = text  # tokens on demand
            self._tokens = None
            self.hay = untracked(tokenize(with_percent_words(text)))
        else:
            # no token spans a "%": tokenise the pieces between them once
            pieces = [tokenize(piece) for piece in text.split("%")]
            self._tokens = untracked(list(chain.from_iterable(pieces)))
            hay = pieces[0]
            for piece in pieces[1:]:
                hay.append("percent")
                hay += piece
            self.hay = untracked(hay)
        self._term_list: list[str] | None = None
        self._terms: frozenset[str] | None = None
        self._numbers: dict[str, list[int]] | None = None
        self._spelled: dict[str, list[int]] | None = None
        self._phrase: str | None = None
        self._content_counts: dict[str, int] | None = None
        self._trigrams: frozenset[str] | None = None
        self._trigram_keys: bytes | None = None

    @classmethod
    def of_hay(cls, hay: list[str]) -> TextAnalysis:
        """The analysis of a text known by its ``hay`` tokens only (no ``tokens``)."""
        analysis = cls("")
        analysis.hay = hay
        analysis._tokens = None
        return analysis

    @property
    def tokens(self) -> list[str]:
        """``tokenize(text)``."""
        if self._tokens is None:
            if self._text is None:
                raise ValueError("an analysis made of_hay has no tokens")
            self._tokens = untracked(tokenize(self._text))
            self._text = None
        return self._tokens

    @property
    def term_list(self) -> list[str]:
        """The term of each ``hay`` token ("" for none)."""
        if self._term_list is None:
            self._term_list = untracked(terms_of(self.hay))
        return self._term_list

    @property
    def terms(self) -> frozenset[str]:
        """The distinct terms."""
        if self._terms is None:
            terms = set(self.term_list)
            terms.discard("")
            self._terms = untracked(frozenset(terms))
        return self._terms

    def _scan_numbers(self) -> None:
        numbers: dict[str, list[int]] = {}
        spelled: dict[str, list[int]] = {}
        hay = self.hay
        # per distinct token: its keys, and those keys when a percent word follows
        parsed: dict[str, tuple[list[str], list[str]]] = {}
        for i in [i for i, t in enumerate(hay) if t[0] in DIGITS]:
            t = hay[i]
            entry = parsed.get(t)
            if entry is None:
                parts = digit_parts(t)
                keys = [k for k, _, _ in parts]
                if parts and parts[-1][2] == len(t):
                    entry = parsed[t] = (keys, [*keys[:-1], keys[-1] + "%"])
                else:
                    entry = parsed[t] = (keys, keys)
            keys = entry[0]
            if not keys:
                continue
            if percent_after(hay, i):
                keys = entry[1]
            for key in keys:
                positions = numbers.get(key)
                if positions is None:
                    numbers[key] = [i]
                else:
                    positions.append(i)
        if not SPELLED_SET.isdisjoint(hay):
            for i, t in enumerate(hay):
                if t in SPELLED_NUMBERS:
                    spelled.setdefault(SPELLED_NUMBERS[t], []).append(i)
        self._numbers = numbers
        self._spelled = spelled

    def number_keys(self) -> set[str]:
        """The keys of :attr:`numbers` and :attr:`spelled`, counted rather than located
        (cheaper when positions are not needed)."""
        if self._numbers is not None and self._spelled is not None:
            return self._numbers.keys() | self._spelled.keys()
        hay = self.hay
        keys = {SPELLED_NUMBERS[t] for t in SPELLED_SET.intersection(hay)}
        occurrences = Counter([t for t in hay if t[0] in DIGITS])
        if not occurrences:
            return keys
        # how often each digit token is followed by percent, pct or per cent
        followed: Counter[str] = Counter()
        if not PERCENT_NEXT.isdisjoint(hay):
            for i in [i for i, t in enumerate(hay) if t in PERCENT_NEXT]:
                j = i - 1
                if hay[i] == "cent":
                    if j < 1 or hay[j] != "per":
                        continue
                    j -= 1
                if j >= 0 and hay[j][0] in DIGITS:
                    followed[hay[j]] += 1
        for t, count in occurrences.items():
            parts = digit_parts(t)
            if not parts:
                continue
            percented = followed.get(t, 0)
            at_end = parts[-1][2] == len(t)
            keys.update(k for k, _, _ in parts[:-1])
            if not at_end or count > percented:
                keys.add(parts[-1][0])
            if at_end and percented:
                keys.add(parts[-1][0] + "%")
        return keys

    @property
    def numbers(self) -> dict[str, list[int]]:
        """``hay`` positions of every number key written in digits."""
        if self._numbers is None:
            self._scan_numbers()
        assert self._numbers is not None
        return self._numbers

    @property
    def spelled(self) -> dict[str, list[int]]:
        """``hay`` positions of the numbers ``one`` ... ``twenty`` written as words."""
        if self._spelled is None:
            self._scan_numbers()
        assert self._spelled is not None
        return self._spelled

    @property
    def phrase(self) -> str:
        """The ``hay`` tokens joined by single spaces, with a space at each end."""
        if self._phrase is None:
            self._phrase = " " + " ".join(self.hay) + " "
        return self._phrase

    @property
    def content_counts(self) -> dict[str, int]:
        """How often each content term (``tokens.content_terms``) occurs."""
        if self._content_counts is None:
            self._content_counts = content_term_counts(self.tokens)
        return self._content_counts

    @property
    def trigrams(self) -> frozenset[str]:
        """The set of word trigrams of ``tokens``, each its three tokens joined by spaces
        (no token holds a space; strings, unlike tuples, are not tracked by the garbage
        collector, which made the set three times slower to build among many objects)."""
        if self._trigrams is None:
            self._trigrams = trigram_set(self.tokens)
        return self._trigrams

    @property
    def trigram_keys(self) -> bytes | None:
        """:func:`..tokens.trigram_keys` of ``tokens``: the trigrams as compact records,
        which context quality compares where the kernel is built; None where it is not."""
        if self._trigram_keys is None:
            self._trigram_keys = trigram_keys(self.tokens)
        return self._trigram_keys


def clear_caches() -> None:
    """Forget every cached analysis and token term (benchmarks measure cold runs)."""
    chunk_cache().clear()
    clear_term_memos()


def analyse(text: str) -> TextAnalysis:
    """The :class:`TextAnalysis` of ``text``, from the process's chunk cache."""
    entry = chunk_cache().entry(text)
    if entry is None:
        return TextAnalysis(text)
    found = entry.analysis
    if found is None:
        found = entry.analysis = TextAnalysis(text)
    return found
