"""The metric ids: one snake_case name per windowed quantity, the same in code, JSON,
Prometheus labels and alerts.

``metric_values`` reads them off a ``ScoredEvent``. Rates are 0/1 per event, so a window's
mean is the rate. A metric the event cannot have (no response, no labels) is absent, not 0.
``pipeline.dead_letter`` is 0 for every scored event and 1 for every dead letter, so its
window mean is the dead-letter rate.

| id | perspective | what |
|---|---|---|
| ``quality.overall`` and its four sub-scores | see ``PERSPECTIVE`` | spec 000 composite |
| ``crag.incorrect`` | retrieval | 1 when CRAG says ``incorrect`` |
| ``retrieval.mrr`` | retrieval | mean reciprocal rank, on labelled events only (002) |
| ``context_quality.*`` | context_quality | 003 B |
| ``grounding.claim_support_rate``, ``grounding.citation_validity_content`` | groundedness | 003 C |
| ``grounding.unsupported_answer`` | groundedness | 1 when the answer has an unsupported claim |
| ``safety.injection.score``, ``safety.injection.blocked``, ``safety.leakage.detected`` | safety | 003 E |
| ``outcome.no_results``, ``outcome.blocked``, ``outcome.abstained`` | retrieval, safety, groundedness | 003 F, 004 |
| ``latency_ms.<stage>`` | pipeline | spec 003 F stages |
| ``pipeline.dead_letter`` | pipeline | undecodable messages |

>>> from monitor.pipeline import score_event
>>> from monitor.events.rag_event import RagEvent
>>> ev = RagEvent.model_validate({"schema_version": "1", "event_id": "e", "timestamp_ms": 0,
...     "query": {"text": "q"}, "latency_ms": {"total": 12}})
>>> values = metric_values(score_event(ev))
>>> values["latency_ms.total"], values["crag.incorrect"], "grounding.claim_support_rate" in values
(12.0, 1.0, False)
"""  # noqa: E501

from __future__ import annotations

from typing import Literal

from monitor.events.scored_event import ScoredEvent

__all__ = [
    "DEAD_LETTER",
    "LATENCY_STAGES",
    "METRIC_IDS",
    "PERSPECTIVE",
    "RATE_METRICS",
    "Perspective",
    "metric_values",
]

Perspective = Literal["retrieval", "context_quality", "groundedness", "safety", "pipeline"]

LATENCY_STAGES = ("retrieve", "generate", "guardrail_input", "guardrail_output", "total")
DEAD_LETTER = "pipeline.dead_letter"

PERSPECTIVE: dict[str, Perspective] = {
    "quality.overall": "context_quality",
    "quality.retrieval_confidence": "retrieval",
    "quality.context_sufficiency": "context_quality",
    "quality.diversity_score": "context_quality",
    # spec 000 computes it from the query and the chunks, before any answer: it predicts
    # whether the retrieved context can support a faithful answer, a retrieval signal
    "quality.estimated_faithfulness": "retrieval",
    "crag.incorrect": "retrieval",
    "retrieval.mrr": "retrieval",
    "context_quality.redundancy_ngram": "context_quality",
    "context_quality.redundancy_tfidf": "context_quality",
    "context_quality.unique_token_ratio": "context_quality",
    "grounding.claim_support_rate": "groundedness",
    "grounding.citation_validity_content": "groundedness",
    "grounding.unsupported_answer": "groundedness",
    "safety.injection.score": "safety",
    "safety.injection.blocked": "safety",
    "safety.leakage.detected": "safety",
    "outcome.no_results": "retrieval",
    "outcome.blocked": "safety",
    "outcome.abstained": "groundedness",
    **{f"latency_ms.{stage}": "pipeline" for stage in LATENCY_STAGES},
    DEAD_LETTER: "pipeline",
}
"""Every metric id, with the spec 003 perspective whose failure it points at."""

METRIC_IDS: tuple[str, ...] = tuple(PERSPECTIVE)

RATE_METRICS: frozenset[str] = frozenset(
    {
        "crag.incorrect",
        "grounding.unsupported_answer",
        "safety.injection.blocked",
        "safety.leakage.detected",
        "outcome.no_results",
        "outcome.blocked",
        "outcome.abstained",
        DEAD_LETTER,
    }
)
"""The metric ids that are 0/1 per event: their window mean is a rate."""


def metric_values(scored: ScoredEvent) -> dict[str, float]:
    """The event's value for every metric id it has."""
    q = scored.quality
    out: dict[str, float] = {
        "quality.overall": q.overall,
        "quality.retrieval_confidence": q.retrieval_confidence,
        "quality.context_sufficiency": q.context_sufficiency,
        "quality.diversity_score": q.diversity_score,
        "quality.estimated_faithfulness": q.estimated_faithfulness,
        "crag.incorrect": 1.0 if scored.crag.classification == "incorrect" else 0.0,
        DEAD_LETTER: 0.0,
    }
    labelled = scored.retrieval
    if labelled is not None:
        mrr = labelled.get("mrr")
        if isinstance(mrr, int | float) and not isinstance(mrr, bool):
            out["retrieval.mrr"] = float(mrr)
    cq = scored.context_quality
    if cq is not None:
        out["context_quality.redundancy_ngram"] = cq.redundancy_ngram
        out["context_quality.redundancy_tfidf"] = cq.redundancy_tfidf
        out["context_quality.unique_token_ratio"] = cq.unique_token_ratio
    g = scored.grounding
    if g is not None:
        if g.claim_support_rate is not None:
            out["grounding.claim_support_rate"] = g.claim_support_rate
            # 0/1: the window mean is the share of answers with an unsupported claim
            out["grounding.unsupported_answer"] = 1.0 if g.unsupported_claims else 0.0
        if g.citation_validity_content is not None:
            out["grounding.citation_validity_content"] = g.citation_validity_content
    s = scored.safety
    if s is not None:
        out["safety.injection.score"] = s.injection.score
        out["safety.injection.blocked"] = 1.0 if s.injection.action == "block" else 0.0
        if s.leakage is not None:
            out["safety.leakage.detected"] = 1.0 if s.leakage.detected else 0.0
    if scored.outcome is not None:
        out["outcome.no_results"] = 1.0 if scored.outcome == "no_results" else 0.0
        out["outcome.blocked"] = 1.0 if scored.outcome == "blocked" else 0.0
    if scored.abstained is not None:
        out["outcome.abstained"] = 1.0 if scored.abstained else 0.0
    latency = scored.latency_ms
    for stage in LATENCY_STAGES:
        value = latency.get(stage)
        if value is not None:
            out[f"latency_ms.{stage}"] = value
    return out
