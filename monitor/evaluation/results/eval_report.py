"""``EvalReport``: everything one ``ragmon eval`` run found; the JSON report is its dump.

The JSON file (``reports/evals/eval_report_<timestamp>.json``) is
``EvalReport.model_dump_json()``; :func:`load_report` reads one back (for
``--baseline``) with a clear error when it is not a report.

Layout::

    report_version, run_id, created_at, timestamp, duration_s, seed
    dataset      name, format, path, sha256, cases, evaluated, skipped[{origin, reason}]
    config       perspectives, suite, ks, target (URL without path), judge, targets
    versions     ragmon, scorer, python, numpy, pydantic, matplotlib
    metrics      {metric id: MetricValue} (retrieval metrics with their ranking depth)
    perspectives {perspective: {cases, passed, failed, pass_rate, meets_targets}}
    breakdowns   {tag|category|difficulty|query_type|answerable: {value: {cases, metrics}}}
    judge        null | {model, rubrics: {rubric: aggregate}, usage, reliability, ...}
    gate         null | {passed, verdict, alpha, baseline: null | {run_id, path}, rows[...]}
                 (the regression gate, when ``--gate`` or ``--baseline`` ran it)
    cases        [CaseResult], in dataset order (002 NFR-3's per-query breakdown)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from monitor.errors import FileError
from monitor.evaluation.results.case_result import CaseResult
from monitor.evaluation.results.gate_section import GateSection
from monitor.evaluation.results.metric_value import MetricValue

__all__ = [
    "BREAKDOWN_DIMENSIONS",
    "REPORT_VERSION",
    "Breakdown",
    "DatasetInfo",
    "EvalReport",
    "PerspectiveSummary",
    "ReportError",
    "load_report",
]

REPORT_VERSION = "1"
BREAKDOWN_DIMENSIONS = ("tag", "category", "difficulty", "query_type", "answerable")


class ReportError(FileError):
    """A file given as a report (``--baseline``) is missing or is not a report."""


class SkippedRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")
    origin: str
    reason: str


class DatasetInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    format: str
    path: str
    sha256: str
    cases: int
    evaluated: int
    skipped: list[SkippedRecord] = Field(default_factory=list)


class PerspectiveSummary(BaseModel):
    """A perspective's cases (labelled for it and ``ok``), how many passed, and whether
    every metric of it that has a target meets it."""

    model_config = ConfigDict(extra="forbid")
    cases: int
    passed: int
    failed: int
    pass_rate: float | None
    meets_targets: bool | None


class Breakdown(BaseModel):
    """The cases with one value of a breakdown dimension, and their ``mean``/``rate``
    metrics (derived metrics too when they can be computed on the group)."""

    model_config = ConfigDict(extra="forbid")
    cases: int
    metrics: dict[str, float | None]


class EvalReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    report_version: str = REPORT_VERSION
    run_id: str
    created_at: str
    timestamp: str
    duration_s: float
    seed: int
    dataset: DatasetInfo
    config: dict[str, Any]
    versions: dict[str, str]
    metrics: dict[str, MetricValue]
    perspectives: dict[str, PerspectiveSummary]
    breakdowns: dict[str, dict[str, Breakdown]]
    judge: dict[str, Any] | None = None
    gate: GateSection | None = None
    cases: list[CaseResult]

    def failed_cases(self) -> list[CaseResult]:
        """Cases that failed a perspective or are not ``ok`` (what ``--save-trace`` keeps)."""
        return [c for c in self.cases if c.status != "ok" or c.failed_perspectives()]


def load_report(path: Path) -> EvalReport:
    """Read a report JSON file; :class:`ReportError` names the file and the first problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        reason = f"cannot read the report: {exc.strerror or exc}"
        raise ReportError(str(path), None, None, reason) from None
    try:
        return EvalReport.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        reason = f"not an eval report: field {where}: {first['msg']}"
        raise ReportError(str(path), None, None, reason) from None
