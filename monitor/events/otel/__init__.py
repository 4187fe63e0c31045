"""OpenTelemetry traces in (issue 16): OTLP messages as the Collector's Kafka exporter writes
them, decoded (:mod:`.decode`), gathered per trace (:mod:`.assemble`) and mapped to a
``RagEvent`` (:mod:`.mapping`). Pure: the worker's shell is
:mod:`monitor.stream.otlp_bridge`."""

from monitor.events.otel.assemble import CompletedTrace, Source, TraceAssembler
from monitor.events.otel.decode import OTLP_ENCODINGS, OtlpEncoding, decode_traces
from monitor.events.otel.mapping import map_trace, span_kind
from monitor.events.otel.span import OtelSpan, SpanEvent

__all__ = [
    "OTLP_ENCODINGS",
    "CompletedTrace",
    "OtelSpan",
    "OtlpEncoding",
    "Source",
    "SpanEvent",
    "TraceAssembler",
    "decode_traces",
    "map_trace",
    "span_kind",
]
