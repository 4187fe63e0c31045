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
    CragAction,
    CragResult,
    QualityScore,
    ScoredEvent,
)

__all__ = [
    "Chunk",
    "Citation",
    "Context",
    "CragAction",
    "CragResult",
    "DeadLetter",
    "DeadLetterError",
    "Labels",
    "LatencyMs",
    "QualityScore",
    "Query",
    "RagEvent",
    "Response",
    "ScoredEvent",
]
