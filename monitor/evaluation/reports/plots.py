"""``write_plots``: the PNG figures of a report, drawn with matplotlib's Agg canvas.

* ``<stem>_metrics.png``: a panel per perspective with values: horizontal bars of its
  ``mean``/``rate`` metrics (at most :data:`MAX_BARS`, those with a target first, then the
  ``@5`` ones), green when the target is met, red when missed, grey without a target;
  the target is a black tick on the bar's row;
* ``<stem>_scores.png``: histograms of the per-case values of up to 6 key metrics, and the
  injection score of attacks against benign queries when the cases carry
  ``injection_score``/``is_attack`` signals;
* ``<stem>_breakdown.png``: grouped bars of 2-4 key metrics by ``category`` (else
  ``query_type``, else ``tag``);
* ``<stem>_latency.png``: a box plot of the per-case latency of each stage, its p95 marked.

A figure without data is not written. matplotlib is imported on the first call (never at
import time) and only its object API is used (``Figure`` + ``FigureCanvasAgg``, no pyplot
state). Figures have fixed sizes per panel count and dpi 100; the PNG carries no software
or time stamp, so the same report gives byte-identical files.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from monitor.evaluation.datasets.case import PERSPECTIVES
from monitor.evaluation.reports.atomic_write import write_atomic
from monitor.evaluation.reports.formatting import format_value
from monitor.evaluation.reports.metric_groups import (
    BREAKDOWN_METRICS,
    COUNT_METRICS,
    LOWER_IS_BETTER,
    SCORE_METRICS,
    breakdown_columns,
    metrics_by_perspective,
    stage_sort_key,
)
from monitor.evaluation.results import EvalReport, MetricValue

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["DPI", "metric_panels", "write_plots"]

DPI = 100

_MAX_HISTOGRAMS = 6
_MAX_GROUPS = 20
_MET = "#2e7d32"
_MISSED = "#c62828"
_NO_TARGET = "#78909c"
_NA = "#b0bec5"
_NA_TEXT = "#546e7a"
_PALETTE = ("#1565c0", "#ef6c00", "#6a1b9a", "#00838f")


def _new_figure(width: float, height: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=DPI)
    FigureCanvasAgg(figure)
    return figure


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    # "tight": the canvas grows to hold every label and legend whole
    figure.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None}, bbox_inches="tight")
    return buffer.getvalue()


def _grid(figure: Figure, panels: int, columns: int) -> list[Axes]:
    rows = math.ceil(panels / columns)
    axes = [figure.add_subplot(rows, columns, i + 1) for i in range(panels)]
    return axes


def _panel_kind(metric_id: str, metric: MetricValue) -> str:
    """``latency`` (milliseconds), ``count`` (a mean count per case) or ``rate`` (a
    rate or score in [0, 1]): each gets an axis of its own."""
    if metric_id.startswith("latency_ms."):
        return "latency"
    if metric_id in COUNT_METRICS:
        return "count"
    if metric.value is not None and not 0.0 <= metric.value <= 1.0:
        return "count"
    return "rate"


_PANEL_TITLES = {
    "rate": "{perspective}: rates and scores",
    "count": "{perspective}: counts per case",
    "latency": "latency percentiles (ms)",
}


def metric_panels(
    report: EvalReport,
) -> tuple[list[tuple[str, str, list[tuple[str, MetricValue]]]], list[str]]:
    """The panels of the metrics figure, ``(title, kind, metrics)``, every metric of the
    report in one of them (none dropped: a panel grows with its bars), and the
    perspectives left out because the run did not select them (``--perspective``).

    A perspective the run did not select has no panel even when some of its metrics
    were computed for every case (``quality.overall`` is context_quality's); the
    figure's footnote names what it left out."""
    selected = report.config.get("perspectives")
    chosen = set(selected) if isinstance(selected, list) else None
    panels: list[tuple[str, str, list[tuple[str, MetricValue]]]] = []
    latency: list[tuple[str, MetricValue]] = []
    left_out: list[str] = []
    for perspective, metrics in metrics_by_perspective(report.metrics).items():
        if chosen is not None and perspective in PERSPECTIVES and perspective not in chosen:
            left_out.append(f"{perspective} ({len(metrics)})")
            continue
        by_kind: dict[str, list[tuple[str, MetricValue]]] = {"rate": [], "count": []}
        for metric_id, metric in metrics:
            kind = _panel_kind(metric_id, metric)
            (latency if kind == "latency" else by_kind[kind]).append((metric_id, metric))
        for kind, shown in by_kind.items():
            if shown:
                title = _PANEL_TITLES[kind].format(perspective=perspective)
                panels.append((title, kind, shown))
    if latency:
        panels.append((_PANEL_TITLES["latency"], "latency", latency))
    return panels, left_out


def _bar_label(metric_id: str, metric: MetricValue) -> str:
    """The metric's id without its perspective, ``↓`` when lower is better."""
    name = metric_id.removeprefix(f"{metric.perspective}.")
    if metric_id.startswith("latency_ms."):
        name = metric_id.removeprefix("latency_ms.")
    return f"{name} ↓" if metric.higher_is_better is False else name


def _bar_colour(metric: MetricValue) -> str:
    if metric.meets_target is None:
        return _NO_TARGET
    return _MET if metric.meets_target else _MISSED


def _draw_panel(ax: Axes, title: str, kind: str, metrics: list[tuple[str, MetricValue]]) -> None:
    positions = list(range(len(metrics)))
    values = [m.value for _, m in metrics]
    present = [v for v in values if v is not None]
    targets = [m.target_value for _, m in metrics if m.target_value is not None]
    top = 1.0 if kind == "rate" else (max([*present, *targets, 0.0]) or 1.0)
    span = top * 1.25  # room for the value labels right of the bars
    for y, (value, (_, metric)) in enumerate(zip(values, metrics, strict=True)):
        if value is None:  # n/a: a hatched outline across the row, never a bar of 0
            ax.barh(y, span, height=0.7, color="none", edgecolor=_NA, hatch="//", linewidth=0)
            ax.text(top * 0.02, y, "n/a (no case had it)", va="center", color=_NA_TEXT)
            continue
        ax.barh(y, value, height=0.7, color=_bar_colour(metric))
        if value == 0.0:  # a zero has no bar: a marker on the axis shows it is a value
            ax.plot([0.0], [y], marker="D", markersize=5, color=_bar_colour(metric), clip_on=False)
        ax.text(value + top * 0.015, y, format_value(value), va="center")
        if metric.target_value is not None:
            ax.plot([metric.target_value] * 2, [y - 0.45, y + 0.45], color="black", linewidth=1.5)
    ax.set_yticks(positions)
    ax.set_yticklabels([_bar_label(mid, m) for mid, m in metrics])
    ax.set_ylim(len(metrics) - 0.5, -0.5)
    ax.set_xlim(0.0, span)
    ax.set_xlabel({"rate": "rate / score (0-1)", "count": "mean per case", "latency": "ms"}[kind])
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)


