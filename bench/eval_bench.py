"""``ragmon eval`` over 10,000 recorded, labelled events (NFR-1: under 10 s without the
judge): the whole command in a fresh process, reports and plots included.

The events are the committed recorded fixtures (every perspective labelled: retrieval,
context, groundedness, safety, pipeline) repeated with fresh ids and varied latencies.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

Row = tuple[str, str, str]

FIXTURE = Path(__file__).resolve().parents[1] / "tests/fixtures/evals/recorded_events.jsonl"


def write_events(path: Path, n: int) -> None:
    """``n`` labelled events cycled from the recorded fixture, each with its own id."""
    templates = [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]
    with path.open("w") as out:
        for i in range(n):
            event = dict(templates[i % len(templates)])
            event["event_id"] = f"{event['event_id']}-{i:06d}"
            latency = dict(event.get("latency_ms") or {})
            if "total" in latency:
                latency["total"] = latency["total"] * (0.5 + (i * 7919 % 1000) / 1000)
            event["latency_ms"] = latency
            out.write(json.dumps(event) + "\n")


def bench_eval(n_events: int, workdir: Path) -> list[Row]:
    path = workdir / f"recorded-{n_events}.jsonl"
    write_events(path, n_events)
    rows: list[Row] = []
    for plots in (True, False):
        t0 = time.perf_counter()
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "monitor",
                "eval",
                str(path),
                "--quiet",
                "--out-dir",
                str(workdir / "reports"),
                *([] if plots else ["--no-plots"]),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        elapsed = time.perf_counter() - t0
        if proc.returncode != 0:
            raise RuntimeError(f"ragmon eval failed ({proc.returncode}): {proc.stderr[-500:]}")
        rows.append(
            (
                f"ragmon eval, {n_events:,} recorded events{'' if plots else ', --no-plots'}",
                f"{elapsed:.1f} s ({n_events / elapsed:,.0f} events/s), whole process",
                "< 10 s",
            )
        )
    return rows
