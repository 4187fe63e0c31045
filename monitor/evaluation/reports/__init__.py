"""The files and terminal output of a ``ragmon eval`` run, from its
:class:`~monitor.evaluation.results.EvalReport`.

* :func:`write_reports` (:mod:`.writer`): the JSON report, the Markdown report, the
  per-query CSV and the PNG plots, atomically, into one directory
  (:class:`ReportPaths` says which);
* :func:`render_html` (:mod:`.html`): the self-contained HTML page;
* :func:`render_markdown` (:mod:`.markdown`), :func:`write_cases_csv` /
  :func:`case_rows` (:mod:`.csv_rows`), :func:`write_plots` (:mod:`.plots`, matplotlib
  imported on first use): each file on its own;
* :func:`write_traces` (:mod:`.traces`): ``--save-trace``'s per-perspective JSONL files
  of the failed cases;
* :func:`render_console` (:mod:`.console`) and :class:`ProgressBar`
  (:mod:`.progress_bar`): what the terminal shows.
"""

from monitor.evaluation.reports.console import render_console
from monitor.evaluation.reports.csv_rows import case_rows, cases_csv, write_cases_csv
from monitor.evaluation.reports.html import render_html
from monitor.evaluation.reports.markdown import render_markdown
from monitor.evaluation.reports.plots import write_plots
from monitor.evaluation.reports.progress_bar import ProgressBar
from monitor.evaluation.reports.report_paths import ReportPaths
from monitor.evaluation.reports.traces import write_traces
from monitor.evaluation.reports.writer import write_reports

__all__ = [
    "ProgressBar",
    "ReportPaths",
    "case_rows",
    "cases_csv",
    "render_console",
    "render_html",
    "render_markdown",
    "write_cases_csv",
    "write_plots",
    "write_reports",
    "write_traces",
]
