"""``make bench``: the speed table.

First, real text (:mod:`bench.realtext_bench`, CPython's pydoc_data prose): scoring at 2,
8, 32 and 128 KB per event with and without popular passages reused (events/s, us per KB,
p50/p99 per family), ``ragmon score`` and its chunk cache's footprint, ``ragmon eval`` of
10,000 8 KB events, and the worker end to end on 8 KB events. Then the demo generator's
events (small chunks from a small corpus, so per-chunk caches almost always hit), kept as
a separate block:

1. composite + CRAG scoring time per event (p50, p99 in microseconds) on generator
   events of about 2-3 KB, and full ``score_event`` for comparison;
2. ``ragmon score`` events/s over 100,000 lines, with the process's peak RSS;
3. end-to-end worker events/s through the embedded broker (events preloaded, clock from
   the first to the last score produced);
4. in the same run, raw aiokafka ``getmany`` + orjson decode events/s: the ceiling;
5. alert quality (backtest, pydoc_data scenarios): pages per simulated day on healthy
   traffic, and per fault kind the detection delay, firing notifications per incident,
   the first page's diagnosis and the resolves (:mod:`bench.alert_quality`, one seed).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

import orjson
from aiokafka import AIOKafkaConsumer, TopicPartition

from bench.alert_quality import report as alert_quality
from bench.eval_bench import bench_eval, bench_eval_judge
from bench.realtext import RealTextEvents
from bench.realtext_bench import (
    bench_realtext,
    bench_realtext_cli,
    bench_realtext_eval,
    score_file,
)
from monitor.config import Settings
from monitor.demo.traffic import TrafficGenerator
from monitor.pipeline import decode_event, score_event
from monitor.scoring.composite import score_quality
from monitor.scoring.crag import classify
from monitor.stream.broker import EmbeddedBroker, free_port
from monitor.stream.kafka import client_options, ensure_topics, new_producer
from monitor.stream.worker_process import start_worker, stop_process

Row = tuple[str, str, str]


def _percentiles(samples_ns: list[int]) -> tuple[float, float]:
    samples_ns.sort()
    n = len(samples_ns)
    return samples_ns[n // 2] / 1000, samples_ns[min(n - 1, int(n * 0.99))] / 1000


def bench_scoring(n_events: int, rounds: int = 5) -> list[Row]:
    """Per-event timings over ``rounds`` passes; the median round's percentiles and the
    range of p99 across rounds (this machine is shared, so single runs are noisy)."""
    gen = TrafficGenerator(seed=3, malformed_rate=0.0)
    payloads = [orjson.dumps(gen.event()) for _ in range(n_events)]
    events = [decode_event(p) for p in payloads]
    size = sum(map(len, payloads)) / len(payloads)
    clock = time.perf_counter_ns
    composite_rounds: list[tuple[float, float]] = []
    gc.disable()
    try:
        for _ in range(rounds):
            composite: list[int] = []
            for e in events:
                ctx = e.effective_context()
                t0 = clock()
                q = score_quality(e.query.text, e.chunks, ctx.text, ctx.token_count or 0)
                classify(q.overall, e.query.text)
                composite.append(clock() - t0)
            composite_rounds.append(_percentiles(composite))
    finally:
        gc.enable()

    def summary(results: list[tuple[float, float]]) -> str:
        p50 = sorted(r[0] for r in results)[len(results) // 2]
        p99s = sorted(r[1] for r in results)
        return (
            f"p50 {p50:.1f} us, p99 {p99s[len(p99s) // 2]:.1f} us "
            f"({p99s[0]:.0f}-{p99s[-1]:.0f} over {len(results)} rounds)"
        )

    return [
        (
            f"composite + CRAG per event ({size:.0f} B events)",
            summary(composite_rounds),
            "p99 < 50 us",
        ),
    ]


def bench_families(n_events: int) -> list[Row]:
    """Cost of each scorer family (issue 3's table) on events with 5 chunks and an answer."""
    from monitor.scoring.families import FAMILIES, ScoringInput

    gen = TrafficGenerator(seed=8, malformed_rate=0.0)
    events = []
    while len(events) < n_events:
        e = decode_event(orjson.dumps(gen.event()))
        if len(e.chunks) == 5 and e.response is not None:
            events.append(e)
    size = sum(len(e.model_dump_json()) for e in events) / len(events)
    inputs = [ScoringInput.of(e) for e in events]
    clock = time.perf_counter_ns
    rows: list[Row] = []
    gc.disable()
    try:
        for name, family in FAMILIES.items():
            samples = []
            for inp in inputs:
                t0 = clock()
                family(inp)
                samples.append(clock() - t0)
            p50, p99 = _percentiles(samples)
            rows.append((f"  family {name}", f"p50 {p50:.1f} us, p99 {p99:.1f} us", ""))
        totals = []
        for e in events:
            t0 = clock()
            score_event(e)
            totals.append(clock() - t0)
    finally:
        gc.enable()
    p50, p99 = _percentiles(totals)
    rows.insert(
        0,
        (
            f"full scoring, 5 chunks + answer ({size:.0f} B events)",
            f"p50 {p50:.1f} us, p99 {p99:.1f} us",
            "p50 < 150 us, p99 < 1 ms",
        ),
    )
    return rows


def bench_score_cli(n_lines: int, workdir: Path) -> list[Row]:
    rows: list[Row] = []
    for n in (n_lines // 10, n_lines):
        gen = TrafficGenerator(seed=4, malformed_rate=0.0)
        path = workdir / f"events-{n}.jsonl"
        with path.open("wb") as f:
            for _, value in gen.messages(n):
                f.write(value + b"\n")
        elapsed, rss_mb = score_file(path, dict(os.environ))
        rows.append(
            (
                f"ragmon score, {n:,} lines ({path.stat().st_size / 1e6:.0f} MB)",
                f"{n / elapsed:,.0f} events/s, peak RSS {rss_mb:.0f} MB",
                "RSS flat in lines",
            )
        )
        path.unlink()
    return rows


async def _preload(settings: Settings, n: int, source: str) -> None:
    """``n`` events of the demo generator (``source="generator"``) or of real text
    (``"realtext"``: 8 KB events of pydoc_data prose, popular passages reused)."""
    if source == "realtext":  # timestamped now, as the worker's event-time bounds want
        now_ms = int(time.time() * 1000)
        events = iter(
            {**e, "timestamp_ms": now_ms + i // 100}
            for i, e in enumerate(RealTextEvents(seed=6, size_kb=8, reuse=True).events(n))
        )
    else:
        gen = TrafficGenerator(seed=6, malformed_rate=0.0)
        events = (gen.event() for _ in range(n))
    producer = new_producer(settings, linger_ms=20)
    await producer.start()
    try:
        futures = []
        for e in events:
            futures.append(
                await producer.send(
                    settings.events_topic, orjson.dumps(e), key=str(e["event_id"]).encode()
                )
            )
        await asyncio.gather(*futures)
    finally:
        await producer.stop()


async def _count_topic(
    settings: Settings, topic: str, n: int, *, decode: bool, timeout_s: float
) -> tuple[float, int]:
    """Read ``topic`` from the start until ``n`` records; seconds from first to last."""
    consumer = AIOKafkaConsumer(
        **client_options(settings),
        group_id=None,
        enable_auto_commit=False,
        fetch_max_bytes=52_428_800,
    )
    await consumer.start()
    try:
        parts = [
            TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic) or ())
        ]
        consumer.assign(parts)
        await consumer.seek_to_beginning(*parts)
        seen, first, last = 0, 0.0, 0.0
        deadline = time.monotonic() + timeout_s
        while seen < n and time.monotonic() < deadline:
            batch = await consumer.getmany(timeout_ms=200, max_records=5000)
            for records in batch.values():
                if decode:
                    for r in records:
                        orjson.loads(r.value)  # type: ignore[arg-type]
                if records and not first:
                    first = time.perf_counter()
                seen += len(records)
            if batch:
                last = time.perf_counter()
        return last - first, seen
    finally:
        await consumer.stop()


async def _raw_ceiling(settings: Settings, n: int) -> float:
    """aiokafka getmany + orjson decode over the preloaded events, wall clock."""
    consumer = AIOKafkaConsumer(
        settings.events_topic,
        **client_options(settings),
        group_id=f"raw-{uuid.uuid4().hex[:6]}",
        enable_auto_commit=False,
        auto_offset_reset="earliest",
        session_timeout_ms=6000,
        heartbeat_interval_ms=1000,
        fetch_max_bytes=52_428_800,
    )
    await consumer.start()
    try:
        seen = 0
        t0 = 0.0
        while seen < n:
            batch = await consumer.getmany(timeout_ms=1000, max_records=5000)
            for records in batch.values():
                if not t0:
                    t0 = time.perf_counter()
                for r in records:
                    orjson.loads(r.value)  # type: ignore[arg-type]
                seen += len(records)
        return seen / (time.perf_counter() - t0)
    finally:
        await consumer.stop()


def _worker_rate(
    settings: Settings, n_events: int, workdir: Path, mode: str, workers: int = 1
) -> float | None:
    """``workers`` workers of one group over the preloaded events (started together; the
    time includes their join); events/s from first to last score."""
    s = settings.model_copy(
        update={
            "windows_enabled": mode == "windows",
            "consumer_group": f"bench-{mode}-{uuid.uuid4().hex[:6]}",
            "scores_topic": f"bench.{mode}.{uuid.uuid4().hex[:6]}.scores",
            "partials_topic": f"bench.{mode}.{uuid.uuid4().hex[:6]}.partials",
            "windows_topic": f"bench.{mode}.{uuid.uuid4().hex[:6]}.windows",
        }
    )
    asyncio.run(ensure_topics(s))
    procs = [
        start_worker(
            s if i == 0 else s.model_copy(
                update={"web_port": free_port(), "data_dir": workdir / f"worker-{mode}-{i}"}
            ),
            workdir / f"worker-{mode}-{i}.log",
        )
        for i in range(workers)
    ]  # fmt: skip
    try:
        seconds, seen = asyncio.run(
            _count_topic(s, s.scores_topic, n_events, decode=False, timeout_s=300)
        )
    finally:
        for proc in procs:
            stop_process(proc)
    return n_events / seconds if seen >= n_events else None


def bench_worker(
    n_events: int, workdir: Path, rounds: int = 3, source: str = "generator"
) -> list[Row]:
    """Scoring only (the skeleton) and with windows, detectors and metrics on, alternated
    on the same broker and the same preloaded events, so both see the same machine."""
    with EmbeddedBroker(log_path=workdir / "broker.log") as broker:
        settings = Settings(
            bootstrap_servers=broker.bootstrap_servers,
            web_port=free_port(),
            data_dir=workdir / "worker",
            session_timeout_s=6.0,
            heartbeat_interval_s=1.0,
        )
        asyncio.run(ensure_topics(settings))
        asyncio.run(_preload(settings, n_events, source))
        ceiling = asyncio.run(_raw_ceiling(settings, n_events))
        rates: dict[str, list[float]] = {"plain": [], "windows": []}
        for _ in range(rounds):
            for mode in rates:
                rate = _worker_rate(settings, n_events, workdir, mode)
                if rate is None:
                    return [(f"worker end to end ({mode})", "did not finish", "")]
                rates[mode].append(rate)
        pair = (
            _worker_rate(settings, n_events, workdir, "windows", workers=2)
            if source == "realtext"
            else None
        )
    plain, windowed = max(rates["plain"]), max(rates["windows"])
    spread = {m: ", ".join(f"{r:,.0f}" for r in rs) for m, rs in rates.items()}
    scaled = (
        f"two workers of one group (one per core), windows on ({n_events:,} events, "
        "their join included)",
        "did not finish" if pair is None else f"{pair:,.0f} events/s",
        "",
    )
    if source == "realtext":
        return [
            scaled,
            (
                f"worker end to end, real-text 8 KB events with reuse ({n_events:,}, "
                f"best of {rounds}), scoring only",
                f"{plain:,.0f} events/s ({spread['plain']})",
                ">= 2,500 events/s",
            ),
            (
                "worker end to end, real-text 8 KB, windows + detectors + metrics on",
                f"{windowed:,.0f} events/s ({spread['windows']})",
                ">= 2,500 events/s",
            ),
            (
                "raw aiokafka getmany + orjson decode, 8 KB (ceiling)",
                f"{ceiling:,.0f} events/s",
                "",
            ),
        ]
    return [
        (
            f"worker end to end, scoring only ({n_events:,} events, best of {rounds})",
            f"{plain:,.0f} events/s ({spread['plain']})",
            ">= 5,000 events/s",
        ),
        (
            "worker end to end, windows + detectors + metrics on",
            f"{windowed:,.0f} events/s ({spread['windows']}), {windowed / plain - 1:+.1%}",
            "within 15 % of scoring only",
        ),
        ("raw aiokafka getmany + orjson decode (ceiling)", f"{ceiling:,.0f} events/s", ""),
    ]


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def _steady_traffic(settings: Settings, rate: float, duration_s: float) -> int:
    """Real-time events at ``rate``/s for ``duration_s`` (a pool of generator events,
    re-sent with fresh ids and timestamps, so generating them costs little)."""
    gen = TrafficGenerator(seed=9, malformed_rate=0.0)
    pool = [gen.event() for _ in range(2_000)]
    producer = new_producer(settings, linger_ms=20)
    await producer.start()
    sent = 0
    started = time.monotonic()
    try:
        while (elapsed := time.monotonic() - started) < duration_s:
            due = int(elapsed * rate) - sent
            now_ms = int(time.time() * 1000)
            for _ in range(max(due, 0)):
                event = pool[sent % len(pool)]
                event["event_id"] = f"soak-{sent}"
                event["timestamp_ms"] = now_ms
                await producer.send(settings.events_topic, orjson.dumps(event))
                sent += 1
            await asyncio.sleep(0.02)
        await producer.flush()
    finally:
        await producer.stop()
    return sent


def bench_soak(duration_s: float, rate: float, workdir: Path) -> list[Row]:
    """Memory of one worker (windows on, default 60 s windows) under steady traffic."""
    with EmbeddedBroker(log_path=workdir / "soak-broker.log") as broker:
        settings = Settings(
            bootstrap_servers=broker.bootstrap_servers,
            web_port=free_port(),
            data_dir=workdir / "soak",
            consumer_group="soak",
            session_timeout_s=6.0,
            heartbeat_interval_s=1.0,
        )
        asyncio.run(ensure_topics(settings))
        worker = start_worker(settings, workdir / "soak-worker.log")
        samples: list[tuple[float, float]] = []
        try:
            time.sleep(8)  # joined and idle

            async def run() -> int:
                traffic = asyncio.create_task(_steady_traffic(settings, rate, duration_s))
                started = time.monotonic()
                while not traffic.done():
                    samples.append((time.monotonic() - started, _rss_mb(worker.pid)))
                    await asyncio.sleep(5)
                return await traffic

            sent = asyncio.run(run())
            _, seen = asyncio.run(
                _count_topic(settings, settings.scores_topic, sent, decode=False, timeout_s=120)
            )
        finally:
            stop_process(worker)

    def at(t_s: float) -> float:
        return next((mb for t, mb in samples if t >= t_s), samples[-1][1])

    # ids are remembered for MONITOR_DEDUPE_HORIZON_MS (2 min) and hopping windows stay
    # open 5 min: memory grows until both horizons are full, then stays flat
    warm_s = min(360.0, duration_s / 2)
    return [
        (
            f"worker RSS under {rate:,.0f} events/s for {duration_s / 60:.0f} min",
            f"{at(10):.0f} MB at start, {at(warm_s):.0f} MB at {warm_s / 60:.0f} min, "
            f"{samples[-1][1]:.0f} MB at end (max {max(mb for _, mb in samples):.0f});"
            f" {seen:,} of {sent:,} scored",
            "flat once the horizons fill",
        )
    ]


def main() -> None:
    p = argparse.ArgumentParser(prog="make bench")
    p.add_argument("--events", type=int, default=5000, help="events for the scoring timer")
    p.add_argument("--lines", type=int, default=100_000, help="lines for ragmon score")
    p.add_argument("--stream", type=int, default=50_000, help="events through the broker")
    p.add_argument("--realtext-lines", type=int, default=20_000, help="8 KB lines, ragmon score")
    p.add_argument(
        "--realtext-stream", type=int, default=20_000, help="8 KB events through the broker"
    )
    p.add_argument("--soak-s", type=float, default=600.0, help="steady-traffic run (0: skip)")
    p.add_argument("--soak-rate", type=float, default=2_000.0, help="events/s of that run")
    p.add_argument("--eval-events", type=int, default=10_000, help="events for ragmon eval")
    p.add_argument("--judge-queries", type=int, default=100, help="queries judged (0: skip)")
    p.add_argument("--judge-latency-s", type=float, default=1.0, help="simulated judge call")
    p.add_argument(
        "--alert-seeds", type=int, default=1, help="seeds per fault kind (0: no alert quality)"
    )
    p.add_argument("--alert-hours", type=float, default=6.0, help="simulated hours, healthy")
    args = p.parse_args()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="ragmon-bench-") as tmp:
        work = Path(tmp)
        rows += bench_realtext()
        rows += bench_realtext_cli(args.realtext_lines, work)
        rows += bench_realtext_eval(args.eval_events, work)
        rows += bench_worker(args.realtext_stream, work, rounds=2, source="realtext")
        rows.append(("demo generator events (small chunks from a small corpus):", "", ""))
        rows += bench_scoring(args.events)
        rows += bench_families(args.events)
        rows += bench_score_cli(args.lines, work)
        rows += bench_eval(args.eval_events, work)
        if args.judge_queries > 0:
            rows += bench_eval_judge(args.judge_queries, work, args.judge_latency_s)
        rows += bench_worker(args.stream, work)
        if args.soak_s > 0:
            rows += bench_soak(args.soak_s, args.soak_rate, work)
    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    print(f"\nmachine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print(f"{'measure':<{width}}  {'result':<{vwidth}}  target")
    print(f"{'-' * width}  {'-' * vwidth}  {'-' * 18}")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:<{vwidth}}  {target}")
    if args.alert_seeds > 0:
        lines, _, _ = alert_quality(Settings(), args.alert_seeds, args.alert_hours)
        print("\n".join(lines))


if __name__ == "__main__":
    main()
