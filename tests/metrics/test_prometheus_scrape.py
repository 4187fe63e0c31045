"""A real Prometheus scrapes a running worker; PromQL through its HTTP API returns the
windowed mean quality per variant that this test computes from the events it produced, and
the whole-traffic mean as an aggregate of the per-variant series (no roll-up series)."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from pathlib import Path

import orjson
import pytest
from kafka_io import produce
from promstack import prometheus_server, require_tools

from monitor.config import Settings
from monitor.demo.traffic import TrafficGenerator
from monitor.pipeline import decode_event, score_event
from monitor.stream.worker_process import start_worker, stop_process

pytestmark = [pytest.mark.broker, pytest.mark.timeout(240)]

WINDOW_MS = 60_000
BASE_MS = 1_700_000_040_000  # a window-aligned past time


def test_prometheus_query_returns_the_window_mean_per_variant(
    stream_settings: Settings, tmp_path: Path
) -> None:
    require_tools("prometheus")
    s = stream_settings.model_copy(
        update={
            "tumbling_window_ms": WINDOW_MS,
            "hopping_window_ms": WINDOW_MS,
            "hopping_step_ms": WINDOW_MS,
            "allowed_lateness_ms": 0,
            "window_idle_close_s": 2.0,
        }
    )
    gen = TrafficGenerator(seed=31, malformed_rate=0.0)
    raw = []
    for i in range(600):
        event = gen.event()
        event["timestamp_ms"] = BASE_MS + i * 90  # all inside one tumbling window
        raw.append(orjson.dumps(event))
    values: dict[str, list[float]] = defaultdict(list)
    for payload in raw:
        scored = score_event(decode_event(payload))
        values[scored.variant or "none"].append(scored.quality.overall)
    expected = {v: sum(xs) / len(xs) for v, xs in values.items()}
    assert len(expected) >= 2  # two variants (no roll-up series: that is PromQL's)

    asyncio.run(produce(s, [(None, p) for p in raw]))
    worker = start_worker(s, tmp_path / "worker.log")
    try:
        target = f"127.0.0.1:{s.web_port}"
        with prometheus_server(tmp_path, [target], scrape_interval_s=0.5) as prom:
            query = 'rag_monitor_window_mean{metric="quality.overall"}'
            rows = prom.query_until(
                query, lambda r: {x["metric"]["variant"] for x in r} >= set(expected), 90
            )
            got = {r["metric"]["variant"]: float(r["value"][1]) for r in rows}
            counts = prom.query('rag_monitor_window_observations{metric="quality.overall"}')
            events = prom.query("sum by (variant) (rag_monitor_events_total)")
            overall = prom.query(
                'sum(rag_monitor_window_mean{metric="quality.overall"}'
                ' * rag_monitor_window_observations{metric="quality.overall"})'
                ' / sum(rag_monitor_window_observations{metric="quality.overall"})'
            )
    finally:
        assert stop_process(worker) == 0
    assert got == pytest.approx(expected, rel=1e-12)
    every = [x for xs in values.values() for x in xs]
    assert float(overall[0]["value"][1]) == pytest.approx(sum(every) / len(every), rel=1e-9)
    assert {r["metric"]["variant"]: float(r["value"][1]) for r in counts} == {
        v: len(xs) for v, xs in values.items()
    }
    assert {r["metric"]["variant"]: float(r["value"][1]) for r in events} == {
        v: len(xs) for v, xs in values.items()
    }
