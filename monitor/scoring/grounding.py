"""Spec 003 C groundedness of the answer: claim support, numeric fabrication, two-stage
citation validity, expected and forbidden claims.

Nothing is copied out of the event: claims and fabricated numbers are ``[start, end)``
character offsets into ``response.text``.

**Words.** Tokens are :func:`monitor.scoring.tokens.tokenize`'s (lower-cased), with every
``%`` read as the word ``percent``. A *term* is a content term as in
:mod:`monitor.scoring.tokens` (three or more characters, not a stop word, plural-stemmed)
of a token that does not start with a digit. A token that starts with a digit and has at
most 3 hyphens is split at them (``15-day``, ``10-15``): its numeric parts are numbers, and
its last non-numeric part is its term (``day``); with more hyphens (``1-800-555-0100-2``)
it is one token and, as it is not a number, neither number nor term.

**Numbers.** :func:`number_key` normalises a numeric token part: grouping commas are
dropped (``1,000`` = ``1000``; a comma is never a decimal mark), leading zeros and a
fraction's trailing zeros are dropped (``3.50`` = ``3.5``, ``2.0`` = ``2``), an ordinal
suffix is dropped (``15th`` = ``15``); a part with several dots (``1.2.3``) is kept as
written. A currency sign is not part of a token (``$1,200`` = ``1200``). A number whose
next token is ``percent`` (so also a ``%`` before the next word), ``pct`` or ``per cent``
is a percentage with key ``15%``: ``15%`` = ``15 %`` = ``15 percent`` = ``15 per cent``,
but ``15%`` is not ``15``. In haystacks (the context, chunks, the answer when labels are
matched) the words ``one`` ... ``twenty`` also count as 1 ... 20; in the answer they stay
words and are never checked (``one of the benefits`` is no fabrication). Years (``2024``)
and ordinals are checked like any number; a line-start enumerator (``1.``, ``2)``) is a
bullet, not a number.

**Sentences.** The answer is split after ``.``, ``!``, ``?`` or ``;`` followed by white
space or the end (closing quotes and brackets may come between), and at every newline, so
bullet lines are sentences of their own. Not read: citation markers (``[1]``, ``[doc-7]``,
``(source: ...)``, ``(see: ...)``), line-start enumerators, and a sentence's leading
attribution ``According to X:`` / ``Based on X,`` / ``As stated in X:`` (it names a
source and claims nothing about the topic). At most ``MAX_SENTENCES`` = 2000 sentences and
``MAX_NUMBERS`` = 1000 numbers of an answer are examined (bounding time and output); the
rest is not analysed.

**Claims.** A sentence is a claim unless it is a question (ends in ``?``), speaks of the
assistant (first word ``I``, ``I'm``, ``I've``, ``I'd``, ``I'll`` or ``Sorry``: abstentions
and refusals such as "I could not find ..." say nothing about the sources), or has fewer
than ``MIN_CLAIM_TERMS`` = 2 distinct terms, not counting the one-word type indicators
below nor ``percent``, ``pct``, ``per``, ``cent``. Its span runs from its first to its last read
token. Type (003): ``general`` if it contains generally, typically, usually, commonly,
often, "in general" or "as a rule"; else ``inference`` if it contains may, might, could,
possibly, perhaps, likely, probably, suggests or appears; else ``assertion`` (is, must,
will, ...). Verification against the terms of the context (``context_text``: the chunks
joined when the event had no context):

- an assertion is supported when at least ``ASSERTION_SUPPORT`` = 0.7 of its distinct terms
  are context terms and none of its numbers is a numeric fabrication;
- an inference is supported when at least ``INFERENCE_SUPPORT`` = 0.5 of its terms are;
- a general claim is not verified: never unsupported, not in the rate.

``claims`` counts all claims, general ones included; ``claim_support_rate`` = supported /
(assertions + inferences), None when there are none; ``unsupported_claims`` gives the span
and type of each assertion or inference that is not supported.

**Numeric fabrication.** Every number of the answer read above is checked, in a claim or
not. Its *anchors* are the terms of the tokens within ``NEAR`` = 6 tokens of it in its
sentence (either side, its own token included, so ``day`` of ``15-day``). It is fabricated
when its key occurs nowhere in the context, or occurs only where none of its anchors is
within ``NEAR`` context tokens (003's "15 days": the context's 15 must stand near ``day``,
or near another word around the 15 in the answer, such as ``vacation``). A number without
anchors only has to occur. Context windows run over the context's tokens in order, across
sentence and chunk boundaries. ``numeric_fabrications`` are the spans of the numeric parts
(``15`` of ``15%``, ``1,200`` of ``$1,200``).

**Citations** (both None without citations):

- ``citation_validity_form``: the fraction of citations that point at a retrieved chunk:
  with a ``chunk_id``, a retrieved chunk has it and, when both name a document, the same
  ``document_id`` (a chunk id paired with another document is invalid); without one, a
  retrieved chunk has its ``document_id``. A citation with neither is invalid.
- ``citation_validity_content``: the fraction of citations that are form-valid *and* whose
  cited text (the chunk with that id, else each retrieved chunk of that document) contains
  at least ``CITATION_CONTENT`` = 0.5 of the terms of at least one claim (any type). The
  denominator is every citation: a form-invalid citation counts as content-invalid, so
  content <= form; an answer without claims has no content-valid citation.

**Labels.** A label wording's *items* are its terms and its numbers written in digits (its
spelled-out numbers stay words). The answer's are those of the sentences read above
(markers, bullets and attributions left out), ``one`` ... ``twenty`` counting as numbers.

- ``expected_claims_recall`` (None without ``expected_claims``): the fraction of expected
  claims that occur in the answer as a phrase (the same token sequence, so case,
  punctuation and spacing do not matter) or of whose items at least ``EXPECTED_RECALL`` =
  0.7 are the answer's.
- ``forbidden_claims_found`` (None without ``forbidden_claims``): how many forbidden claims
  occur as a phrase, or have every item (all terms, all numbers) in the answer. A negated
  mention ("vacation is not unlimited") counts too.

**Speed.** The analysis of a text (:class:`TextAnalysis`: tokens, terms, numbers) is
memoised for texts up to 16 KB, 1 M characters in all, and so is each token's term: the
chunks are analysed once for both context quality and grounding, and a chunk retrieved
again later costs a dictionary look-up. Results are the same with or without the memo.

>>> from monitor.events import Chunk, Citation, Response
>>> chunks = [Chunk(chunk_id="hr-1", document_id="hr",
...                 content="Full-time employees receive 15 days of paid vacation per year.")]
>>> answer = Response(text="Employees receive 15 days of paid vacation [1]. "
...                        "Unused days are typically carried over. They get 30 sick days.",
...                   citations=[Citation(document_id="hr", chunk_id="hr-1")])
>>> g = score_grounding(answer, chunks, chunks[0].content, None)
>>> g.claims, g.claim_support_rate
(3, 0.5)
>>> [(c.start, c.end, c.type) for c in g.unsupported_claims]
[(88, 109, 'assertion')]
>>> answer.text[88:109]
'They get 30 sick days'
>>> [answer.text[s.start:s.end] for s in g.numeric_fabrications]
['30']
>>> g.citation_validity_form, g.citation_validity_content
(1.0, 1.0)

The first claim's terms employee, receive, day, paid, vacation are all in the context and
its 15 stands near ``day`` there; the second is general (``typically``); the third (terms
get, sick, day: ``they`` is a stop word) has 1 of 3 terms in the context, under 0.7, and a
30 the context lacks. 2 assertions, 1 supported: rate 0.5.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from itertools import chain
from operator import mul

from monitor.events.construct import construct
from monitor.events.rag_event import Chunk, Citation, Labels, Response
from monitor.events.scored_event import ClaimSpan, Grounding, Span
from monitor.scoring.tokens import STOP_WORDS, stem, token_spans, tokenize

__all__ = [
    "ASSERTION_SUPPORT",
    "CITATION_CONTENT",
    "EXPECTED_RECALL",
    "GENERAL_WORDS",
    "INFERENCE_SUPPORT",
    "INFERENCE_WORDS",
    "MAX_NUMBERS",
    "MAX_SENTENCES",
    "MIN_CLAIM_TERMS",
    "NEAR",
    "SPELLED_NUMBERS",
    "TextAnalysis",
    "analyse",
    "clear_caches",
    "number_key",
    "score_grounding",
]

ASSERTION_SUPPORT = 0.7
INFERENCE_SUPPORT = 0.5
CITATION_CONTENT = 0.5
EXPECTED_RECALL = 0.7
MIN_CLAIM_TERMS = 2
#: sentences of an answer examined, and numbers checked; the rest is not analysed
MAX_SENTENCES = 2_000
MAX_NUMBERS = 1_000
#: tokens either side of a number within which its anchor terms are looked for
NEAR = 6

GENERAL_WORDS = frozenset({"generally", "typically", "usually", "commonly", "often"})
INFERENCE_WORDS = frozenset(
    {"may", "might", "could", "possibly", "perhaps", "likely", "probably", "suggests", "appears"}
)
SPELLED_NUMBERS = {
    w: str(i)
    for i, w in enumerate(
        "one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split(),
        start=1,
    )
}

_SPELLED_SET = frozenset(SPELLED_NUMBERS)
_DIGITS = frozenset("0123456789")
_ORDINALS = ("st", "nd", "rd", "th")
_PERCENT_WORDS = frozenset({"percent", "pct"})
_PERCENT_NEXT = frozenset({"percent", "pct", "cent"})
#: terms that are type indicators, not content
_INDICATOR_TERMS = frozenset(stem(w) for w in GENERAL_WORDS | INFERENCE_WORDS)
#: first words of a sentence about the assistant itself ("I could not find ...")
_ABOUT_ASSISTANT = frozenset(
    {"i", "i'm", "i’m", "i've", "i’ve", "i'd", "i’d", "i'll", "i’ll", "sorry"}
)
#: not claim terms: type indicators, and the words of "15 percent" / "15 per cent"
_NOT_CLAIM_TERMS = _INDICATOR_TERMS | {"percent", "pct", "per", "cent"}

# A sentence ends after . ! ? ; followed (after closing quotes/brackets) by space or the
# end, or at a newline. One terminator per match and disjoint classes: linear time.
_BOUNDARY = re.compile(r"[.!?;](?=[\"'”’)\]]*(?:\s|\Z))|\n")
# Ignored spans: a line-start enumerator, a bracketed marker, a parenthesised source.
_ENUMERATOR = re.compile(r"(?m)^[ \t]*\d{1,3}[.)](?=[ \t])")
_BRACKETED = re.compile(r"\[[^\[\]\n]{1,60}\]")
_SOURCE = re.compile(
    r"\((?:sources?|refs?|references?|see|cf|citations?)[ \t]{0,3}:[^()\n]{0,200}\)",
    re.IGNORECASE,
)
# A leading attribution, tried once at each sentence's start.
_LEAD = re.compile(
    r"\s{0,20}(?:according to|based on|as (?:stated|described|noted|outlined|explained) in)\b"
    r"[^,:\n]{0,160}[,:]",
    re.IGNORECASE,
)
_ASCII_DIGIT = re.compile(r"[0-9]")
_PERCENT_SIGN = re.compile("%")
_FIRST_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
#: a token starting with a digit is split at up to this many hyphens
_MAX_HYPHENS = 3
#: up to this many "%" a text is tokenised piece by piece, beyond it twice
_SPLIT_PERCENTS = 16

# Memo bounds: texts up to 16 KB are cached, 1 M characters in all; tokens up to 64
# characters, 200,000 of them. Full tables are replaced (never cleared in place), so a
# caller holding the old table keeps a consistent view.
_CACHEABLE_CHARS = 16_384
_CACHE_BUDGET = 1_000_000
_CACHE_ENTRIES = 20_000
_MEMO_SIZE = 200_000
_MEMO_TOKEN_CHARS = 64


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


def _is_term(token: str) -> bool:
    return len(token) > 2 and token not in STOP_WORDS


def _split(token: str) -> list[str] | None:
    """The hyphen parts of a token starting with a digit, None when it is not split (no
    hyphen, or more than ``_MAX_HYPHENS``: a code such as ``1-800-555-0100-2``, not a
    compound like ``15-day`` or a range like ``10-15``)."""
    if "-" not in token or token.count("-") > _MAX_HYPHENS:
        return None
    return token.split("-")


def _digit_parts(token: str) -> list[tuple[str, int, int]]:
    """``(key, start, end)`` of the numeric parts of a token starting with a digit."""
    split = _split(token)
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


def _grounding_term(token: str) -> str:
    """The term of a token ("" for none); a digit token's is its last word part's."""
    if token[0] not in _DIGITS:
        return stem(token) if _is_term(token) else ""
    for part in reversed(_split(token) or ()):
        if part and number_key(part) is None and _is_term(part):
            return stem(part)
    return ""


def _content_term(token: str) -> str:
    """:func:`monitor.scoring.tokens.content_terms` of one token ("" for none)."""
    return stem(token) if _is_term(token) else ""


class _Memo:
    """The module's bounded memo tables."""

    texts: dict[str, TextAnalysis] = {}  # noqa: RUF012
    chars = 0
    terms: dict[str, str] = {}  # noqa: RUF012
    content: dict[str, str] = {}  # noqa: RUF012


