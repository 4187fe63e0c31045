"""Traces built with opentelemetry-proto, encoded as the Collector's Kafka exporter writes
them, decoded, assembled and mapped to a RagEvent (issue 16, item 2)."""

from __future__ import annotations

import orjson
import pytest
from otlp_spans import (
    ANSWER,
    DOCS,
    MS,
    QUERY,
    encode,
    gen_ai_trace,
    make_span,
    openinference_trace,
    request,
)

from monitor.errors import EventError
from monitor.events.otel import TraceAssembler, decode_traces, map_trace
from monitor.pipeline import score_event

T0 = 1_795_353_600_000 * MS
TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
ENCODINGS = ["otlp_proto", "otlp_json"]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_openinference_trace_maps_every_field(encoding: str) -> None:
    payload = encode(request(openinference_trace(TRACE, T0)), encoding)
    spans = decode_traces(payload, encoding)  # type: ignore[arg-type]
    assert [s.name for s in spans] == ["query", "retrieve", "rerank", "llm"]
    event = map_trace(spans)
    assert event.event_id == TRACE
    assert event.timestamp_ms == T0 // MS
    assert event.query.text == QUERY  # the chain's JSON input, not the LLM's prompt
    assert event.response is not None and event.response.text == ANSWER
    assert (event.tenant, event.variant, event.application) == ("acme", "treatment", "support-bot")
    # the reranker's order, with its score and the retriever's score of the same document
    assert [(c.chunk_id, c.rerank_score, c.score) for c in event.chunks] == [
        ("hr-leave#2", 0.9, 0.71),
        ("hr-leave#1", 0.8, 0.82),
    ]
    assert event.chunks[0].content == DOCS[1][1]
    assert event.latency_ms.model_dump(exclude_none=True) == {
        "retrieve": 120.0,
        "generate": 750.0,
        "total": 1000.0,
        "rerank": 30.0,
    }
    assert event.model_extra is not None
    assert event.model_extra["generation"] == {
        "calls": 1,
        "model": "gpt-4o-mini",
        "provider": "openai",
        "input_tokens": 420,
        "output_tokens": 12,
        "total_tokens": 432,
    }
    scored = score_event(event)  # the mapped event scores like any other
    assert scored.event_id == TRACE and scored.outcome is None  # answered, no citations
    assert scored.quality.overall > 0


def test_retriever_without_reranker_keeps_its_order_and_document_ids() -> None:
    spans = [s for s in openinference_trace(TRACE, T0) if s.name != "rerank"]
    event = map_trace(decode_traces(encode(request(spans), "otlp_proto"), "otlp_proto"))
    assert [(c.chunk_id, c.document_id, c.score) for c in event.chunks] == [
        ("hr-leave#1", "hr-leave", 0.82),  # document_id from the document's metadata
        ("hr-leave#2", "hr-leave#2", 0.71),
        ("it-laptop#1", "it-laptop#1", 0.3),
    ]
    assert event.chunks[0].metadata == {"document_id": "hr-leave", "section_title": "Leave"}


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("legacy_events", [False, True])
def test_gen_ai_trace_maps_query_documents_messages_and_usage(
    encoding: str, legacy_events: bool
) -> None:
    spans = gen_ai_trace(TRACE, T0, legacy_events=legacy_events)
    event = map_trace(decode_traces(encode(request(spans), encoding), encoding))  # type: ignore[arg-type]
    assert event.event_id == TRACE
    assert event.query.text == QUERY  # gen_ai.retrieval.query.text (the root has no input)
    assert event.response is not None and event.response.text == ANSWER
    assert [(c.chunk_id, c.content, c.score) for c in event.chunks] == [
        (d, c, s) for d, c, s in DOCS
    ]
    assert event.latency_ms.model_dump(exclude_none=True) == {
        "retrieve": 80.0,
        "generate": 550.0,
        "total": 700.0,
    }
    assert event.model_extra is not None
    assert event.model_extra["generation"] == {
        "calls": 1,
        "model": "gpt-4o-2024-08-06",
        "provider": "openai",
        "input_tokens": 300,
        "output_tokens": 20,
        "total_tokens": 320,
    }


