"""``write_reports``: every file of a ``ragmon eval`` report, in one directory.

For a stem ``S`` (``name``, or ``eval_report_<timestamp>``): ``S.json`` (the report,
:meth:`EvalReport.model_dump_json` with 2-space indents, readable by
:func:`~monitor.evaluation.results.load_report`), ``S.md`` (:func:`render_markdown`),
``S_cases.csv`` (the per-query CSV), ``S.html`` (:func:`render_html`: one self-contained
page with the plots embedded, the gate and the failed cases) and, with ``plots``, ``S_metrics.png``,
``S_scores.png``, ``S_breakdown.png`` and ``S_latency.png`` (a figure without data is
not written; a large report's plots are drawn by a child process meanwhile, see
:mod:`.plot_process`). Each file is written atomically; ``out_dir`` is created.

>>> check_stem("nightly"), check_stem("eval_report_20261122_213052")
('nightly', 'eval_report_20261122_213052')
>>> check_stem("../x")
Traceback (most recent call last):
...
ValueError: report name '../x' must be a plain file stem (no path separator, not '.' or '..')
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from monitor.evaluation.reports.atomic_write import write_atomic
from monitor.evaluation.reports.csv_rows import write_cases_csv
from monitor.evaluation.reports.html import render_html
from monitor.evaluation.reports.markdown import render_markdown
from monitor.evaluation.reports.plot_process import start_plots
from monitor.evaluation.reports.report_paths import ReportPaths
from monitor.evaluation.results import EvalReport

if TYPE_CHECKING:
    from monitor.evaluation.gate import GateResult

__all__ = ["check_stem", "write_reports"]


def check_stem(stem: str) -> str:
    """``stem`` if it names a file in a directory (no separator, not ``.``/``..``, no
    NUL, not empty), else :class:`ValueError`."""
    separators = {"/", "\\", os.sep, os.altsep or "/", "\0"}
    if not stem or stem in (".", "..") or any(s in stem for s in separators):
        raise ValueError(
            f"report name {stem!r} must be a plain file stem (no path separator, not '.' or '..')"
        )
    return stem


def write_reports(
    report: EvalReport,
    out_dir: Path,
    *,
    name: str | None = None,
    plots: bool = True,
    gate_markdown: str | None = None,
    gate: GateResult | None = None,
) -> ReportPaths:
    """Write the report files of ``report`` into ``out_dir`` (see the module docstring);
    ``gate_markdown`` is appended to the Markdown report verbatim, ``gate`` (the gate's
    result) goes into the HTML report."""
    stem = check_stem(name if name is not None else f"eval_report_{report.timestamp}")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    plotted = start_plots(report, out_dir, stem) if plots else None
    json_path = write_atomic(out_dir / f"{stem}.json", report.model_dump_json(indent=2) + "\n")
    md_path = write_atomic(
        out_dir / f"{stem}.md", render_markdown(report, gate_markdown=gate_markdown)
    )
    csv_path = write_cases_csv(report, out_dir / f"{stem}_cases.csv")
    plot_paths = plotted() if plotted is not None else []
    html_path = write_atomic(
        out_dir / f"{stem}.html", render_html(report, plots=plot_paths, gate=gate)
    )
    return ReportPaths(
        json=json_path, markdown=md_path, csv=csv_path, plots=plot_paths, html=html_path
    )
