"""The JSON summary of a closed window, as published to ``rag.windows.v1``.

Per roll-up series (``null`` label = every value) and metric id: count, mean, standard
deviation, min, max, p50/p95/p99 from the sketch, and the raw sum and sum of squares so
that downstream consumers (A/B statistics) can merge windows.

>>> from monitor.windows.aggregate import Aggregate
>>> from monitor.windows.store import ClosedWindow
>>> w = ClosedWindow("tumbling", 0, 60_000, {(None, None, None): {"q": Aggregate.of([1.0, 3.0])}})
>>> s = window_summary(w)
>>> s["series"][0]["metrics"]["q"]["mean"], s["series"][0]["variant"]
(2.0, None)
"""

from __future__ import annotations

from typing import Any

from monitor.windows.aggregate import Aggregate
from monitor.windows.store import ClosedWindow

__all__ = ["aggregate_summary", "window_summary"]


def aggregate_summary(agg: Aggregate) -> dict[str, Any]:
    return {
        "count": agg.count,
        "mean": agg.mean,
        "stddev": agg.stddev,
        "min": agg.minimum if agg.count else None,
        "max": agg.maximum if agg.count else None,
        "p50": agg.quantile(0.5),
        "p95": agg.quantile(0.95),
        "p99": agg.quantile(0.99),
        "sum": agg.total,
        "sum_sq": agg.total_sq,
    }


def window_summary(window: ClosedWindow, late_events: int | None = None) -> dict[str, Any]:
    series = [
        {
            "variant": key[0],
            "tenant": key[1],
            "application": key[2],
            "metrics": {m: aggregate_summary(a) for m, a in sorted(metrics.items())},
        }
        for key, metrics in sorted(window.series.items(), key=lambda kv: repr(kv[0]))
    ]
    return {
        "kind": window.kind,
        "start_ms": window.start_ms,
        "end_ms": window.end_ms,
        "events": window.events,
        "late_events": late_events,
        "series": series,
    }