def clear_caches() -> None:
    """Forget every memoised analysis (benchmarks measure cold runs with it)."""
    _Memo.texts = {}
    _Memo.chars = 0
    _Memo.terms = {}
    _Memo.content = {}


def _terms_of(tokens: list[str]) -> list[str]:
    """:func:`_grounding_term` of every token, through the memo."""
    table = _Memo.terms
    try:
        return list(map(table.__getitem__, tokens))
    except KeyError:
        pass
    if len(table) > _MEMO_SIZE:
        table = _Memo.terms = {}
    out = []
    for t in tokens:
        term = table.get(t)
        if term is None:
            term = _grounding_term(t)
            if len(t) <= _MEMO_TOKEN_CHARS:
                table[t] = term
        out.append(term)
    return out


def _content_terms_of(tokens: list[str]) -> list[str]:
    """:func:`_content_term` of every token, through the memo."""
    table = _Memo.content
    try:
        return list(map(table.__getitem__, tokens))
    except KeyError:
        pass
    if len(table) > _MEMO_SIZE:
        table = _Memo.content = {}
    out = []
    for t in tokens:
        term = table.get(t)
        if term is None:
            term = _content_term(t)
            if len(t) <= _MEMO_TOKEN_CHARS:
                table[t] = term
        out.append(term)
    return out


