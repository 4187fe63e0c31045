"""The dead-letter record published to ``rag.events.dlq.v1`` (DESIGN section 3).

The original bytes travel base64-encoded in ``payload_b64``, so an operator can fix and
replay them; the error says where decoding stopped without quoting the payload. A dead
letter that would not fit the topic keeps only the first bytes of the payload and says so
with ``truncated``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["DeadLetter", "DeadLetterError"]


class DeadLetterError(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    stage: str = Field(description="decode, validate, score or produce")
    reason: str = Field(description="snake_case code, e.g. invalid_json, missing_field")
    field: str | None = Field(
        default=None,
        description="dotted path of the offending field; list indices and free-form keys are *",
    )
    detail: str = Field(default="", description="a human sentence; never quotes the payload")


class DeadLetter(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    error: DeadLetterError
    topic: str
    partition: int
    offset: int
    received_ms: int
    payload_b64: str
    truncated: bool = Field(
        default=False, description="payload_b64 holds only the first bytes of the message"
    )
