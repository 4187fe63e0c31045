"""``ScoredEvent`` v1: what the monitor publishes for every event (DESIGN section 5).

Sections that a later scorer fills (``context_quality``, ``grounding``, ``safety``,
``retrieval``) are free-form mappings here and ``null`` until that scorer exists, so the
schema can grow without a version bump. ``quality`` and ``crag`` are exactly spec 000's
``ContextQualityScore`` and ``CRAGClassification``, in snake_case.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

__all__ = [
    "SCORER_VERSION",
    "CragAction",
    "CragResult",
    "Outcome",
    "QualityScore",
    "ScoredEvent",
]

SCORER_VERSION = "1"

Outcome = Literal["success", "blocked", "no_results", "uncertain"]

_STRICT = ConfigDict(extra="forbid", frozen=True)


class QualityScore(BaseModel):
    """Spec 000's composite ``ContextQualityScore``."""

    model_config = _STRICT
    overall: float
    retrieval_confidence: float
    context_sufficiency: float
    diversity_score: float
    estimated_faithfulness: float
    warning: str | None = None


class CragAction(BaseModel):
    """``use_retrieved``; ``decompose_and_recompose`` with ``sub_queries``;
    ``supplemental_search`` with ``search_query``."""

    model_config = _STRICT
    type: Literal["use_retrieved", "decompose_and_recompose", "supplemental_search"]
    sub_queries: list[str] | None = None
    search_query: str | None = None

    @model_serializer(mode="wrap")
    def _drop_unset(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {k: v for k, v in data.items() if v is not None}


class CragResult(BaseModel):
    model_config = _STRICT
    classification: Literal["correct", "ambiguous", "incorrect"]
    confidence: float
    action: CragAction


class ScoredEvent(BaseModel):
    model_config = _STRICT
    event_id: str
    timestamp_ms: int
    tenant: str | None = None
    application: str | None = None
    experiment: str | None = None
    variant: str | None = None
    scorer_version: str = SCORER_VERSION
    quality: QualityScore
    crag: CragResult
    context_quality: dict[str, Any] | None = None
    grounding: dict[str, Any] | None = None
    safety: dict[str, Any] | None = None
    outcome: Outcome | None = None
    abstained: bool | None = None
    retrieval: dict[str, Any] | None = None
    latency_ms: dict[str, float] = Field(default_factory=dict)
    scoring_us: int = Field(ge=0)