def _percent_after(tokens: list[str], i: int) -> bool:
    """Whether tokens[i + 1:] start with ``percent``, ``pct`` or ``per cent``."""
    if i + 1 >= len(tokens):
        return False
    nxt = tokens[i + 1]
    return nxt in _PERCENT_WORDS or (
        nxt == "per" and i + 2 < len(tokens) and tokens[i + 2] == "cent"
    )


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
        "_content_keys",
        "_content_square_sum",
        "_numbers",
        "_phrase",
        "_spelled",
        "_term_list",
        "_terms",
        "_text",
        "_tokens",
        "_trigrams",
        "hay",
    )

    def __init__(self, text: str) -> None:
        percents = text.count("%")
        self._text: str | None = None
        self._tokens: list[str] | None
        if not percents:
            self._tokens = self.hay = tokenize(text)
        elif percents > _SPLIT_PERCENTS:
            self._text = text  # tokens on demand
            self._tokens = None
            self.hay = tokenize(text.replace("%", " percent "))
        else:
            # no token spans a "%": tokenise the pieces between them once
            pieces = [tokenize(piece) for piece in text.split("%")]
            self._tokens = list(chain.from_iterable(pieces))
            hay = pieces[0]
            for piece in pieces[1:]:
                hay.append("percent")
                hay += piece
            self.hay = hay
        self._term_list: list[str] | None = None
        self._terms: frozenset[str] | None = None
        self._numbers: dict[str, list[int]] | None = None
        self._spelled: dict[str, list[int]] | None = None
        self._phrase: str | None = None
        self._content_counts: Counter[str] | None = None
        self._content_square_sum = -1
        self._content_keys: frozenset[str] | None = None
        self._trigrams: frozenset[tuple[str, str, str]] | None = None

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
            self._tokens = tokenize(self._text)
            self._text = None
        return self._tokens

    @property
    def term_list(self) -> list[str]:
        """The term of each ``hay`` token ("" for none)."""
        if self._term_list is None:
            self._term_list = _terms_of(self.hay)
        return self._term_list

    @property
    def terms(self) -> frozenset[str]:
        """The distinct terms."""
        if self._terms is None:
            terms = set(self.term_list)
            terms.discard("")
            self._terms = frozenset(terms)
        return self._terms

    def _scan_numbers(self) -> None:
        numbers: dict[str, list[int]] = {}
        spelled: dict[str, list[int]] = {}
        hay = self.hay
        n = len(hay)
        # per distinct token: its keys, and those keys when a percent word follows
        parsed: dict[str, tuple[list[str], list[str]]] = {}
        for i in [i for i, t in enumerate(hay) if t[0] in _DIGITS]:
            t = hay[i]
            entry = parsed.get(t)
            if entry is None:
                parts = _digit_parts(t)
                keys = [k for k, _, _ in parts]
                if parts and parts[-1][2] == len(t):
                    entry = parsed[t] = (keys, [*keys[:-1], keys[-1] + "%"])
                else:
                    entry = parsed[t] = (keys, keys)
            keys = entry[0]
            if not keys:
                continue
            if i + 1 < n:
                nxt = hay[i + 1]
                if nxt in _PERCENT_WORDS or (nxt == "per" and i + 2 < n and hay[i + 2] == "cent"):
                    keys = entry[1]
            for key in keys:
                positions = numbers.get(key)
                if positions is None:
                    numbers[key] = [i]
                else:
                    positions.append(i)
        if not _SPELLED_SET.isdisjoint(hay):
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
        keys = {SPELLED_NUMBERS[t] for t in _SPELLED_SET.intersection(hay)}
        occurrences = Counter([t for t in hay if t[0] in _DIGITS])
        if not occurrences:
            return keys
        # how often each digit token is followed by percent, pct or per cent
        followed: Counter[str] = Counter()
        if not _PERCENT_NEXT.isdisjoint(hay):
            for i in [i for i, t in enumerate(hay) if t in _PERCENT_NEXT]:
                j = i - 1
                if hay[i] == "cent":
                    if j < 1 or hay[j] != "per":
                        continue
                    j -= 1
                if j >= 0 and hay[j][0] in _DIGITS:
                    followed[hay[j]] += 1
        for t, count in occurrences.items():
            parts = _digit_parts(t)
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
    def content_counts(self) -> Counter[str]:
        """How often each content term (``tokens.content_terms``) occurs."""
        if self._content_counts is None:
            counts = Counter(_content_terms_of(self.tokens))
            del counts[""]
            self._content_counts = counts
        return self._content_counts

    @property
    def content_keys(self) -> frozenset[str]:
        """The distinct content terms."""
        if self._content_keys is None:
            self._content_keys = frozenset(self.content_counts)
        return self._content_keys

    @property
    def content_square_sum(self) -> int:
        """The sum of the squared content term counts."""
        if self._content_square_sum < 0:
            counts = self.content_counts.values()
            self._content_square_sum = sum(map(mul, counts, counts))
        return self._content_square_sum

    @property
    def trigrams(self) -> frozenset[tuple[str, str, str]]:
        """The set of word trigrams of ``tokens``."""
        if self._trigrams is None:
            t = self.tokens
            self._trigrams = frozenset(zip(t, t[1:], t[2:], strict=False))
        return self._trigrams


