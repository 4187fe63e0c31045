"""Verdicts reduced to metrics: per iteration (:func:`aggregate`) and across iterations
(:func:`aggregate_iterations`).

Per iteration (one judge: one rubric, model and prompt version): ``n``, the ``mean`` of
every dimension and ``overall_score_mean`` (their mean, spec 001's overall score), the
``pass_rate`` of every dimension (score >= 4), ``overall_pass_rate`` (every dimension >= 4),
``failures`` (the count of each score below 4, per dimension), tokens and cost, the judge's
identity (for drift control), and by rubric:

* ``faithfulness_completeness``: ``low_faithfulness``, spec 001's failure analysis: counts
  by label (``completely_false`` 1, ``mostly_false`` 2, ``mixed`` 3), the completeness
  failures, and each low-faithfulness case with its score, label and the judge's analysis;
* ``groundedness_correctness``: ``unsupported_claims``: their total, and how many cases
  (and what share) have any.

Across iterations: every number of the per-iteration metrics (dotted paths) as ``mean``,
``min`` and ``max``, and the total cost.

>>> per_iteration = [{"n": 2, "mean": {"faithfulness": 4.0}, "cost_usd": 0.5},
...                  {"n": 2, "mean": {"faithfulness": 5.0}, "cost_usd": 0.25}]
>>> final = aggregate_iterations(per_iteration)
>>> (final["iterations"], final["metrics"]["mean.faithfulness"], final["cost_usd_total"])
(2, {'mean': 4.5, 'min': 4.0, 'max': 5.0}, 0.75)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from statistics import fmean
from typing import Any

from monitor.evaluation.judge.rubrics import (
    FAITHFULNESS_COMPLETENESS,
    FAITHFULNESS_LABELS,
    GROUNDEDNESS_CORRECTNESS,
    PASS_SCORE,
)
from monitor.evaluation.judge.verdict import Verdict

__all__ = ["aggregate", "aggregate_iterations"]


def _low_faithfulness(verdicts: Sequence[Verdict]) -> dict[str, Any]:
    low = [v for v in verdicts if v.scores["faithfulness"] < PASS_SCORE]
    counts = Counter(FAITHFULNESS_LABELS[v.scores["faithfulness"]] for v in low)
    return {
        "counts": {FAITHFULNESS_LABELS[s]: counts[FAITHFULNESS_LABELS[s]] for s in (1, 2, 3)},
        "completeness_failures": sum(v.scores["completeness"] < PASS_SCORE for v in verdicts),
        "cases": [
            {
                "case_id": v.case_id,
                "faithfulness": v.scores["faithfulness"],
                "label": FAITHFULNESS_LABELS[v.scores["faithfulness"]],
                "analysis": v.output.get("failure_analysis"),
            }
            for v in low
        ],
    }


def _unsupported_claims(verdicts: Sequence[Verdict]) -> dict[str, Any]:
    counts = [len(v.output.get("unsupported_claims") or ()) for v in verdicts]
    with_any = sum(c > 0 for c in counts)
    return {"total": sum(counts), "cases_with_any": with_any, "rate": with_any / len(counts)}


def aggregate(verdicts: Sequence[Verdict]) -> dict[str, Any]:
    """The metrics of one iteration (see the module docstring); ``{"n": 0}`` for none."""
    if not verdicts:
        return {"n": 0}
    judges = {(v.rubric, v.model, v.prompt_version) for v in verdicts}
    if len(judges) != 1:
        raise ValueError(f"the verdicts come from {len(judges)} judges; aggregate each apart")
    [(rubric, model, prompt_version)] = judges
    dimensions = list(verdicts[0].scores)
    n = len(verdicts)
    failures: dict[str, dict[str, int]] = {}
    for d in dimensions:
        low = Counter(v.scores[d] for v in verdicts if v.scores[d] < PASS_SCORE)
        failures[d] = {str(score): low[score] for score in sorted(low)}
    metrics: dict[str, Any] = {
        "rubric": rubric,
        "model": model,
        "prompt_version": prompt_version,
        "prompt_sha256": sorted({v.prompt_sha256 for v in verdicts}),
        "n": n,
        "mean": {d: fmean(v.scores[d] for v in verdicts) for d in dimensions},
        "overall_score_mean": fmean(fmean(v.scores.values()) for v in verdicts),
        "pass_rate": {d: sum(v.scores[d] >= PASS_SCORE for v in verdicts) / n for d in dimensions},
        "overall_pass_rate": sum(v.passed for v in verdicts) / n,
        "failures": failures,
        "prompt_tokens": sum(v.prompt_tokens for v in verdicts),
        "completion_tokens": sum(v.completion_tokens for v in verdicts),
        "cost_usd": sum(v.cost_usd for v in verdicts),
        "repaired": sum(v.repaired for v in verdicts),
    }
    if rubric == FAITHFULNESS_COMPLETENESS.name:
        metrics["low_faithfulness"] = _low_faithfulness(verdicts)
    elif rubric == GROUNDEDNESS_CORRECTNESS.name:
        metrics["unsupported_claims"] = _unsupported_claims(verdicts)
    return metrics


def _numbers(tree: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, float]]:
    for name, value in tree.items():
        path = f"{prefix}{name}"
        if isinstance(value, Mapping):
            yield from _numbers(value, f"{path}.")
        elif isinstance(value, int | float) and not isinstance(value, bool):
            yield path, float(value)


def aggregate_iterations(per_iteration: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The final metrics of several iterations' :func:`aggregate` results."""
    series: dict[str, list[float]] = {}
    for metrics in per_iteration:
        for path, value in _numbers(metrics):
            series.setdefault(path, []).append(value)
    return {
        "iterations": len(per_iteration),
        "metrics": {
            path: {"mean": fmean(values), "min": min(values), "max": max(values)}
            for path, values in series.items()
        },
        "cost_usd_total": sum(m.get("cost_usd", 0.0) for m in per_iteration),
    }
