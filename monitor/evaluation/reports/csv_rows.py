"""The per-query CSV (002 NFR-3): one row per case, in dataset order.

Columns: ``case_id``, ``origin``, ``query``, ``status``, ``error``, ``outcome``,
``expected_outcome``, ``query_type``, ``category``, ``difficulty``, ``answerable``,
``tags``, ``perspectives`` and ``failed_perspectives`` (joined by ``;``), ``failures``
(joined by `` | ``); then one column per metric id that any case has (sorted); then
``latency_ms.<stage>`` per stage; then ``judge.<rubric>.<score>`` and
``judge.<rubric>.passed`` when the judge ran. A missing value is an empty cell; numbers
are written in full precision (``repr``), booleans as ``true``/``false``.

>>> from monitor.evaluation.results import CaseResult
>>> header, rows = case_rows([CaseResult(case_id="q1", origin="c.jsonl:1", query="q?",
...     tags=["hr", "faq"], metrics={"retrieval.ndcg@5": 0.5}, latency_ms={"total": 12.0})])
>>> header[-2:], rows[0]["tags"], rows[0]["retrieval.ndcg@5"], rows[0]["answerable"]
(['retrieval.ndcg@5', 'latency_ms.total'], 'hr;faq', '0.5', '')
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from monitor.evaluation.reports.atomic_write import write_atomic
from monitor.evaluation.reports.metric_groups import metric_sort_key, stage_sort_key
from monitor.evaluation.results import CaseResult, EvalReport

__all__ = ["FIXED_COLUMNS", "case_rows", "cases_csv", "write_cases_csv"]

FIXED_COLUMNS: tuple[str, ...] = (
    "case_id",
    "origin",
    "query",
    "status",
    "error",
    "outcome",
    "expected_outcome",
    "query_type",
    "category",
    "difficulty",
    "answerable",
    "tags",
    "perspectives",
    "failed_perspectives",
    "failures",
)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _judge_cells(case: CaseResult) -> dict[str, str]:
    cells: dict[str, str] = {}
    for rubric, verdict in case.judge.items():
        scores = verdict.get("scores")
        if isinstance(scores, dict):
            for name, score in scores.items():
                cells[f"judge.{rubric}.{name}"] = _cell(score)
        if "passed" in verdict:
            cells[f"judge.{rubric}.passed"] = _cell(verdict["passed"])
    return cells


def case_rows(cases: Sequence[CaseResult]) -> tuple[list[str], list[dict[str, str]]]:
    """The CSV header and one row (column -> cell) per case; see the module docstring."""
    metric_ids = sorted({m for c in cases for m in c.metrics}, key=metric_sort_key)
    stages = sorted({s for c in cases for s in c.latency_ms}, key=stage_sort_key)
    judge_cells = [_judge_cells(c) for c in cases]
    judge_columns = sorted({col for cells in judge_cells for col in cells})
    header = [
        *FIXED_COLUMNS,
        *metric_ids,
        *(f"latency_ms.{s}" for s in stages),
        *judge_columns,
    ]
    rows: list[dict[str, str]] = []
    for case, judge in zip(cases, judge_cells, strict=True):
        row = {
            "case_id": case.case_id,
            "origin": case.origin,
            "query": case.query,
            "status": case.status,
            "error": _cell(case.error),
            "outcome": _cell(case.outcome),
            "expected_outcome": _cell(case.expected_outcome),
            "query_type": _cell(case.query_type),
            "category": _cell(case.category),
            "difficulty": _cell(case.difficulty),
            "answerable": _cell(case.answerable),
            "tags": ";".join(case.tags),
            "perspectives": ";".join(case.perspectives),
            "failed_perspectives": ";".join(case.failed_perspectives()),
            "failures": " | ".join(case.failures),
        }
        row.update({m: _cell(case.metrics.get(m)) for m in metric_ids})
        row.update({f"latency_ms.{s}": _cell(case.latency_ms.get(s)) for s in stages})
        row.update({col: judge.get(col, "") for col in judge_columns})
        rows.append(row)
    return header, rows


def cases_csv(report: EvalReport) -> str:
    """The per-query CSV of ``report`` as text (``\\r\\n`` line ends, as the csv module
    writes them)."""
    header, rows = case_rows(report.cases)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=header)
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def write_cases_csv(report: EvalReport, path: Path) -> Path:
    """Write :func:`cases_csv` to ``path`` atomically; returns ``path``."""
    return write_atomic(path, cases_csv(report))
