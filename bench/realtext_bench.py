"""Speed on real text (:mod:`bench.realtext`: CPython's pydoc_data prose): scoring at 2, 8,
32 and 128 KB per event with and without popular passages reused, ``ragmon score`` and
``ragmon eval`` on 8 KB events, and the chunk cache's memory against its budget.

In-process rows time :func:`monitor.pipeline.process` (decode and score) per event, in
steady state: with reuse, the cache is first warmed by as many events of the same
popularity (another seed); without reuse every chunk is new text, so every chunk is a
cache miss. Family rows are each family's own time on the same events (p50 / p99).
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import time
from pathlib import Path

import orjson

from bench.realtext import RealTextEvents
from monitor.pipeline import decode_event, process
from monitor.scoring.chunk_cache import configure_chunk_cache
from monitor.scoring.families import FAMILIES, ScoringInput

__all__ = [
    "EVENTS_PER_SIZE",
    "bench_realtext",
    "bench_realtext_cli",
    "bench_realtext_eval",
    "score_file",
]

Row = tuple[str, str, str]

EVENTS_PER_SIZE = {2: 4000, 8: 2000, 32: 500, 128: 150}

_TARGETS = {
    (8, True): ">= 3,000 events/s",
    (8, False): ">= 1,500 events/s",
}


def _pct(samples: list[int]) -> tuple[float, float]:
    samples.sort()
    n = len(samples)
    return samples[n // 2] / 1000, samples[min(n - 1, int(n * 0.99))] / 1000


def _measure(size_kb: int, reuse: bool, n: int) -> tuple[Row, Row, float]:
    configure_chunk_cache(512 * 1024 * 1024)
    if reuse:  # steady state: the popular passages are in the cache already
        for m in RealTextEvents(seed=99, size_kb=size_kb, reuse=True).messages(n):
            process(m)
    payloads = RealTextEvents(seed=1, size_kb=size_kb, reuse=reuse).messages(n)
    kb = sum(map(len, payloads)) / len(payloads) / 1024
    clock = time.perf_counter_ns
    gc.collect()
    t0 = clock()
    for p in payloads:
        process(p)
    per_event_us = (clock() - t0) / n / 1000
    if not reuse:  # the families on new text again: another seed, nothing cached
        payloads = RealTextEvents(seed=2, size_kb=size_kb, reuse=False).messages(n)
    inputs = [ScoringInput.of(decode_event(p)) for p in payloads]
    families: dict[str, list[int]] = {name: [] for name in FAMILIES}
    for inp in inputs:
        for name, family in FAMILIES.items():
            t = clock()
            family(inp)
            families[name].append(clock() - t)
    label = f"{size_kb} KB events ({kb:.1f} KB), {'Zipf reuse' if reuse else 'no reuse'}"
    main = (
        f"real text, {label}, {n:,} events",
        f"{1e6 / per_event_us:,.0f} events/s, {per_event_us / kb:.0f} us per KB",
        _TARGETS.get((size_kb, reuse), ""),
    )
    detail = "  ".join(
        f"{name} {p50:.0f}/{p99:.0f}"
        for name, (p50, p99) in ((k, _pct(v)) for k, v in families.items())
    )
    return main, ("  families p50/p99 us", detail, ""), per_event_us / kb


def bench_realtext(sizes: dict[int, int] | None = None) -> list[Row]:
    """Events/s and us per KB at each size, with and without reuse; families per row."""
    rows: list[Row] = []
    per_kb: dict[bool, dict[int, float]] = {True: {}, False: {}}
    for size_kb, n in (sizes or EVENTS_PER_SIZE).items():
        for reuse in (True, False):
            main, detail, us_per_kb = _measure(size_kb, reuse, n)
            rows += [main, detail]
            per_kb[reuse][size_kb] = us_per_kb
    configure_chunk_cache(512 * 1024 * 1024)
    for reuse, costs in per_kb.items():
        if 8 in costs and 128 in costs:
            rows.append(
                (
                    f"real text, cost per KB 128 KB / 8 KB, {'reuse' if reuse else 'no reuse'}",
                    f"{costs[128] / costs[8]:.2f}x",
                    "within 1.3x",
                )
            )
    return rows


# A forked child's ru_maxrss counts the parent's pages from before exec, so the scorer is
# started by a small wrapper process whose own footprint is a few MB.
_MEASURE = """
import resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def score_file(path: Path, env: dict[str, str], jobs: int = 1) -> tuple[float, float]:
    """``ragmon score FILE`` in a fresh process: seconds and its peak RSS in MB (with
    ``jobs`` > 1, the largest of the processes')."""
    t0 = time.perf_counter()
    command = [sys.executable, "-m", "monitor", "score", str(path), "--jobs", str(jobs)]
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command],
        capture_output=True,
        check=True,
        text=True,
        env=env,
    ).stdout.split()
    elapsed = time.perf_counter() - t0
    if out[0] not in ("0", "1"):
        raise RuntimeError(f"ragmon score failed: {out}")
    return elapsed, int(out[1]) / 1024


