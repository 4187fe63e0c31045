"""OpenTelemetry traces in, on the real broker (issue 16, item 2): OTLP protobuf messages,
built with opentelemetry-proto and split as the Collector's Kafka exporter may split them,
become scored events; an unmappable trace and a message that is not OTLP are dead letters."""

from __future__ import annotations

import asyncio
import base64
import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import orjson
import pytest
from kafka_io import produce, read_until
from otlp_spans import MS, encode, gen_ai_trace, make_span, openinference_trace, request

from monitor.config import Settings
from monitor.events.otel import decode_traces, map_trace
from monitor.pipeline import score_event
from monitor.stream.kafka import ensure_topics
from monitor.stream.worker_process import start_worker, stop_process

pytestmark = [pytest.mark.broker, pytest.mark.timeout(240)]

N_TRACES = 30  # per convention


def otlp_settings(settings: Settings) -> Settings:
    s = settings.model_copy(
        update={
            "otlp_enabled": True,
            "otlp_topic": settings.events_topic.replace("rag.events.v1", "otlp_spans"),
            "otlp_encoding": "otlp_proto",
            "otlp_trace_grace_ms": 500,
            "otlp_trace_max_wait_ms": 60_000,
        }
    )
    asyncio.run(ensure_topics(s))
    return s


def _health(settings: Settings) -> dict[str, Any]:
    url = f"http://127.0.0.1:{settings.web_port}/healthz"
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def _without_timing(scored: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in scored.items() if k != "scoring_us"}


def _traces(start_ns: int) -> dict[str, list[Any]]:
    """trace id -> its spans (proto), half OpenInference, half GenAI."""
    traces: dict[str, list[Any]] = {}
    for i in range(N_TRACES):
        oi, ga = f"{0xA0000000 + i:032x}", f"{0xB0000000 + i:032x}"
        traces[oi] = openinference_trace(oi, start_ns + i * 1000 * MS, query=f"Vacation days, {i}?")
        traces[ga] = gen_ai_trace(ga, start_ns + i * 1000 * MS, query=f"Laptop renewal, {i}?")
    return traces


def _split(traces: dict[str, list[Any]]) -> tuple[list[tuple[bytes, bytes]], ...]:
    """Each trace's children in one message, its root in a later one (keyed by trace id,
    as the exporter's ``partition_traces_by_id`` does)."""
    children = [
        (bytes.fromhex(t), encode(request([s for s in spans if s.parent_span_id]), "otlp_proto"))
        for t, spans in traces.items()
    ]
    roots = [
        (
            bytes.fromhex(t),
            encode(request([s for s in spans if not s.parent_span_id]), "otlp_proto"),
        )
        for t, spans in traces.items()
    ]
    return children, roots


def _expected(traces: dict[str, list[Any]]) -> dict[str, dict[str, Any]]:
    out = {}
    for trace_id, spans in traces.items():
        event = map_trace(decode_traces(encode(request(spans), "otlp_proto"), "otlp_proto"))
        out[trace_id] = _without_timing(score_event(event).model_dump(mode="json"))
    return out


