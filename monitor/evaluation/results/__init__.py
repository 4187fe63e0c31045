"""The results of an offline evaluation: per-case rows, aggregate metrics, the report.

Pure data (pydantic models); the writers are in :mod:`monitor.evaluation.reports`.
"""

from monitor.evaluation.results.case_result import CaseResult, CaseStatus
from monitor.evaluation.results.eval_report import (
    BREAKDOWN_DIMENSIONS,
    REPORT_VERSION,
    Breakdown,
    DatasetInfo,
    EvalReport,
    PerspectiveSummary,
    ReportError,
    load_report,
)
from monitor.evaluation.results.gate_section import GateBaseline, GateRowRecord, GateSection
from monitor.evaluation.results.metric_value import MetricValue

__all__ = [
    "BREAKDOWN_DIMENSIONS",
    "REPORT_VERSION",
    "Breakdown",
    "CaseResult",
    "CaseStatus",
    "DatasetInfo",
    "EvalReport",
    "GateBaseline",
    "GateRowRecord",
    "GateSection",
    "MetricValue",
    "PerspectiveSummary",
    "ReportError",
    "load_report",
]
