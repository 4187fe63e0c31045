"""Build OTLP traces with the official ``opentelemetry-proto`` messages, encoded as the
Collector's Kafka exporter writes them (``otlp_proto`` or ``otlp_json``)."""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span

__all__ = [
    "MS",
    "any_value",
    "encode",
    "gen_ai_trace",
    "key_values",
    "make_span",
    "openinference_trace",
    "request",
]

MS = 1_000_000
"""Nanoseconds in a millisecond."""


def any_value(value: Any) -> AnyValue:
    if isinstance(value, bool):
        return AnyValue(bool_value=value)
    if isinstance(value, int):
        return AnyValue(int_value=value)
    if isinstance(value, float):
        return AnyValue(double_value=value)
    if isinstance(value, str):
        return AnyValue(string_value=value)
    if isinstance(value, Mapping):
        out = AnyValue()
        out.kvlist_value.values.extend(key_values(value))
        return out
    if isinstance(value, Sequence):
        out = AnyValue()
        out.array_value.values.extend(any_value(v) for v in value)
        return out
    raise TypeError(type(value).__name__)


def key_values(attributes: Mapping[str, Any]) -> list[KeyValue]:
    return [KeyValue(key=k, value=any_value(v)) for k, v in attributes.items()]


def make_span(
    trace_id: str,
    span_id: str,
    parent: str | None,
    name: str,
    start_ns: int,
    end_ns: int,
    attributes: Mapping[str, Any] | None = None,
    events: Sequence[tuple[str, Mapping[str, Any]]] = (),
) -> Span:
    span = Span(
        trace_id=bytes.fromhex(trace_id),
        span_id=bytes.fromhex(span_id),
        parent_span_id=bytes.fromhex(parent) if parent else b"",
        name=name,
        kind=Span.SPAN_KIND_INTERNAL,
        start_time_unix_nano=start_ns,
        end_time_unix_nano=end_ns,
    )
    span.attributes.extend(key_values(attributes or {}))
    for event_name, event_attributes in events:
        event = span.events.add(name=event_name, time_unix_nano=end_ns)
        event.attributes.extend(key_values(event_attributes))
    return span


def request(
    spans: Sequence[Span], resource: Mapping[str, Any] | None = None
) -> ExportTraceServiceRequest:
    """One resource, one scope, ``spans``."""
    scope = ScopeSpans(spans=list(spans))
    scope.scope.name = "tests.otlp_spans"
    res = Resource(attributes=key_values(resource or {"service.name": "support-bot"}))
    return ExportTraceServiceRequest(
        resource_spans=[ResourceSpans(resource=res, scope_spans=[scope])]
    )


def _hex_ids(node: Any) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("traceId", "spanId", "parentSpanId") and isinstance(value, str):
                node[key] = base64.b64decode(value).hex()
            else:
                _hex_ids(value)
    elif isinstance(node, list):
        for item in node:
            _hex_ids(item)


def encode(message: ExportTraceServiceRequest, encoding: str) -> bytes:
    """``otlp_proto``: protobuf bytes; ``otlp_json``: OTLP/JSON (hex ids, as the OTLP
    specification and the Collector write them, not protobuf's base64)."""
    if encoding == "otlp_proto":
        return bytes(message.SerializeToString())
    data = json_format.MessageToDict(message)
    _hex_ids(data)
    return orjson.dumps(data)


DOCS = [
    ("hr-leave#1", "Employees get 15 days of paid vacation per year.", 0.82),
    ("hr-leave#2", "Unused vacation days carry over up to 5 days.", 0.71),
    ("it-laptop#1", "Laptops are renewed every three years.", 0.30),
]
QUERY = "How many vacation days do employees get?"
ANSWER = "Employees get 15 days of paid vacation per year."