def analyse(text: str) -> TextAnalysis:
    """The (memoised) :class:`TextAnalysis` of ``text``."""
    if len(text) > _CACHEABLE_CHARS:
        return TextAnalysis(text)
    cache = _Memo.texts
    found = cache.get(text)
    if found is None:
        found = TextAnalysis(text)
        if _Memo.chars + len(text) > _CACHE_BUDGET or len(cache) >= _CACHE_ENTRIES:
            cache = _Memo.texts = {}
            _Memo.chars = 0
        cache[text] = found
        _Memo.chars += len(text)
    return found


class _Context:
    """The context: the chunks' analyses when it is their join (whose tokens are the chunks'
    tokens one after the other), else its own analysis."""

    __slots__ = ("_near", "_terms", "parts")

    def __init__(self, context_text: str, chunks: Sequence[Chunk]) -> None:
        contents = [c.content for c in chunks]
        if contents and context_text == "\n\n".join(contents):
            self.parts = [analyse(c) for c in contents]
        else:
            self.parts = [analyse(context_text)]
        self._terms: frozenset[str] | None = None
        self._near: dict[str, set[str] | None] = {}

    @property
    def terms(self) -> frozenset[str]:
        if self._terms is None:
            parts = self.parts
            self._terms = parts[0].terms.union(*(p.terms for p in parts[1:]))
        return self._terms

    def _window(self, k: int, first: int, last: int, into: set[str]) -> None:
        """Add the terms from ``NEAR`` tokens before token ``first`` to ``NEAR`` tokens after
        token ``last`` of part ``k`` to ``into``, running on into the neighbouring parts."""
        parts = self.parts
        terms = parts[k].term_list
        into.update(terms[max(0, first - NEAR) : last + NEAR + 1])
        need = NEAR - first  # tokens still wanted before the part
        i = k
        while need > 0 and i > 0:
            i -= 1
            before = parts[i].term_list
            into.update(before[max(0, len(before) - need) :])
            need -= len(before)
        need = last + NEAR + 1 - len(terms)  # tokens still wanted after the part
        i = k
        while need > 0 and i < len(parts) - 1:
            i += 1
            after = parts[i].term_list
            into.update(after[:need])
            need -= len(after)

    def near(self, key: str) -> set[str] | None:
        """The terms within ``NEAR`` tokens of any occurrence of number ``key``, None when
        it does not occur (computed once per key: linear in the context overall)."""
        if key in self._near:
            return self._near[key]
        found: set[str] | None = None
        for k, part in enumerate(self.parts):
            for index in (part.numbers, part.spelled):
                positions = index.get(key)
                if positions is None:
                    continue
                if found is None:
                    found = set()
                # positions ascend: windows that overlap are read as one slice
                first = last = positions[0]
                for p in positions[1:]:
                    if p - last > 2 * NEAR:
                        self._window(k, first, last, found)
                        first = p
                    last = p
                self._window(k, first, last, found)
        self._near[key] = found
        return found

    def supports_number(self, key: str, anchors: set[str]) -> bool:
        """Whether ``key`` occurs with one of ``anchors`` within ``NEAR`` tokens."""
        near = self.near(key)
        return near is not None and (not anchors or not anchors.isdisjoint(near))


