"""The text table of ``ragmon ab``: one block per metric, one row per variant.

>>> from monitor.events.ab_result import AbResult
>>> print(render(AbResult.model_validate(EXAMPLE)).splitlines()[0])
experiment reranker-v2 (cumulative 1970-01-01 00:00:00 - 00:10:00 UTC), control: control, alpha 0.05
"""

from __future__ import annotations

import time
from typing import Any

from monitor.events.ab_result import AbResult, Comparison

__all__ = ["EXAMPLE", "render"]


def _num(x: float | None, digits: int = 4) -> str:
    return "-" if x is None else f"{x:.{digits}g}"


def _utc(ms: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(ms // 1000))


def _verdict(c: Comparison) -> str:
    if c.always_valid_p_value is None or c.difference is None:
        return "too little data"
    if not c.is_significant:
        return "no significant difference yet"
    return "treatment higher" if c.difference > 0 else "treatment lower"


def render(result: AbResult) -> str:
    span = result.span
    lines = [
        f"experiment {result.experiment} ({span.scope} {_utc(span.start_ms)} - "
        f"{_utc(span.end_ms)[11:]} UTC), control: {result.control}, alpha {result.alpha:g}",
    ]
    srm = result.sample_ratio
    observed = ", ".join(f"{v} {n}" for v, n in srm.observed.items())
    lines.append(
        f"sample ratio: {observed}; chi-square p {_num(srm.p_value)}"
        + ("  SAMPLE RATIO MISMATCH: do not trust the comparisons" if srm.mismatch else "")
    )
    header = (
        f"  {'variant':<14}{'n':>8}{'mean':>10}{'difference [95% CI]':>30}"
        f"{'p (fixed)':>11}{'p (always valid)':>18}  verdict"
    )
    by_metric: dict[str, list[Comparison]] = {}
    for c in result.comparisons:
        by_metric.setdefault(c.metric, []).append(c)
    for metric, comparisons in by_metric.items():
        first = comparisons[0]
        lines += ["", f"{metric} ({first.kind}, {first.test})", header]
        lines.append(
            f"  {result.control:<14}{first.control_sample_size:>8}{_num(first.control_mean):>10}"
        )
        for c in comparisons:
            ci = f"{_num(c.difference)} [{_num(c.ci_low)}, {_num(c.ci_high)}]"
            lines.append(
                f"  {c.variant:<14}{c.treatment_sample_size:>8}{_num(c.treatment_mean):>10}"
                f"{ci:>30}{_num(c.p_value, 3):>11}{_num(c.always_valid_p_value, 3):>18}"
                f"  {_verdict(c)}"
            )
    for a in result.analyses:
        verdict = "SIGNIFICANT" if a.is_significant else "not significant"
        lines += [
            "",
            f"{a.variant} vs {result.control}: quality {_num(a.quality_improvement, 3)} "
            f"relative, latency {_num(a.latency_change, 3)} relative: {verdict} "
            "(always-valid p-value of quality.overall)",
        ]
    return "\n".join(lines)


EXAMPLE: dict[str, Any] = {
    "experiment": "reranker-v2",
    "control": "control",
    "span": {"scope": "cumulative", "start_ms": 0, "end_ms": 600_000},
    "alpha": 0.05,
    "analyses": [],
    "comparisons": [],
    "sample_ratio": {
        "expected": {"control": 0.5, "treatment": 0.5},
        "observed": {"control": 500, "treatment": 510},
        "chi2": 0.099,
        "p_value": 0.753,
        "mismatch": False,
    },
}
