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

from monitor.evaluation.reports.atomic_write import write_atomic
from monitor.evaluation.reports.metric_groups import (
    BREAKDOWN_METRICS,
    SCORE_METRICS,
    breakdown_columns,
    category_rate,
    metric_sort_key,
    metrics_by_perspective,
    stage_sort_key,
)
from monitor.evaluation.results import EvalReport, MetricValue

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["DPI", "MAX_BARS", "write_plots"]

DPI = 100
MAX_BARS = 12
"""Bars per perspective panel of the metrics figure."""

_MAX_HISTOGRAMS = 6
_MAX_GROUPS = 20
_MET = "#2e7d32"
_MISSED = "#c62828"
_NO_TARGET = "#78909c"
_PALETTE = ("#1565c0", "#ef6c00", "#6a1b9a", "#00838f")


def _new_figure(width: float, height: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=DPI)
    FigureCanvasAgg(figure)
    return figure


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()


def _grid(figure: Figure, panels: int, columns: int) -> list[Axes]:
    rows = math.ceil(panels / columns)
    axes = [figure.add_subplot(rows, columns, i + 1) for i in range(panels)]
    return axes


def _bar_priority(metric_id: str, metric: MetricValue) -> tuple[int, tuple[str, int, int, str]]:
    if metric.target_value is not None:
        rank = 0
    elif metric_id.endswith("@5"):
        rank = 1
    elif "@" not in metric_id and category_rate(metric_id) is None:
        rank = 2
    else:
        rank = 3
    return (rank, metric_sort_key(metric_id))


def _metrics_figure(report: EvalReport) -> Figure | None:
    panels: list[tuple[str, list[tuple[str, MetricValue]]]] = []
    for perspective, metrics in metrics_by_perspective(report.metrics).items():
        shown = [
            (mid, m) for mid, m in metrics if m.kind in ("mean", "rate") and m.value is not None
        ]
        if shown:
            shown.sort(key=lambda item: _bar_priority(*item))
            panels.append((perspective, shown[:MAX_BARS]))
    if not panels:
        return None
    columns = 1 if len(panels) == 1 else 2
    figure = _new_figure(6.0 * columns, 3.4 * math.ceil(len(panels) / columns))
    for ax, (perspective, metrics) in zip(
        _grid(figure, len(panels), columns), panels, strict=False
    ):
        labels = [mid.removeprefix(f"{perspective}.") for mid, _ in metrics]
        values = [m.value or 0.0 for _, m in metrics]
        colours = [
            _NO_TARGET if m.meets_target is None else (_MET if m.meets_target else _MISSED)
            for _, m in metrics
        ]
        positions = list(range(len(metrics)))
        ax.barh(positions, values, color=colours, height=0.7)
        for y, (_, m) in enumerate(metrics):
            if m.target_value is not None:
                ax.plot([m.target_value] * 2, [y - 0.45, y + 0.45], color="black", linewidth=1.5)
        ax.set_yticks(positions)
        ax.set_yticklabels(labels)
        ax.invert_yaxis()
        ax.set_title(perspective)
        ax.grid(axis="x", alpha=0.3)
    figure.suptitle(f"Metrics: {report.dataset.name} ({report.timestamp})")
    figure.tight_layout()
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
    top = 1.0
    for i, metric_id in enumerate(columns):
        xs, heights = [], []
        for x, value in enumerate(values):
            height = groups[value].metrics.get(metric_id)
            if height is not None:
                xs.append(x - 0.4 + width * (i + 0.5))
                heights.append(height)
                top = max(top, height)
        ax.bar(xs, heights, width=width, color=_PALETTE[i % len(_PALETTE)], label=metric_id)
    ax.set_xticks(list(range(len(values))))
    ax.set_xticklabels(
        [f"{v} ({groups[v].cases})" for v in values], rotation=30, horizontalalignment="right"
    )
    ax.set_title(f"Key metrics by {dimension} (cases)")
    ax.set_ylim(0.0, top * 1.2)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper left", ncols=len(columns))
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
