"""``ReportPaths``: the files one :func:`~monitor.evaluation.reports.writer.write_reports`
call wrote.

>>> from pathlib import Path
>>> paths = ReportPaths(json=Path("r.json"), markdown=Path("r.md"), csv=Path("r_cases.csv"),
...     plots=[])
>>> paths.markdown.name, paths.plots
('r.md', [])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ReportPaths"]


@dataclass(frozen=True)
class ReportPaths:
    """The JSON report, the Markdown report, the per-case CSV, the PNG plots written
    (in the order metrics, scores, breakdown, latency; a plot without data is absent)
    and the self-contained HTML report."""

    json: Path
    markdown: Path
    csv: Path
    plots: list[Path] = field(default_factory=list)
    html: Path | None = None
