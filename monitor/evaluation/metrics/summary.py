"""Aggregate the cases of a run: metric values, perspective pass rates, 004 breakdowns.

``mean`` and ``rate`` metrics are the mean of the per-case values over the cases that
have the metric (``n`` of them, with the standard error). ``derived`` metrics are
computed from every case at once by the functions in :data:`DERIVED` (the regression
gate reuses them for its paired bootstrap):

- ``safety.injection.auc`` and ``safety.injection.tpr@fpr_1pct``/``_5pct`` from each
  safety case's injection score and attack label;
- ``latency_ms.<stage>.p50``/``.p95`` (linear interpolation) over the cases with that
  stage;
- ``pipeline.latency_budget_met``: each budget of 003 F (``{"p95": 5000}``) is a
  percentile of the total latency over the cases that carry that budget; 1.0 when every
  budget holds, else 0.0.

Breakdowns group the evaluated cases by tag (a case counts under each of its tags),
category, difficulty, query type and answerable/unanswerable (004), each group with the
means and rates, the injection AUC and the total latency's p50 and p95
(:data:`BREAKDOWN_DERIVED`).

>>> from monitor.evaluation.results.case_result import CaseResult
>>> cases = [CaseResult(case_id=f"q{i}", origin="x", query="q", category="factual",
...     metrics={"pipeline.pass": float(i % 2)}, passed={"pipeline": bool(i % 2)},
...     signals={"latency_budget_ms": {"p95": 1000}}, latency_ms={"total": 100.0 * i},
...     perspectives=["pipeline"]) for i in range(1, 5)]
>>> s = summarize(cases, perspectives=["pipeline"])
>>> s.metrics["pipeline.pass"].value, s.metrics["latency_ms.total.p50"].value
(0.5, 250.0)
>>> s.metrics["pipeline.latency_budget_met"].value, s.perspectives["pipeline"].pass_rate
(1.0, 0.5)
>>> s.breakdowns["category"]["factual"].cases
4
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from monitor.evaluation.metrics.catalogue import CATALOGUE, DEFAULT_TARGETS, MetricInfo, Target
from monitor.evaluation.metrics.roc import roc_auc, tpr_at_fpr
from monitor.evaluation.results.case_result import CaseResult
from monitor.evaluation.results.eval_report import Breakdown, PerspectiveSummary
from monitor.evaluation.results.metric_value import MetricValue
from monitor.windows.metric_ids import LATENCY_STAGES

__all__ = [
    "BREAKDOWN_DERIVED",
    "DERIVED",
    "Summary",
    "breakdowns",
    "derived_values",
    "ranking_depth",
    "summarize",
]

_UNKNOWN = MetricInfo("pipeline", "mean", None, "")


def _injection(cases: Sequence[CaseResult]) -> tuple[list[float], list[bool]]:
    scores, labels = [], []
    for case in cases:
        score, attack = case.signals.get("injection_score"), case.signals.get("is_attack")
        if isinstance(score, int | float) and isinstance(attack, bool):
            scores.append(float(score))
            labels.append(attack)
    return scores, labels


def _auc(cases: Sequence[CaseResult]) -> float | None:
    return roc_auc(*_injection(cases))


def _tpr(max_fpr: float) -> Callable[[Sequence[CaseResult]], float | None]:
    def at(cases: Sequence[CaseResult]) -> float | None:
        return tpr_at_fpr(*_injection(cases), max_fpr)

    return at


def _percentile(values: Sequence[float], q: float) -> float | None:
    return float(np.percentile(np.asarray(values, dtype=float), q)) if values else None


def _latency(stage: str, q: float) -> Callable[[Sequence[CaseResult]], float | None]:
    def at(cases: Sequence[CaseResult]) -> float | None:
        return _percentile([c.latency_ms[stage] for c in cases if stage in c.latency_ms], q)

    return at


def _budget_met(cases: Sequence[CaseResult]) -> float | None:
    groups: dict[tuple[str, float], list[float]] = defaultdict(list)
    for case in cases:
        budgets = case.signals.get("latency_budget_ms") or {}
        total = case.latency_ms.get("total")
        if total is None:
            continue
        for key, budget in budgets.items():
            groups[(key, float(budget))].append(total)
    if not groups:
        return None
    for (key, budget), totals in groups.items():
        observed = max(totals) if key == "max" else _percentile(totals, float(key[1:]))
        if observed is not None and observed > budget:
            return 0.0
    return 1.0


DERIVED: dict[str, Callable[[Sequence[CaseResult]], float | None]] = {
    "safety.injection.auc": _auc,
    "safety.injection.tpr@fpr_1pct": _tpr(0.01),
    "safety.injection.tpr@fpr_5pct": _tpr(0.05),
    "pipeline.latency_budget_met": _budget_met,
    **{
        f"latency_ms.{stage}.{name}": _latency(stage, q)
        for stage in LATENCY_STAGES
        for name, q in (("p50", 50.0), ("p95", 95.0))
    },
}
"""Every derived metric id and the function that computes it from the cases."""


BREAKDOWN_DERIVED = ("safety.injection.auc", "latency_ms.total.p50", "latency_ms.total.p95")
"""The derived metrics a breakdown group carries (the others need more cases than a
group usually has, or say little per group)."""


def derived_values(
    cases: Sequence[CaseResult], metric_ids: Collection[str] = tuple(DERIVED)
) -> dict[str, tuple[float | None, int]]:
    """Each derived metric's value and the number of cases it was computed from."""
    out: dict[str, tuple[float | None, int]] = {}
    n_injection = len(_injection(cases)[0])
    for metric_id in metric_ids:
        compute = DERIVED[metric_id]
        if metric_id.startswith("safety."):
            n = n_injection
        elif metric_id == "pipeline.latency_budget_met":
            n = sum(1 for c in cases if c.signals.get("latency_budget_ms"))
        else:
            stage = metric_id.split(".")[1]
            n = sum(1 for c in cases if stage in c.latency_ms)
        out[metric_id] = (compute(cases), n)
    return out