def _legend_handles() -> list[Any]:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    return [
        Patch(color=_MET, label="target met"),
        Patch(color=_MISSED, label="target missed"),
        Patch(color=_NO_TARGET, label="no target"),
        Patch(facecolor="none", edgecolor=_NA, hatch="//", label="n/a: no value"),
        Line2D([], [], color="black", linewidth=1.5, label="target"),
        Line2D([], [], linestyle="none", marker="$↓$", color="black", label="lower is better"),
    ]


def _metrics_figure(report: EvalReport) -> Figure | None:
    panels, left_out = metric_panels(report)
    if not panels:
        return None
    columns = 1 if len(panels) == 1 else 2
    rows = math.ceil(len(panels) / columns)
    # each row of panels is as tall as its longest panel needs: no bar is cut
    heights = [
        max(len(metrics) for _, _, metrics in panels[r * columns : (r + 1) * columns])
        for r in range(rows)
    ]
    figure = _new_figure(6.5 * columns, sum(0.24 * h + 1.1 for h in heights) + 1.2)
    grid = figure.add_gridspec(rows, columns, height_ratios=[h + 4 for h in heights])
    for i, (title, kind, metrics) in enumerate(panels):
        _draw_panel(figure.add_subplot(grid[i // columns, i % columns]), title, kind, metrics)
    figure.suptitle(f"Metrics: {report.dataset.name} ({report.timestamp})")
    figure.legend(handles=_legend_handles(), loc="lower center", ncols=3, frameon=False)
    if left_out:
        figure.text(
            0.01,
            0.001,
            "not selected by --perspective, not drawn: " + ", ".join(left_out),
            fontsize=7,
            color=_NA_TEXT,
        )
    height = figure.get_figheight()
    figure.tight_layout(rect=(0.0, 0.8 / height, 1.0, 1.0 - 0.35 / height))
    return figure


def _float(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _bins(values: Sequence[float]) -> list[float]:
    low, high = min(0.0, min(values)), max(1.0, max(values))
    count = 10 if high - low <= 1.0 else 20
    return [low + (high - low) * i / count for i in range(count + 1)]


def _scores_figure(report: EvalReport) -> Figure | None:
    series: list[tuple[str, list[float]]] = []
    for metric_id in SCORE_METRICS:
        values = [v for c in report.cases if (v := _float(c.metrics.get(metric_id))) is not None]
        if values:
            series.append((metric_id, values))
        if len(series) == _MAX_HISTOGRAMS:
            break
    attacks: list[float] = []
    benign: list[float] = []
    for case in report.cases:
        score = _float(case.signals.get("injection_score"))
        label = case.signals.get("is_attack")
        if score is not None and isinstance(label, bool):
            (attacks if label else benign).append(score)
    panels = len(series) + (1 if attacks or benign else 0)
    if panels == 0:
        return None
    columns = min(3, panels)
    from matplotlib.ticker import MaxNLocator

    figure = _new_figure(4.0 * columns, 3.0 * math.ceil(panels / columns))
    axes = _grid(figure, panels, columns)
    for ax, (metric_id, values) in zip(axes, series, strict=False):
        ax.hist(values, bins=_bins(values), color=_PALETTE[0], edgecolor="white")
        ax.set_title(f"{metric_id} (n={len(values)})")
        ax.set_ylabel("cases")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if attacks or benign:
        ax = axes[-1]
        edges = [i / 20 for i in range(21)]
        if benign:
            ax.hist(benign, bins=edges, color=_MET, alpha=0.6, label=f"benign (n={len(benign)})")
        if attacks:
            ax.hist(
                attacks, bins=edges, color=_MISSED, alpha=0.6, label=f"attack (n={len(attacks)})"
            )
        ax.set_title("injection score")
        ax.set_ylabel("cases")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(loc="upper center")
    figure.suptitle(f"Per-case scores: {report.dataset.name}")
    figure.tight_layout()
    return figure


def _breakdown_figure(report: EvalReport) -> Figure | None:
    for dimension in ("category", "query_type", "tag"):
        groups = report.breakdowns.get(dimension)
        if groups:
            break
    else:
        return None
    preferred = [c for c in breakdown_columns(groups) if c in BREAKDOWN_METRICS]
    columns = (preferred or breakdown_columns(groups))[:4]
    if not columns:
        return None
    values = sorted(groups)[:_MAX_GROUPS]
    figure = _new_figure(max(6.0, 0.9 * len(values) + 2.0), 4.0)
    ax = figure.add_subplot(1, 1, 1)
    width = 0.8 / len(columns)
    present = [v for g in values for c in columns if (v := groups[g].metrics.get(c)) is not None]
    top = max([1.0, *present])
    from matplotlib.patches import Patch

    handles = []
    for i, metric_id in enumerate(columns):
        colour = _PALETTE[i % len(_PALETTE)]
        label = f"{metric_id} ↓" if metric_id in LOWER_IS_BETTER else metric_id
        handles.append(Patch(color=colour, label=label))
        for x, value in enumerate(values):
            height = groups[value].metrics.get(metric_id)
            centre = x - 0.4 + width * (i + 0.5)
            if height is None:  # n/a: hatched, never a bar of 0
                ax.bar(centre, top * 0.06, width=width, color="none", edgecolor=_NA, hatch="//")
                ax.text(centre, top * 0.07, "n/a", ha="center", fontsize=6, color=_NA_TEXT)
                continue
            ax.bar(centre, height, width=width, color=colour)
            ax.text(
                centre, height + top * 0.01, format_value(height), ha="center", va="bottom",
                fontsize=6, rotation=90,
            )  # fmt: skip
    ax.set_xticks(list(range(len(values))))
    ax.set_xticklabels(
        [f"{v} ({groups[v].cases})" for v in values], rotation=30, horizontalalignment="right"
    )
    ax.set_title(f"Key metrics by {dimension} (cases); ↓ lower is better")
    ax.set_ylim(0.0, top * 1.25)
    ax.grid(axis="y", alpha=0.3)
    # outside the axes, one entry per line: whole, whatever the ids' lengths
    handles.append(Patch(facecolor="none", edgecolor=_NA, hatch="//", label="n/a: no value"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    figure.tight_layout()
    return figure


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _latency_figure(report: EvalReport) -> Figure | None:
    stages: dict[str, list[float]] = {}
    for case in report.cases:
        for stage, ms in case.latency_ms.items():
            value = _float(ms)
            if value is not None:
                stages.setdefault(stage, []).append(value)
    if not stages:
        return None
    names = sorted(stages, key=stage_sort_key)
    figure = _new_figure(max(6.0, 1.4 * len(names) + 2.0), 4.0)
    ax = figure.add_subplot(1, 1, 1)
    data = [stages[name] for name in names]
    ax.boxplot(data, showfliers=True)
    ax.plot(
        list(range(1, len(names) + 1)),
        [_percentile(v, 0.95) for v in data],
        linestyle="none",
        marker="x",
        color=_MISSED,
        label="p95",
    )
    ax.set_xticks(list(range(1, len(names) + 1)))
    ax.set_xticklabels([f"{n} (n={len(stages[n])})" for n in names])
    ax.set_ylabel("ms")
    ax.set_title("Latency per stage")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper left")
    figure.tight_layout()
    return figure


_FIGURES: tuple[tuple[str, Callable[[EvalReport], Figure | None]], ...] = (
    ("metrics", _metrics_figure),
    ("scores", _scores_figure),
    ("breakdown", _breakdown_figure),
    ("latency", _latency_figure),
)


def write_plots(report: EvalReport, out_dir: Path, stem: str) -> list[Path]:
    """Write ``<stem>_<figure>.png`` into ``out_dir`` (which must exist) for each figure
    that has data; returns their paths in the order metrics, scores, breakdown, latency."""
    import matplotlib

    written: list[Path] = []
    with matplotlib.rc_context({"svg.hashsalt": "ragmon", "font.size": 8.0, "axes.titlesize": 9.0}):
        for name, draw in _FIGURES:
            figure = draw(report)
            if figure is None:
                continue
            path = out_dir / f"{stem}_{name}.png"
            write_atomic(path, _png(figure))
            written.append(path)
    return written
