"""Spec 000's composite ``ContextQualityScore``, ported exactly.

``overall = 0.3 * retrieval_confidence + 0.3 * context_sufficiency
+ 0.15 * diversity_score + 0.25 * estimated_faithfulness``, each sub-score computed as
spec 000's ``CompositeQualityScorer`` does, including its JavaScript tokenisation (see
:mod:`monitor.scoring.jstext`). Sub-scores lie in [0, 1] whenever the chunks' scores do;
scores outside [0, 1] (reranker logits) are used as given, as spec 000 does.

- ``retrieval_confidence``: 0 without chunks; else ``0.7 * mean(s) + 0.3 * s_last / s_first``
  (0 when ``s_first <= 0``) with ``s = rerank_score ?? score`` in rank order.
- ``context_sufficiency``: 0 for an empty context text; 0.5 when the query has no term
  (whitespace split, lower case, longer than 2 characters, not a stop word); else
  ``0.6 * covered / terms + 0.4 * min(token_count / (terms * 50), 1)``, where a term is
  covered when it is a substring of the lower-cased context.
- ``diversity_score``: 0 for at most one chunk; else
  ``0.6 * distinct(document_id) / n + 0.4 * distinct(section_title ?? document_id) / n``.
- ``estimated_faithfulness``: 0 without chunks; else
  ``0.4 * min((numbers + 2 * dates + proper_nouns) / (words / 100) * 0.1, 1)
  + 0.6 * min(1.5 * chunks[0].score, 1)`` over the chunks' contents joined by spaces.

Warnings: overall < 0.3, then < 0.5, then diversity < 0.2 (spec 000's texts).

>>> from monitor.events import Chunk
>>> chunks = [Chunk(document_id="hr", content="Employees get 15 days.", score=0.8),
...           Chunk(document_id="it", content="Laptops renew every 3 years.", score=0.6)]
>>> q = score_quality("how many vacation days do employees get?", chunks,
...                   "Employees get 15 days.\\n\\nLaptops renew every 3 years.", 9)
>>> round(q.overall, 5), q.warning
(0.69082, None)

By hand: retrieval 0.7 * 0.7 + 0.3 * 0.6 / 0.8 = 0.715; terms ``many vacation days
employees get?`` of which 2 are covered, density 9 / 250, so sufficiency
0.6 * 0.4 + 0.4 * 0.036 = 0.2544; diversity 1; faithfulness 1 (4 factual indicators in
9 words, top score 0.8); overall 0.3 * 0.715 + 0.3 * 0.2544 + 0.15 + 0.25 = 0.69082.

Edge cases: no chunks, one chunk, an empty context, a zero top score.

>>> score_quality("vacation policy", [], "", 0).overall
0.0
>>> score_quality("vacation policy", [], "", 0).warning[:26]
'Very low retrieval confide'
>>> one = score_quality("vacation policy", chunks[:1], "Employees get 15 days.", 4)
>>> one.diversity_score, round(one.overall, 4)
(0, 0.5128)
>>> score_quality("vacation", chunks, "", 0).context_sufficiency
0
>>> zero = [Chunk(document_id="a", content="x", score=0.0), Chunk(document_id="b", score=0.5)]
>>> score_quality("vacation", zero, "x", 1).retrieval_confidence
0.175
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

from monitor.events.construct import construct
from monitor.events.rag_event import Chunk
from monitor.events.scored_event import QualityScore
from monitor.scoring.chunk_cache import cached_part
from monitor.scoring.factual import ClassMarks, cached_ascii_proxy, count_dates, joined_counts
from monitor.scoring.jstext import js_length, js_split_ws

__all__ = [
    "STOP_WORDS",
    "WARNING_LOW_DIVERSITY",
    "WARNING_MODERATE",
    "WARNING_VERY_LOW",
    "WEIGHTS",
    "cached_lower",
    "context_sufficiency",
    "diversity_score",
    "estimated_faithfulness",
    "query_terms",
    "retrieval_confidence",
    "score_quality",
]

#: retrieval_confidence, context_sufficiency, diversity_score, estimated_faithfulness
WEIGHTS = (0.3, 0.3, 0.15, 0.25)

WARNING_VERY_LOW = (
    "Very low retrieval confidence. Consider rephrasing your query or adding more documents."
)
WARNING_MODERATE = "Moderate retrieval confidence. Results may be incomplete."
WARNING_LOW_DIVERSITY = (
    "Low source diversity. Results are heavily concentrated in a single document."
)

STOP_WORDS = frozenset(
    [
        "the",
        "is",
        "at",
        "which",
        "on",
        "a",
        "an",
        "and",
        "or",
        "but",
        "in",
        "with",
        "to",
        "for",
        "of",
        "not",
        "no",
        "can",
        "had",
        "has",
        "have",
        "it",
        "that",
        "this",
        "was",
        "are",
        "be",
        "been",
        "from",
        "do",
        "does",
        "did",
        "will",
        "would",
        "could",
        "should",
        "may",
        "what",
        "how",
        "when",
        "where",
        "who",
        "why",
    ]
)


def _js_set_key(value: Any) -> Hashable:
    """A key under which Python's ``set`` counts values as JavaScript's ``Set`` does."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, dict | list):
        return ("object", id(value))
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)  # SameValueZero: NaN equals NaN
    return value  # type: ignore[no-any-return]