def bench_realtext_cli(n: int, workdir: Path) -> list[Row]:
    """``ragmon score`` over ``n`` 8 KB real-text events (whole process), with and without
    reuse; and the cache's footprint: peak RSS with a 64 MiB budget minus with none, on
    events whose chunks are all new (the cache fills up and must evict)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MONITOR_")}
    rows: list[Row] = []
    for reuse in (True, False):
        path = workdir / f"realtext-8k-{reuse}.jsonl"
        with path.open("wb") as f:
            for m in RealTextEvents(seed=3, size_kb=8, reuse=reuse).messages(n):
                f.write(m + b"\n")
        for jobs in sorted({1, os.cpu_count() or 1}):
            elapsed, rss_mb = score_file(path, env, jobs)
            rows.append(
                (
                    f"ragmon score --jobs {jobs}, {n:,} real-text 8 KB events, "
                    f"{'reuse' if reuse else 'no reuse'}",
                    f"{n / elapsed:,.0f} events/s (whole command), peak RSS {rss_mb:.0f} MB",
                    _TARGETS[(8, reuse)],
                )
            )
        if not reuse:
            budget_mb = 64
            _, with_cache = score_file(
                path, {**env, "MONITOR_CHUNK_CACHE_BYTES": str(budget_mb << 20)}
            )
            _, without = score_file(path, {**env, "MONITOR_CHUNK_CACHE_BYTES": "0"})
            rows.append(
                (
                    f"chunk cache footprint, {budget_mb} MiB budget, {n:,} events of new chunks",
                    f"peak RSS {with_cache:.0f} MB vs {without:.0f} MB without the cache: "
                    f"{with_cache - without:+.0f} MB",
                    f"<= {budget_mb} MiB",
                )
            )
        path.unlink()
    return rows


def bench_realtext_eval(n: int, workdir: Path) -> list[Row]:
    """``ragmon eval`` (no judge, no plots and with plots) of ``n`` labelled 8 KB real-text
    events with reuse: the whole command in a fresh process."""
    path = workdir / f"realtext-eval-{n}.jsonl"
    with path.open("wb") as f:
        for e in RealTextEvents(seed=4, size_kb=8, reuse=True, labelled=True).events(n):
            f.write(orjson.dumps(e) + b"\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MONITOR_")}
    rows: list[Row] = []
    for plots in (True, False):
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "monitor", "eval", str(path), "--quiet",
             "--out-dir", str(workdir / "realtext-reports"), *([] if plots else ["--no-plots"])],
            capture_output=True, text=True, check=False, env=env,
        )  # fmt: skip
        elapsed = time.perf_counter() - t0
        if proc.returncode not in (0, 1):
            raise RuntimeError(f"ragmon eval failed ({proc.returncode}): {proc.stderr[-500:]}")
        rows.append(
            (
                f"ragmon eval, {n:,} real-text 8 KB events{'' if plots else ', --no-plots'}",
                f"{elapsed:.1f} s ({n / elapsed:,.0f} events/s), whole process",
                "< 10 s",
            )
        )
    path.unlink()
    return rows
