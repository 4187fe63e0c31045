"""``ScoredEvent`` v1: what the monitor publishes for every event (DESIGN section 5).

``quality`` and ``crag`` are exactly spec 000's ``ContextQualityScore`` and
``CRAGClassification``, in snake_case; ``context_quality`` is spec 003 B, ``grounding``
003 C (null without a response), ``safety`` 003 E, ``outcome`` 003 F; ``retrieval`` (002,
003 A, 004; null without labels) maps metric ids such as ``ndcg@5`` to values.

No section ever copies text out of the event: claims, fabrications and findings are
character offsets into the field they were found in (``Span``), CRAG's sub-queries and
search query are offsets into the query (``QuerySpan``), so no secret or PII reaches the
scores topic (unless ``scores_include_query_text`` asks for CRAG's query texts).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from monitor.events.rag_event import ScoreScale

__all__ = [
    "SCORER_VERSION",
    "ClaimSpan",
    "ContextQuality",
    "CragAction",
    "CragResult",
    "Finding",
    "Grounding",
    "Injection",
    "Leakage",
    "Outcome",
    "QualityScore",
    "QuerySpan",
    "QueryTemplate",
    "Safety",
    "ScoreScaleInfo",
    "ScoredEvent",
    "Span",
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


QueryTemplate = Literal["{}", "What information exists about: {}", "{} details and specifics"]


class QuerySpan(BaseModel):
    """A query CRAG derives from the event's query, by position: ``template`` with ``{}``
    replaced by ``query.text[start:end]`` (code point offsets, end exclusive)."""

    model_config = _STRICT
    start: int
    end: int
    template: QueryTemplate = "{}"


class CragAction(BaseModel):
    """``use_retrieved``; ``decompose_and_recompose`` with ``sub_query_spans``;
    ``supplemental_search`` with ``search_query_span``.

    The spans say which part of the query each sub-query or the search query is, so no
    query text (or any secret or PII in it) reaches the scores topic. ``sub_queries`` and
    ``search_query`` (spec 000's texts) are filled only when the worker is configured with
    ``scores_include_query_text``.
    """

    model_config = _STRICT
    type: Literal["use_retrieved", "decompose_and_recompose", "supplemental_search"]
    sub_query_spans: list[QuerySpan] | None = None
    search_query_span: QuerySpan | None = None
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


class ContextQuality(BaseModel):
    """Spec 003 B; definitions in :mod:`monitor.scoring.context_quality`."""

    model_config = _STRICT
    redundancy_ngram: float
    redundancy_tfidf: float
    unique_token_ratio: float
    fact_dispersion: float | None = None


class Span(BaseModel):
    """``[start, end)`` character offsets into the response text."""

    model_config = _STRICT
    start: int
    end: int


class ClaimSpan(BaseModel):
    """An answer claim by position, with its 003 C type."""

    model_config = _STRICT
    start: int
    end: int
    type: Literal["assertion", "inference", "general"]


class Grounding(BaseModel):
    """Spec 003 C; definitions in :mod:`monitor.scoring.grounding`."""

    model_config = _STRICT
    claims: int
    claim_support_rate: float | None
    unsupported_claims: list[ClaimSpan]
    numeric_fabrications: list[Span]
    citation_validity_form: float | None
    citation_validity_content: float | None
    expected_claims_recall: float | None = None
    forbidden_claims_found: int | None = None


class Injection(BaseModel):
    """Prompt-injection score in [0, 1] with the 003 E categories that fired."""

    model_config = _STRICT
    score: float
    categories: list[str]
    action: Literal["allow", "warn", "block"]


class Finding(BaseModel):
    """A leak by position: ``kind`` is pii, secret, metadata or verbatim; ``type`` e.g.
    email, aws_access_key, chunk_id. Never the matched text."""

    model_config = _STRICT
    kind: Literal["pii", "secret", "metadata", "verbatim"]
    type: str
    start: int
    end: int


class Leakage(BaseModel):
    model_config = _STRICT
    detected: bool
    findings: list[Finding]


class Safety(BaseModel):
    """``injection`` scores the query; ``indirect_injection`` the retrieved chunks;
    ``leakage`` the response (null without one)."""

    model_config = _STRICT
    injection: Injection
    indirect_injection: Injection
    leakage: Leakage | None


class ScoreScaleInfo(BaseModel):
    """The chunk score scales in force (the event's declaration, else the settings') and,
    when normalising them into [0, 1] changed a score, ``raw_overall``: spec 000's
    composite of the scores as given (``quality`` is the composite of the normalised
    ones)."""

    model_config = _STRICT
    score: ScoreScale | None
    rerank_score: ScoreScale | None
    raw_overall: float | None


class ScoredEvent(BaseModel):
    """``score_scale`` is null when no scale is declared or set; ``warning`` says when the
    chunk scores are outside [0, 1] with no declared scale, or do not descend in rank
    order (see :mod:`monitor.scoring.score_scale`)."""

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
    score_scale: ScoreScaleInfo | None = None
    warning: str | None = None
    context_quality: ContextQuality | None = None
    grounding: Grounding | None = None
    safety: Safety | None = None
    outcome: Outcome | None = None
    abstained: bool | None = None
    retrieval: dict[str, float | int | str | None] | None = None
    latency_ms: dict[str, float] = Field(default_factory=dict)
    scoring_us: int = Field(ge=0)
