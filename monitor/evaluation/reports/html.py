"""``render_html``: the report of one ``ragmon eval`` run as one self-contained HTML page.

Everything is inside the file: the plots as ``data:image/png;base64`` URIs, the styles
inline, no script; a Content-Security-Policy that allows nothing else, so the page opens
from a CI artifact or a mail attachment with no network and fetches nothing. Every text
that comes from the dataset, the service or the judge (queries, answers, failures) is
HTML-escaped.

Sections: the run; the regression gate (its verdict line and every row, when it ran);
the headline metrics with their 95 % confidence intervals; the plots; the metrics of each
perspective; the latency percentiles; the breakdowns; the failed cases with their query
and answer (the first :data:`MAX_FAILED_CASES`).

>>> from monitor.evaluation.results import MetricValue, DatasetInfo, EvalReport
>>> report = EvalReport(run_id="r1", created_at="2026-11-26T00:00:00Z",
...     timestamp="20261126_000000", duration_s=0.1, seed=1,
...     dataset=DatasetInfo(name="<ds>", format="003", path="p", sha256="0", cases=0,
...                         evaluated=0), config={}, versions={}, metrics={},
...     perspectives={}, breakdowns={}, cases=[])
>>> page = render_html(report)
>>> "<title>Evaluation report: &lt;ds&gt;" in page, "<ds>" in page
(True, False)
"""

from __future__ import annotations

import base64
import dataclasses
import html
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from monitor.evaluation.gate import GateResult
from monitor.evaluation.gate.render import verdict
from monitor.evaluation.reports.formatting import (
    format_interval,
    format_percent,
    format_value,
    target_mark,
    target_text,
)
from monitor.evaluation.reports.markdown import MAX_FAILED_CASES, headline_metrics
from monitor.evaluation.reports.metric_groups import (
    COUNT_METRICS,
    breakdown_columns,
    latency_stage,
    metric_sort_key,
    metrics_by_perspective,
    perspective_sort_key,
    stage_sort_key,
)
from monitor.evaluation.results import EvalReport, MetricValue

__all__ = ["CSP", "render_html"]

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
"""Nothing may be fetched: images are data URIs, styles inline, no script."""

