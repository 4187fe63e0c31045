"""``python -m bench.failover_probe``: the failover scenarios of issue 11, once each, as a table.

Runs :mod:`bench.failover_scenarios` on the embedded broker (loopback only; a broker of
its own for the freeze): the leader SIGKILLed mid-stream and a worker rejoining, the
broker frozen 45 s under default settings, a SIGTERMed worker's takeover, and a duplicate
after its partition moved. Prints lost windows, windows whose count differs from the
distinct events produced into them, window summaries published more than once, A/B
results lost or doubled, takeover seconds, duplicates counted twice, late events and the
workers' peak RSS. Every process it starts is stopped; about 5 minutes in all.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from bench.failover_scenarios import (
    FailoverReport,
    broker_freeze,
    dedupe_across_move,
    leader_kill,
    scenario_settings,
    sigterm_takeover,
)
from monitor.config import Settings
from monitor.stream.broker import EmbeddedBroker

COLUMNS = (
    ("scenario", 34),
    ("events", 7),
    ("lost win", 8),
    ("count!=", 7),
    ("dup win", 7),
    ("A/B lost", 8),
    ("A/B dup", 7),
    ("takeover s", 10),
    ("dups twice", 10),
    ("late", 6),
    ("RSS MB", 6),
    ("run s", 6),
)


def _cell(value: object) -> str:
    return "-" if value is None else str(value)


def row(report: FailoverReport, seconds: float) -> list[str]:
    ab = report.ab
    windows = bool(report.windows)
    return [
        report.name,
        _cell(report.events or None),
        _cell(report.windows_lost() if windows else None),
        _cell(report.windows_mismatched() if windows else None),
        _cell(report.windows_duplicated() if windows else None),
        _cell(None if ab is None else ab.n_lost),
        _cell(None if ab is None else ab.n_duplicated),
        _cell(report.takeover_s),
        _cell(report.duplicates_counted_twice),
        _cell(report.late_events),
        _cell(round(report.rss_peak_kb / 1024) if report.rss_peak_kb else None),
        f"{seconds:.0f}",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--freeze-s", type=float, default=45.0)
    parser.add_argument("--only", choices=("kill", "freeze", "sigterm", "dedupe"), nargs="*")
    parser.add_argument("--verbose", action="store_true", help="print each scenario's detail")
    args = parser.parse_args(argv)
    rows: list[list[str]] = []
    failed = 0
    with tempfile.TemporaryDirectory(prefix="ragmon-failover-") as tmp:
        work = Path(tmp)
        with EmbeddedBroker(log_path=work / "broker.log") as broker:

            def fresh(name: str) -> tuple[Path, Settings]:
                d = work / name
                d.mkdir()
                return d, scenario_settings(broker.bootstrap_servers, d)

            scenarios: list[tuple[str, Callable[[], FailoverReport]]] = []
            d1, s1 = fresh("kill")
            scenarios.append(("kill", lambda: leader_kill(s1, d1)))
            d2 = work / "freeze"
            d2.mkdir()
            scenarios.append(("freeze", lambda: broker_freeze(d2, freeze_s=args.freeze_s)))
            d3, s3 = fresh("sigterm")
            scenarios.append(("sigterm", lambda: sigterm_takeover(s3, d3)))
            d4, s4 = fresh("dedupe")
            scenarios.append(("dedupe", lambda: dedupe_across_move(s4, d4)))
            for name, run in scenarios:
                if args.only and name not in args.only:
                    continue
                began = time.monotonic()
                try:
                    report = run()
                except Exception:
                    failed += 1
                    print(f"{name}: the scenario failed", file=sys.stderr)
                    traceback.print_exc()
                    continue
                rows.append(row(report, time.monotonic() - began))
                if args.verbose:
                    print(report.describe(), file=sys.stderr)
    print(" | ".join(h.ljust(w) for h, w in COLUMNS))
    print("-+-".join("-" * w for _, w in COLUMNS))
    for cells in rows:
        print(" | ".join(c.ljust(w) for c, (_, w) in zip(cells, COLUMNS, strict=True)))
    print(
        "\nlost win: expected windows (tumbling + hopping) never published; count!=: windows "
        "whose count differs from the distinct events produced into them; dup win: window "
        "summaries published more than once; takeover: longest send-to-score delay after "
        "the SIGKILL/SIGTERM; dups twice: second copies counted again; late: late_events."
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
