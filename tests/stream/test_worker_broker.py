"""The worker against a real Kafka-protocol broker (embedded Tansu)."""

from __future__ import annotations

import asyncio
import base64
import json
import urllib.request
from pathlib import Path

import orjson
import pytest
from kafka_io import kill_worker_after_scores, produce, read_until

from monitor.config import Settings
from monitor.demo.traffic import TrafficGenerator
from monitor.pipeline import decode_event, score_event
from monitor.stream.worker_process import start_worker, stop_process

pytestmark = [pytest.mark.broker, pytest.mark.timeout(240)]

EXPECTED_REASON = {
    "not_json": "invalid_json",
    "truncated_json": "invalid_json",
    "json_array": "not_an_object",
    "missing_query_text": "missing_field",
    "missing_event_id": "missing_field",
    "wrong_type_timestamp": "invalid_type",
    "wrong_type_chunks": "invalid_type",
    "schema_version_2": "unsupported_schema_version",
    "oversized": "oversized",
    "non_finite_score": "invalid_value",
}
NON_FINITE = (
    b'{"schema_version":"1","event_id":"nan-1","timestamp_ms":1,'
    b'"query":{"text":"q"},"chunks":[{"score":NaN}]}'
)


def _health(settings: Settings) -> dict[str, object]:
    url = f"http://127.0.0.1:{settings.web_port}/healthz"
    with urllib.request.urlopen(url, timeout=5) as response:
        assert response.status == 200
        return json.loads(response.read())  # type: ignore[no-any-return]


def _without_timing(scored: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in scored.items() if k != "scoring_us"}


def test_scores_990_and_dead_letters_10_with_reasons(
    stream_settings: Settings, tmp_path: Path
) -> None:
    gen = TrafficGenerator(seed=11)
    good = [orjson.dumps(gen.event()) for _ in range(990)]
    bad = {kind: payload for kind, payload in (gen.malformed_with_kind() for _ in range(9))}
    bad["non_finite_score"] = NON_FINITE
    assert set(bad) == set(EXPECTED_REASON)
    messages: list[tuple[bytes | None, bytes]] = [(None, v) for v in good]
    for i, payload in enumerate(bad.values()):  # spread the bad ones through the stream
        messages.insert(50 + i * 97, (b"bad-%d" % i, payload))
    assert len(messages) == 1000

    worker = start_worker(stream_settings, tmp_path / "worker.log")
    try:
        asyncio.run(produce(stream_settings, messages))
        s = stream_settings
        got = asyncio.run(
            read_until(
                s,
                [s.scores_topic, s.dlq_topic],
                lambda g: len(g[s.scores_topic]) >= 990 and len(g[s.dlq_topic]) >= 10,
            )
        )
        scores, letters = got[s.scores_topic], got[s.dlq_topic]
        assert len(scores) == 990, (tmp_path / "worker.log").read_text()[-3000:]
        assert len(letters) == 10

        # Every score equals the pure scorer's, keyed by event_id.
        expected = {}
        for payload in good:
            scored = score_event(decode_event(payload)).model_dump(mode="json")
            expected[scored["event_id"]] = _without_timing(scored)
        for record in scores:
            value = orjson.loads(record.value)
            assert record.key == value["event_id"].encode()
            assert _without_timing(value) == expected[value["event_id"]]
        assert {orjson.loads(r.value)["event_id"] for r in scores} == set(expected)

        # Every dead letter carries the right reason, its source and the original bytes.
        by_payload = {payload: kind for kind, payload in bad.items()}
        seen = set()
        for record in letters:
            letter = orjson.loads(record.value)
            original = base64.b64decode(letter["payload_b64"])
            if letter["truncated"]:  # a dead letter keeps the first bytes of a large message
                (kind,) = (k for p, k in by_payload.items() if p.startswith(original))
            else:
                kind = by_payload[original]
            seen.add(kind)
            assert letter["error"]["reason"] == EXPECTED_REASON[kind], kind
            assert letter["error"]["stage"] in ("decode", "validate")
            assert letter["topic"] == s.events_topic
            assert letter["partition"] >= 0 and letter["offset"] >= 0
            assert record.key is not None and record.key.startswith(b"bad-")
        assert seen == set(EXPECTED_REASON)
        fields = {orjson.loads(r.value)["error"]["field"] for r in letters}
        assert {"query.text", "event_id", "timestamp_ms", "schema_version"} <= fields

        # The worker is still running and says so.
        assert worker.poll() is None
        health = _health(s)
        assert health["status"] == "ok"
        assert health["events"] == 1000 and health["scored"] == 990
        assert health["dead_letters"] == 10
    finally:
        code = stop_process(worker)
    assert code == 0, "the worker should stop cleanly on SIGTERM"


def test_sigkill_mid_stream_loses_nothing(stream_settings: Settings, tmp_path: Path) -> None:
    """Offsets are committed only after results are produced: kill -9 loses no event."""
    s = stream_settings
    gen = TrafficGenerator(seed=5, malformed_rate=0.0)
    events = [gen.event() for _ in range(20000)]
    asyncio.run(produce(s, [(None, orjson.dumps(e)) for e in events]))
    log = tmp_path / "worker.log"
    kill_worker_after_scores(s, log, 2000, len(events))

    second = start_worker(s, log)
    try:
        wanted = {e["event_id"] for e in events}

        def complete(g: dict[str, list]) -> bool:  # type: ignore[type-arg]
            return {orjson.loads(r.value)["event_id"] for r in g[s.scores_topic]} >= wanted

        got = asyncio.run(read_until(s, [s.scores_topic], complete, timeout_s=120))
        ids = [orjson.loads(r.value)["event_id"] for r in got[s.scores_topic]]
        assert set(ids) == wanted, f"{len(wanted - set(ids))} events lost"
        # at-least-once: duplicates are allowed, but only from the batches in flight
        assert len(ids) - len(wanted) <= 2 * s.batch_max_events * s.topic_partitions
    finally:
        stop_process(second)
