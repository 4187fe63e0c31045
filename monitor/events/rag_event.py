"""``RagEvent`` v1: one query/response of the monitored RAG service (DESIGN section 4).

Required: ``schema_version`` (``"1"``), ``event_id``, ``timestamp_ms`` and ``query.text``.
Unknown fields are kept and ignored. Types are strict (``true`` is not 1, ``"5"`` is not 5;
an integer is accepted where a number is expected), so a producer's type error is a dead
letter, not a silently coerced value. ``chunks`` are in rank order. When ``context`` is
absent it is the chunks' contents joined with blank lines, and its ``token_count`` is a
whitespace token count (see :meth:`RagEvent.effective_context`). ``score_scale`` and
``rerank_score_scale`` (optional) declare what the chunks' ``score`` and ``rerank_score``
mean: ``probability``, ``cosine``, ``bm25``, ``logit`` or ``unknown``.

>>> e = RagEvent.model_validate({"schema_version": "1", "event_id": "e1",
...     "timestamp_ms": 1, "query": {"text": "vacation policy?"},
...     "chunks": [{"content": "15 days"}, {"content": "per year"}]})
>>> e.effective_context()
Context(text='15 days\\n\\nper year', token_count=4)
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat

__all__ = [
    "INT64_MAX",
    "INT64_MIN",
    "Chunk",
    "Citation",
    "Context",
    "GoldFact",
    "GoldSupport",
    "Labels",
    "LatencyMs",
    "Query",
    "RagEvent",
    "Response",
    "ScoreScale",
]

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
"""An event time must fit Kafka's (and Java's) 64-bit integer."""

_KEEP = ConfigDict(extra="allow", frozen=True, strict=True)

ScoreScale = Literal["probability", "cosine", "bm25", "logit", "unknown"]
"""What a chunk score means (see :mod:`monitor.scoring.score_scale` for the mapping of each
scale into [0, 1] before spec 000's composite)."""


class Query(BaseModel):
    model_config = _KEEP
    text: str
    type: str | None = None
    user_roles: list[str] = Field(default_factory=list)


class Chunk(BaseModel):
    """One retrieved chunk. ``score`` is the vector similarity, ``rerank_score`` the
    reranker's; spec 000 uses ``rerank_score`` when present, else ``score``."""

    model_config = _KEEP
    chunk_id: str | None = None
    document_id: str | None = None
    content: str = ""
    score: FiniteFloat = 0.0
    rerank_score: FiniteFloat | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class Context(BaseModel):
    model_config = _KEEP
    text: str = ""
    token_count: int | None = Field(default=None, ge=0)


class Citation(BaseModel):
    model_config = _KEEP
    document_id: str | None = None
    chunk_id: str | None = None


class Response(BaseModel):
    model_config = _KEEP
    text: str = ""
    citations: list[Citation] = Field(default_factory=list)
    abstained: bool | None = None
    confidence: FiniteFloat | None = None
    policy_flags: list[str] = Field(default_factory=list)


class LatencyMs(BaseModel):
    """Per-stage latency in milliseconds (spec 003 F stages)."""

    model_config = _KEEP
    retrieve: FiniteFloat | None = Field(default=None, ge=0)
    generate: FiniteFloat | None = Field(default=None, ge=0)
    guardrail_input: FiniteFloat | None = Field(default=None, ge=0)
    guardrail_output: FiniteFloat | None = Field(default=None, ge=0)
    total: FiniteFloat | None = Field(default=None, ge=0)


class GoldFact(BaseModel):
    model_config = _KEEP
    fact: str
    aliases: list[str] = Field(default_factory=list)


class GoldSupport(BaseModel):
    model_config = _KEEP
    rel_path: str
    heading_path: str = ""
    snippets: list[str] = Field(default_factory=list)


class Labels(BaseModel):
    """Ground truth, present on evaluation traffic only (specs 002, 003, 004)."""

    model_config = _KEEP
    relevant_chunks: dict[str, float] = Field(default_factory=dict)
    relevant_docs: dict[str, float] = Field(default_factory=dict)
    gold_supports: list[GoldSupport] = Field(default_factory=list)
    required_support_groups: list[Any] = Field(default_factory=list)
    answerable: bool | None = None
    gold_facts: list[GoldFact] = Field(default_factory=list)
    expected_claims: list[str] = Field(default_factory=list)
    forbidden_claims: list[str] = Field(default_factory=list)
    ground_truth_answer: str | None = None


class RagEvent(BaseModel):
    """The input event. Immutable once validated."""

    model_config = _KEEP
    schema_version: Literal["1"]
    event_id: str = Field(min_length=1)
    timestamp_ms: int = Field(ge=INT64_MIN, le=INT64_MAX)
    tenant: str | None = None
    application: str | None = None
    experiment: str | None = None
    variant: str | None = None
    query: Query
    chunks: list[Chunk] = Field(default_factory=list)
    context: Context | None = None
    response: Response | None = None
    latency_ms: LatencyMs = Field(default_factory=LatencyMs)
    labels: Labels | None = None
    score_scale: ScoreScale | None = None
    rerank_score_scale: ScoreScale | None = None

    def effective_context(self) -> Context:
        """The context as sent, or (when absent) the chunks joined with blank lines."""
        if self.context is not None:
            if self.context.token_count is not None:
                return self.context
            return Context(text=self.context.text, token_count=len(self.context.text.split()))
        text = "\n\n".join(c.content for c in self.chunks)
        return Context(text=text, token_count=len(text.split()))