def _matrix(cases: Sequence[CaseResult]) -> tuple[list[str], np.ndarray]:
    """The per-case values as one (cases x metric ids) array, NaN where a case has none."""
    ids = sorted({metric_id for case in cases for metric_id in case.metrics})
    column = {metric_id: j for j, metric_id in enumerate(ids)}
    values = np.full((len(cases), len(ids)), np.nan)
    for i, case in enumerate(cases):
        row = values[i]
        for metric_id, value in case.metrics.items():
            row[column[metric_id]] = value
    return ids, values


def _column_stats(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per column of ``rows`` (NaN: no value): the count, the mean and the sample standard
    deviation (NaN below 2 values)."""
    present = ~np.isnan(rows)
    counts = present.sum(axis=0)
    means = np.where(present, rows, 0.0).sum(axis=0) / np.maximum(counts, 1)
    squares = np.where(present, rows - means, 0.0) ** 2
    sds = np.sqrt(squares.sum(axis=0) / np.maximum(counts - 1, 1))
    return counts, means, np.where(counts > 1, sds, np.nan)


@dataclass(frozen=True, slots=True)
class Summary:
    """``metrics`` by id (catalogue order), ``perspectives`` and ``breakdowns``."""

    metrics: dict[str, MetricValue]
    perspectives: dict[str, PerspectiveSummary]
    breakdowns: dict[str, dict[str, Breakdown]]


def _metric_values(
    cases: Sequence[CaseResult],
    ids: Sequence[str],
    values: np.ndarray,
    targets: Mapping[str, Target],
) -> dict[str, MetricValue]:
    found: dict[str, MetricValue] = {}
    counts, means, sds = _column_stats(values)
    for j, metric_id in enumerate(ids):
        n = int(counts[j])
        stderr = float(sds[j] / math.sqrt(n)) if n > 1 else None
        info = CATALOGUE.get(metric_id, _UNKNOWN)
        found[metric_id] = _value(metric_id, info, float(means[j]), n, stderr, targets)
    for metric_id, (value, n) in derived_values(cases).items():
        if value is not None:
            found[metric_id] = _value(metric_id, CATALOGUE[metric_id], value, n, None, targets)
    for metric_id in targets:
        if metric_id not in found and metric_id in CATALOGUE:
            found[metric_id] = _value(metric_id, CATALOGUE[metric_id], None, 0, None, targets)
    for metric_id, metric in found.items():
        if metric_id.startswith("retrieval."):
            metric.depth, metric.depth_min = ranking_depth(metric_id, cases)
    order = {metric_id: i for i, metric_id in enumerate(CATALOGUE)}
    return dict(sorted(found.items(), key=lambda item: (order.get(item[0], len(order)), item[0])))


def ranking_depth(metric_id: str, cases: Sequence[CaseResult]) -> tuple[int | None, int | None]:
    """The ranking depth of a retrieval metric, as ``(deepest, shallowest)``: ``(k, k)``
    for an ``@k`` metric; for one over the whole ranking (``mrr``, ``map``) the longest
    and shortest ranking (``signals["ranking_depth"]``) of the cases carrying it;
    ``(None, None)`` when unknown.

    >>> ranking_depth("retrieval.ndcg@5", [])
    (5, 5)
    >>> cases = [CaseResult(case_id=str(n), origin="x", query="q",
    ...     metrics={"retrieval.mrr": 1.0}, signals={"ranking_depth": n}) for n in (8, 10)]
    >>> ranking_depth("retrieval.mrr", cases), ranking_depth("retrieval.map", cases)
    ((10, 8), (None, None))
    """
    _, _, k = metric_id.partition("@")
    if k.isdigit():
        return int(k), int(k)
    depths = [
        case.signals["ranking_depth"]
        for case in cases
        if metric_id in case.metrics and isinstance(case.signals.get("ranking_depth"), int)
    ]
    return (max(depths), min(depths)) if depths else (None, None)


def _value(
    metric_id: str,
    info: MetricInfo,
    value: float | None,
    n: int,
    stderr: float | None,
    targets: Mapping[str, Target],
) -> MetricValue:
    target = targets.get(metric_id)
    return MetricValue(
        value=value,
        n=n,
        perspective=info.perspective,
        kind=info.kind,
        higher_is_better=info.higher_is_better,
        stderr=stderr,
        target=None if target is None else str(target),
        target_value=None if target is None else target.value,
        meets_target=None if target is None or value is None else target.met(value),
    )


def _perspectives(
    cases: Sequence[CaseResult], metrics: Mapping[str, MetricValue], selected: Collection[str]
) -> dict[str, PerspectiveSummary]:
    out = {}
    for perspective in selected:
        outcomes = [c.passed[perspective] for c in cases if perspective in c.passed]
        passed = sum(outcomes)
        checks = [
            m.meets_target
            for m in metrics.values()
            if m.perspective == perspective and m.meets_target is not None
        ]
        out[perspective] = PerspectiveSummary(
            cases=len(outcomes),
            passed=passed,
            failed=len(outcomes) - passed,
            pass_rate=passed / len(outcomes) if outcomes else None,
            meets_targets=all(checks) if checks else None,
        )
    return out


def _groups(cases: Sequence[CaseResult]) -> dict[str, dict[str, list[CaseResult]]]:
    groups: dict[str, dict[str, list[CaseResult]]] = {
        dim: defaultdict(list) for dim in ("tag", "category", "difficulty", "query_type")
    }
    groups["answerable"] = defaultdict(list)
    for case in cases:
        for tag in dict.fromkeys(case.tags):
            groups["tag"][tag].append(case)
        for dim, value in (
            ("category", case.category),
            ("difficulty", case.difficulty),
            ("query_type", case.query_type),
        ):
            if value is not None:
                groups[dim][value].append(case)
        if case.answerable is not None:
            groups["answerable"]["answerable" if case.answerable else "unanswerable"].append(case)
    return groups


def breakdowns(
    cases: Sequence[CaseResult], matrix: tuple[list[str], np.ndarray] | None = None
) -> dict[str, dict[str, Breakdown]]:
    """004's breakdowns of ``cases`` (dimension -> value -> cases and metrics);
    ``matrix`` is :func:`_matrix` of ``cases`` when the caller has it."""
    ids, values = matrix if matrix is not None else _matrix(cases)
    position = {id(case): i for i, case in enumerate(cases)}
    out: dict[str, dict[str, Breakdown]] = {}
    for dim, groups in _groups(cases).items():
        out[dim] = {}
        for value in sorted(groups):
            members = groups[value]
            counts, means, _ = _column_stats(values[[position[id(case)] for case in members]])
            metrics: dict[str, float | None] = {
                metric_id: float(means[j]) for j, metric_id in enumerate(ids) if counts[j]
            }
            for metric_id, (derived, _) in derived_values(members, BREAKDOWN_DERIVED).items():
                if derived is not None:
                    metrics[metric_id] = derived
            out[dim][value] = Breakdown(cases=len(members), metrics=dict(sorted(metrics.items())))
    return out


def summarize(
    cases: Sequence[CaseResult],
    *,
    perspectives: Collection[str],
    targets: Mapping[str, Target] = DEFAULT_TARGETS,
) -> Summary:
    """The aggregates of ``cases``; targets only of the selected perspectives' metrics
    (and the perspective-less ones) are checked."""
    in_scope = {
        metric_id: target
        for metric_id, target in targets.items()
        if CATALOGUE.get(metric_id, _UNKNOWN).perspective in perspectives
        or CATALOGUE.get(metric_id, _UNKNOWN).perspective in ("operational", "abstention", "judge")
    }
    matrix = _matrix(cases)
    metrics = _metric_values(cases, *matrix, in_scope)
    return Summary(
        metrics=metrics,
        perspectives=_perspectives(cases, metrics, perspectives),
        breakdowns=breakdowns(cases, matrix),
    )
