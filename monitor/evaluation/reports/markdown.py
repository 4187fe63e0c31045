"""``render_markdown``: the human-readable report of one ``ragmon eval`` run.

Sections, in order: the run (dataset, cases, skipped records, seed, suite, perspectives,
duration, versions); the headline metrics (those with a target and
:data:`HEADLINE_METRICS`) with their 95 % confidence intervals; the perspectives (cases,
passed, pass rate, targets); the metrics of each perspective with their targets and 95 %
confidence intervals; the per-category safety rates; the latency
percentiles per stage; a table per breakdown dimension with the key metrics present; the
judge (when it ran); the failed cases (the first :data:`MAX_FAILED_CASES`); and the
regression gate's Markdown, verbatim, when given. Every table cell has its ``|`` escaped.

The judge part of the report is free-form (``model``, ``rubrics`` with each rubric's
aggregate, ``usage``, ``reliability``...): top-level scalars make a table, every mapping
a table of its own with its leaves as dotted paths (lists of scalars joined, lists of
records counted), so whatever the judge wrote is shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from monitor.evaluation.reports.formatting import (
    display_name,
    escape_cell,
    format_interval,
    format_percent,
    format_value,
    score_warning_line,
    target_mark,
    target_text,
)
from monitor.evaluation.reports.metric_groups import (
    COUNT_METRICS,
    breakdown_columns,
    category_rate,
    latency_stage,
    metric_sort_key,
    metrics_by_perspective,
    perspective_sort_key,
    stage_sort_key,
)
from monitor.evaluation.results import BREAKDOWN_DIMENSIONS, EvalReport, MetricValue

__all__ = ["HEADLINE_METRICS", "MAX_FAILED_CASES", "headline_metrics", "render_markdown"]

HEADLINE_METRICS: tuple[str, ...] = (
    "retrieval.ndcg@5",
    "retrieval.recall@5",
    "grounding.claim_support_rate",
    "abstention.accuracy",
    "abstention.hallucination_rate",
    "pipeline.pass",
    "operational.error_rate",
    "quality.overall",
)
"""Shown first (with the metrics that have a target), with confidence intervals."""

MAX_FAILED_CASES = 50
"""The failed cases listed; the CSV and the JSON have them all."""

_MAX_JUDGE_ROWS = 60


def _interval(metric_id: str, metric: MetricValue) -> str:
    return format_interval(metric, unit_interval=metric_id not in COUNT_METRICS)


def _table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    lines = [
        "| " + " | ".join(escape_cell(h) for h in header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
    ]
    lines.extend("| " + " | ".join(escape_cell(cell) for cell in row) + " |" for row in rows)
    lines.append("")
    return lines


def _config_text(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(str(v) for v in value) or "–"
    return str(value)


def _run_section(report: EvalReport) -> list[str]:
    ds = report.dataset
    config = report.config
    rows: list[tuple[str, str]] = [
        ("Run id", report.run_id),
        ("Created", report.created_at),
        ("Dataset", f"{ds.name} ({ds.format}) {ds.path}"),
        ("Dataset sha256", ds.sha256),
        ("Cases", f"{ds.cases} ({ds.evaluated} evaluated, {len(ds.skipped)} skipped)"),
        ("Seed", str(report.seed)),
        ("Suite", _config_text(config.get("suite"))),
        ("Perspectives", _config_text(config.get("perspectives"))),
        ("Duration", f"{report.duration_s:.1f} s"),
        ("Versions", ", ".join(f"{k} {v}" for k, v in report.versions.items()) or "–"),
    ]
    if config.get("target") is not None:
        rows.insert(8, ("Target", _config_text(config.get("target"))))
    warning = score_warning_line(report)
    if warning is not None:
        rows.append(("Score scales", warning))
    lines = ["## Run", "", *_table(("", ""), rows)]
    if ds.skipped:
        lines += ["### Skipped records", ""]
        lines += _table(("Origin", "Reason"), ((s.origin, s.reason) for s in ds.skipped))
    return lines


def _perspective_section(report: EvalReport) -> list[str]:
    if not report.perspectives:
        return []
    rows = []
    for name in sorted(report.perspectives, key=perspective_sort_key):
        summary = report.perspectives[name]
        met = "–" if summary.meets_targets is None else ("✅" if summary.meets_targets else "❌")
        rows.append((name, summary.cases, summary.passed, format_percent(summary.pass_rate), met))
    header = ("Perspective", "Cases", "Passed", "Pass rate", "Meets targets")
    return ["## Perspectives", "", *_table(header, rows)]


def _special(metric_id: str) -> bool:
    return category_rate(metric_id) is not None or latency_stage(metric_id) is not None


def _metrics_section(report: EvalReport) -> list[str]:
    exclude = [m for m in report.metrics if _special(m)]
    groups = metrics_by_perspective(report.metrics, exclude=exclude)
    if not groups:
        return []
    lines = ["## Metrics", ""]
    for perspective, metrics in groups.items():
        rows = [
            (
                f"`{display_name(mid, m)}`",
                format_value(m.value),
                _interval(mid, m),
                m.n,
                target_text(m) or "–",
                target_mark(m),
            )
            for mid, m in metrics
        ]
        lines += [f"### {perspective}", ""]
        lines += _table(("Metric", "Value", "95% CI", "n", "Target", "Met"), rows)
    return lines


def headline_metrics(report: EvalReport) -> list[str]:
    """The metrics a reader looks at first: every one with a target, and
    :data:`HEADLINE_METRICS`, in report order."""
    wanted = {mid for mid, m in report.metrics.items() if m.target_value is not None}
    wanted |= {mid for mid in HEADLINE_METRICS if mid in report.metrics}
    return [mid for group in metrics_by_perspective(report.metrics).values()
            for mid, _ in group if mid in wanted]  # fmt: skip


def _headline_section(report: EvalReport) -> list[str]:
    ids = headline_metrics(report)
    if not ids:
        return []
    rows = []
    for mid in ids:
        m = report.metrics[mid]
        direction = "lower" if m.higher_is_better is False else "higher"
        rows.append(
            (f"`{mid}`", format_value(m.value), _interval(mid, m), m.n, direction,
             target_text(m) or "–", target_mark(m))
        )  # fmt: skip
    header = ("Metric", "Value", "95% CI", "n", "Better", "Target", "Met")
    note = (
        "95% confidence intervals: Wilson's for rates, ±1.96 standard errors for means; "
        "– for derived metrics and single cases."
    )
    return ["## Headline metrics", "", note, "", *_table(header, rows)]


def _safety_categories_section(report: EvalReport) -> list[str]:
    by_family: dict[str, dict[str, dict[str, tuple[float | None, int]]]] = {}
    for metric_id, metric in report.metrics.items():
        parsed = category_rate(metric_id)
        if parsed is None:
            continue
        family, rate, category = parsed
        cell = by_family.setdefault(family, {}).setdefault(category, {})
        cell[rate] = (metric.value, metric.n)
    if not by_family:
        return []
    lines = ["## Safety by category", ""]
    for family in sorted(by_family):
        categories = by_family[family]
        rates = sorted({rate for cells in categories.values() for rate in cells})
        header = ["Category", *(r.replace("_", " ").capitalize() for r in rates), "n"]
        rows = []
        for category in sorted(categories):
            cells = categories[category]
            n = max((count for _, count in cells.values()), default=0)
            values = [format_value(cells[r][0]) if r in cells else "–" for r in rates]
            rows.append([category, *values, n])
        lines += [f"### {family.capitalize()}", ""]
        lines += _table(header, rows)
    return lines


def _latency_section(report: EvalReport) -> list[str]:
    stages: dict[str, dict[str, float | None]] = {}
    for metric_id, metric in report.metrics.items():
        parsed = latency_stage(metric_id)
        if parsed is not None:
            stage, quantile = parsed
            stages.setdefault(stage, {})[quantile] = metric.value
    if not stages:
        return []
    quantiles = sorted({q for qs in stages.values() for q in qs}, key=metric_sort_key)
    header = ["Stage", *(f"{q} (ms)" for q in quantiles)]
    rows = [
        [stage, *(format_value(stages[stage].get(q)) for q in quantiles)]
        for stage in sorted(stages, key=stage_sort_key)
    ]
    return ["## Latency", "", *_table(header, rows)]


def _dimension_order(name: str) -> tuple[int, str]:
    if name in BREAKDOWN_DIMENSIONS:
        return (BREAKDOWN_DIMENSIONS.index(name), "")
    return (len(BREAKDOWN_DIMENSIONS), name)


def _breakdown_section(report: EvalReport) -> list[str]:
    lines: list[str] = []
    for dimension in sorted(report.breakdowns, key=_dimension_order):
        groups = report.breakdowns[dimension]
        if not groups:
            continue
        columns = breakdown_columns(groups)
        rows = [
            [
                value,
                groups[value].cases,
                *(format_value(groups[value].metrics.get(c)) for c in columns),
            ]
            for value in sorted(groups)
        ]
        lines += [f"### By {dimension}", ""]
        lines += _table([dimension, "Cases", *(f"`{c}`" for c in columns)], rows)
    return ["## Breakdowns", "", *lines] if lines else []


def _scalar_text(value: Any) -> str | None:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return format_value(value)
    if isinstance(value, int | str):
        return str(value)
    return None


def _leaves(tree: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    for key, value in tree.items():
        path = f"{prefix}{key}"
        text = _scalar_text(value)
        if text is not None:
            yield path, text
        elif isinstance(value, Mapping):
            yield from _leaves(value, f"{path}.")
        elif isinstance(value, list | tuple):
            if all(_scalar_text(v) is not None and not isinstance(v, Mapping) for v in value):
                yield path, ", ".join(_scalar_text(v) or "" for v in value) or "–"
            else:
                yield path, f"{len(value)} items"
        else:
            yield path, str(value)


def _leaf_table(tree: Mapping[str, Any]) -> list[str]:
    rows = list(_leaves(tree))
    if len(rows) > _MAX_JUDGE_ROWS:
        rows = [*rows[:_MAX_JUDGE_ROWS], ("…", f"{len(rows) - _MAX_JUDGE_ROWS} more in the JSON")]
    return _table(("Field", "Value"), rows)


def _judge_section(judge: Mapping[str, Any]) -> list[str]:
    lines = ["## Judge", ""]
    scalars = {k: v for k, v in judge.items() if not isinstance(v, Mapping)}
    if scalars:
        lines += _leaf_table(scalars)
    rubrics = judge.get("rubrics")
    if isinstance(rubrics, Mapping):
        for rubric, aggregate in rubrics.items():
            lines += [f"### Rubric {rubric}", ""]
            if isinstance(aggregate, Mapping):
                lines += _leaf_table(aggregate)
            else:
                lines += [escape_cell(aggregate), ""]
    for key, value in judge.items():
        if key == "rubrics" or not isinstance(value, Mapping):
            continue
        lines += [f"### {key.replace('_', ' ').capitalize()}", ""]
        lines += _leaf_table(value)
    return lines


def _failed_section(report: EvalReport) -> list[str]:
    failed = report.failed_cases()
    if not failed:
        return ["## Failed cases", "", "None.", ""]
    rows = []
    for case in failed[:MAX_FAILED_CASES]:
        problems = list(case.failures)
        if case.error:
            problems.insert(0, case.error)
        perspectives = ", ".join(case.failed_perspectives()) or "–"
        rows.append((case.case_id, case.origin, case.status, perspectives, "; ".join(problems)))
    lines = [
        "## Failed cases",
        "",
        f"{len(failed)} of {len(report.cases)} cases failed a perspective or did not complete.",
        "",
    ]
    lines += _table(("Case", "Origin", "Status", "Failed perspectives", "Failures"), rows)
    if len(failed) > MAX_FAILED_CASES:
        lines += [
            f"… and {len(failed) - MAX_FAILED_CASES} more (see the per-case CSV).",
            "",
        ]
    return lines


def render_markdown(report: EvalReport, *, gate_markdown: str | None = None) -> str:
    """The Markdown report of ``report`` (see the module docstring); ``gate_markdown``
    (the regression gate's verdict) is appended verbatim."""
    lines = [
        f"# Evaluation report: {escape_cell(report.dataset.name)} ({report.timestamp})",
        "",
        *_run_section(report),
        *_headline_section(report),
        *_perspective_section(report),
        *_metrics_section(report),
        *_safety_categories_section(report),
        *_latency_section(report),
        *_breakdown_section(report),
    ]
    if report.judge is not None:
        lines += _judge_section(report.judge)
    lines += _failed_section(report)
    text = "\n".join(lines).rstrip("\n") + "\n"
    if gate_markdown:
        text += "\n" + gate_markdown
        if not gate_markdown.endswith("\n"):
            text += "\n"
    return text
