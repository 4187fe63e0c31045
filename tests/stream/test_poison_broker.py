"""Poison messages on the real broker (issue 11, findings 4, 5, 6 and 9b): each goes to the
DLQ with its reason, and the healthy traffic after it is scored once and windowed."""

from __future__ import annotations

import asyncio
import base64
import json
import time
import urllib.request
from collections import Counter
from pathlib import Path

import orjson
import pytest
from kafka_io import closed_counts, produce, read_until

from monitor.config import Settings
from monitor.demo.traffic import TrafficGenerator
from monitor.stream.worker_process import start_worker, stop_process

pytestmark = [pytest.mark.broker, pytest.mark.timeout(300)]

WINDOW_MS = 2_000
HEALTHY_PER_POISON = 200
YEAR_MS = 365 * 86_400_000


def poison_settings(settings: Settings) -> Settings:
    return settings.model_copy(
        update={
            "tumbling_window_ms": WINDOW_MS,
            "hopping_window_ms": 3 * WINDOW_MS,
            "hopping_step_ms": WINDOW_MS,
            "allowed_lateness_ms": 120_000,  # as in test_windows_broker: closed when idle
            "window_idle_close_s": 3.0,
            "max_event_age_ms": 7 * 86_400_000,  # the defaults, not the fixture's
            "max_event_ahead_ms": 3_600_000,
            "max_message_bytes": 1_048_576,  # as small as allowed: a 900 KB dead letter
            "max_event_bytes": 100_000,  # does not fit once base64-encoded
            "dlq_max_payload_bytes": 10_000_000,  # so the topic's limit is what cuts it
        }
    )


def event_with_time(timestamp_ms: int) -> bytes:
    body = {
        "schema_version": "1",
        "event_id": f"poison-{timestamp_ms}",
        "timestamp_ms": timestamp_ms,
        "query": {"text": "What is the vacation policy?"},
    }
    return json.dumps(body).encode()  # json: orjson cannot write 2**64


def health(settings: Settings) -> tuple[int, dict[str, object]]:
    url = f"http://127.0.0.1:{settings.web_port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_each_poison_message_is_dead_lettered_and_the_traffic_after_it_flows(
    stream_settings: Settings, tmp_path: Path
) -> None:
    s = poison_settings(stream_settings)
    now_ms = int(time.time() * 1000)
    oversized = b'{"schema_version": "1", "padding": "' + b"p" * 900_000 + b'"}'
    poisons: dict[bytes, tuple[bytes, str]] = {
        b"poison-int64": (event_with_time(2**64), "timestamp_out_of_range"),
        b"poison-future": (event_with_time(now_ms + 10 * YEAR_MS), "timestamp_out_of_range"),
        b"poison-large": (oversized, "oversized"),
        b"poison-empty": (b"", "empty_payload"),
    }
    # healthy traffic from 10 minutes ago (32 s of it): well inside the accepted range, and
    # older than the allowed lateness, so every window closes once the worker is idle
    start_ms = now_ms - 600_000
    gen = TrafficGenerator(seed=41, malformed_rate=0.0, start_ms=start_ms, events_per_s=25)
    messages: list[tuple[bytes | None, bytes]] = []
    healthy = []
    for key, (value, _) in poisons.items():
        messages.append((key, value))
        for _ in range(HEALTHY_PER_POISON):
            e = gen.event()
            healthy.append(e)
            messages.append((e["event_id"].encode(), orjson.dumps(e)))
    expected = Counter(e["timestamp_ms"] // WINDOW_MS * WINDOW_MS for e in healthy)
    assert max(e["timestamp_ms"] for e in healthy) < now_ms

    log = tmp_path / "worker.log"
    worker = start_worker(s, log)
    try:
        asyncio.run(produce(s, messages))
        got = asyncio.run(
            read_until(
                s,
                [s.scores_topic, s.dlq_topic, s.windows_topic],
                lambda g: (
                    len(g[s.scores_topic]) >= len(healthy)
                    and len(g[s.dlq_topic]) >= len(poisons)
                    and set(closed_counts(g[s.windows_topic])) >= set(expected)
                ),
                timeout_s=90,
            )
        )
        status, body = health(s)
    finally:
        stop_process(worker)
    tail = log.read_text()[-3000:]

    # every poison message is in the DLQ once, with its reason
    letters = {r.key: orjson.loads(r.value) for r in got[s.dlq_topic]}
    assert len(got[s.dlq_topic]) == len(poisons), tail
    assert {k: v["error"]["reason"] for k, v in letters.items()} == {
        k: reason for k, (_, reason) in poisons.items()
    }
    assert letters[b"poison-int64"]["error"]["field"] == "timestamp_ms"
    assert letters[b"poison-future"]["error"]["stage"] == "validate"
    large = letters[b"poison-large"]
    assert large["truncated"] is True
    assert oversized.startswith(base64.b64decode(large["payload_b64"]))
    assert all(len(r.value) <= s.max_message_bytes for r in got[s.dlq_topic])
    assert not letters[b"poison-int64"]["truncated"]

    # the healthy events are all scored, each once
    scored = Counter(orjson.loads(r.value)["event_id"] for r in got[s.scores_topic])
    assert set(scored) == {e["event_id"] for e in healthy}, tail
    assert max(scored.values()) == 1, "an event was scored twice"

    # and windowed normally: every closed window counts exactly its events
    counts = closed_counts(got[s.windows_topic])
    assert {start: counts.get(start) for start in expected} == dict(expected), body
    assert max(counts) < now_ms + 3_600_000, "a poison moved the watermark"

    # the worker is ready, and counted what it did
    assert status == 200, body
    assert body["status"] == "ok"
    assert body["failed_batches"] == 0
    windows = body["windows"]
    assert isinstance(windows, dict)
    assert windows["watermark_ms"] < now_ms + 60_000