def test_gen_ai_structured_attributes_and_operation_details_event() -> None:
    """Messages as an event's structured (not JSON string) attributes; documents as a
    structured array of key-value lists."""
    root, chat, ret = "c1" * 8, "c2" * 8, "c3" * 8
    details = {
        "gen_ai.input.messages": [{"role": "user", "parts": [{"type": "text", "content": QUERY}]}],
        "gen_ai.output.messages": [
            {"role": "assistant", "parts": [{"type": "text", "content": ANSWER}]}
        ],
    }
    spans = [
        make_span(TRACE, root, None, "handler", T0, T0 + 500 * MS),
        make_span(
            TRACE,
            ret,
            root,
            "retrieval",
            T0,
            T0 + 50 * MS,
            {
                "gen_ai.operation.name": "retrieval",
                "gen_ai.retrieval.documents": [{"id": "d1", "content": "15 days.", "score": 0.5}],
            },
        ),
        make_span(
            TRACE,
            chat,
            root,
            "chat",
            T0 + 60 * MS,
            T0 + 400 * MS,
            {"gen_ai.operation.name": "chat"},
            [("gen_ai.client.inference.operation.details", details)],
        ),
    ]
    event = map_trace(decode_traces(encode(request(spans), "otlp_proto"), "otlp_proto"))
    assert event.query.text == QUERY  # from the chat's user message: the retrieval had none
    assert event.response is not None and event.response.text == ANSWER
    assert [(c.chunk_id, c.score) for c in event.chunks] == [("d1", 0.5)]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_trace_split_across_messages_is_assembled(encoding: str) -> None:
    """Children arrive before their root, in three messages interleaved with another
    trace; the trace completes once the root is there and the grace period passed."""
    other = "0" * 31 + "1"
    spans = openinference_trace(TRACE, T0)
    messages = [
        encode(request([spans[1], *gen_ai_trace(other, T0)[1:]]), encoding),
        encode(request([spans[2], spans[3]]), encoding),
        encode(request([spans[0], gen_ai_trace(other, T0)[0]]), encoding),
    ]
    assembler = TraceAssembler(grace_ms=500, max_wait_ms=10_000)
    for offset, payload in enumerate(messages):
        now_ms = offset * 100
        assert (
            assembler.add(decode_traces(payload, encoding), ("otlp_spans", 0, offset), now_ms) == []
        )  # type: ignore[arg-type]
        assert assembler.due(now_ms) == []
    assert assembler.lowest_pending_offsets() == {("otlp_spans", 0): 0}
    done = assembler.due(200 + 500)
    assert sorted(t.trace_id for t in done) == sorted([TRACE, other])
    by_id = {t.trace_id: t for t in done}
    assert by_id[TRACE].sources == (
        ("otlp_spans", 0, 0),
        ("otlp_spans", 0, 1),
        ("otlp_spans", 0, 2),
    )
    whole = map_trace(by_id[TRACE].spans)
    assert whole == map_trace(spans_of(openinference_trace(TRACE, T0)))
    assert map_trace(by_id[other].spans).query.text == QUERY
    assert assembler.lowest_pending_offsets() == {} and len(assembler) == 0


def spans_of(proto_spans: list) -> list:  # type: ignore[type-arg]
    return decode_traces(encode(request(proto_spans), "otlp_proto"), "otlp_proto")


def test_a_trace_whose_root_never_comes_completes_after_the_max_wait() -> None:
    spans = openinference_trace(TRACE, T0)[1:]  # no root
    assembler = TraceAssembler(grace_ms=100, max_wait_ms=5_000)
    assembler.add(spans_of(spans), ("t", 0, 3), now_ms=0)
    assert assembler.due(4_999) == []
    (trace,) = assembler.due(5_000)
    assert (trace.root_seen, trace.why) == (False, "max_wait")
    event = map_trace(trace.spans)
    assert event.query.text == QUERY  # from the retriever's input
    assert event.latency_ms.total == 900.0  # first span start to last span end
    # a late span of a completed trace does not start a fragment
    assembler.add(spans_of(openinference_trace(TRACE, T0)[:1]), ("t", 0, 4), now_ms=6_000)
    assert len(assembler) == 0 and assembler.late_spans == 1


