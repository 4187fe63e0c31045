"""``gate_section``: a :class:`GateResult` as the JSON report's ``gate`` section.

>>> from monitor.evaluation.gate.comparison import GateResult, GateRow
>>> row = GateRow("pipeline.pass", "pipeline", None, 0.5, None, None, None, 0, None,
...     "> 0.9", "missed_target", True, False)
>>> section = gate_section(GateResult([row], failed=True, baseline_run_id=None, alpha=0.05))
>>> section.passed, section.baseline, section.rows[0].status, section.verdict
(False, None, 'missed_target', 'GATE FAILED: 1 metric missed its target (no baseline)')
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from monitor.evaluation.gate.comparison import GateResult
from monitor.evaluation.gate.render import verdict
from monitor.evaluation.results.gate_section import GateBaseline, GateRowRecord, GateSection

__all__ = ["gate_section"]


def gate_section(result: GateResult, baseline_path: Path | None = None) -> GateSection:
    """The JSON form of ``result``; ``baseline_path`` is the ``--baseline`` file."""
    baseline = (
        GateBaseline(
            run_id=result.baseline_run_id,
            path=None if baseline_path is None else str(baseline_path),
        )
        if result.baseline_run_id is not None
        else None
    )
    return GateSection(
        passed=not result.failed,
        verdict=verdict(result),
        alpha=result.alpha,
        baseline=baseline,
        rows=[GateRowRecord(**asdict(row)) for row in result.rows],
    )
