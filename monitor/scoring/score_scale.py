"""Chunk score scales: what a retriever's ``score`` and a reranker's ``rerank_score`` mean,
how each scale is normalised into [0, 1] before spec 000's composite, and the warning
when scores look like they are on a scale nobody declared.

Spec 000's composite reads the chunks' scores as similarities in [0, 1], in descending
rank order (``retrieval_confidence`` = 0.7 mean + 0.3 last / first; ``estimated_
faithfulness`` uses 1.5 × the top ``score``). BM25 scores (``13.2``) or reranker logits
(``-3.1``) give an ``overall`` of 3.74 or below 0 there. An event declares its scales in
``score_scale`` (of ``score``) and ``rerank_score_scale`` (of ``rerank_score``); the
settings ``MONITOR_SCORE_SCALE`` / ``MONITOR_RERANK_SCORE_SCALE`` give them for events
that do not (the event wins). The mapping into [0, 1], per scale:

- ``probability``: as given (clamped into [0, 1]; a probability outside it is an error of
  the producer);
- ``cosine``: as given, negative similarities as 0 (``max(0, min(1, s))``): spec 000 was
  written for cosine similarities, so a cosine in [0, 1] is unchanged;
- ``bm25``: ``s / (s + 10)`` for ``s > 0``, else 0: BM25 is unbounded with no fixed
  scale; 10, a typical score of a good match of a short query, maps to 0.5, and the
  order of the chunks is kept;
- ``logit``: the logistic ``1 / (1 + exp(-s))`` (a cross-encoder's raw output);
- ``unknown``: clamped into [0, 1] (and the warning below still says when a score was
  outside it: nothing better can be done with a scale nobody knows).

``quality`` is then spec 000's composite, unchanged, on the normalised chunks; when the
normalisation changed any score, ``ScoredEvent.score_scale.raw_overall`` keeps the
composite of the scores as given.

**Warning** (``ScoredEvent.warning``): without a declared scale for a score that spec 000
reads (``rerank_score`` when present, else ``score``; and the top chunk's ``score``), a
value outside [0, 1]; with ``unknown``, the same (the values were clamped); with or
without a declaration, scores (``rerank_score ?? score``) that do not descend in rank
order (chunks reordered by a reranker whose scores the event does not carry: spec 000's
last / first exceeds 1).

>>> normalise_score(13.2, "bm25"), round(normalise_score(-3.1, "logit"), 4)
(0.5689655172413793, 0.0431)
>>> normalise_score(0.82, "cosine"), normalise_score(-0.2, "cosine")
(0.82, 0.0)
>>> from monitor.events import Chunk
>>> bm25 = [Chunk(content="a", score=13.2), Chunk(content="b", score=7.5)]
>>> [round(c.score, 4) for c in normalised_chunks(bm25, ScoreScales(score="bm25"))]
[0.569, 0.4286]
>>> normalised_chunks(bm25, ScoreScales()) is bm25
True
>>> scale_warning(bm25, ScoreScales())[:60]
'chunk scores outside [0, 1] (13.2) and no scale declared: qu'
>>> reordered = [Chunk(content="a", score=0.4), Chunk(content="b", score=0.8)]
>>> scale_warning(reordered, ScoreScales(score="cosine"))[:48]
'chunk scores not descending in rank order (0.4 <'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import get_args

from monitor.events.rag_event import Chunk, RagEvent, ScoreScale

__all__ = [
    "BM25_HALF",
    "SCORE_SCALES",
    "UNDECLARED",
    "ScoreScales",
    "normalise_score",
    "normalised_chunks",
    "resolve_scales",
    "scale_warning",
]

SCORE_SCALES: tuple[str, ...] = get_args(ScoreScale)
BM25_HALF = 10.0
"""The BM25 score mapped to 0.5."""

_SLACK = 1e-12


@dataclass(frozen=True, slots=True)
class ScoreScales:
    """The scale of the chunks' ``score`` and of their ``rerank_score`` (``None``: not
    declared)."""

    score: ScoreScale | None = None
    rerank: ScoreScale | None = None


UNDECLARED = ScoreScales()
"""No scale declared or set: the scores are read as given."""


def resolve_scales(event: RagEvent, defaults: ScoreScales) -> ScoreScales:
    """The event's declarations, each falling back to the setting's."""
    return ScoreScales(
        score=event.score_scale if event.score_scale is not None else defaults.score,
        rerank=(
            event.rerank_score_scale if event.rerank_score_scale is not None else defaults.rerank
        ),
    )


def normalise_score(value: float, scale: ScoreScale) -> float:
    """``value`` on ``scale`` mapped into [0, 1] (see the module docstring)."""
    if scale == "bm25":
        return value / (value + BM25_HALF) if value > 0.0 else 0.0
    if scale == "logit":
        if value >= 0.0:
            return 1.0 / (1.0 + math.exp(-value))
        e = math.exp(value)  # no overflow for very negative logits
        return e / (1.0 + e)
    return min(1.0, max(0.0, value))  # probability, cosine, unknown


def normalised_chunks(chunks: Sequence[Chunk], scales: ScoreScales) -> Sequence[Chunk]:
    """``chunks`` with their scores normalised by ``scales``; ``chunks`` itself when no
    score changes (no scale declared, or every value already on [0, 1] unchanged)."""
    if scales.score is None and scales.rerank is None:
        return chunks
    out: list[Chunk] = []
    changed = False
    for chunk in chunks:
        update: dict[str, float] = {}
        if scales.score is not None:
            score = normalise_score(chunk.score, scales.score)
            if score != chunk.score:
                update["score"] = score
        if scales.rerank is not None and chunk.rerank_score is not None:
            rerank = normalise_score(chunk.rerank_score, scales.rerank)
            if rerank != chunk.rerank_score:
                update["rerank_score"] = rerank
        if update:
            changed = True
            out.append(chunk.model_copy(update=update))
        else:
            out.append(chunk)
    return out if changed else chunks


def scale_warning(chunks: Sequence[Chunk], scales: ScoreScales) -> str | None:
    """The warning for ``chunks`` read with ``scales`` (``None``: nothing to say)."""
    if not chunks:
        return None
    outside: list[float] = []
    used: list[float] = []
    for i, chunk in enumerate(chunks):
        if chunk.rerank_score is not None:
            value, scale = chunk.rerank_score, scales.rerank
        else:
            value, scale = chunk.score, scales.score
        used.append(value)
        if scale in (None, "unknown") and not 0.0 <= value <= 1.0:
            outside.append(value)
        if (  # estimated_faithfulness reads the top chunk's score
            i == 0
            and chunk.rerank_score is not None
            and scales.score in (None, "unknown")
            and not 0.0 <= chunk.score <= 1.0
        ):
            outside.append(chunk.score)
    problems = []
    if outside:
        worst = max(outside, key=lambda v: abs(v - 0.5))
        if scales.score == "unknown" or scales.rerank == "unknown":
            what = "on the unknown scale were clamped into [0, 1]; declare the scale"
        else:
            what = "and no scale declared: quality is spec 000's composite of the raw scores"
        problems.append(
            f"chunk scores outside [0, 1] ({worst:g}) {what} (score_scale / rerank_score_scale: "
            f"{', '.join(s for s in SCORE_SCALES if s != 'unknown')})"
        )
    for i in range(1, len(used)):
        if used[i] > used[i - 1] + _SLACK * max(1.0, abs(used[i - 1])):
            problems.append(
                f"chunk scores not descending in rank order ({used[i - 1]:g} < {used[i]:g} "
                f"at rank {i + 1}): spec 000's retrieval confidence assumes they do"
            )
            break
    return "; ".join(problems) if problems else None
