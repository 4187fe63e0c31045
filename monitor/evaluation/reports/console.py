"""``render_console``: the summary ``ragmon eval`` prints when it is done.

Plain fixed-width text, no colour codes: the run line, a line per perspective (cases,
pass rate, targets), every metric that has a target with ``✓``/``✗`` (``–`` without a
value), the operational rates, the total latency p50/p95, the judge's headline when it
ran and the count of skipped records. ``verbose`` adds every metric, by perspective.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from monitor.evaluation.reports.formatting import (
    display_name,
    format_percent,
    format_value,
    score_warning_line,
    target_mark,
    target_text,
)
from monitor.evaluation.reports.metric_groups import (
    metric_sort_key,
    metrics_by_perspective,
    perspective_sort_key,
)
from monitor.evaluation.results import EvalReport

__all__ = ["render_console"]

_OPERATIONAL = (
    ("errors", "operational.error_rate"),
    ("timeouts", "operational.timeout_rate"),
    ("empty", "operational.empty_response_rate"),
)
_MAX_JUDGE_METRICS = 6


def _id_width(ids: list[str]) -> int:
    return max((len(i) for i in ids), default=0) + 2


def _perspective_lines(report: EvalReport) -> list[str]:
    if not report.perspectives:
        return []
    names = sorted(report.perspectives, key=perspective_sort_key)
    width = max(len("perspective"), *(len(n) for n in names)) + 2
    lines = [f"{'perspective':<{width}}{'cases':>6}{'passed':>8}{'pass rate':>11}  targets"]
    for name in names:
        s = report.perspectives[name]
        met = "–" if s.meets_targets is None else ("✓" if s.meets_targets else "✗")
        lines.append(
            f"{name:<{width}}{s.cases:>6}{s.passed:>8}{format_percent(s.pass_rate):>11}  {met}"
        )
    return [*lines, ""]


def _target_lines(report: EvalReport) -> list[str]:
    ids = sorted(
        (mid for mid, m in report.metrics.items() if m.target is not None),
        key=lambda mid: (
            perspective_sort_key(report.metrics[mid].perspective),
            metric_sort_key(mid),
        ),
    )
    if not ids:
        return []
    names = {mid: display_name(mid, report.metrics[mid]) for mid in ids}
    width = _id_width(list(names.values()))
    met = sum(report.metrics[mid].meets_target is True for mid in ids)
    lines = [f"targets ({met}/{len(ids)} met)"]
    for mid in ids:
        m = report.metrics[mid]
        mark = target_mark(m, ascii_marks=True)
        lines.append(
            f"  {mark} {names[mid]:<{width}}{format_value(m.value):>9}  {target_text(m):<8} n={m.n}"
        )
    return [*lines, ""]


def _operational_line(report: EvalReport) -> list[str]:
    parts = [
        f"{label} {format_percent(report.metrics[mid].value)}"
        for label, mid in _OPERATIONAL
        if mid in report.metrics
    ]
    lines = [f"operational  {'  '.join(parts)}"] if parts else []
    warning = score_warning_line(report)
    return [*lines, warning] if warning is not None else lines


def _latency_line(report: EvalReport) -> list[str]:
    p50 = report.metrics.get("latency_ms.total.p50")
    p95 = report.metrics.get("latency_ms.total.p95")
    if p50 is None and p95 is None:
        return []
    parts = [
        f"{name} {format_value(m.value)} ms"
        for name, m in (("p50", p50), ("p95", p95))
        if m is not None
    ]
    return [f"latency total  {'  '.join(parts)}"]


def _find_number(tree: Mapping[str, Any], word: str) -> float | None:
    for key, value in tree.items():
        if word in str(key) and isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    return None


def _judge_line(report: EvalReport) -> list[str]:
    judge = report.judge
    if judge is None:
        return []
    parts = ["judge"]
    if judge.get("model") is not None:
        parts.append(f"model {judge['model']}")
    judged = sorted(
        (
            mid
            for mid, m in report.metrics.items()
            if m.perspective == "judge" and m.value is not None
        ),
        key=metric_sort_key,
    )
    parts += [
        f"{mid} {format_value(report.metrics[mid].value)}" for mid in judged[:_MAX_JUDGE_METRICS]
    ]
    usage = judge.get("usage")
    cost = _find_number(usage, "cost") if isinstance(usage, Mapping) else None
    if cost is None:
        cost = _find_number(judge, "cost")
    if cost is not None:
        parts.append(f"cost ${cost:.4f}")
    reliability = judge.get("reliability")
    if isinstance(reliability, Mapping):
        disagreement = _find_number(reliability, "disagreement")
        if disagreement is not None:
            parts.append(f"disagreement {format_percent(disagreement)}")
    return ["  ".join(parts)]


def _verbose_lines(report: EvalReport) -> list[str]:
    groups = metrics_by_perspective(report.metrics)
    if not groups:
        return []
    width = _id_width([display_name(mid, m) for mid, m in report.metrics.items()])
    lines = ["all metrics"]
    for perspective, metrics in groups.items():
        lines.append(f"  {perspective}")
        for mid, m in metrics:
            target = f"  {target_text(m)} {target_mark(m, ascii_marks=True)}" if m.target else ""
            name = display_name(mid, m)
            lines.append(f"    {name:<{width}}{format_value(m.value):>9}  n={m.n}{target}")
    return ["", *lines]


def render_console(report: EvalReport, *, verbose: bool = False) -> str:
    """The terminal summary of ``report`` (see the module docstring), ending with a
    newline."""
    ds = report.dataset
    lines = [
        f"ragmon eval  {ds.name} ({report.timestamp})  run {report.run_id[:8]}",
        f"cases {ds.cases}  evaluated {ds.evaluated}  skipped records {len(ds.skipped)}"
        f"  duration {report.duration_s:.1f} s  seed {report.seed}",
        "",
        *_perspective_lines(report),
        *_target_lines(report),
        *_operational_line(report),
        *_latency_line(report),
        *_judge_line(report),
    ]
    if ds.skipped:
        lines.append(f"skipped records: {len(ds.skipped)} (listed in the Markdown report)")
    failed = len(report.failed_cases())
    lines.append(f"failed cases: {failed} of {len(report.cases)}")
    if verbose:
        lines += _verbose_lines(report)
    return "\n".join(lines).rstrip("\n") + "\n"