def test_memory_is_bounded() -> None:
    assembler = TraceAssembler(grace_ms=100, max_wait_ms=5_000, max_traces=2, max_spans_per_trace=2)
    ids = [f"{i:032x}" for i in range(1, 4)]
    evicted = []
    for offset, trace_id in enumerate(ids):
        evicted += assembler.add(spans_of(openinference_trace(trace_id, T0)), ("t", 0, offset), 0)
    assert [(t.trace_id, t.why, len(t.spans), t.dropped_spans) for t in evicted] == [
        (ids[0], "evicted", 2, 2)
    ]
    assert len(assembler) == 2 and assembler.lowest_pending_offsets() == {("t", 0): 1}


def test_unmappable_traces_say_why() -> None:
    http_only = [make_span(TRACE, "d1" * 8, None, "GET /healthz", T0, T0 + MS, {"http.route": "/"})]
    with pytest.raises(EventError) as no_rag:
        map_trace(spans_of(http_only))
    assert (no_rag.value.stage, no_rag.value.reason) == ("validate", "not_a_rag_trace")

    no_query = [
        make_span(TRACE, "d1" * 8, None, "root", T0, T0 + 10 * MS),
        make_span(
            TRACE,
            "d2" * 8,
            "d1" * 8,
            "retrieve",
            T0,
            T0 + 5 * MS,
            {
                "openinference.span.kind": "RETRIEVER",
                "retrieval.documents.0.document.id": "x",
            },
        ),
    ]
    with pytest.raises(EventError) as missing:
        map_trace(spans_of(no_query))
    assert (missing.value.reason, missing.value.field) == ("missing_query", "query.text")

    bad_score = openinference_trace(TRACE, T0)
    bad_score[2].attributes.add(  # the reranker's output is the event's chunks
        key="reranker.output_documents.5.document.score"
    ).value.double_value = float("nan")
    with pytest.raises(EventError) as invalid:
        map_trace(spans_of(bad_score))
    assert (invalid.value.reason, invalid.value.field) == ("invalid_value", "chunks.*.rerank_score")


@pytest.mark.parametrize(
    ("payload", "encoding", "reason"),
    [
        (b"", "otlp_proto", "empty_payload"),
        (b"not protobuf at all", "otlp_proto", "invalid_otlp"),
        (b"[]", "otlp_json", "invalid_otlp"),
        (
            orjson.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz"}]}]}]}),
            "otlp_json",
            "invalid_otlp",
        ),
        (
            orjson.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "ab" * 4}]}]}]}),
            "otlp_json",
            "invalid_otlp",
        ),
    ],
)
def test_bad_messages_are_decode_errors(payload: bytes, encoding: str, reason: str) -> None:
    with pytest.raises(EventError) as err:
        decode_traces(payload, encoding)  # type: ignore[arg-type]
    assert (err.value.stage, err.value.reason) == ("decode", reason)
    assert "not protobuf" not in str(err.value)  # never quotes the payload


@pytest.mark.parametrize(
    ("attributes", "events"),
    [
        (  # OpenLLMetry: flattened gen_ai.prompt.N / gen_ai.completion.N
            {
                "gen_ai.system": "openai",
                "gen_ai.request.model": "gpt-4o",
                "gen_ai.prompt.0.role": "system",
                "gen_ai.prompt.0.content": "Answer briefly.",
                "gen_ai.prompt.1.role": "user",
                "gen_ai.prompt.1.content": QUERY,
                "gen_ai.completion.0.role": "assistant",
                "gen_ai.completion.0.content": ANSWER,
            },
            [],
        ),
        (  # semconv <= 1.36 events recorded on the span, body in gen_ai.event.content
            {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o"},
            [
                (
                    "gen_ai.user.message",
                    {"gen_ai.event.content": orjson.dumps({"content": QUERY}).decode()},
                ),
                (
                    "gen_ai.choice",
                    {
                        "gen_ai.event.content": orjson.dumps(
                            {"message": {"content": ANSWER}}
                        ).decode()
                    },
                ),
            ],
        ),
    ],
)
def test_older_gen_ai_message_forms(attributes: dict[str, object], events: list) -> None:  # type: ignore[type-arg]
    spans = [
        make_span(TRACE, "e1" * 8, None, "ask", T0, T0 + 100 * MS, attributes, events),
    ]
    event = map_trace(spans_of(spans))
    assert event.query.text == QUERY
    assert event.response is not None and event.response.text == ANSWER
    assert event.chunks == [] and event.latency_ms.generate == 100.0
