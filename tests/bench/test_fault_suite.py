"""Issue 12's targets on our own scenarios (pydoc_data prose), through the backtest.

Chosen to keep this under a few minutes on 2 cores: healthy traffic over 6 simulated
hours at 3 events/min (0.05/s) and 0.5/s, and over 1 hour at 5/s (108,000 events over 6
hours take minutes to score; ``python -m bench.alert_quality`` runs the full 6 h); one seed
per fault kind, 2 events/s, 45 warm-up windows, a 10-window fault, 12 windows after.

``python -m bench.alert_quality`` runs the full table (several seeds, 6 h at every rate).
"""

from __future__ import annotations

import pytest

from bench.scenarios.suite import FaultPlan, run_fault, run_healthy
from bench.scenarios.traffic import FAULT_KINDS, FaultKind
from monitor.config import Settings

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(600),
]

PLAN = FaultPlan(events_per_s=2.0, warmup_windows=45, fault_windows=10, after_windows=12)


@pytest.mark.parametrize(("events_per_s", "hours"), [(0.05, 6.0), (0.5, 6.0), (5.0, 1.0)])
def test_healthy_traffic_never_pages(events_per_s: float, hours: float) -> None:
    run = run_healthy(events_per_s, hours, seed=100, settings=Settings())
    assert run.pages == 0, f"{run.pages} pages: {dict(run.rules)}"


@pytest.mark.parametrize("kind", FAULT_KINDS)
def test_fault_pages_once_fast_with_the_right_diagnosis_and_resolves(kind: FaultKind) -> None:
    i = run_fault(kind, 1, Settings(), PLAN)
    assert i.before == 0, f"{i.before} false pages during the warm-up"
    assert i.delay is not None and i.delay <= 3, f"paged after {i.delay} windows"
    assert i.firing <= 3, f"{i.firing} firing notifications: {dict(i.rules)}"
    assert i.right, f"first page named {i.perspective}, expected {i.expected}"
    assert i.resolved, f"{i.unresolved} alerts still firing 10 windows after the fault"
