"""Windows on the real broker: exact counts per closed window, also across a SIGKILL."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import orjson
import pytest
from kafka_io import closed_counts, kill_worker_after_scores, produce, read_until

from monitor.config import Settings
from monitor.demo.traffic import TrafficGenerator
from monitor.stream.worker_process import start_worker, stop_process

pytestmark = [pytest.mark.broker, pytest.mark.timeout(300)]

WINDOW_MS = 2_000
BASE_MS = 1_700_000_000_000  # a past, window-aligned event time


def windowed(settings: Settings) -> Settings:
    return settings.model_copy(
        update={
            "tumbling_window_ms": WINDOW_MS,
            "hopping_window_ms": 3 * WINDOW_MS,
            "hopping_step_ms": WINDOW_MS,
            "allowed_lateness_ms": 120_000,  # nothing is late: every window closes when idle
            "window_idle_close_s": 3.0,
        }
    )


def test_sigkill_then_restart_every_window_counts_each_distinct_event_once(
    stream_settings: Settings, tmp_path: Path
) -> None:
    s = windowed(stream_settings)
    gen = TrafficGenerator(seed=23, malformed_rate=0.0)
    events = []
    for i in range(12_000):
        e = gen.event()
        e["timestamp_ms"] = BASE_MS + (i * 20 * WINDOW_MS) // 12_000  # 20 windows, in order
        events.append(e)
    messages = [(e["event_id"].encode(), orjson.dumps(e)) for e in events]
    # 50 events produced twice (a producer retry): same id, same key, so same partition,
    # next to the original, well before the kill
    dups = [messages[i] for i in range(0, 1_000, 20)]
    stream = []
    for i, m in enumerate(messages):
        stream.append(m)
        if i < 1_000 and i % 20 == 0:
            stream.append(m)
    assert len(stream) == len(messages) + len(dups)
    asyncio.run(produce(s, stream))
    expected = Counter(
        (e["timestamp_ms"] - BASE_MS) // WINDOW_MS * WINDOW_MS + BASE_MS for e in events
    )

    log = tmp_path / "worker.log"
    kill_worker_after_scores(s, log, 5_000, len(stream))

    second = start_worker(s, log)
    try:
        got = asyncio.run(
            read_until(
                s,
                [s.windows_topic],
                lambda g: set(closed_counts(g[s.windows_topic])) >= set(expected),
                timeout_s=180,
            )
        )
    finally:
        stop_process(second)
    counts = closed_counts(got[s.windows_topic])
    assert counts == dict(expected)
    assert sum(counts.values()) == len(events)
