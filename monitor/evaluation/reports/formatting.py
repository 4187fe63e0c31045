"""How the reports write a value, a target and a table cell.

>>> format_value(0.71234), format_value(None), format_value(1234.5), format_value(0.01234)
('0.712', 'n/a', '1234.5', '0.0123')
>>> m = MetricValue(value=0.5, n=4, perspective="retrieval", kind="mean",
...     higher_is_better=True, target=">", target_value=0.6, meets_target=False)
>>> target_text(m), target_mark(m), target_mark(m, ascii_marks=True)
('> 0.6', '❌', '✗')
>>> escape_cell("a | b\\nc")
'a \\\\| b c'
>>> format_percent(0.5), format_percent(None)
('50.0%', 'n/a')
>>> mrr = MetricValue(value=0.5, n=4, perspective="retrieval", kind="mean",
...     higher_is_better=True, depth=10, depth_min=10)
>>> display_name("retrieval.mrr", mrr), display_name("retrieval.ndcg@5", mrr)
('retrieval.mrr@10', 'retrieval.ndcg@5')
>>> display_name("retrieval.map", mrr.model_copy(update={"depth_min": 3}))
'retrieval.map@3-10'
"""

from __future__ import annotations

import math

from monitor.evaluation.results import EvalReport, MetricValue

__all__ = [
    "Z_95",
    "confidence_interval",
    "display_name",
    "escape_cell",
    "format_interval",
    "format_percent",
    "format_value",
    "score_warning_line",
    "target_mark",
    "target_text",
]

Z_95 = 1.959963984540054
"""The two-sided 95 % normal quantile."""


def format_value(value: float | None) -> str:
    """A metric value: 3 decimals (4 below 0.1, 1 from 100 on: milliseconds, counts);
    ``n/a`` for ``None``."""
    if value is None:
        return "n/a"
    if math.isnan(value) or math.isinf(value):
        return str(value)
    if abs(value) >= 100:
        return f"{value:.1f}"
    if 0 < abs(value) < 0.1:
        return f"{value:.4f}"
    return f"{value:.3f}"


def display_name(metric_id: str, metric: MetricValue) -> str:
    """The metric id with its ranking depth when the id does not carry one:
    ``retrieval.mrr@10`` (``@3-10`` when the cases ranked 3 to 10 chunks)."""
    if "@" in metric_id or metric.depth is None:
        return metric_id
    low = metric.depth if metric.depth_min is None else metric.depth_min
    depth = f"{metric.depth}" if low == metric.depth else f"{low}-{metric.depth}"
    return f"{metric_id}@{depth}"


def score_warning_line(report: EvalReport) -> str | None:
    """One line on the chunk score warnings of the scored events (scores outside [0, 1]
    with no declared scale, or not descending), with the first case's warning; ``None``
    when no case has one.

    >>> from monitor.evaluation.results import CaseResult, DatasetInfo
    >>> cases = [CaseResult(case_id=f"q{i}", origin="x", query="?",
    ...     signals={"score_warning": "chunk scores outside [0, 1] (13.2)"} if i else {})
    ...     for i in range(3)]
    >>> report = EvalReport(run_id="r", created_at="", timestamp="", duration_s=0.0,
    ...     seed=0, dataset=DatasetInfo(name="d", format="jsonl", path="d", sha256="",
    ...     cases=3, evaluated=3), config={}, versions={}, metrics={}, perspectives={},
    ...     breakdowns={}, cases=cases)
    >>> score_warning_line(report)
    'score scale warning on 2 of 3 cases (q1: chunk scores outside [0, 1] (13.2))'
    """
    warned = [c for c in report.cases if isinstance(c.signals.get("score_warning"), str)]
    if not warned:
        return None
    first = warned[0]
    return (
        f"score scale warning on {len(warned)} of {len(report.cases)} cases "
        f"({first.case_id}: {first.signals['score_warning']})"
    )


def format_percent(value: float | None) -> str:
    """A rate in 0..1 as a percentage with one decimal; ``n/a`` for ``None``."""
    if value is None or math.isnan(value):
        return "n/a"
    return f"{100.0 * value:.1f}%"


def target_text(metric: MetricValue) -> str:
    """``"> 0.6"``, or ``""`` when the metric has no target."""
    if metric.target is None or metric.target_value is None:
        return ""
    if " " in metric.target:  # already "op value", as summarize writes it
        return metric.target
    return f"{metric.target} {metric.target_value:g}"


def target_mark(metric: MetricValue, *, ascii_marks: bool = False) -> str:
    """Met, missed, or ``–`` (no target, or no value to compare). ``ascii_marks`` gives
    the narrow ``✓``/``✗`` of the terminal instead of the Markdown emoji."""
    if metric.meets_target is None:
        return "–"
    if ascii_marks:
        return "✓" if metric.meets_target else "✗"
    return "✅" if metric.meets_target else "❌"


def escape_cell(text: object) -> str:
    """``text`` made safe for one Markdown table cell: ``|`` escaped, line breaks as
    spaces."""
    s = str(text)
    s = s.replace("\\", "\\\\").replace("|", "\\|")
    return " ".join(s.splitlines()) if ("\n" in s or "\r" in s) else s


def confidence_interval(
    metric: MetricValue, *, unit_interval: bool = True
) -> tuple[float, float] | None:
    """The 95 % confidence interval of a ``rate`` (Wilson's score interval, which stays
    in [0, 1] and is not empty at 0 or 1) or a ``mean`` (value ± 1.96 standard errors,
    cut to [0, 1] when ``unit_interval``: a score that cannot leave it); ``None`` for a
    derived metric, a missing value, or one case.

    >>> m = MetricValue(value=0.0, n=20, perspective="x", kind="rate", higher_is_better=False)
    >>> [round(b, 3) for b in confidence_interval(m)]
    [0.0, 0.161]
    >>> m = MetricValue(value=0.5, n=4, perspective="x", kind="mean", higher_is_better=True,
    ...     stderr=0.1)
    >>> [round(b, 3) for b in confidence_interval(m)]
    [0.304, 0.696]
    >>> m = MetricValue(value=0.95, n=8, perspective="x", kind="mean", higher_is_better=True,
    ...     stderr=0.05)
    >>> confidence_interval(m)[1], round(confidence_interval(m, unit_interval=False)[1], 3)
    (1.0, 1.048)
    """
    value, n = metric.value, metric.n
    if value is None or n < 2 or not math.isfinite(value):
        return None
    if metric.kind == "rate" and 0.0 <= value <= 1.0:
        z2 = Z_95 * Z_95
        centre = (value + z2 / (2 * n)) / (1 + z2 / n)
        half = Z_95 * math.sqrt(value * (1 - value) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return (max(0.0, centre - half), min(1.0, centre + half))
    if metric.kind == "mean" and metric.stderr is not None and math.isfinite(metric.stderr):
        low, high = value - Z_95 * metric.stderr, value + Z_95 * metric.stderr
        if unit_interval and 0.0 <= value <= 1.0:
            return (max(0.0, low), min(1.0, high))
        return (low, high)
    return None


def format_interval(metric: MetricValue, *, unit_interval: bool = True) -> str:
    """``[0.412, 0.598]``, or ``–`` when :func:`confidence_interval` has none."""
    interval = confidence_interval(metric, unit_interval=unit_interval)
    if interval is None:
        return "–"
    return f"[{format_value(interval[0])}, {format_value(interval[1])}]"
