"""Failover scenarios on the embedded broker (issue 11), shared by
``tests/stream/test_failover_broker.py`` (which asserts) and ``bench/failover_probe.py``
(which prints the numbers).

Each scenario starts ``ragmon worker`` child processes in one group, produces live traffic
(event time = wall clock now, so windows close during the run), does something an operator
or an outage does (SIGKILL the leader, freeze the broker, SIGTERM a worker, move a
partition) and returns a report: which windows were published, how often, with which
counts, against the distinct events produced into each window.

Every process a scenario starts is stopped before it returns, also on errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from bench.broker_io import Record, read_until
from monitor.config import Settings
from monitor.demo.traffic import TrafficGenerator
from monitor.stream.broker import EmbeddedBroker, free_port
from monitor.stream.kafka import ensure_topics, new_producer
from monitor.stream.worker_process import start_worker, stop_process

__all__ = [
    "AB_MIN_PER_VARIANT",
    "FailoverReport",
    "Traffic",
    "WindowReport",
    "Worker",
    "broker_freeze",
    "dedupe_across_move",
    "leader_kill",
    "scenario_settings",
    "short_windows",
    "sigterm_takeover",
]

TUMBLING_MS = 2_000
AB_MIN_PER_VARIANT = 20
"""A/B results are expected for a window once each variant has this many events in it."""


# -- settings -----------------------------------------------------------------------------
def scenario_settings(bootstrap_servers: str, work_dir: Path, **update: Any) -> Settings:
    """Fresh topics and group on ``bootstrap_servers`` (like the tests' ``stream_settings``),
    topics created."""
    uid = uuid.uuid4().hex[:8]
    settings = Settings(
        bootstrap_servers=bootstrap_servers,
        consumer_group=f"failover-{uid}",
        events_topic=f"{uid}.rag.events.v1",
        scores_topic=f"{uid}.rag.scores.v1",
        dlq_topic=f"{uid}.rag.events.dlq.v1",
        alerts_topic=f"{uid}.rag.alerts.v1",
        ab_results_topic=f"{uid}.rag.ab-results.v1",
        partials_topic=f"{uid}.rag.window-partials.v1",
        windows_topic=f"{uid}.rag.windows.v1",
        web_port=free_port(),
        data_dir=work_dir / "worker",
        session_timeout_s=6.0,
        heartbeat_interval_s=1.0,
    ).model_copy(update=update)
    asyncio.run(ensure_topics(settings))
    return settings


def short_windows(settings: Settings, **update: Any) -> Settings:
    """Tumbling 2 s, hopping 6 s every 2 s; 10 s allowed lateness (duplicates come 3 s
    after the original), windows close 3 s after the traffic stops; a baseline after 3
    windows of 50 events, so a degraded period alerts within seconds."""
    values: dict[str, Any] = {
        "tumbling_window_ms": TUMBLING_MS,
        "hopping_window_ms": 3 * TUMBLING_MS,
        "hopping_step_ms": TUMBLING_MS,
        "allowed_lateness_ms": 10_000,
        "window_idle_close_s": 3.0,
        "baseline_min_events": 50,
        "baseline_min_windows": 3,
    }
    return settings.model_copy(update=values | update)


# -- workers ------------------------------------------------------------------------------
class Worker:
    """One ``ragmon worker`` child with its own web port and data directory."""

    def __init__(self, settings: Settings, work_dir: Path, name: str) -> None:
        self.name = name
        self.settings = settings.model_copy(
            update={"web_port": free_port(), "data_dir": work_dir / name}
        )
        self.log = work_dir / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.rss_peak_kb = 0

    def start(self) -> Worker:
        self.proc = start_worker(self.settings, self.log)
        return self

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def health(self) -> dict[str, Any] | None:
        """The ``/healthz`` JSON (also a 503's), or None when nothing answers."""
        url = f"http://127.0.0.1:{self.settings.web_port}/healthz"
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                body: dict[str, Any] = json.loads(response.read())
        except urllib.error.HTTPError as exc:
            body = json.loads(exc.read() or b"{}")
        except (OSError, ValueError):
            return None
        return body

    def ready(self) -> bool:
        body = self.health()
        return body is not None and body.get("status") == "ok"

    def leader(self) -> bool:
        body = self.health() or {}
        return bool(body.get("windows", {}).get("leader"))

    def sample_rss(self) -> None:
        """Remember the process's peak RSS (VmHWM) so far."""
        if self.proc is None:
            return
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    self.rss_peak_kb = max(self.rss_peak_kb, int(line.split()[1]))

    def signal(self, sig: signal.Signals) -> None:
        self.sample_rss()
        if self.alive:
            assert self.proc is not None
            os.kill(self.proc.pid, sig)

    def stop(self) -> None:
        if self.proc is not None:
            self.sample_rss()
            stop_process(self.proc)


@contextlib.contextmanager
def workers(settings: Settings, work_dir: Path, n: int) -> Iterator[list[Worker]]:
    """``n`` started workers; every one is stopped on the way out."""
    started: list[Worker] = []
    try:
        for i in range(n):
            started.append(Worker(settings, work_dir, f"w{i}").start())
        yield started
    finally:
        for w in started:
            w.signal(signal.SIGTERM)
        for w in started:
            w.stop()


def wait_for(condition: Any, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {timeout_s:.0f} s")
        time.sleep(0.2)


def wait_group_ready(group: list[Worker], timeout_s: float = 60.0) -> None:
    """Every worker answers ``ok`` and exactly one leads."""
    wait_for(lambda: all(w.ready() for w in group), timeout_s, "workers ready")
    # ready comes before the group's last join (a join takes half the session timeout):
    # let the rebalances of workers that started one after the other settle
    time.sleep(group[0].settings.session_timeout_s)
    wait_for(lambda: sum(w.leader() for w in group) == 1, timeout_s, "one leader")
    time.sleep(2.0)  # the leader has read the windows topic (the initial assignment settled)


# -- traffic ------------------------------------------------------------------------------
@dataclass
class Produced:
    timestamp_ms: int
    variant: str
    sent_at: float  # wall clock of the first send


class Traffic:
    """Events at ``rate`` per second, event time = now, from ``TrafficGenerator``; every
    ``dup_every``-th event is sent again (same key, same bytes) ``dup_delay_s`` later, as
    a producer retry would. :attr:`hold` buffers events instead of sending them (a
    service's producer while the broker is unreachable); releasing it sends the backlog
    with its original event times. :meth:`degrade` toggles the treatment arm's collapse."""

    def __init__(
        self,
        settings: Settings,
        *,
        seed: int,
        rate: float = 300.0,
        dup_every: int = 50,
        dup_delay_s: float = 3.0,
    ) -> None:
        self.settings = settings
        self.gen = TrafficGenerator(seed=seed, malformed_rate=0.0)
        self.rate = rate
        self.dup_every = dup_every
        self.dup_delay_s = dup_delay_s
        self.events: dict[str, Produced] = {}
        self.duplicates_sent = 0
        self.hold = False
        self.degraded_ms: list[tuple[int, int | None]] = []
        self._stop = asyncio.Event()
        self._backlog: list[tuple[bytes, bytes]] = []

    def degrade(self, on: bool) -> None:
        now = int(time.time() * 1000)
        if on:
            self.gen.degrade_after = 0
            self.degraded_ms.append((now, None))
        else:
            self.gen.degrade_after = None
            start, _ = self.degraded_ms[-1]
            self.degraded_ms[-1] = (start, now)

    def stop(self) -> None:
        self._stop.set()

    async def run(self) -> None:
        """Produce until :meth:`stop`; then send what is still due (duplicates, backlog)."""
        producer = new_producer(self.settings)
        await producer.start()
        topic = self.settings.events_topic
        pending: list[asyncio.Future[Any]] = []
        dups: list[tuple[float, bytes, bytes]] = []
        made = 0
        began = time.monotonic()
        try:
            while True:
                now = time.monotonic()
                stopping = self._stop.is_set()
                out: list[tuple[bytes, bytes]] = []
                while not stopping and made < (now - began) * self.rate:
                    event = self.gen.event()
                    event["timestamp_ms"] = int(time.time() * 1000)
                    key, value = str(event["event_id"]).encode(), orjson.dumps(event)
                    self.events[str(event["event_id"])] = Produced(
                        int(str(event["timestamp_ms"])), str(event["variant"]), time.time()
                    )
                    out.append((key, value))
                    made += 1
                    if made % self.dup_every == 0:
                        dups.append((now + self.dup_delay_s, key, value))
                due = [d for d in dups if d[0] <= now or stopping]
                dups = [d for d in dups if d[0] > now and not stopping]
                out.extend((k, v) for _, k, v in due)
                self.duplicates_sent += len(due)
                if self.hold:
                    self._backlog.extend(out)
                    out = []
                elif self._backlog:
                    out, self._backlog = self._backlog + out, []
                for key, value in out:
                    pending.append(await producer.send(topic, value, key=key))
                if len(pending) > 2000 or (stopping and not self.hold):
                    await asyncio.gather(*pending)
                    pending = []
                if stopping and not self.hold and not dups and not self._backlog:
                    break
                await asyncio.sleep(0.02)
            await asyncio.gather(*pending)
        finally:
            await producer.stop()

    # what was produced, per window
    def expected(self, kind: str, size_ms: int, step_ms: int) -> dict[int, int]:
        """Window start -> distinct events produced into it."""
        out: Counter[int] = Counter()
        for p in self.events.values():
            ts = p.timestamp_ms
            first = (ts - size_ms + step_ms) // step_ms * step_ms
            for start in range(first, ts + 1, step_ms):
                if start <= ts < start + size_ms:
                    out[start] += 1
        return dict(out)

    def per_variant(self, size_ms: int, step_ms: int) -> dict[int, Counter[str]]:
        out: dict[int, Counter[str]] = defaultdict(Counter)
        for p in self.events.values():
            ts = p.timestamp_ms
            first = (ts - size_ms + step_ms) // step_ms * step_ms
            for start in range(first, ts + 1, step_ms):
                out[start][p.variant] += 1
        return out


# -- what was published -------------------------------------------------------------------
def overall_count(summary: dict[str, Any]) -> int:
    overall = next(
        s
        for s in summary["series"]
        if s["variant"] is None and s["tenant"] is None and s["application"] is None
    )
    return int(overall["metrics"]["quality.overall"]["count"])


@dataclass
class WindowReport:
    """Windows of one kind: expected (start -> distinct events) against published."""

    kind: str
    expected: dict[int, int]
    published: Counter[int] = field(default_factory=Counter)
    counts: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    late_events: int = 0

    @property
    def lost(self) -> list[int]:
        return sorted(s for s in self.expected if not self.published[s])

    @property
    def duplicated(self) -> dict[int, int]:
        return {s: n for s, n in sorted(self.published.items()) if n > 1}

    @property
    def mismatched(self) -> dict[int, tuple[int, list[int]]]:
        """start -> (distinct produced, counts published) where they differ."""
        return {
            s: (n, self.counts[s])
            for s, n in sorted(self.expected.items())
            if self.counts.get(s) and any(c != n for c in self.counts[s])
        }

    def describe(self) -> str:
        return (
            f"{self.kind}: {len(self.expected)} windows expected, lost {self.lost}, "
            f"published more than once {self.duplicated}, "
            f"count != distinct produced (start: (produced, published)) {self.mismatched}, "
            f"late_events in summaries {self.late_events}"
        )


def window_reports(
    records: list[Record], traffic: Traffic, settings: Settings
) -> dict[str, WindowReport]:
    t, h = settings.tumbling_window_ms, settings.hopping_window_ms
    reports = {
        "tumbling": WindowReport("tumbling", traffic.expected("tumbling", t, t)),
        "hopping": WindowReport(
            "hopping", traffic.expected("hopping", h, settings.hopping_step_ms)
        ),
    }
    for r in records:
        w = orjson.loads(r.value or b"{}")
        report = reports.get(w.get("kind"))
        if report is None:
            continue
        report.published[w["start_ms"]] += 1
        report.counts[w["start_ms"]].append(overall_count(w))
        report.late_events = max(report.late_events, int(w.get("late_events") or 0))
    return reports


def all_windows_in(settings: Settings, traffic: Traffic) -> Any:
    """``read_until`` condition: every expected window of both kinds has a summary."""
    t, h = settings.tumbling_window_ms, settings.hopping_window_ms
    wanted = {("tumbling", s) for s in traffic.expected("tumbling", t, t)} | {
        ("hopping", s) for s in traffic.expected("hopping", h, settings.hopping_step_ms)
    }

    def done(got: dict[str, list[Record]]) -> bool:
        seen = set()
        for r in got[settings.windows_topic]:
            w = orjson.loads(r.value or b"{}")
            seen.add((w.get("kind"), w.get("start_ms")))
        return wanted <= seen

    return done


@dataclass
class AbReport:
    """A/B results per window span: cumulative ones per tumbling end, hopping per start."""

    expected_cumulative: set[int]
    expected_hopping: set[int]
    cumulative: Counter[int] = field(default_factory=Counter)
    hopping: Counter[int] = field(default_factory=Counter)

    @property
    def lost(self) -> dict[str, list[int]]:
        return {
            "cumulative (by end_ms)": sorted(self.expected_cumulative - set(self.cumulative)),
            "hopping (by start_ms)": sorted(self.expected_hopping - set(self.hopping)),
        }

    @property
    def duplicated(self) -> dict[str, dict[int, int]]:
        return {
            "cumulative (by end_ms)": {e: n for e, n in self.cumulative.items() if n > 1},
            "hopping (by start_ms)": {s: n for s, n in self.hopping.items() if n > 1},
        }

    @property
    def n_lost(self) -> int:
        return sum(len(v) for v in self.lost.values())

    @property
    def n_duplicated(self) -> int:
        return sum(len(v) for v in self.duplicated.values())


def ab_report(records: list[Record], traffic: Traffic, settings: Settings) -> AbReport:
    t, h, step = settings.tumbling_window_ms, settings.hopping_window_ms, settings.hopping_step_ms

    def enough(counts: Counter[str]) -> bool:
        return min(counts["control"], counts["treatment"]) >= AB_MIN_PER_VARIANT

    report = AbReport(
        {s + t for s, c in traffic.per_variant(t, t).items() if enough(c)},
        {s for s, c in traffic.per_variant(h, step).items() if enough(c)},
    )
    for r in records:
        span = orjson.loads(r.value or b"{}")["span"]
        if span["scope"] == "cumulative":
            report.cumulative[span["end_ms"]] += 1
        else:
            report.hopping[span["start_ms"]] += 1
    return report


@dataclass
class AlertReport:
    firing: Counter[tuple[str, int]]
    """(fingerprint, window start) -> firing alerts published."""
    degraded_alerts: list[dict[str, Any]]
    """Firing quality alerts (degradation, critical) whose window lies in a degraded period."""

    @property
    def duplicated(self) -> dict[tuple[str, int], int]:
        return {k: n for k, n in self.firing.items() if n > 1}


def alert_report(records: list[Record], traffic: Traffic, window_ms: int) -> AlertReport:
    firing: Counter[tuple[str, int]] = Counter()
    degraded = []
    for r in records:
        a = orjson.loads(r.value or b"{}")
        if a["status"] != "firing":
            continue
        firing[(a["fingerprint"], a["window"]["start_ms"])] += 1
        quality = a["metric"] == "quality.overall" and (
            a["type"] == "degradation" or a["rule"] == "critical_quality"
        )
        for start, end in traffic.degraded_ms:
            if (
                quality
                and a["window"]["end_ms"] > start
                and a["window"]["start_ms"] < (end or 2**62) + window_ms
            ):
                degraded.append(a)
    return AlertReport(firing, degraded)


@dataclass
class FailoverReport:
    """What a scenario measured (fields not measured by a scenario stay None)."""

    name: str
    windows: dict[str, WindowReport] = field(default_factory=dict)
    ab: AbReport | None = None
    alerts: AlertReport | None = None
    takeover_s: float | None = None
    late_events: int | None = None
    duplicates_counted_twice: int | None = None
    duplicates_reported: int | None = None
    rss_peak_kb: int = 0
    events: int = 0
    duplicates_sent: int = 0
    notes: list[str] = field(default_factory=list)

    def windows_lost(self) -> int:
        return sum(len(w.lost) for w in self.windows.values())

    def windows_duplicated(self) -> int:
        return sum(len(w.duplicated) for w in self.windows.values())

    def windows_mismatched(self) -> int:
        return sum(len(w.mismatched) for w in self.windows.values())

    def describe(self) -> str:
        lines = [f"{self.name}: {self.events} events, {self.duplicates_sent} duplicates sent"]
        lines += [w.describe() for w in self.windows.values()]
        if self.ab is not None:
            lines.append(f"A/B lost {self.ab.lost}, more than once {self.ab.duplicated}")
        if self.alerts is not None:
            lines.append(
                f"alerts: {len(self.alerts.degraded_alerts)} for the degraded period, "
                f"firing more than once per (fingerprint, window) {self.alerts.duplicated}"
            )
        lines += [
            f"takeover {self.takeover_s} s, late_events {self.late_events}, "
            f"duplicates counted twice {self.duplicates_counted_twice}, "
            f"duplicates reported {self.duplicates_reported}"
        ]
        lines += self.notes
        return "\n".join(lines)


# -- reading scores -----------------------------------------------------------------------
def first_scored_at(records: list[Record]) -> dict[str, float]:
    """event id -> wall clock (s) of its first score (the score record's CreateTime)."""
    out: dict[str, float] = {}
    for r in records:
        event_id = (r.key or b"").decode()
        at = r.timestamp / 1000
        if event_id not in out or at < out[event_id]:
            out[event_id] = at
    return out


def score_delay_after(traffic: Traffic, scored: dict[str, float], t0: float, t1: float) -> float:
    """The longest time from send to first score of the events first sent in [t0, t1]:
    about how long their partitions had no consumer."""
    delays = [
        scored[i] - p.sent_at
        for i, p in traffic.events.items()
        if t0 <= p.sent_at <= t1 and i in scored
    ]
    return round(max(delays, default=float("nan")), 1)


def collect(
    report: FailoverReport,
    settings: Settings,
    traffic: Traffic,
    timeout_s: float,
) -> dict[str, list[Record]]:
    """Read windows, alerts and A/B results until every expected window is in (or the
    timeout), lingering a few seconds for late duplicates; fill ``report``."""
    s = settings
    topics = [s.windows_topic, s.alerts_topic, s.ab_results_topic]
    got = asyncio.run(
        read_until(s, topics, all_windows_in(s, traffic), timeout_s=timeout_s, linger_s=4.0)
    )
    report.windows = window_reports(got[s.windows_topic], traffic, s)
    report.ab = ab_report(got[s.ab_results_topic], traffic, s)
    report.alerts = alert_report(got[s.alerts_topic], traffic, s.tumbling_window_ms)
    report.events = len(traffic.events)
    report.duplicates_sent = traffic.duplicates_sent
    tumbling = report.windows["tumbling"]
    report.duplicates_counted_twice = sum(
        max(0, c - tumbling.expected[st])
        for st, counts in tumbling.counts.items()
        if st in tumbling.expected
        for c in counts[-1:]
    )
    return got


def late_from_health(group: list[Worker]) -> int:
    late = 0
    for w in group:
        body = w.health() or {}
        late = max(late, int(body.get("windows", {}).get("late_events", {}).get("tumbling", 0)))
    return late


async def _drive(traffic: Traffic, steps: list[tuple[float, Any]], duration_s: float) -> None:
    """Run ``traffic`` for ``duration_s``; call each step (a function, in a thread, since
    it may wait on processes) once ``t`` seconds have passed."""
    task = asyncio.create_task(traffic.run())
    began = time.monotonic()
    try:
        for at, step in steps:
            await asyncio.sleep(max(0.0, began + at - time.monotonic()))
            await asyncio.to_thread(step)
        await asyncio.sleep(max(0.0, began + duration_s - time.monotonic()))
    finally:
        traffic.stop()
        await task


# -- 1. the leader killed mid-stream ------------------------------------------------------
def leader_kill(settings: Settings, work_dir: Path, *, duration_s: float = 45.0) -> FailoverReport:
    """Two workers, live traffic with a degraded period; at 16 s the leader is SIGKILLed
    (inside the degraded period), at 30 s a worker rejoins in its place."""
    s = short_windows(settings)
    report = FailoverReport("leader SIGKILL + rejoin")
    traffic = Traffic(s, seed=11)
    killed_at: list[float] = []
    with workers(s, work_dir, 2) as group:
        wait_group_ready(group)

        def kill_leader() -> None:
            deadline = time.monotonic() + 15
            leaders = [w for w in group if w.alive and w.leader()]
            while len(leaders) != 1 and time.monotonic() < deadline:
                time.sleep(0.2)
                leaders = [w for w in group if w.alive and w.leader()]
            victim = leaders[0] if leaders else group[0]
            if not leaders:
                report.notes.append("no single leader found; killed w0")
            killed_at.append(time.time())
            victim.signal(signal.SIGKILL)
            assert victim.proc is not None
            victim.proc.wait(timeout=10)
            report.notes.append(f"killed leader {victim.name}")

        def rejoin() -> None:
            dead = next(w for w in group if not w.alive)
            dead.start()

        steps = [
            (12.0, lambda: traffic.degrade(True)),
            (16.0, kill_leader),
            (28.0, lambda: traffic.degrade(False)),
            (30.0, rejoin),
        ]
        asyncio.run(_drive(traffic, steps, duration_s))
        collect(report, s, traffic, timeout_s=60)
        report.late_events = late_from_health(group)
        scores = asyncio.run(read_until(s, [s.scores_topic], lambda g: False, timeout_s=3))[
            s.scores_topic
        ]
        if killed_at:
            t0 = killed_at[0]
            report.takeover_s = score_delay_after(traffic, first_scored_at(scores), t0, t0 + 10)
        for w in group:
            w.sample_rss()
        report.rss_peak_kb = max(w.rss_peak_kb for w in group)
    return report


# -- 2. the broker frozen -----------------------------------------------------------------
def broker_freeze(
    work_dir: Path,
    *,
    freeze_s: float = 45.0,
    before_s: float = 10.0,
    after_s: float = 8.0,
) -> FailoverReport:
    """Its own broker (frozen with SIGSTOP for ``freeze_s``) and two workers with the
    default ``window_idle_close_s`` and lateness; the service buffers its events while the
    broker does not answer and sends the backlog, with the original event times, after."""
    report = FailoverReport(f"broker frozen {freeze_s:.0f} s")
    with EmbeddedBroker(log_path=work_dir / "broker.log") as broker:
        base = scenario_settings(broker.bootstrap_servers, work_dir)
        s = short_windows(
            base,
            allowed_lateness_ms=Settings.model_fields["allowed_lateness_ms"].default,
            window_idle_close_s=Settings.model_fields["window_idle_close_s"].default,
        )
        traffic = Traffic(s, seed=12)
        with workers(s, work_dir, 2) as group:
            wait_group_ready(group)

            def freeze() -> None:
                traffic.hold = True
                time.sleep(0.5)  # what was in flight is acknowledged
                for w in group:
                    w.sample_rss()
                broker.freeze()

            def thaw() -> None:
                broker.thaw()
                traffic.hold = False

            steps = [(before_s, freeze), (before_s + freeze_s, thaw)]
            try:
                asyncio.run(_drive(traffic, steps, before_s + freeze_s + after_s))
            finally:
                broker.thaw()
            # the idle close (30 s by default) closes the last windows
            collect(report, s, traffic, timeout_s=90)
            report.late_events = max(
                late_from_health(group), report.windows["tumbling"].late_events
            )
            for w in group:
                w.sample_rss()
            report.rss_peak_kb = max(w.rss_peak_kb for w in group)
    return report


# -- 3. SIGTERM: how soon the survivor owns every partition --------------------------------
async def _probe_takeover(
    s: Settings, stopping: Worker, survivor: Worker, limit_s: float
) -> tuple[float, float]:
    """Probe events on every partition every 100 ms; SIGTERM ``stopping``; stop once the
    stopped worker has exited and each partition had a probe, sent after that, scored
    within a second. Returns (longest send-to-score delay of a probe sent after the
    SIGTERM, seconds until the stopped worker exited)."""
    from aiokafka import AIOKafkaConsumer

    from monitor.stream.kafka import client_options

    partitions = s.topic_partitions
    producer = new_producer(s)
    consumer = AIOKafkaConsumer(**client_options(s), group_id=None, auto_offset_reset="latest")
    await producer.start()
    await consumer.start()
    sent: dict[str, tuple[int, float]] = {}
    scored: dict[str, float] = {}
    gen = TrafficGenerator(seed=13, malformed_rate=0.0)
    try:
        consumer.subscribe([s.scores_topic])
        while not consumer.assignment():
            await consumer.getmany(timeout_ms=200)

        async def send_round() -> None:
            futures = []
            for p in range(partitions):
                e = gen.event()
                e["timestamp_ms"] = int(time.time() * 1000)
                sent[str(e["event_id"])] = (p, time.time())
                futures.append(
                    await producer.send(
                        s.events_topic,
                        orjson.dumps(e),
                        key=str(e["event_id"]).encode(),
                        partition=p,
                    )
                )
            await asyncio.gather(*futures)

        async def read() -> None:
            batch = await consumer.getmany(timeout_ms=100)
            for records in batch.values():
                for r in records:
                    i = (r.key or b"").decode()
                    scored.setdefault(i, r.timestamp / 1000)

        # warm up: both workers score probes promptly
        for _ in range(30):
            await send_round()
            await read()
        t0 = time.time()
        stopping.signal(signal.SIGTERM)
        exited: float | None = None
        while time.time() - t0 < limit_s:
            await send_round()
            await read()
            if exited is None and not stopping.alive:
                exited = time.time()
            if exited is not None:
                fresh = {
                    p
                    for i, (p, at) in sent.items()
                    if at > exited and i in scored and scored[i] - at < 1.0
                }
                if len(fresh) == partitions:
                    break
        for _ in range(30):  # the last probes' scores
            await read()
        delays = [scored.get(i, time.time()) - at for i, (_p, at) in sent.items() if at >= t0]
        return round(max(delays), 1), round((exited or time.time()) - t0, 1)
    finally:
        await consumer.stop()
        await producer.stop()


def sigterm_takeover(settings: Settings, work_dir: Path, limit_s: float = 40.0) -> FailoverReport:
    """Two workers; SIGTERM the leader; the survivor must own all partitions at once."""
    report = FailoverReport("SIGTERM takeover")
    with workers(settings, work_dir, 2) as group:
        wait_group_ready(group)
        stopping = next(w for w in group if w.leader())
        survivor = next(w for w in group if w is not stopping)
        takeover, exited = asyncio.run(_probe_takeover(settings, stopping, survivor, limit_s))
        report.takeover_s = takeover
        report.notes.append(f"the SIGTERMed worker exited after {exited} s")
        for w in group:
            w.sample_rss()
        report.rss_peak_kb = max(w.rss_peak_kb for w in group)
    return report


# -- 4. a duplicate after its partition moved ---------------------------------------------
def dedupe_across_move(settings: Settings, work_dir: Path, n: int = 200) -> FailoverReport:
    """Worker A scores ``n`` events (every partition, one window); worker B joins and A
    stops gracefully, so every partition moves to B; then the same ``n`` events again
    (same id, key and partition: a producer retry). Events on every partition two windows
    later close the window; it must count ``n``."""
    s = short_windows(settings, allowed_lateness_ms=0, window_idle_close_s=600.0)
    report = FailoverReport("duplicate after a partition move")
    window = s.tumbling_window_ms
    start_ms = (int(time.time() * 1000) // window + 1) * window  # a window of its own
    gen = TrafficGenerator(seed=14, malformed_rate=0.0)
    firsts = []
    for i in range(n):
        e = gen.event()
        e["timestamp_ms"] = start_ms + i * (window // 2) // n
        firsts.append((i % s.topic_partitions, str(e["event_id"]).encode(), orjson.dumps(e)))
    closers = []
    for p in range(s.topic_partitions):
        e = gen.event()
        e["timestamp_ms"] = start_ms + 3 * window
        closers.append((p, str(e["event_id"]).encode(), orjson.dumps(e)))

    async def send(messages: list[tuple[int, bytes, bytes]]) -> None:
        producer = new_producer(s)
        await producer.start()
        try:
            futures = [
                await producer.send(s.events_topic, v, key=k, partition=p) for p, k, v in messages
            ]
            await asyncio.gather(*futures)
        finally:
            await producer.stop()

    def scored_at_least(count: int) -> None:
        got = asyncio.run(
            read_until(s, [s.scores_topic], lambda g: len(g[s.scores_topic]) >= count, 90)
        )
        if len(got[s.scores_topic]) < count:
            raise TimeoutError(f"only {len(got[s.scores_topic])} of {count} scores")

    a = Worker(s, work_dir, "a")
    b = Worker(s, work_dir, "b")
    try:
        a.start()
        wait_for(a.ready, 60, "worker a ready")
        asyncio.run(send(firsts))
        scored_at_least(n)
        b.start()
        wait_for(b.ready, 60, "worker b ready")
        a.signal(signal.SIGTERM)
        a.stop()  # waits for the exit: from now on only b consumes
        wait_for(b.leader, 60, "worker b leads")
        time.sleep(3.0)  # b owns every partition (its last assignment has settled)
        before = int((b.health() or {}).get("windows", {}).get("duplicates", 0))
        asyncio.run(send(firsts))
        scored_at_least(2 * n)
        asyncio.run(send(closers))

        def window_in(g: dict[str, list[Record]]) -> bool:
            return any(
                orjson.loads(r.value or b"{}")["start_ms"] == start_ms for r in g[s.windows_topic]
            )

        got = asyncio.run(read_until(s, [s.windows_topic], window_in, 90, linger_s=1.0))
        counts = [
            overall_count(w)
            for w in (orjson.loads(r.value or b"{}") for r in got[s.windows_topic])
            if w["kind"] == "tumbling" and w["start_ms"] == start_ms
        ]
        after = int((b.health() or {}).get("windows", {}).get("duplicates", 0))
        tumbling = WindowReport("tumbling", {start_ms: n})
        tumbling.published[start_ms] = len(counts)
        tumbling.counts[start_ms] = counts
        report.windows = {"tumbling": tumbling}
        report.duplicates_counted_twice = (counts[-1] - n) if counts else None
        report.duplicates_reported = after - before
        report.events, report.duplicates_sent = n, n
        report.late_events = late_from_health([b])
        for w in (a, b):
            w.sample_rss()
        report.rss_peak_kb = max(a.rss_peak_kb, b.rss_peak_kb)
    finally:
        b.signal(signal.SIGTERM)
        a.stop()
        b.stop()
    return report
