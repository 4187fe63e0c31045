"""Event and result models (pydantic v2) and their JSON Schema export. Pure."""

from monitor.events.dead_letter import DeadLetter, DeadLetterError
from monitor.events.rag_event import (
    Chunk,
    Citation,
    Context,
    Labels,
    LatencyMs,
    Query,
    RagEvent,
    Response,
)
from monitor.events.scored_event import (
    ClaimSpan,
    ContextQuality,
    CragAction,
    CragResult,
    Finding,
    Grounding,
    Injection,
    Leakage,
    QualityScore,
    Safety,
    ScoredEvent,
    Span,
)

__all__ = [
    "Chunk",
    "Citation",
    "ClaimSpan",
    "Context",
    "ContextQuality",
    "CragAction",
    "CragResult",
    "DeadLetter",
    "DeadLetterError",
    "Finding",
    "Grounding",
    "Injection",
    "Labels",
    "LatencyMs",
    "Leakage",
    "QualityScore",
    "Query",
    "RagEvent",
    "Response",
    "Safety",
    "ScoredEvent",
    "Span",
]