def _with_percent_words(text: str) -> str:
    """``text`` with every ``%`` read as the word ``percent``."""
    return text.replace("%", " percent ") if "%" in text else text


def _offsets(sub: str, base: int) -> list[tuple[int, int]]:
    """``[start, end)`` in the answer of each token of ``tokenize(_with_percent_words(sub))``
    (``sub`` starts at ``base``); a ``percent`` read from ``%`` is the ``%`` itself."""
    hay = _with_percent_words(sub)
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


def _about_assistant(sub: str, first: str) -> bool:
    """Whether ``sub``'s first word, as written, is ``first`` (``İstanbul`` lower-cases to
    tokens ``i``, ``stanbul``: it is no ``I``)."""
    word = _FIRST_WORD.search(sub)
    return word is not None and word.group().lower() == first


def _claim_type(words: list[str]) -> str:
    present = set(words)
    if not present.isdisjoint(GENERAL_WORDS):
        return "general"
    if "general" in present or "rule" in present:
        for i in range(len(words) - 1):
            if words[i] == "in" and words[i + 1] == "general":
                return "general"
            if words[i] == "as" and words[i + 1] == "a" and words[i + 2 : i + 3] == ["rule"]:
                return "general"
    if not present.isdisjoint(INFERENCE_WORDS):
        return "inference"
    return "assertion"


