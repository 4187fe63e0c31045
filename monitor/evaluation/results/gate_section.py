"""``GateSection``: the regression gate's verdict and rows as the JSON report carries them
(``"gate"``; ``null`` when the gate did not run), so a CI job reads the verdict from the
file it already keeps.

Layout::

    gate  passed, verdict, alpha,
          baseline  null | {run_id, path}
          rows      [{metric, perspective, baseline, current, delta, tolerance, test,
                      n_paired, p_value, target, target_met, status, failed, note}]

>>> row = GateRowRecord(metric="pipeline.pass", perspective="pipeline", baseline=0.9,
...     current=0.5, delta=-0.4, tolerance=0.02, test="mcnemar", n_paired=40,
...     p_value=1e-05, target="> 0.9", target_met=False, status="regressed", failed=True)
>>> gate = GateSection(passed=False, verdict="GATE FAILED", alpha=0.05,
...     baseline=GateBaseline(run_id="1a2b", path="old.json"), rows=[row])
>>> GateSection.model_validate_json(gate.model_dump_json()) == gate
True
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["GateBaseline", "GateRowRecord", "GateSection"]


class GateBaseline(BaseModel):
    """The report the run was compared with."""

    model_config = ConfigDict(extra="forbid")
    run_id: str
    path: str | None = None


class GateRowRecord(BaseModel):
    """One metric's line of the gate (see
    :class:`monitor.evaluation.gate.comparison.GateRow`)."""

    model_config = ConfigDict(extra="forbid")
    metric: str
    perspective: str
    baseline: float | None
    current: float | None
    delta: float | None
    tolerance: float | None
    test: str | None
    n_paired: int
    p_value: float | None
    target: str | None
    target_met: bool | None
    status: str
    failed: bool
    note: str | None = None


class GateSection(BaseModel):
    """``passed`` is the gate's answer (exit code 0 of ``ragmon eval``); ``verdict`` its
    one-line summary; ``baseline`` ``None`` when only targets were checked."""

    model_config = ConfigDict(extra="forbid")
    passed: bool
    verdict: str
    alpha: float
    baseline: GateBaseline | None
    rows: list[GateRowRecord]