_STYLE = """
body { font-family: sans-serif; margin: 1.5em auto; max-width: 1300px; color: #222; }
h1 { font-size: 1.5em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.6em 0 1.2em; font-size: 0.9em; }
table { display: block; overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; vertical-align: top; }
th { background: #eceff1; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.failed td { background: #ffebee; }
.verdict { font-weight: bold; font-size: 1.1em; padding: 0.5em; }
.verdict.passed { background: #e8f5e9; } .verdict.failed { background: #ffebee; }
.na { color: #78909c; font-style: italic; }
figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #ddd; }
td.text { max-width: 40em; white-space: pre-wrap; word-break: break-word; }
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _interval(metric_id: str, metric: MetricValue) -> str:
    return format_interval(metric, unit_interval=metric_id not in COUNT_METRICS)


def _table(
    header: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    numeric: Iterable[int] = (),
    row_classes: Sequence[str] | None = None,
    cell_classes: dict[int, str] | None = None,
) -> str:
    numbers = set(numeric)
    classes = dict(cell_classes or {})
    lines = ["<table>", "<tr>" + "".join(f"<th>{_e(h)}</th>" for h in header) + "</tr>"]
    for i, row in enumerate(rows):
        css = f' class="{row_classes[i]}"' if row_classes and row_classes[i] else ""
        cells = []
        for j, cell in enumerate(row):
            text = _e(cell)
            kind = "num" if j in numbers else classes.get(j, "")
            if text == "n/a":
                text = '<span class="na">n/a</span>'
            cells.append(f'<td class="{kind}">{text}</td>' if kind else f"<td>{text}</td>")
        lines.append(f"<tr{css}>" + "".join(cells) + "</tr>")
    lines.append("</table>")
    return "\n".join(lines)


def _run_section(report: EvalReport) -> str:
    ds = report.dataset
    config = report.config
    rows = [
        ("Run id", report.run_id),
        ("Created", report.created_at),
        ("Dataset", f"{ds.name} ({ds.format}) {ds.path}"),
        ("Dataset sha256", ds.sha256),
        ("Cases", f"{ds.cases} ({ds.evaluated} evaluated, {len(ds.skipped)} skipped)"),
        ("Seed", report.seed),
        ("Perspectives", ", ".join(map(str, config.get("perspectives") or [])) or "–"),
        ("Target", config.get("target") or "– (recorded responses)"),
        ("Duration", f"{report.duration_s:.1f} s"),
        ("Versions", ", ".join(f"{k} {v}" for k, v in report.versions.items()) or "–"),
    ]
    return "<h2>Run</h2>\n" + _table(("", ""), rows)


def _gate_value(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.1f}" if abs(value) >= 100 else f"{value:.4g}"
    return str(value)


def _gate_section(gate: GateResult | None) -> str:
    if gate is None:
        return (
            "<h2>Regression gate</h2>\n"
            '<p class="na">The gate did not run (no --gate, no --baseline).</p>'
        )
    passed = not gate.failed
    css = "passed" if passed else "failed"
    lines = ["<h2>Regression gate</h2>", f'<p class="verdict {css}">{_e(verdict(gate))}</p>']
    if gate.rows:
        # every field of a row, as the gate exposes it
        names = [f.name for f in dataclasses.fields(gate.rows[0])]
        rows = [[_gate_value(getattr(row, n)) for n in names] for row in gate.rows]
        classes = ["failed" if row.failed else "" for row in gate.rows]
        numeric = [i for i, n in enumerate(names) if n in ("baseline", "current", "delta",
                                                             "tolerance", "p_value")]  # fmt: skip
        lines.append(_table(names, rows, numeric=numeric, row_classes=classes))
    return "\n".join(lines)


def _headline_section(report: EvalReport) -> str:
    ids = headline_metrics(report)
    if not ids:
        return ""
    rows = []
    classes = []
    for mid in ids:
        m = report.metrics[mid]
        better = "lower ↓" if m.higher_is_better is False else "higher ↑"
        rows.append(
            (mid, format_value(m.value), _interval(mid, m), m.n, better,
             target_text(m) or "–", target_mark(m, ascii_marks=True))
        )  # fmt: skip
        classes.append("failed" if m.meets_target is False else "")
    header = ("Metric", "Value", "95% CI", "n", "Better", "Target", "Met")
    note = (
        "<p>95% confidence intervals: Wilson's for rates, ±1.96 standard errors for "
        "means; – for derived metrics and single cases.</p>"
    )
    table = _table(header, rows, numeric=(1, 3), row_classes=classes)
    return "<h2>Headline metrics</h2>\n" + note + "\n" + table


def _plots_section(plots: Sequence[Path]) -> str:
    if not plots:
        return ""
    lines = ["<h2>Plots</h2>"]
    for path in plots:
        data = base64.b64encode(Path(path).read_bytes()).decode("ascii")
        name = Path(path).stem.rsplit("_", 1)[-1]
        lines.append(
            f'<figure><img alt="{_e(name)} plot" src="data:image/png;base64,{data}">'
            f"<figcaption>{_e(name)}</figcaption></figure>"
        )
    return "\n".join(lines)


def _metrics_section(report: EvalReport) -> str:
    exclude = [m for m in report.metrics if latency_stage(m) is not None]
    groups = metrics_by_perspective(report.metrics, exclude=exclude)
    if not groups:
        return ""
    parts = ["<h2>Metrics</h2>"]
    for perspective, metrics in groups.items():
        rows = [
            (mid + (" ↓" if m.higher_is_better is False else ""), format_value(m.value),
             _interval(mid, m), m.n, target_text(m) or "–",
             target_mark(m, ascii_marks=True))
            for mid, m in metrics
        ]  # fmt: skip
        classes = ["failed" if m.meets_target is False else "" for _, m in metrics]
        parts.append(f"<h3>{_e(perspective)}</h3>")
        parts.append(
            _table(("Metric", "Value", "95% CI", "n", "Target", "Met"), rows,
                   numeric=(1, 3), row_classes=classes)
        )  # fmt: skip
    parts.append("<p>↓: lower is better.</p>")
    return "\n".join(parts)


def _perspectives_section(report: EvalReport) -> str:
    if not report.perspectives:
        return ""
    rows = []
    for name in sorted(report.perspectives, key=perspective_sort_key):
        s = report.perspectives[name]
        met = "–" if s.meets_targets is None else ("✓" if s.meets_targets else "✗")
        rows.append((name, s.cases, s.passed, format_percent(s.pass_rate), met))
    header = ("Perspective", "Cases", "Passed", "Pass rate", "Meets targets")
    return "<h2>Perspectives</h2>\n" + _table(header, rows, numeric=(1, 2, 3))


def _latency_section(report: EvalReport) -> str:
    stages: dict[str, dict[str, float | None]] = {}
    for metric_id, metric in report.metrics.items():
        parsed = latency_stage(metric_id)
        if parsed is not None:
            stages.setdefault(parsed[0], {})[parsed[1]] = metric.value
    if not stages:
        return ""
    quantiles = sorted({q for qs in stages.values() for q in qs}, key=metric_sort_key)
    rows = [
        [stage, *(format_value(stages[stage].get(q)) for q in quantiles)]
        for stage in sorted(stages, key=stage_sort_key)
    ]
    header = ["Stage", *(f"{q} (ms)" for q in quantiles)]
    numeric = range(1, len(header))
    return "<h2>Latency</h2>\n" + _table(header, rows, numeric=numeric)


def _breakdown_section(report: EvalReport) -> str:
    parts = []
    for dimension in sorted(report.breakdowns):
        groups = report.breakdowns[dimension]
        if not groups:
            continue
        columns = breakdown_columns(groups)
        rows = [
            [value, groups[value].cases,
             *(format_value(groups[value].metrics.get(c)) for c in columns)]
            for value in sorted(groups)
        ]  # fmt: skip
        parts.append(f"<h3>By {_e(dimension)}</h3>")
        parts.append(
            _table([dimension, "Cases", *columns], rows, numeric=range(1, len(columns) + 2))
        )
    return "<h2>Breakdowns</h2>\n" + "\n".join(parts) if parts else ""


def _failed_section(report: EvalReport) -> str:
    failed = report.failed_cases()
    if not failed:
        return "<h2>Failed cases</h2>\n<p>None.</p>"
    rows = []
    for case in failed[:MAX_FAILED_CASES]:
        problems = ([case.error] if case.error else []) + list(case.failures)
        rows.append(
            (case.case_id, case.status, ", ".join(case.failed_perspectives()) or "–",
             "\n".join(problems), case.query,
             case.answer if case.answer is not None else "(no answer)")
        )  # fmt: skip
    header = ("Case", "Status", "Failed perspectives", "Failures", "Query", "Answer")
    text = {3: "text", 4: "text", 5: "text"}
    lines = [
        "<h2>Failed cases</h2>",
        f"<p>{len(failed)} of {len(report.cases)} cases failed a perspective or did not "
        "complete.</p>",
        _table(header, rows, cell_classes=text),
    ]
    if len(failed) > MAX_FAILED_CASES:
        lines.append(f"<p>… and {len(failed) - MAX_FAILED_CASES} more (see the per-case CSV).</p>")
    return "\n".join(lines)


def render_html(
    report: EvalReport, *, plots: Sequence[Path] = (), gate: GateResult | None = None
) -> str:
    """The page (see the module docstring); ``plots`` are PNG files to embed, ``gate``
    the regression gate's result when it ran."""
    title = f"Evaluation report: {report.dataset.name} ({report.timestamp})"
    sections = [
        _run_section(report),
        _gate_section(gate),
        _headline_section(report),
        _perspectives_section(report),
        _plots_section(plots),
        _metrics_section(report),
        _latency_section(report),
        _breakdown_section(report),
        _failed_section(report),
    ]
    body = "\n".join(section for section in sections if section)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_e(CSP)}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"<h1>{_e(title)}</h1>\n{body}\n</body>\n</html>\n"
    )