def _blank_ignored(text: str) -> str:
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


def _citation_validity(
    citations: list[Citation], chunks: Sequence[Chunk], claim_terms: list[set[str]]
) -> tuple[float, float]:
    """``citation_validity_form`` and ``citation_validity_content``; each retrieved chunk is
    checked against the claims at most once."""
    by_chunk: dict[str, int] = {}
    by_doc: dict[str, list[int]] = {}
    for i, c in enumerate(chunks):
        if c.chunk_id is not None:
            by_chunk.setdefault(c.chunk_id, i)
        if c.document_id is not None:
            by_doc.setdefault(c.document_id, []).append(i)
    backs: dict[int, bool] = {}  # chunk index: contains half the terms of some claim

    def backs_a_claim(i: int) -> bool:
        ok = backs.get(i)
        if ok is None:
            terms = analyse(chunks[i].content).terms
            ok = backs[i] = any(
                len(claim & terms) >= CITATION_CONTENT * len(claim) for claim in claim_terms
            )
        return ok

    n_form = 0
    n_content = 0
    for citation in citations:
        if citation.chunk_id is not None:
            index = by_chunk.get(citation.chunk_id)
            if index is None:
                continue
            doc = chunks[index].document_id
            if citation.document_id is not None and doc is not None and doc != citation.document_id:
                continue
            cited = [index]
        elif citation.document_id is not None and citation.document_id in by_doc:
            cited = by_doc[citation.document_id]
        else:
            continue
        n_form += 1
        if any(backs_a_claim(i) for i in cited):
            n_content += 1
    return n_form / len(citations), n_content / len(citations)


