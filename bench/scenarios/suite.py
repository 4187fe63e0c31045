"""The fault suite and the healthy runs, through ``ragmon backtest``'s engine.

A *fault run* is ``warmup_windows`` of healthy traffic (long enough for the learned
baselines: with the default ``baseline_min_windows`` = 3 and ``baseline_min_events`` =
500, the whole-traffic baseline is ready after about 5 windows at 2 events/s and the
quietest tenant's after about 40), then one fault for ``fault_windows`` windows, then
``after_windows`` of healthy traffic. The fault starts on a window boundary ``F`` and
ends at ``E``; ``W`` is the tumbling window. Measured on the notifications:

- ``delay``: windows from the fault's start to the first firing notification whose window
  ends after ``F`` (1 = paged when the fault's first window closed); None: never paged;
- ``firing``: firing notifications whose window overlaps ``[F, E + 10 W)`` (the incident);
- ``perspective``: ``diagnosis.perspective`` of the first of them, and whether it is the
  fault's expected one (:data:`~bench.scenarios.traffic.EXPECTED_PERSPECTIVE`);
- ``unresolved``: alerts that fired in the incident and are still firing at ``E + 10 W``;
- ``before``: firing notifications before the fault (false pages of the warm-up).

A *healthy run* counts the pages (firing notifications) of healthy traffic at one rate
over ``hours`` of simulated time, and their rate per simulated day.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bench.scenarios.traffic import (
    EXPECTED_PERSPECTIVE,
    START_MS,
    Fault,
    FaultKind,
    ScenarioTraffic,
)
from monitor.alerts.alert import Alert
from monitor.backtest.engine import Backtest

if TYPE_CHECKING:
    from monitor.config import Settings

__all__ = [
    "RESOLVE_WINDOWS",
    "FaultPlan",
    "HealthyRun",
    "Incident",
    "run_fault",
    "run_healthy",
]

RESOLVE_WINDOWS = 10
"""An incident lasts until this many windows after the fault's end."""


@dataclass(frozen=True, slots=True)
class FaultPlan:
    events_per_s: float = 2.0
    warmup_windows: int = 60
    fault_windows: int = 20
    after_windows: int = RESOLVE_WINDOWS + 5


@dataclass(slots=True)
class Incident:
    kind: FaultKind
    seed: int
    expected: str
    delay: int | None
    firing: int
    perspective: str | None
    unresolved: int
    before: int
    events: int
    seconds: float
    rules: Counter[str] = field(default_factory=Counter)
    """Firing notifications of the incident by rule."""

    @property
    def right(self) -> bool:
        return self.perspective == self.expected

    @property
    def resolved(self) -> bool:
        return self.unresolved == 0


@dataclass(slots=True)
class HealthyRun:
    events_per_s: float
    hours: float
    seed: int
    events: int
    windows: int
    pages: int
    seconds: float
    rules: Counter[str] = field(default_factory=Counter)

    @property
    def pages_per_day(self) -> float:
        return self.pages * 24.0 / self.hours


def _alerts(backtest: Backtest, records: Iterable[tuple[int, bytes]]) -> list[Alert]:
    return [a for d in backtest.decide_ordered(records) for a in d.alerts]


def run_fault(
    kind: FaultKind, seed: int, settings: Settings, plan: FaultPlan | None = None
) -> Incident:
    """One fault run (see the module's docstring)."""
    plan = plan or FaultPlan()
    w = settings.tumbling_window_ms
    start = START_MS + plan.warmup_windows * w
    end = start + plan.fault_windows * w
    total = (plan.warmup_windows + plan.fault_windows + plan.after_windows) * w
    traffic = ScenarioTraffic(seed, plan.events_per_s, total, faults=[Fault(kind, start, end)])
    backtest = Backtest(settings)
    started = time.perf_counter()
    alerts = _alerts(backtest, traffic.records())
    seconds = time.perf_counter() - started
    horizon = end + RESOLVE_WINDOWS * w
    incident = [
        a
        for a in alerts
        if a.status == "firing" and a.window.end_ms > start and a.window.start_ms < horizon
    ]
    first = incident[0] if incident else None
    last_status: dict[str, str] = {}
    for a in alerts:
        if a.window.end_ms <= horizon:
            last_status[a.fingerprint] = a.status
    fired = {a.fingerprint for a in incident}
    return Incident(
        kind=kind,
        seed=seed,
        expected=EXPECTED_PERSPECTIVE[kind],
        delay=None if first is None else -(-(first.window.end_ms - start) // w),
        firing=len(incident),
        perspective=None if first is None else first.diagnosis.perspective,
        unresolved=sum(1 for f in fired if last_status.get(f) == "firing"),
        before=sum(1 for a in alerts if a.status == "firing" and a.window.end_ms <= start),
        events=backtest.summary.events,
        seconds=seconds,
        rules=Counter(a.rule for a in incident),
    )


def run_healthy(events_per_s: float, hours: float, seed: int, settings: Settings) -> HealthyRun:
    """Healthy traffic at ``events_per_s`` for ``hours`` of simulated time."""
    traffic = ScenarioTraffic(seed, events_per_s, int(hours * 3_600_000))
    backtest = Backtest(settings)
    started = time.perf_counter()
    alerts = _alerts(backtest, traffic.records())
    seconds = time.perf_counter() - started
    pages = [a for a in alerts if a.status == "firing"]
    return HealthyRun(
        events_per_s=events_per_s,
        hours=hours,
        seed=seed,
        events=backtest.summary.events,
        windows=backtest.summary.windows_closed["tumbling"],
        pages=len(pages),
        seconds=seconds,
        rules=Counter(a.rule for a in pages),
    )


def incident_rows(incidents: Sequence[Incident]) -> list[tuple[str, str, str, str, str]]:
    """Per fault kind over its seeds: (kind, delay, firing per incident, first page right,
    resolved), each as text (``max`` over seeds for delay and firing)."""
    by_kind: dict[str, list[Incident]] = {}
    for i in incidents:
        by_kind.setdefault(i.kind, []).append(i)
    rows = []
    for kind, runs in by_kind.items():
        delays = [r.delay for r in runs]
        delay = "never" if None in delays else str(max(d for d in delays if d is not None))
        missed = sum(d is None for d in delays)
        if missed and missed < len(runs):
            delay = f"{max(d for d in delays if d is not None)} ({missed} missed)"
        right = sum(r.right for r in runs)
        seen = Counter(r.perspective for r in runs)
        rows.append(
            (
                f"{kind} (expect {runs[0].expected})",
                delay,
                str(max(r.firing for r in runs)),
                f"{right}/{len(runs)} ({', '.join(f'{p}' for p in seen)})",
                f"{sum(r.resolved for r in runs)}/{len(runs)}",
            )
        )
    return rows