def query_terms(query: str) -> list[str]:
    """Spec 000's ``extractQueryTerms``.

    >>> query_terms("What is the PTO policy for new hires?")
    ['pto', 'policy', 'new', 'hires?']
    """
    return [
        t
        for t in js_split_ws(query.lower())
        if (len(t) > 2 or js_length(t) > 2) and t not in STOP_WORDS
    ]


def _sum(values: Sequence[float]) -> float:
    total = 0.0
    for v in values:  # left to right, like Array.reduce (no compensated summation)
        total += v
    return total


def retrieval_confidence(chunks: Sequence[Chunk]) -> float:
    if not chunks:
        return 0
    scores = [c.rerank_score if c.rerank_score is not None else c.score for c in chunks]
    avg = _sum(scores) / len(scores)
    top, bottom = scores[0], scores[-1]
    spread = bottom / top if top > 0 else 0
    return avg * 0.7 + spread * 0.3


def cached_lower(text: str) -> str:
    """``text.lower()``, kept in the process's chunk cache (ASCII text is lowered faster
    than it is looked up)."""
    if text.isascii():
        return text.lower()
    return cached_part(text, "lower", str.lower)


def _lower_context(context_text: str, chunks: Sequence[Chunk] | None) -> str:
    """``context_text.lower()``; when ``chunks`` are given, ``context_text`` is their
    contents joined by blank lines, lower-cased chunk by chunk: the same text, since
    ``str.lower`` maps each character alone except a capital sigma, whose final form
    looks past case-ignorable neighbours only, and a line break is neither cased nor
    case-ignorable (it ends the sigma's context as the text's end does)."""
    if chunks is None:
        return context_text.lower()
    return "\n\n".join([cached_lower(c.content) for c in chunks])


def context_sufficiency(
    query: str, context_text: str, token_count: int, chunks: Sequence[Chunk] | None = None
) -> float:
    """``chunks``: the chunks whose contents joined by blank lines are ``context_text``
    (an event's effective context when it sends none): lowered through the chunk cache.

    >>> from monitor.events import Chunk
    >>> chunks = [Chunk(content="Policy ΟΔΟΣ"), Chunk(content="Σ rules")]
    >>> text = "\\n\\n".join(c.content for c in chunks)
    >>> context_sufficiency("οδος rules", text, 20, chunks) == context_sufficiency(
    ...     "οδος rules", text, 20)
    True
    """
    if not context_text:
        return 0
    terms = query_terms(query)
    if not terms:
        return 0.5
    lower = _lower_context(context_text, chunks)
    covered = sum(1 for t in terms if t in lower)
    coverage = covered / len(terms)
    density = min(token_count / (len(terms) * 50), 1)
    return coverage * 0.6 + density * 0.4


def diversity_score(chunks: Sequence[Chunk]) -> float:
    if len(chunks) <= 1:
        return 0
    ids = [c.document_id for c in chunks]
    titles = [c.metadata.get("section_title") for c in chunks]
    sections = [d if t is None else t for t, d in zip(titles, ids, strict=True)]
    n = len(chunks)
    return _js_set_size(ids) / n * 0.6 + _js_set_size(sections) / n * 0.4


def _js_set_size(values: list[Any]) -> int:
    """``new Set(values).size``."""
    if all(type(v) is str for v in values):  # strings are their own keys
        return len(set(values))
    return len({_js_set_key(v) for v in values})


def estimated_faithfulness(chunks: Sequence[Chunk]) -> float:
    if not chunks:
        return 0
    texts = [c.content for c in chunks]
    counts = joined_counts(texts)
    if counts is None:
        content = " ".join(texts)
        marks = ClassMarks(content, b" ".join(list(map(cached_ascii_proxy, texts))))
        joined_numbers, joined_words, joined_nouns = marks.counts()
        counts = (joined_numbers, count_dates(content, marks.marks), joined_nouns, joined_words)
    numbers, dates, proper_nouns, words = counts
    density = min(((numbers + dates * 2 + proper_nouns) / (words / 100)) * 0.1, 1)
    confidence = min(chunks[0].score * 1.5, 1)
    return density * 0.4 + confidence * 0.6


def score_quality(
    query: str,
    chunks: Sequence[Chunk],
    context_text: str,
    token_count: int,
    *,
    context_from_chunks: bool = False,
) -> QualityScore:
    """The composite score of spec 000 for one retrieval (``context_from_chunks``:
    ``context_text`` is the chunks' contents joined by blank lines)."""
    rc = retrieval_confidence(chunks)
    cs = context_sufficiency(
        query, context_text, token_count, chunks if context_from_chunks else None
    )
    ds = diversity_score(chunks)
    ef = estimated_faithfulness(chunks)
    overall = rc * WEIGHTS[0] + cs * WEIGHTS[1] + ds * WEIGHTS[2] + ef * WEIGHTS[3]
    warning: str | None = None
    if overall < 0.3:
        warning = WARNING_VERY_LOW
    elif overall < 0.5:
        warning = WARNING_MODERATE
    elif ds < 0.2:
        warning = WARNING_LOW_DIVERSITY
    return construct(
        QualityScore,
        overall=overall,
        retrieval_confidence=rc,
        context_sufficiency=cs,
        diversity_score=ds,
        estimated_faithfulness=ef,
        warning=warning,
    )
