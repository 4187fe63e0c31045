"""OTLP trace messages, as the OpenTelemetry Collector's Kafka exporter writes them, to
:class:`~monitor.events.otel.span.OtelSpan` values.

Two encodings (the exporter's ``encoding`` option): ``otlp_proto``, an
``ExportTraceServiceRequest`` in protobuf, and ``otlp_json``, the same message in OTLP/JSON
(ids as hex strings, 64-bit integers as strings or numbers, field names in lowerCamelCase).
A message that is not one of them is an :class:`~monitor.errors.EventError` with reason
``invalid_otlp``; its detail never quotes the payload.

>>> decode_traces(b"", "otlp_proto")
Traceback (most recent call last):
monitor.errors.EventError: decode/empty_payload: the message has no value
>>> decode_traces(b"{not json", "otlp_proto")
Traceback (most recent call last):
monitor.errors.EventError: decode/invalid_otlp: the message is not an OTLP protobuf \
ExportTraceServiceRequest
>>> decode_traces(b'{"resourceSpans": []}', "otlp_json")
[]
"""

from __future__ import annotations

import base64
from typing import Any, Literal

import orjson
from google.protobuf import json_format
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

from monitor.errors import EventError
from monitor.events.otel.span import OtelSpan, SpanEvent

__all__ = ["OTLP_ENCODINGS", "OtlpEncoding", "any_value", "attributes", "decode_traces"]

OtlpEncoding = Literal["otlp_proto", "otlp_json"]
OTLP_ENCODINGS: tuple[OtlpEncoding, ...] = ("otlp_proto", "otlp_json")

_MAX_DEPTH = 16
"""Nested arrays and key-value lists deeper than this are cut (a hostile payload)."""


def any_value(value: AnyValue, depth: int = 0) -> Any:
    """An OTLP ``AnyValue`` as a plain Python value (``None`` when unset)."""
    kind = value.WhichOneof("value")
    if kind is None or depth > _MAX_DEPTH:
        return None
    if kind == "array_value":
        return [any_value(v, depth + 1) for v in value.array_value.values]
    if kind == "kvlist_value":
        return attributes(value.kvlist_value.values, depth + 1)
    return getattr(value, kind)


def attributes(pairs: Any, depth: int = 0) -> dict[str, Any]:
    """``KeyValue`` pairs as a dictionary (the last value of a repeated key wins)."""
    out: dict[str, Any] = {}
    pair: KeyValue
    for pair in pairs:
        out[pair.key] = any_value(pair.value, depth)
    return out


def _hex_id(raw: bytes, size: int, what: str) -> str | None:
    """A trace id (16 bytes) or span id (8 bytes) as hex; empty is ``None``."""
    if not raw:
        return None
    if len(raw) != size or not any(raw):
        raise EventError("decode", "invalid_otlp", what, f"a {what} must be {size} non-zero bytes")
    return raw.hex()


def _from_proto(payload: bytes) -> ExportTraceServiceRequest:
    request = ExportTraceServiceRequest()
    try:
        request.ParseFromString(payload)
    except (DecodeError, RuntimeError, ValueError):
        detail = "the message is not an OTLP protobuf ExportTraceServiceRequest"
        raise EventError("decode", "invalid_otlp", None, detail) from None
    return request


_ID_FIELDS = ("traceId", "spanId", "parentSpanId", "trace_id", "span_id", "parent_span_id")


def _ids_to_base64(node: Any) -> None:
    """OTLP/JSON writes ids as hex, protobuf's JSON mapping reads bytes as base64."""
    for key in _ID_FIELDS:
        value = node.get(key)
        if isinstance(value, str) and value:
            try:
                node[key] = base64.b64encode(bytes.fromhex(value)).decode("ascii")
            except ValueError:
                raise EventError(
                    "decode", "invalid_otlp", key, "an id is not a hexadecimal string"
                ) from None


def _from_json(payload: bytes) -> ExportTraceServiceRequest:
    try:
        data = orjson.loads(payload)
    except orjson.JSONDecodeError as exc:
        reason = str(exc).split(":")[0].lower()
        raise EventError(
            "decode", "invalid_otlp", None, f"the message is not OTLP/JSON: {reason}"
        ) from None
    if not isinstance(data, dict):
        raise EventError("decode", "invalid_otlp", None, "the message is not a JSON object")
    try:
        for resource_spans in data.get("resourceSpans") or data.get("resource_spans") or []:
            for scope in (
                resource_spans.get("scopeSpans") or resource_spans.get("scope_spans") or []
            ):
                for span in scope.get("spans") or []:
                    _ids_to_base64(span)
                    for link in span.get("links") or []:
                        _ids_to_base64(link)
        request = ExportTraceServiceRequest()
        json_format.ParseDict(data, request, ignore_unknown_fields=True)
    except EventError:
        raise
    except (json_format.ParseError, AttributeError, TypeError, ValueError) as exc:
        detail = f"the message is not an OTLP/JSON ExportTraceServiceRequest ({type(exc).__name__})"
        raise EventError("decode", "invalid_otlp", None, detail) from None
    return request


def decode_traces(payload: bytes | None, encoding: OtlpEncoding) -> list[OtelSpan]:
    """Every span of one Kafka message, in message order; raise ``EventError`` when the
    message is not OTLP traces in ``encoding`` or a span has a malformed id."""
    if not payload:
        raise EventError("decode", "empty_payload", None, "the message has no value")
    request = _from_json(payload) if encoding == "otlp_json" else _from_proto(payload)
    spans: list[OtelSpan] = []
    for resource_spans in request.resource_spans:
        resource = attributes(resource_spans.resource.attributes)
        for scope in resource_spans.scope_spans:
            for span in scope.spans:
                trace_id = _hex_id(span.trace_id, 16, "trace_id")
                span_id = _hex_id(span.span_id, 8, "span_id")
                if trace_id is None or span_id is None:
                    raise EventError(
                        "decode", "invalid_otlp", "trace_id", "a span has no trace or span id"
                    )
                events = tuple(
                    SpanEvent(e.name, e.time_unix_nano, attributes(e.attributes))
                    for e in span.events
                )
                spans.append(
                    OtelSpan(
                        trace_id=trace_id,
                        span_id=span_id,
                        parent_span_id=_hex_id(span.parent_span_id, 8, "parent_span_id"),
                        name=span.name,
                        start_ns=span.start_time_unix_nano,
                        end_ns=span.end_time_unix_nano,
                        attributes=attributes(span.attributes),
                        events=events,
                        resource=resource,
                        status_code=span.status.code,
                    )
                )
    return spans