def _label_scores(labels: Labels, answer: TextAnalysis) -> tuple[float | None, int | None]:
    """``expected_claims_recall`` and ``forbidden_claims_found``."""
    answer_terms = answer.terms
    answer_numbers = answer.number_keys()
    recall: float | None = None
    forbidden: int | None = None
    if labels.expected_claims:
        hits = 0
        for claim in labels.expected_claims:
            needle = analyse(claim)
            if needle.hay and needle.phrase in answer.phrase:
                hits += 1
                continue
            numbers = needle.numbers.keys()
            items = len(needle.terms) + len(numbers)
            present = len(needle.terms & answer_terms) + len(numbers & answer_numbers)
            if items and present >= EXPECTED_RECALL * items:
                hits += 1
        recall = hits / len(labels.expected_claims)
    if labels.forbidden_claims:
        forbidden = 0
        for claim in labels.forbidden_claims:
            needle = analyse(claim)
            numbers = needle.numbers.keys()
            if (needle.hay and needle.phrase in answer.phrase) or (
                (needle.terms or numbers)
                and needle.terms <= answer_terms
                and numbers <= answer_numbers
            ):
                forbidden += 1
    return recall, forbidden


def score_grounding(
    response: Response | None,
    chunks: Sequence[Chunk],
    context_text: str,
    labels: Labels | None,
) -> Grounding | None:
    """Spec 003 C for one event; None without a response or with a blank answer."""
    if response is None:
        return None
    text = response.text
    if not text or text.isspace():
        return None

    blanked = _blank_ignored(text)
    ctx = _Context(context_text, chunks)
    claims = 0
    verified = 0
    supported = 0
    unsupported: list[ClaimSpan] = []
    fabrications: list[Span] = []
    claim_terms: list[set[str]] = []
    numbers_left = MAX_NUMBERS
    wants_labels = labels is not None and bool(labels.expected_claims or labels.forbidden_claims)
    answer_words: list[str] | None = [] if wants_labels else None
    boundaries = _BOUNDARY.finditer(blanked)
    start = 0
    for _ in range(MAX_SENTENCES):
        a = start
        m = next(boundaries, None)
        if m is None:
            if a >= len(blanked):
                break
            end, terminator = len(blanked), ""
        else:
            end, terminator = m.end(), blanked[m.start()]
        start = end
        lead = _LEAD.match(blanked, a, end)
        if lead is not None:
            a = lead.end()
        sub = blanked[a:end]
        words = tokenize(_with_percent_words(sub))
        if not words:
            continue
        if answer_words is not None:
            answer_words += words
        offsets: list[tuple[int, int]] | None = None
        term_list = _terms_of(words)

        fabricated_here = False
        if numbers_left > 0 and _ASCII_DIGIT.search(sub) is not None:
            for p, t in enumerate(words):
                if t[0] not in _DIGITS:
                    continue
                parts = _digit_parts(t)
                if not parts:
                    continue
                if len(parts) > numbers_left:
                    parts = parts[:numbers_left]
                    if not parts:
                        break
                numbers_left -= len(parts)
                last = len(parts) - 1
                percent = parts[last][2] == len(t) and _percent_after(words, p)
                anchors = set(term_list[max(0, p - NEAR) : p + NEAR + 1])
                anchors.discard("")
                anchors -= _PERCENT_WORDS
                for j, (key, s, e) in enumerate(parts):
                    if not ctx.supports_number(
                        key + "%" if percent and j == last else key, anchors
                    ):
                        fabricated_here = True
                        if offsets is None:
                            offsets = _offsets(sub, a)
                        tok_start = offsets[p][0]
                        fabrications.append(construct(Span, start=tok_start + s, end=tok_start + e))

        if terminator == "?" or (words[0] in _ABOUT_ASSISTANT and _about_assistant(sub, words[0])):
            continue
        terms = set(term_list)
        terms.discard("")
        terms -= _NOT_CLAIM_TERMS
        if len(terms) < MIN_CLAIM_TERMS:
            continue
        claims += 1
        claim_terms.append(terms)
        kind = _claim_type(words)
        if kind == "general":
            continue
        verified += 1
        found = len(terms & ctx.terms)
        if kind == "assertion":
            ok = found >= ASSERTION_SUPPORT * len(terms) and not fabricated_here
        else:
            ok = found >= INFERENCE_SUPPORT * len(terms)
        if ok:
            supported += 1
        else:
            if offsets is None:
                offsets = _offsets(sub, a)
            unsupported.append(
                construct(ClaimSpan, start=offsets[0][0], end=offsets[-1][1], type=kind)
            )

    form: float | None = None
    content: float | None = None
    if response.citations:
        form, content = _citation_validity(response.citations, chunks, claim_terms)

    recall: float | None = None
    forbidden: int | None = None
    if labels is not None and answer_words is not None:
        recall, forbidden = _label_scores(labels, TextAnalysis.of_hay(answer_words))

    return construct(
        Grounding,
        claims=claims,
        claim_support_rate=supported / verified if verified else None,
        unsupported_claims=unsupported,
        numeric_fabrications=fabrications,
        citation_validity_form=form,
        citation_validity_content=content,
        expected_claims_recall=recall,
        forbidden_claims_found=forbidden,
    )
