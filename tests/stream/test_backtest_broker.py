"""``ragmon backtest`` against the real worker: the same events give the same alert
notifications (fingerprint, status, window)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import orjson
import pytest
from kafka_io import produce, read_until

from bench.scenarios.traffic import Fault, ScenarioTraffic
from monitor.backtest.engine import Backtest
from monitor.config import Settings
from monitor.stream.kafka import ensure_topics
from monitor.stream.worker_process import start_worker, stop_process

pytestmark = [pytest.mark.broker, pytest.mark.timeout(300)]

WINDOW_MS = 2_000
BASE_MS = 1_700_000_000_000  # a past, window-aligned event time
WINDOWS = 20


def configured(settings: Settings) -> Settings:
    """Short windows, baselines configured (so rules apply from the first window), one
    events partition (the per-event change-point detectors see the backtest's order)."""
    return settings.model_copy(
        update={
            "events_topic": settings.events_topic + ".one",
            "topic_partitions": 1,
            "tumbling_window_ms": WINDOW_MS,
            "hopping_window_ms": 3 * WINDOW_MS,
            "hopping_step_ms": WINDOW_MS,
            "allowed_lateness_ms": 120_000,  # nothing is late: every window closes when idle
            "window_idle_close_s": 3.0,
            "baselines": {
                "quality.overall": 0.75,
                "quality.retrieval_confidence": 0.68,
                "quality.context_sufficiency": 0.77,
            },
        }
    )


def test_worker_and_backtest_send_the_same_notifications(
    stream_settings: Settings, tmp_path: Path
) -> None:
    s = configured(stream_settings)
    asyncio.run(ensure_topics(s))
    fault = Fault("retrieval_broken", BASE_MS + 8 * WINDOW_MS, BASE_MS + 13 * WINDOW_MS)
    traffic = ScenarioTraffic(5, 100.0, WINDOWS * WINDOW_MS, start_ms=BASE_MS, faults=[fault])
    records = list(traffic.records())
    expected_windows = {ts // WINDOW_MS * WINDOW_MS for ts, _ in records}

    backtest = [
        (a.fingerprint, a.status, a.window.start_ms, a.window.end_ms)
        for a in Backtest(s).alerts([payload for _, payload in records])
    ]
    assert any(n[1] == "firing" for n in backtest) and any(n[1] == "resolved" for n in backtest)

    asyncio.run(produce(s, [(None, payload) for _, payload in records]))
    worker = start_worker(s, tmp_path / "worker.log")

    def closed(got: dict[str, list]) -> set[int]:  # type: ignore[type-arg]
        out = set()
        for r in got[s.windows_topic]:
            w = orjson.loads(r.value)
            if w["kind"] == "tumbling":
                out.add(w["start_ms"])
        return out

    try:
        got = asyncio.run(
            read_until(
                s,
                [s.windows_topic, s.alerts_topic],
                lambda g: closed(g) >= expected_windows,
                timeout_s=180,
            )
        )
    finally:
        stop_process(worker)
    assert closed(got) >= expected_windows
    # every window's alerts are written before its summary: all of them are in `got`
    alerts = [orjson.loads(r.value) for r in got[s.alerts_topic]]
    from_worker = [
        (a["fingerprint"], a["status"], a["window"]["start_ms"], a["window"]["end_ms"])
        for a in alerts
    ]
    assert sorted(from_worker) == sorted(backtest)
