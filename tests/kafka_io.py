"""Test helpers that talk to the broker directly (aiokafka), outside the worker."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Sequence
from pathlib import Path

import orjson

from bench.broker_io import Record, produce, read_until
from monitor.config import Settings
from monitor.stream.worker_process import start_worker, stop_process

__all__ = ["Record", "closed_counts", "kill_worker_after_scores", "produce", "read_until"]


def kill_worker_after_scores(settings: Settings, log: Path, n_scores: int, total: int) -> None:
    """Start a worker, SIGKILL it once ``n_scores`` scores are on the scores topic, and
    check that the kill came before all ``total`` events were scored (else the test would
    test nothing). The worker's output goes to ``log``."""
    worker = start_worker(settings, log)
    try:
        topic = settings.scores_topic
        asyncio.run(read_until(settings, [topic], lambda g: len(g[topic]) >= n_scores))
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
    finally:
        stop_process(worker)
    scored = asyncio.run(read_until(settings, [topic], lambda g: False, timeout_s=2))
    assert len(scored[topic]) < total, "kill came too late to test anything"


def closed_counts(records: Sequence[Record]) -> dict[int, int]:
    """Tumbling window start -> scored events in the whole-traffic roll-up, from window
    summaries (the last summary of a window wins; a window of dead letters only has 0)."""
    out = {}
    for r in records:
        w = orjson.loads(r.value or b"{}")
        if w["kind"] == "tumbling":
            overall = next(
                s
                for s in w["series"]
                if s["variant"] is None and s["tenant"] is None and s["application"] is None
            )
            quality = overall["metrics"].get("quality.overall")
            out[w["start_ms"]] = 0 if quality is None else quality["count"]
    return out
