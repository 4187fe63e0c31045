"""Spec 003 B context quality of the retrieved chunks: redundancy (n-gram and TF-IDF),
unique token ratio, fact dispersion.

Tokens are :func:`monitor.scoring.tokens.tokenize`'s (lower-cased words, stop words
included); content terms are :func:`monitor.scoring.tokens.content_terms`'.

- ``redundancy_ngram``: the mean, over every pair ``(a, b)`` of compared chunks, of 003's
  ``|G(a) ∩ G(b)| / min(|G(a)|, |G(b)|)``, where ``G(x)`` is the set of word trigrams
  (three consecutive tokens) of chunk ``x``'s content; a pair where either chunk has no
  trigram counts 0; 0.0 with fewer than two compared chunks.
- ``redundancy_tfidf``: the mean over the same pairs of ``cosine(v(a), v(b))``, with
  ``v(x)[t] = tf(t, x) * idf(t)``, ``tf`` the raw count of content term ``t`` in ``x``,
  ``idf(t) = ln((1 + n) / (1 + df(t))) + 1`` (scikit-learn's smoothed idf, no sublinear tf,
  no normalisation before the cosine, which is scale-free anyway), ``n`` the number of
  compared chunks and ``df(t)`` how many of them contain ``t``; a pair where either vector
  is empty counts 0; 0.0 with fewer than two compared chunks.
- Compared chunks: the first ``MAX_COMPARED`` = 20 in rank order. Pairwise comparison is
  quadratic in the chunk count (20 chunks are 190 pairs); the top of the ranking is what a
  generator reads first, so that is where redundancy wastes its context.
- ``unique_token_ratio``: distinct tokens / tokens over all chunks' contents (every chunk,
  linear); 0.0 when there is no token (no context is not a diverse context).
- ``fact_dispersion`` (``labels.gold_facts``; None without labels or gold facts): for each
  gold fact, how many chunks contain the fact or one of its aliases; the mean of these
  counts over the facts found in at least one chunk; None when no fact is found. A chunk
  contains a wording when the wording's token sequence occurs in the chunk's (so case,
  punctuation and spacing do not matter and words match whole; ``%`` reads as
  ``percent``), or when every content term and every number of the wording is in the
  chunk (numbers normalised as in :mod:`monitor.scoring.grounding`: ``1,000`` = ``1000``,
  and ``fifteen`` in a chunk is 15). Numbers count so that ``15 days vacation`` is not
  found in a chunk about 10 days of vacation. All chunks are searched, not only the
  compared ones.

Why the mean over pairs: 003 defines the overlap of a pair of chunks and sets one target
(< 0.2) per case. The mean is the expected overlap of two chunks drawn at random: in
[0, 1], comparable between events with different numbers of chunks, and 1.0 exactly when
all chunks repeat each other. The maximum would call a whole context redundant for one
duplicated pair (and a boilerplate header repeated across chunks saturates it); the
section has one field per method, so the mean is the one reported, and a single duplicate
pair still shows as 1 / pairs of it.

The chunks' analyses (tokens, trigrams, term counts) are kept in the chunk cache and shared
with :mod:`monitor.scoring.grounding` (see :func:`monitor.scoring.grounding.analyse`).

Where the compiled parts are built (``setup.py``), the pairs are compared all at once, not
one by one: every chunk's trigrams go into one table of the event's trigrams, kept as
compact sorted records (:func:`monitor.scoring.tokens.trigram_keys`, 2.3 bytes per
character against 17 for the set of strings), and every chunk's content terms into one
table of the event's terms, from which the TF-IDF norms and cosines are summed in C
(``_tfidf.c``); the values are identical to the last bit.

>>> from monitor.events.rag_event import Chunk, GoldFact, Labels
>>> chunks = [Chunk(content="Employees get 15 days of paid vacation."),
...           Chunk(content="Employees get 15 days of paid vacation each year."),
...           Chunk(content="Laptops are replaced every three years.")]
>>> labels = Labels(gold_facts=[GoldFact(fact="15 days vacation", aliases=["fifteen days"])])
>>> q = score_context_quality(chunks, labels)
>>> round(q.redundancy_ngram, 4), round(q.unique_token_ratio, 4), q.fact_dispersion
(0.3333, 0.6818, 2.0)

By hand: chunks 1 and 2 share all 5 trigrams of chunk 1 (overlap 5 / min(5, 7) = 1), the
other two pairs share none: (1 + 0 + 0) / 3. Tokens: 7 + 9 + 6 = 22, distinct 7 + 2 (each,
year) + 6 (chunk 3's, ``years`` is not ``year``) = 15; 15 / 22 = 0.6818. The fact's phrase
is in no chunk, but its terms day, vacation and its number 15 are in chunks 1 and 2;
the alias adds none: dispersion 2 for the one fact found.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import chain
from operator import mul

from monitor.events.construct import construct
from monitor.events.rag_event import Chunk, Labels
from monitor.events.scored_event import ContextQuality
from monitor.scoring.grounding import TextAnalysis, analyse
from monitor.scoring.tokens import GRAM_BYTES, distinct_tokens, shared_trigrams

try:  # the TF-IDF redundancy's loops in C (setup.py; the results of _tfidf_total)
    from monitor.scoring import _tfidf as _TFIDF
except ImportError:  # pragma: no cover - built wherever the tests run
    _TFIDF = None  # type: ignore[assignment]

__all__ = [
    "MAX_COMPARED",
    "fact_dispersion",
    "ngram_overlap",
    "redundancy_ngram",
    "redundancy_tfidf",
    "score_context_quality",
    "unique_token_ratio",
]

MAX_COMPARED = 20

Trigrams = frozenset[str] | set[str]


def _idf_row(n: int) -> list[float]:
    """``row[df]`` = ln((1 + n) / (1 + df)) + 1, scikit-learn's smoothed idf."""
    return [math.log((1 + n) / (1 + df)) + 1.0 for df in range(n + 1)]


