"""``python -m bench.alert_quality``: alert quality of the current rules, from ``backtest``.

Runs the fault suite (:mod:`bench.scenarios.suite`, every fault kind over ``--seeds``)
and the healthy runs (``--hours`` of simulated time at each of ``--rates``) with the
default settings (``MONITOR_*`` as for the worker), and prints the table "alert quality
(backtest, pydoc_data scenarios)" with the issue 12 targets. ``make bench`` runs it with
one seed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from bench.scenarios.suite import (
    FaultPlan,
    HealthyRun,
    Incident,
    incident_rows,
    run_fault,
    run_healthy,
)
from bench.scenarios.traffic import FAULT_KINDS
from monitor.config import Settings, load_settings

TITLE = "alert quality (backtest, pydoc_data scenarios)"
HEALTHY_RATES = (0.05, 0.5, 5.0)


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    out = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    out.append("  ".join("-" * w for w in widths))
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    return out


def report(
    settings: Settings,
    seeds: int = 1,
    hours: float = 6.0,
    rates: tuple[float, ...] = HEALTHY_RATES,
    plan: FaultPlan | None = None,
    log: bool = True,
) -> tuple[list[str], list[Incident], list[HealthyRun]]:
    """The table's lines, and the runs behind it."""
    plan = plan or FaultPlan()
    started = time.perf_counter()
    healthy = []
    for rate in rates:
        run = run_healthy(rate, hours, seed=100, settings=settings)
        healthy.append(run)
        if log:
            print(f"  healthy {rate:g}/s: {run.pages} pages, {run.events} events in "
                  f"{run.seconds:.0f} s", file=sys.stderr)  # fmt: skip
    incidents = []
    for kind in FAULT_KINDS:
        for seed in range(1, seeds + 1):
            inc = run_fault(kind, seed, settings, plan)
            incidents.append(inc)
            if log:
                print(f"  {kind} seed {seed}: delay {inc.delay}, {inc.firing} firing, first "
                      f"{inc.perspective}, {inc.unresolved} unresolved, {inc.before} before "
                      f"({inc.seconds:.0f} s)", file=sys.stderr)  # fmt: skip
    lines = [f"\n{TITLE}", ""]
    lines += _table(
        ("healthy traffic, 6 h simulated" if hours == 6.0 else f"healthy, {hours:g} h",
         "events", "pages", "pages/day", "rules that paged"),
        [
            (f"{r.events_per_s:g} events/s", str(r.events), str(r.pages),
             f"{r.pages_per_day:.1f}", ", ".join(f"{k} {n}" for k, n in r.rules.most_common(4)))
            for r in healthy
        ],
    )  # fmt: skip
    lines.append("target: 0 pages at every rate")
    lines.append("")
    right = sum(i.right for i in incidents)
    lines += _table(
        (f"fault ({plan.fault_windows} windows at {plan.events_per_s:g}/s, {seeds} seed(s))",
         "delay (windows)", "firing/incident", "first page right", "resolved <= 10 w"),
        incident_rows(incidents),
    )  # fmt: skip
    lines.append(
        "targets: delay <= 3, firing <= 3, first page names the perspective (>= 90 %), "
        "all resolved within 10 windows"
    )
    before = Counter(i.kind for i in incidents if i.before)
    lines.append(
        f"diagnosis accuracy: {right}/{len(incidents)}; runs with false pages during the "
        f"warm-up: {sum(before.values())}; took {time.perf_counter() - started:.0f} s"
    )
    return lines, incidents, healthy


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m bench.alert_quality")
    p.add_argument("--seeds", type=int, default=3, help="seeds per fault kind (default 3)")
    p.add_argument("--hours", type=float, default=6.0, help="simulated hours of healthy runs")
    p.add_argument("--rates", type=float, nargs="*", default=list(HEALTHY_RATES))
    args = p.parse_args()
    lines, _, _ = report(load_settings(), args.seeds, args.hours, tuple(args.rates))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
