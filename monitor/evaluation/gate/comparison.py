"""``compare``: the regression gate, metric by metric, of a report against its targets
and (optionally) a baseline report.

Rows: every metric id of either report that has a target in the gate's configuration,
and, when a baseline is given, every metric id of either report with a direction
(``higher_is_better`` not ``None``); sorted by perspective, then metric id.

Each row gets one ``status``:

* ``unevaluated`` (failed): the metric has a target and no current value because the
  cases that would carry it all failed (error or timeout: their ``unscored`` lists the
  metric's perspective); a dead service cannot pass by having nothing to check.
* ``no_data`` (not failed): the current value is ``None`` or absent, and the baseline has
  none either; ``dropped`` (failed): the baseline had a value, the current report has
  none; ``new`` (not failed unless the target is missed): the current report has a value,
  the baseline (given) has none.
* ``missed_target`` (failed): the current value does not meet the target.
* ``regressed`` (failed): the metric worsened (``baseline - current`` when higher is
  better, ``current - baseline`` otherwise) by more than its tolerance
  (:meth:`GateConfig.tolerance_for`, in metric units) **and** the test of the difference
  has ``p < alpha`` or there is no test. The test: for a ``rate`` with a case id carrying
  the metric in both reports, exact McNemar on the paired 0/1 values; for a ``mean`` with
  at least 2 such case ids, the paired t-test; for a ``mean``/``rate`` whose per-case
  values cannot be paired so (no common case id; or a single one for a ``mean``) but with
  at least 2 values on each side, Welch's t-test; for a ``derived`` metric with a function
  in ``derived`` and at least 5 common case ids, the paired bootstrap of that function; no
  test otherwise (the aggregate alone decides).
* ``worse_not_significant`` (not failed, shown): worse beyond the tolerance with ``p >=
  alpha``; ``improved``: better by more than the tolerance; ``ok``: within it.
* **Too few cases for a test**: exact McNemar on ``n`` paired cases cannot give a
  p-value below ``2^(1-n)``; when that is ``>= alpha`` (``n <= 5`` at ``alpha = 0.05``) a
  worsening cannot be significant, so the row says so in its ``note`` and falls back to
  the target: ``missed_target`` (failed) when the current value misses it, else
  ``too_few_cases`` (not failed, shown).
* **One-sided metrics** (:data:`~monitor.evaluation.metrics.catalogue.ONE_SIDED`,
  citation form validity): a drop is tested as above, a rise is ``ok`` with a note, never
  ``improved``.

**Precedence** when both checks fire: ``regressed`` wins over ``missed_target``, which
wins over ``worse_not_significant``, ``improved``, ``new`` and ``ok`` (a failure is never
hidden behind a status that does not fail). ``target_met`` keeps the target check's own
answer, so a regressed row that also misses its target still says so.

>>> from monitor.evaluation.results import DatasetInfo, EvalReport, MetricValue
>>> def report(run_id: str, ndcg: float) -> EvalReport:
...     value = MetricValue(value=ndcg, n=8, perspective="retrieval", kind="mean",
...         higher_is_better=True)
...     return EvalReport(run_id=run_id, created_at="", timestamp="", duration_s=0.0,
...         seed=0, dataset=DatasetInfo(name="d", format="jsonl", path="d", sha256="",
...         cases=8, evaluated=8), config={}, versions={}, perspectives={},
...         breakdowns={}, cases=[], metrics={"retrieval.ndcg@5": value})
>>> result = compare(report("new", 0.65), report("old", 0.72), GateConfig())
>>> [(r.metric, r.status, r.test, r.target, r.target_met) for r in result.rows]
[('retrieval.ndcg@5', 'regressed', None, '> 0.6', True)]
>>> result.failed, result.baseline_run_id
(True, 'old')
>>> compare(report("new", 0.55), None, GateConfig()).rows[0].status
'missed_target'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from monitor.evaluation.gate.gate_config import GateConfig
from monitor.evaluation.gate.paired_tests import (
    mcnemar_exact,
    paired_bootstrap_p,
    paired_t,
    welch_p,
)
from monitor.evaluation.metrics.catalogue import ONE_SIDED, Target
from monitor.evaluation.results.case_result import CaseResult
from monitor.evaluation.results.eval_report import EvalReport
from monitor.evaluation.results.metric_value import MetricValue

__all__ = [
    "FAILING_STATUSES",
    "MIN_BOOTSTRAP_CASES",
    "DerivedStatistic",
    "GateResult",
    "GateRow",
    "GateStatus",
    "GateTest",
    "compare",
    "min_mcnemar_p",
]

GateStatus = Literal[
    "ok",
    "improved",
    "regressed",
    "worse_not_significant",
    "missed_target",
    "no_data",
    "new",
    "dropped",
    "unevaluated",
    "too_few_cases",
]
GateTest = Literal["mcnemar", "paired_t", "welch", "bootstrap"]
DerivedStatistic = Callable[[Sequence[CaseResult]], float | None]
"""Recomputes a ``derived`` metric from a list of cases (``None``: not computable)."""

FAILING_STATUSES: frozenset[str] = frozenset(
    {"regressed", "missed_target", "dropped", "unevaluated"}
)
MIN_BOOTSTRAP_CASES = 5
"""Common case ids a derived metric needs for the paired bootstrap."""


@dataclass(frozen=True, slots=True)
class GateRow:
    """One metric's line of the gate. ``delta`` is ``current - baseline``; ``tolerance``
    the allowed worsening in metric units (``None`` without a baseline value or a
    direction); ``n_paired`` the case ids carrying the metric in both reports (every
    common case id for a derived metric); ``target`` the target as text (``"> 0.6"``)
    and ``target_met`` whether the current value meets it (``None``: no target or no
    value); ``note`` why the row has its status when the numbers alone do not say
    (cases that failed, too few cases for a test, a one-sided metric)."""

    metric: str
    perspective: str
    baseline: float | None
    current: float | None
    delta: float | None
    tolerance: float | None
    test: GateTest | None
    n_paired: int
    p_value: float | None
    target: str | None
    status: GateStatus
    failed: bool
    target_met: bool | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class GateResult:
    """All rows; ``failed`` when any row failed (the exit code of ``--baseline``)."""

    rows: list[GateRow]
    failed: bool
    baseline_run_id: str | None
    alpha: float

    @property
    def failures(self) -> list[GateRow]:
        """The failed rows, in table order."""
        return [row for row in self.rows if row.failed]


def compare(
    current: EvalReport,
    baseline: EvalReport | None,
    config: GateConfig,
    *,
    derived: Mapping[str, DerivedStatistic] | None = None,
) -> GateResult:
    """Gate ``current`` against ``config``'s targets and, when given, ``baseline`` (see
    the module docstring for the rows, statuses, tests and their precedence)."""
    functions = derived or {}
    ids = set(current.metrics) | (set(baseline.metrics) if baseline is not None else set())
    rows: list[GateRow] = []
    for metric_id in ids:
        now = current.metrics.get(metric_id)
        before = baseline.metrics.get(metric_id) if baseline is not None else None
        described = now if now is not None else before
        assert described is not None  # the id comes from one of the two reports
        target = config.targets.get(metric_id)
        if target is None and (baseline is None or described.higher_is_better is None):
            continue
        rows.append(
            _row(metric_id, described, now, before, target, current, baseline, config, functions)
        )
    rows.sort(key=lambda row: (row.perspective, row.metric))
    return GateResult(
        rows=rows,
        failed=any(row.failed for row in rows),
        baseline_run_id=baseline.run_id if baseline is not None else None,
        alpha=config.alpha,
    )


def _row(
    metric_id: str,
    described: MetricValue,
    now: MetricValue | None,
    before: MetricValue | None,
    target: Target | None,
    current: EvalReport,
    baseline: EvalReport | None,
    config: GateConfig,
    functions: Mapping[str, DerivedStatistic],
) -> GateRow:
    value = _finite(now.value) if now is not None else None
    base = _finite(before.value) if before is not None else None
    higher = described.higher_is_better
    target_met = target.met(value) if target is not None and value is not None else None
    delta = value - base if value is not None and base is not None else None
    tolerance = (
        config.tolerance_for(metric_id).allowed(base)
        if base is not None and higher is not None
        else None
    )
    pairing = _Pairing(metric_id, described.kind, current, baseline)
    test: GateTest | None = None
    p_value: float | None = None
    note: str | None = None
    status: GateStatus
    if value is None:
        failed_cases = sum(described.perspective in case.unscored for case in current.cases)
        if target is not None and failed_cases:
            status = "unevaluated"
            note = (
                f"no value: the {failed_cases} {described.perspective} case(s) failed "
                "(error or timeout)"
            )
        elif base is not None:
            status = "dropped"
            note = "in the baseline, missing from this run"
        else:
            status = "no_data"
    elif base is None:
        status = "missed_target" if target_met is False else "new" if baseline is not None else "ok"
    elif higher is None or tolerance is None:
        status = "missed_target" if target_met is False else "ok"
    else:
        worsening = base - value if higher else value - base
        slack = 1e-12 * max(1.0, abs(base))  # "beyond" the tolerance, not by rounding
        if worsening - tolerance > slack:
            test, p_value = pairing.test(higher, config, functions.get(metric_id))
            floor = min_mcnemar_p(pairing.n_paired) if test == "mcnemar" else 0.0
            if floor >= config.alpha:
                fallback = "judged by its target" if target is not None else "no target"
                note = (
                    f"too few cases for a test: McNemar on {pairing.n_paired} paired case(s) "
                    f"cannot reach p < {config.alpha:g}; {fallback}"
                )
                status = "missed_target" if target_met is False else "too_few_cases"
            elif test is None or (p_value is not None and p_value < config.alpha):
                status = "regressed"
            elif target_met is False:
                status = "missed_target"
            else:
                status = "worse_not_significant"
        elif target_met is False:
            status = "missed_target"
        elif -worsening - tolerance > slack:
            if metric_id in ONE_SIDED:
                status = "ok"
                note = "higher is not better here: a rise is not an improvement"
            else:
                status = "improved"
        else:
            status = "ok"
    return GateRow(
        metric=metric_id,
        perspective=described.perspective,
        baseline=base,
        current=value,
        delta=delta,
        tolerance=tolerance,
        test=test,
        n_paired=pairing.n_paired,
        p_value=p_value,
        target=str(target) if target is not None else None,
        status=status,
        failed=status in FAILING_STATUSES,
        target_met=target_met,
        note=note,
    )


def min_mcnemar_p(n_paired: int) -> float:
    """The smallest p-value exact McNemar can give on ``n_paired`` pairs (every pair
    discordant the same way): ``min(1, 2^(1 - n))``.

    >>> min_mcnemar_p(3), min_mcnemar_p(6)
    (0.25, 0.03125)
    """
    return 1.0 if n_paired < 1 else min(1.0, 2.0 ** (1 - n_paired))


class _Pairing:
    """The per-case values of one metric in both reports, by case id."""

    def __init__(
        self, metric_id: str, kind: str, current: EvalReport, baseline: EvalReport | None
    ) -> None:
        self.metric_id = metric_id
        self.kind = kind
        self.current = current
        self.baseline = baseline
        if baseline is None:
            self.before: dict[str, float] = {}
            self.after: dict[str, float] = {}
            self.common: list[str] = []
            self.n_paired = 0
        elif kind == "derived":
            self.before, self.after = {}, {}
            ids = {case.case_id for case in baseline.cases}
            self.common = list(dict.fromkeys(c.case_id for c in current.cases if c.case_id in ids))
            self.n_paired = len(self.common)
        else:
            self.before = _per_case(baseline.cases, metric_id)
            self.after = _per_case(current.cases, metric_id)
            self.common = [case_id for case_id in self.after if case_id in self.before]
            self.n_paired = len(self.common)

    def test(
        self, higher: bool, config: GateConfig, statistic: DerivedStatistic | None
    ) -> tuple[GateTest | None, float | None]:
        """The test of this metric's difference, and its p-value (``None, None``: none)."""
        if self.baseline is None:
            return None, None
        if self.kind == "derived":
            if statistic is None or self.n_paired < MIN_BOOTSTRAP_CASES:
                return None, None
            p = paired_bootstrap_p(
                self.baseline.cases,
                self.current.cases,
                statistic,
                resamples=config.bootstrap_resamples,
                seed=config.seed,
                worse=_worse_below if higher else _worse_above,
            )
            return "bootstrap", p
        if self.kind not in ("mean", "rate"):
            return None, None
        before = [self.before[case_id] for case_id in self.common]
        after = [self.after[case_id] for case_id in self.common]
        binary = all(v in (0.0, 1.0) for v in (*before, *after))
        if self.kind == "rate" and binary and self.n_paired >= 1:
            return "mcnemar", mcnemar_exact(before, after)
        if self.n_paired >= 2:  # a mean (or a rate with values other than 0/1)
            return "paired_t", paired_t(before, after)
        if len(self.before) >= 2 and len(self.after) >= 2:
            return "welch", welch_p(list(self.before.values()), list(self.after.values()))
        return None, None


def _per_case(cases: Sequence[CaseResult], metric_id: str) -> dict[str, float]:
    """``case_id -> value`` of the cases carrying a finite value (first of a repeated id)."""
    out: dict[str, float] = {}
    for case in cases:
        value = case.metrics.get(metric_id)
        if value is not None and math.isfinite(value) and case.case_id not in out:
            out[case.case_id] = float(value)
    return out


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def _worse_below(difference: float) -> bool:
    return difference < 0.0


def _worse_above(difference: float) -> bool:
    return difference > 0.0