def openinference_trace(trace_id: str, t0_ns: int, *, query: str = QUERY) -> list[Span]:
    """A chain with a retriever, a reranker and an LLM span, OpenInference conventions:
    retrieve 0-120 ms, rerank 120-150 ms, generate 150-900 ms, total 1000 ms."""
    root, ret, rr, llm = "a1" * 8, "a2" * 8, "a3" * 8, "a4" * 8
    retrieved: dict[str, Any] = {}
    for i, (doc_id, content, score) in enumerate(DOCS):
        p = f"retrieval.documents.{i}.document"
        retrieved |= {f"{p}.id": doc_id, f"{p}.content": content, f"{p}.score": score}
    retrieved["retrieval.documents.0.document.metadata"] = orjson.dumps(
        {"document_id": "hr-leave", "section_title": "Leave"}
    ).decode()
    reranked: dict[str, Any] = {"reranker.query": query}
    for i, (doc_id, content, _) in enumerate([DOCS[1], DOCS[0]]):
        p = f"reranker.output_documents.{i}.document"
        reranked |= {f"{p}.id": doc_id, f"{p}.content": content, f"{p}.score": 0.9 - i / 10}
    return [
        make_span(
            trace_id,
            root,
            None,
            "query",
            t0_ns,
            t0_ns + 1000 * MS,
            {
                "openinference.span.kind": "CHAIN",
                "input.value": orjson.dumps({"query": query}).decode(),
                "input.mime_type": "application/json",
                "output.value": ANSWER,
                "ragmon.tenant": "acme",
                "ragmon.variant": "treatment",
            },
        ),
        make_span(
            trace_id,
            ret,
            root,
            "retrieve",
            t0_ns,
            t0_ns + 120 * MS,
            {
                "openinference.span.kind": "RETRIEVER",
                "input.value": query,
                **retrieved,
            },
        ),
        make_span(
            trace_id,
            rr,
            root,
            "rerank",
            t0_ns + 120 * MS,
            t0_ns + 150 * MS,
            {
                "openinference.span.kind": "RERANKER",
                **reranked,
            },
        ),
        make_span(
            trace_id,
            llm,
            root,
            "llm",
            t0_ns + 150 * MS,
            t0_ns + 900 * MS,
            {
                "openinference.span.kind": "LLM",
                "llm.model_name": "gpt-4o-mini",
                "llm.provider": "openai",
                "llm.input_messages.0.message.role": "system",
                "llm.input_messages.0.message.content": "Answer from the context.",
                "llm.input_messages.1.message.role": "user",
                "llm.input_messages.1.message.content": f"Context: ...\n\nQuestion: {query}",
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.content": ANSWER,
                "llm.token_count.prompt": 420,
                "llm.token_count.completion": 12,
                "llm.token_count.total": 432,
            },
        ),
    ]


def gen_ai_trace(
    trace_id: str, t0_ns: int, *, query: str = QUERY, legacy_events: bool = False
) -> list[Span]:
    """An HTTP server span over a ``retrieval`` span and a ``chat`` span, GenAI semantic
    conventions: messages on ``gen_ai.input.messages`` / ``gen_ai.output.messages`` (or,
    with ``legacy_events``, on ``gen_ai.content.prompt`` / ``completion`` events)."""
    root, ret, chat = "b1" * 8, "b2" * 8, "b3" * 8
    documents = [{"id": d, "content": c, "score": s} for d, c, s in DOCS]
    chat_attributes: dict[str, Any] = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o",
        "gen_ai.response.model": "gpt-4o-2024-08-06",
        "gen_ai.usage.input_tokens": 300,
        "gen_ai.usage.output_tokens": 20,
    }
    events: list[tuple[str, dict[str, Any]]] = []
    user = [{"role": "user", "content": query}]
    assistant = [{"role": "assistant", "content": ANSWER}]
    if legacy_events:
        events = [
            ("gen_ai.content.prompt", {"gen_ai.prompt": orjson.dumps(user).decode()}),
            ("gen_ai.content.completion", {"gen_ai.completion": orjson.dumps(assistant).decode()}),
        ]
    else:
        chat_attributes["gen_ai.input.messages"] = orjson.dumps(
            [{"role": "user", "parts": [{"type": "text", "content": query}]}]
        ).decode()
        chat_attributes["gen_ai.output.messages"] = orjson.dumps(
            [
                {
                    "role": "assistant",
                    "parts": [{"type": "text", "content": ANSWER}],
                    "finish_reason": "stop",
                }
            ]
        ).decode()
    return [
        make_span(
            trace_id,
            root,
            None,
            "POST /ask",
            t0_ns,
            t0_ns + 700 * MS,
            {"http.request.method": "POST"},
        ),
        make_span(
            trace_id,
            ret,
            root,
            "retrieval kb",
            t0_ns + 10 * MS,
            t0_ns + 90 * MS,
            {
                "gen_ai.operation.name": "retrieval",
                "gen_ai.data_source.id": "kb-hr",
                "gen_ai.retrieval.query.text": query,
                "gen_ai.retrieval.documents": orjson.dumps(documents).decode(),
            },
        ),
        make_span(
            trace_id,
            chat,
            root,
            "chat gpt-4o",
            t0_ns + 100 * MS,
            t0_ns + 650 * MS,
            chat_attributes,
            events,
        ),
    ]
