"""``write_traces``: the ``--save-trace`` files, 003's
``traces/retrieval-abc123.jsonl``: one file per perspective that some case failed, one
JSON line per failed case.

A case whose call did not complete (status ``error``, ``timeout`` or ``empty``) goes to
``operational-<run>.jsonl``. Each line is ``{"case_id", "origin", "perspective",
"failures", "status", "metrics", "event", "scored", "judge"}``: ``event`` and ``scored``
are the recorded event and its scores from ``traces`` (``null`` when the mapping has
none for the case), ``judge`` the case's verdicts. ``<run>`` is the first 8 characters
of the report's ``run_id``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from monitor.evaluation.reports.atomic_write import write_atomic
from monitor.evaluation.results import CaseResult, EvalReport

__all__ = ["trace_line", "write_traces"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def _json_default(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, set | frozenset | tuple):
        return sorted(value, key=str) if isinstance(value, set | frozenset) else list(value)
    return str(value)


def trace_line(
    case: CaseResult, perspective: str, trace: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The trace record of ``case`` failing ``perspective``.

    ``failures`` are the case's failures of that perspective (each failure starts with
    ``"<perspective>: "``); for ``operational``, the case's error.

    >>> line = trace_line(CaseResult(case_id="q1", origin="c:1", query="q",
    ...     failures=["retrieval: miss", "pipeline: outcome"]), "retrieval", None)
    >>> line["case_id"], line["failures"], line["event"], line["scored"]
    ('q1', ['retrieval: miss'], None, None)
    """
    trace = trace or {}
    if perspective == "operational":
        failures = [f"{case.status}: {case.error}"]
    else:
        failures = [f for f in case.failures if f.startswith(f"{perspective}: ")]
    return {
        "case_id": case.case_id,
        "origin": case.origin,
        "perspective": perspective,
        "failures": failures,
        "status": case.status,
        "metrics": dict(case.metrics),
        "event": trace.get("event"),
        "scored": trace.get("scored"),
        "judge": case.judge,
    }


def write_traces(
    report: EvalReport, traces: Mapping[str, Mapping[str, Any]], traces_dir: Path
) -> list[Path]:
    """Write the trace files of ``report`` into ``traces_dir`` (created); ``traces`` maps a
    case id to ``{"event": ..., "scored": ...}``. Returns the paths written, sorted."""
    failed: dict[str, list[CaseResult]] = {}
    for case in report.cases:
        if case.status != "ok":
            failed.setdefault("operational", []).append(case)
        for perspective in case.failed_perspectives():
            failed.setdefault(perspective, []).append(case)
    if not failed:
        return []
    traces_dir.mkdir(parents=True, exist_ok=True)
    run = _UNSAFE.sub("_", report.run_id[:8]) or "run"
    written: list[Path] = []
    for perspective, cases in failed.items():
        lines = [
            json.dumps(
                trace_line(case, perspective, traces.get(case.case_id)),
                ensure_ascii=False,
                default=_json_default,
            )
            for case in cases
        ]
        path = traces_dir / f"{_UNSAFE.sub('_', perspective)}-{run}.jsonl"
        write_atomic(path, "".join(line + "\n" for line in lines))
        written.append(path)
    return sorted(written)