def test_otlp_traces_are_scored_and_unmappable_ones_dead_lettered(
    stream_settings: Settings, tmp_path: Path
) -> None:
    s = otlp_settings(stream_settings)
    traces = _traces((int(time.time()) - 600) * 1_000_000_000)
    children, roots = _split(traces)
    unmappable_id = "c" * 32
    http_only = make_span(unmappable_id, "c1" * 8, None, "GET /healthz", 10 * MS, 11 * MS)
    unmappable = encode(request([http_only]), "otlp_proto")
    garbage = b"\x00\x01 this is not OTLP"

    worker = start_worker(s, tmp_path / "worker.log")
    try:
        asyncio.run(produce(s, children, topic=s.otlp_topic))
        asyncio.run(
            produce(
                s, [(None, garbage), (bytes.fromhex(unmappable_id), unmappable)], topic=s.otlp_topic
            )
        )
        asyncio.run(produce(s, roots, topic=s.otlp_topic))
        got = asyncio.run(
            read_until(
                s,
                [s.scores_topic, s.dlq_topic, s.events_topic],
                lambda g: len(g[s.scores_topic]) >= 2 * N_TRACES and len(g[s.dlq_topic]) >= 2,
                linger_s=2.0,
            )
        )
        scores, letters = got[s.scores_topic], got[s.dlq_topic]
        log_tail = (tmp_path / "worker.log").read_text()[-3000:]
        assert len(scores) == 2 * N_TRACES, log_tail

        # every trace is one event, keyed and identified by its trace id, scored as the
        # pure mapping and scorer score it
        expected = _expected(traces)
        for record in scores:
            value = orjson.loads(record.value)
            assert record.key == value["event_id"].encode()
            assert _without_timing(value) == expected[value["event_id"]]
        assert {orjson.loads(r.value)["event_id"] for r in scores} == set(traces)
        events = [orjson.loads(r.value) for r in got[s.events_topic]]
        assert {e["event_id"] for e in events} == set(traces)
        assert all(e["otel"]["root_span"] for e in events)

        # the unmappable trace and the garbage message are dead letters with their reason
        assert len(letters) == 2
        by_reason = {orjson.loads(r.value)["error"]["reason"]: r for r in letters}
        assert set(by_reason) == {"not_a_rag_trace", "invalid_otlp"}
        trace_letter = orjson.loads(by_reason["not_a_rag_trace"].value)
        assert by_reason["not_a_rag_trace"].key == unmappable_id.encode()
        assert trace_letter["topic"] == s.otlp_topic
        assert base64.b64decode(trace_letter["payload_b64"]) == unmappable
        bad_letter = orjson.loads(by_reason["invalid_otlp"].value)
        assert base64.b64decode(bad_letter["payload_b64"]) == garbage
        assert bad_letter["error"]["stage"] == "decode"

        health = _health(s)
        assert health["otlp"]["events"] == 2 * N_TRACES
        assert health["otlp"]["dead_letters_by_reason"] == {"not_a_rag_trace": 1, "invalid_otlp": 1}
        assert health["otlp"]["pending_traces"] == 0
        assert health["scored"] == 2 * N_TRACES
    finally:
        code = stop_process(worker)
    assert code == 0


def test_a_trace_waiting_for_its_root_survives_a_restart(
    stream_settings: Settings, tmp_path: Path
) -> None:
    """Offsets are committed only up to the first message a waiting trace came from: the
    children read before a restart are read again, and the root after it completes them."""
    s = otlp_settings(stream_settings)
    traces = _traces((int(time.time()) - 600) * 1_000_000_000)
    children, roots = _split(traces)
    log = tmp_path / "worker.log"
    worker = start_worker(s, log)
    try:
        asyncio.run(produce(s, children, topic=s.otlp_topic))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if _health(s).get("otlp", {}).get("pending_traces") == 2 * N_TRACES:
                    break
            except (OSError, ValueError):
                pass
            time.sleep(0.3)
        else:
            pytest.fail("the worker did not read the children: " + log.read_text()[-2000:])
    finally:
        assert stop_process(worker) == 0
    asyncio.run(produce(s, roots, topic=s.otlp_topic))
    worker = start_worker(s, log)
    try:
        got = asyncio.run(
            read_until(s, [s.scores_topic], lambda g: len(g[s.scores_topic]) >= 2 * N_TRACES)
        )
        scored = [orjson.loads(r.value) for r in got[s.scores_topic]]
        assert {e["event_id"] for e in scored} == set(traces), log.read_text()[-3000:]
        expected = _expected(traces)
        for value in scored:  # whole traces, not fragments
            assert _without_timing(value) == expected[value["event_id"]]
    finally:
        assert stop_process(worker) == 0