_IDF = [_idf_row(n) for n in range(MAX_COMPARED + 1)]
_IDF2 = [[w**2 for w in row] for row in _IDF]


def ngram_overlap(a: Trigrams, b: Trigrams) -> float:
    """003's pair overlap ``|a ∩ b| / min(|a|, |b|)``; 0.0 when either set is empty.

    >>> g = {"a b c", "b c d"}
    >>> h = {"b c d", "c d e", "d e f"}
    >>> ngram_overlap(g, h), ngram_overlap(g, set())
    (0.5, 0.0)
    """
    if not a or not b:
        return 0.0
    if len(a) > len(b):
        a, b = b, a
    return len(a & b) / len(a)


def _pairs(n: int) -> int:
    return n * (n - 1) // 2


def _overlaps(analyses: Sequence[TextAnalysis]) -> Iterator[float]:
    """Each pair's ``ngram_overlap``, pairs ``(i, j)``, ``i < j``, in order: from the
    trigram records where the kernel makes them (the same counts, so the same ratios), all
    pairs counted in one pass (:func:`..tokens.shared_trigrams`)."""
    n = len(analyses)
    keys = [a.trigram_keys for a in analyses]
    if None in keys:
        for i in range(n - 1):
            for j in range(i + 1, n):
                yield ngram_overlap(analyses[i].trigrams, analyses[j].trigrams)
        return
    sizes = [len(k) // GRAM_BYTES for k in keys]  # type: ignore[arg-type]
    common = iter(shared_trigrams(keys, [a.tokens for a in analyses]))  # type: ignore[arg-type]
    for i in range(n - 1):
        for j in range(i + 1, n):
            shared = next(common)
            yield shared / min(sizes[i], sizes[j]) if sizes[i] and sizes[j] else 0.0


def _redundancy_ngram(analyses: Sequence[TextAnalysis]) -> float:
    n = len(analyses)
    if n < 2:
        return 0.0
    total = 0.0
    for overlap in _overlaps(analyses):
        total += overlap
    return total / _pairs(n)


def _redundancy_tfidf(analyses: Sequence[TextAnalysis]) -> float:
    # cos(a, b) = sum_t tf_a tf_b idf_t^2 / (|a| |b|). Terms in a single chunk (df = 1) all
    # share idf = row[1], so |a|^2 = row[1]^2 * sum_t tf_a^2 + sum over a's terms with df > 1
    # of tf_a^2 (idf_t^2 - row[1]^2): only terms shared by two chunks are visited one by one.
    # In C (_tfidf.redundancy), every pair at once, or in _tfidf_total.
    n = len(analyses)
    if n < 2:
        return 0.0
    row = _IDF[n] if n <= MAX_COMPARED else _idf_row(n)
    idf2_by_df = _IDF2[n] if n <= MAX_COMPARED else [w**2 for w in row]
    counts = [a.content_counts for a in analyses]
    single = row[1] * row[1]
    total = None if _TFIDF is None else _TFIDF.redundancy(counts, idf2_by_df, single)
    if total is None:  # no kernel, or a value that is not finite: the loops it stands for
        total = _tfidf_total(counts, idf2_by_df, single)
    return total / _pairs(n)


def _tfidf_total(counts: list[dict[str, int]], idf2_by_df: list[float], single: float) -> float:
    """The pairs' cosines added up in order, pairs that share no term left out
    (``_tfidf.redundancy`` in Python)."""
    df = Counter(chain.from_iterable(counts))
    idf2 = {term: idf2_by_df[d] for term, d in df.items() if d > 1}
    norms = [_norm(c, idf2, single) for c in counts]
    total = 0.0
    for i in range(len(counts) - 1):
        a = counts[i]
        for j in range(i + 1, len(counts)):
            b = counts[j]
            shared = a.keys() & b.keys()
            if shared:
                # fsum is exactly rounded, so the set's iteration order (which follows the
                # string hash seed of the process) cannot change the last digit
                dot = math.fsum([a[t] * b[t] * idf2[t] for t in shared])
                # min(): round-off can lift the cosine of identical vectors a hair above 1
                total += min(1.0, dot / (norms[i] * norms[j]))
    return total


def _norm(counts: dict[str, int], idf2: dict[str, float], single: float) -> float:
    """A chunk's norm from the terms it shares with others."""
    square_sum = sum(map(mul, counts.values(), counts.values()))
    shared = counts.keys() & idf2.keys()
    extra = math.fsum([counts[t] * counts[t] * (idf2[t] - single) for t in shared])
    return math.sqrt(single * square_sum + extra)


def _unique_token_ratio(analyses: Sequence[TextAnalysis]) -> float:
    total = sum(len(a.tokens) for a in analyses)
    if not total:
        return 0.0
    return distinct_tokens([a.tokens for a in analyses]) / total


def _fact_dispersion(analyses: Sequence[TextAnalysis], labels: Labels | None) -> float | None:
    if labels is None or not labels.gold_facts:
        return None
    counts: list[int] = []
    for fact in labels.gold_facts:
        needles = [n for n in map(analyse, (fact.fact, *fact.aliases)) if n.hay]
        found = 0
        for chunk in analyses:
            for needle in needles:
                if needle.phrase in chunk.phrase or (
                    (needle.terms or needle.numbers)
                    and needle.terms <= chunk.terms
                    and all(k in chunk.numbers or k in chunk.spelled for k in needle.numbers)
                ):
                    found += 1
                    break
        if found:
            counts.append(found)
    return sum(counts) / len(counts) if counts else None


def redundancy_ngram(texts: Sequence[str]) -> float:
    """Mean pair overlap of the texts' word trigram sets (all pairs, no cap).

    >>> redundancy_ngram(["a b c d", "b c d e f"]), redundancy_ngram(["a b c d"])
    (0.5, 0.0)
    """
    return _redundancy_ngram([analyse(t) for t in texts])


def redundancy_tfidf(texts: Sequence[str]) -> float:
    """Mean pair cosine of the texts' smoothed TF-IDF vectors of content terms.

    >>> round(redundancy_tfidf(["vacation days accrue", "vacation policy"]), 6)
    0.260556
    """
    return _redundancy_tfidf([analyse(t) for t in texts])


def unique_token_ratio(texts: Sequence[str]) -> float:
    """Distinct tokens / tokens over all texts; 0.0 without tokens.

    >>> unique_token_ratio(["a b", "a"]), unique_token_ratio([""])
    (0.6666666666666666, 0.0)
    """
    return _unique_token_ratio([analyse(t) for t in texts])


def fact_dispersion(texts: Sequence[str], labels: Labels | None) -> float | None:
    """Mean number of texts containing a gold fact or an alias, over the facts found."""
    return _fact_dispersion([analyse(t) for t in texts], labels)


def score_context_quality(chunks: Sequence[Chunk], labels: Labels | None) -> ContextQuality:
    """Spec 003 B for one event's chunks (see the module docstring)."""
    analyses = [analyse(c.content) for c in chunks]
    compared = analyses[:MAX_COMPARED]
    return construct(
        ContextQuality,
        redundancy_ngram=_redundancy_ngram(compared),
        redundancy_tfidf=_redundancy_tfidf(compared),
        unique_token_ratio=_unique_token_ratio(analyses),
        fact_dispersion=_fact_dispersion(analyses, labels),
    )
