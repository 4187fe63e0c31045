"""The worker's real ``/metrics`` output (a running worker, after a window closed) passes
``promtool check metrics``: base units (latencies in seconds), no gauge named ``_count``,
the standard process collector, no ``variant="all"`` roll-up next to the per-variant
series."""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections import defaultdict
from pathlib import Path

import httpx
import orjson
import pytest
from kafka_io import produce
from prometheus_client.parser import text_string_to_metric_families
from promstack import require_tools

from monitor.config import Settings
from monitor.demo.traffic import TrafficGenerator
from monitor.pipeline import decode_event, score_event
from monitor.stream.worker_process import start_worker, stop_process

pytestmark = [pytest.mark.broker, pytest.mark.timeout(240)]

WINDOW_MS = 60_000
BASE_MS = 1_700_000_100_000  # a window-aligned past time


def _scrape_until_windowed(url: str, timeout_s: float) -> str:
    """The exposition, once the closed window's latency gauges are in it."""
    deadline = time.monotonic() + timeout_s
    text = ""
    while time.monotonic() < deadline:
        try:
            text = httpx.get(url, timeout=5).text
        except httpx.HTTPError:
            text = ""
        if "rag_monitor_window_latency_p95_seconds{" in text:
            return text
        time.sleep(0.5)
    raise AssertionError(f"no window gauges within {timeout_s} s:\n{text[-2000:]}")


def test_the_workers_metrics_pass_promtool_check_metrics(
    stream_settings: Settings, tmp_path: Path
) -> None:
    promtool = require_tools("promtool")["promtool"]
    s = stream_settings.model_copy(
        update={
            "tumbling_window_ms": WINDOW_MS,
            "hopping_window_ms": WINDOW_MS,
            "hopping_step_ms": WINDOW_MS,
            "allowed_lateness_ms": 0,
            "window_idle_close_s": 2.0,
        }
    )
    gen = TrafficGenerator(seed=5, malformed_rate=0.0)
    raw = []
    for i in range(300):
        event = gen.event()
        event["timestamp_ms"] = BASE_MS + i * 150  # one tumbling window
        raw.append(orjson.dumps(event))
    latencies_ms: dict[str, list[float]] = defaultdict(list)
    for payload in raw:
        scored = score_event(decode_event(payload))
        latencies_ms[scored.variant or "none"].append(scored.latency_ms["total"])
    assert len(latencies_ms) >= 2

    asyncio.run(produce(s, [(None, p) for p in raw]))
    worker = start_worker(s, tmp_path / "worker.log")
    try:
        text = _scrape_until_windowed(f"http://127.0.0.1:{s.web_port}/metrics", 120)
    finally:
        assert stop_process(worker) == 0

    (tmp_path / "metrics.txt").write_text(text)
    done = subprocess.run(
        [promtool, "check", "metrics"], input=text, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "" and done.stderr.strip() == ""  # no lint finding at all

    families = {f.name: f for f in text_string_to_metric_families(text)}
    assert "rag_monitor_window_count" not in families
    assert {"process_cpu_seconds", "process_resident_memory_bytes", "python_info"} <= set(families)
    samples = [x for f in families.values() for x in f.samples]
    assert not [x for x in samples if x.labels.get("variant") == "all"]
    # a latency_ms.* metric id only where the value has no unit (a count, a p-value, a
    # verdict flag)
    unitless = {
        "rag_monitor_window_observations",
        "rag_monitor_ab_always_valid_p_value",
        "rag_monitor_ab_verdict",
        "rag_monitor_ab_guardrail_worse",
    }
    assert not [x for x in samples if x.labels.get("metric", "").startswith("latency_ms.")
                and x.name not in unitless]  # fmt: skip
    means = {
        x.labels["variant"]: x.value
        for x in families["rag_monitor_window_latency_mean_seconds"].samples
        if x.labels["stage"] == "total"
    }
    expected = {v: sum(xs) / len(xs) / 1000.0 for v, xs in latencies_ms.items()}
    assert means == pytest.approx(expected, rel=1e-9)
