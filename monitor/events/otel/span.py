"""One decoded OpenTelemetry span, in plain Python values (no protobuf objects).

An OTLP ``AnyValue`` becomes ``str``, ``bool``, ``int``, ``float``, ``bytes``, a ``list``
(``array_value``) or a ``dict`` (``kvlist_value``); ids are lower-case hex.

>>> s = OtelSpan(trace_id="0af7651916cd43dd8448eb211c80319c", span_id="b7ad6b7169203331",
...     parent_span_id=None, name="rag", start_ns=1_000_000, end_ns=3_500_000)
>>> s.is_root, s.duration_ms
(True, 2.5)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["OtelSpan", "SpanEvent"]


@dataclass(frozen=True)
class SpanEvent:
    """A span event (``gen_ai.content.prompt``, ``gen_ai.client.inference.operation.details``)."""

    name: str
    time_ns: int
    attributes: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class OtelSpan:
    trace_id: str
    span_id: str
    parent_span_id: str | None
    name: str
    start_ns: int
    end_ns: int
    attributes: dict[str, Any] = field(default_factory=dict)
    events: tuple[SpanEvent, ...] = ()
    resource: dict[str, Any] = field(default_factory=dict)
    """The attributes of the span's resource (``service.name``, ...)."""
    status_code: int = 0
    """OTLP ``Status.code``: 0 unset, 1 ok, 2 error."""

    @property
    def is_root(self) -> bool:
        return self.parent_span_id is None

    @property
    def duration_ms(self) -> float:
        return max(0, self.end_ns - self.start_ns) / 1e6
