"""Every scorer family and the ``ScoredEvent`` fields it fills: the one registry that the
pipeline, the contract test and the benchmark share.

| family | fields | source |
|---|---|---|
| ``composite`` | ``quality``, ``crag``, ``score_scale``, ``warning`` (chunk scores normalised by their declared scale first) | spec 000 |
| ``context_quality`` | ``context_quality`` | 003 B |
| ``grounding`` | ``grounding`` (null without a response) | 003 C |
| ``safety`` | ``safety`` (injection on the query, indirect injection in the chunks, leakage in the response) | 003 E |
| ``outcome`` | ``outcome``, ``abstained`` | 003 F, 004 |
| ``retrieval`` | ``retrieval`` (null without labels) | 002, 003 A, 004 |
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from monitor.events.construct import construct
from monitor.events.rag_event import Context, RagEvent
from monitor.events.scored_event import Safety, ScoreScaleInfo
from monitor.scoring.abstention import abstained
from monitor.scoring.chunk_cache import chunk_cache
from monitor.scoring.composite import score_quality
from monitor.scoring.context_quality import score_context_quality
from monitor.scoring.crag import classify
from monitor.scoring.grounding import score_grounding
from monitor.scoring.injection import score_indirect, score_injection
from monitor.scoring.leakage import score_leakage
from monitor.scoring.outcome import outcome
from monitor.scoring.retrieval import score_retrieval
from monitor.scoring.score_scale import (
    UNDECLARED,
    ScoreScales,
    normalised_chunks,
    resolve_scales,
    scale_warning,
)
from monitor.scoring.tokens import word_count

__all__ = ["FAMILIES", "Family", "ScoringInput"]


@dataclass(frozen=True, slots=True)
class ScoringInput:
    """One event with its effective context (computed once for every family).

    ``include_query_text``: CRAG's action also carries its queries as text (the worker's
    ``scores_include_query_text``); by default only offsets into the query.
    ``score_scales``: the chunk score scales of events that declare none (the settings'
    ``score_scale`` and ``rerank_score_scale``).
    """

    event: RagEvent
    context: Context
    include_query_text: bool = False
    score_scales: ScoreScales = UNDECLARED

    @classmethod
    def of(
        cls,
        event: RagEvent,
        *,
        include_query_text: bool = False,
        score_scales: ScoreScales = UNDECLARED,
    ) -> ScoringInput:
        if event.context is not None or not event.chunks:
            return cls(event, event.effective_context(), include_query_text, score_scales)
        # RagEvent.effective_context(), with each chunk's word count from the chunk cache
        # (the chunks are joined by blank lines, so the counts add up)
        text = "\n\n".join([c.content for c in event.chunks])
        words = sum([_word_count(c.content) for c in event.chunks])
        return cls(event, Context(text=text, token_count=words), include_query_text, score_scales)


def _word_count(text: str) -> int:
    entry = chunk_cache().entry(text)
    if entry is None:
        return word_count(text)
    if entry.words < 0:
        entry.words = word_count(text)
    return entry.words


Family = Callable[[ScoringInput], dict[str, Any]]


def composite(inp: ScoringInput) -> dict[str, Any]:
    e = inp.event
    tokens = inp.context.token_count or 0
    scales = resolve_scales(e, inp.score_scales)
    chunks = normalised_chunks(e.chunks, scales)
    joined = e.context is None  # the context is the chunks' contents (ScoringInput.of)
    quality = score_quality(
        e.query.text, chunks, inp.context.text, tokens, context_from_chunks=joined
    )
    crag = classify(quality.overall, e.query.text, include_text=inp.include_query_text)
    info = None
    if scales.score is not None or scales.rerank is not None:
        raw = (
            score_quality(
                e.query.text, e.chunks, inp.context.text, tokens, context_from_chunks=joined
            ).overall
            if chunks is not e.chunks
            else None
        )
        info = construct(
            ScoreScaleInfo, score=scales.score, rerank_score=scales.rerank, raw_overall=raw
        )
    warning = scale_warning(e.chunks, scales)
    return {"quality": quality, "crag": crag, "score_scale": info, "warning": warning}


def context_quality(inp: ScoringInput) -> dict[str, Any]:
    return {"context_quality": score_context_quality(inp.event.chunks, inp.event.labels)}


def grounding(inp: ScoringInput) -> dict[str, Any]:
    e = inp.event
    return {"grounding": score_grounding(e.response, e.chunks, inp.context.text, e.labels)}


def safety(inp: ScoringInput) -> dict[str, Any]:
    e = inp.event
    leakage = (
        score_leakage(e.response.text, e.chunks, inp.context.text)
        if e.response is not None
        else None
    )
    section = construct(
        Safety,
        injection=score_injection(e.query.text),
        indirect_injection=score_indirect(e.chunks),
        leakage=leakage,
    )
    return {"safety": section}


def outcome_family(inp: ScoringInput) -> dict[str, Any]:
    e = inp.event
    return {"outcome": outcome(e.chunks, e.response), "abstained": abstained(e.response)}


def retrieval(inp: ScoringInput) -> dict[str, Any]:
    e = inp.event
    return {"retrieval": score_retrieval(e.chunks, e.response, e.labels)}


FAMILIES: dict[str, Family] = {
    "composite": composite,
    "context_quality": context_quality,
    "grounding": grounding,
    "safety": safety,
    "outcome": outcome_family,
    "retrieval": retrieval,
}
