"""Which spec 003 stage is failing: the diagnosis attached to every notification.

Every metric id belongs to one perspective (``PERSPECTIVE`` in
:mod:`monitor.windows.metric_ids`), chosen by the stage whose own signal it is:

- retrieval: the retrieval-confidence and estimated-faithfulness sub-scores (spec 000
  computes both from the query and the chunks, before any answer), ``crag.incorrect``,
  ``outcome.no_results``;
- context quality: the sufficiency and diversity sub-scores, ``context_quality.*``;
- groundedness (the generator): ``grounding.*`` (claim support, citation content
  validity, answers with an unsupported claim) and abstention, the only signals that read
  the answer;
- safety: ``safety.*`` and blocked answers; pipeline: ``latency_ms.*`` and dead letters.

:func:`diagnose` compares each metric of the window with its baseline, the way the
degradation rule does (a metric that is better when higher has dropped below ``ratio`` x
baseline; one that is better when lower has risen above baseline / ``ratio``, by more than
``ABSOLUTE_SLACK``, and, for a 0/1 rate, by more than ``RATE_EVIDENCE_Z`` standard errors
of the window's rate under the baseline), and combines that with the metrics of the
conditions being notified (*named*; ``quality.overall``, spec 000's composite, names no
stage). The primary perspective is, in this order:

1. safety, when a safety metric is named, or is among ``also_firing`` (conditions of the
   same window outside the alert, e.g. an injection rate next to a quality drop) and has
   risen against its baseline on this series with evidence: a safety rate that fires wins,
   but a leakage rate hovering at its threshold does not take over a retrieval break;
2. pipeline, when only pipeline metrics are named (a latency or dead-letter incident);
3. the most upstream failing stage, named or dropped: retrieval, then context quality,
   then groundedness. A retrieval break also starves the generator, so groundedness is
   primary only while retrieval and context look healthy;
4. else the perspective of a named metric; else (nothing dropped, no baselines yet)
   context quality, which the composite measures.

The other failing perspectives follow, by their relative drop. The advice is fixed text per
perspective, in the spirit of spec 003; it never contains anything from an event.

>>> from dataclasses import dataclass
>>> @dataclass
... class S:
...     count: int
...     mean: float | None
...     def quantile(self, q: float) -> float | None:
...         return None
>>> stats = {"quality.overall": S(100, 0.75), "quality.retrieval_confidence": S(100, 0.81),
...          "grounding.claim_support_rate": S(100, 0.40)}
>>> base = {"quality.retrieval_confidence": 0.8, "grounding.claim_support_rate": 0.9}
>>> d = diagnose(["grounding.claim_support_rate"], stats, base.get)
>>> d.perspective, d.failing, d.healthy
('groundedness', ['groundedness'], ['retrieval'])
>>> d.advice
"Retrieval OK, groundedness failing: focus on prompt engineering and the generator's grounding instructions"
"""  # noqa: E501

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping

from monitor.alerts.alert import Diagnosis
from monitor.drift.direction import higher_is_better
from monitor.drift.evidence import mean_lower_bound, mean_upper_bound
from monitor.drift.stats import WindowStats
from monitor.windows.metric_ids import PERSPECTIVE, RATE_METRICS, Perspective

__all__ = [
    "ABSOLUTE_SLACK",
    "ADVICE",
    "COMPOSITE",
    "PERSPECTIVES",
    "RATE_EVIDENCE_Z",
    "STAGES",
    "diagnose",
    "perspective_of",
    "worsening",
]

COMPOSITE = "quality.overall"
PERSPECTIVES: tuple[Perspective, ...] = (
    "retrieval",
    "context_quality",
    "groundedness",
    "safety",
    "pipeline",
)
ABSOLUTE_SLACK = 0.01
"""A metric that is better when lower must also have risen by more than this to count as
dropped (so a rate with a baseline near 0 is not failing on a single event)."""
RATE_EVIDENCE_Z = 3.0
"""A 0/1 rate counts as risen only when it is this many binomial standard errors (of a
window of its size, at the baseline rate) above its baseline: noise in a small window must
not point the diagnosis at the wrong stage."""
STAGES: tuple[Perspective, ...] = ("retrieval", "context_quality", "groundedness")
"""The quality stages, upstream first."""

ADVICE: Mapping[Perspective, str] = {
    "retrieval": (
        "check the retriever, index freshness, the embedding model and the chunking strategy"
    ),
    "context_quality": (
        "check chunking, deduplication and reranking of the retrieved context, "
        "and the context budget"
    ),
    "groundedness": "focus on prompt engineering and the generator's grounding instructions",
    "safety": "review the guardrail thresholds and the injection and leakage detections",
    "pipeline": "check stage latencies, timeouts, upstream services and dead-lettered messages",
}
_NAME: Mapping[Perspective, str] = {
    "retrieval": "retrieval",
    "context_quality": "context quality",
    "groundedness": "groundedness",
    "safety": "safety",
    "pipeline": "pipeline",
}


def perspective_of(metric: str) -> Perspective | None:
    """The perspective of a metric id (``latency_ms.<any stage>`` is the pipeline)."""
    found = PERSPECTIVE.get(metric)
    if found is None and metric.startswith("latency_ms."):
        return "pipeline"
    return found


def worsening(
    metric: str, mean: float, baseline: float, ratio: float = 0.85, count: int | None = None
) -> float | None:
    """How much worse than its baseline ``metric`` is, relative to the baseline: > 0 when it
    counts as dropped, 0.0 when it is fine, ``None`` when it cannot be compared. ``count``,
    the window's number of events, enables the evidence check of 0/1 rates.

    >>> worsening("quality.retrieval_confidence", 0.4, 0.8), worsening("outcome.no_results",
    ...     0.045, 0.04)
    (0.5, 0.0)
    >>> worsening("crag.incorrect", 0.15, 0.05, count=20), worsening("crag.incorrect", 0.5,
    ...     0.05, count=20)
    (0.0, 9.0)
    """
    if mean != mean or baseline != baseline:  # NaN
        return None
    if higher_is_better(metric):
        if baseline <= 0.0:
            return None
        return (baseline - mean) / baseline if mean < baseline * ratio else 0.0
    rise = mean - baseline
    if metric in RATE_METRICS and count is not None and count > 0:
        p = min(max(baseline, ABSOLUTE_SLACK), 1.0 - ABSOLUTE_SLACK)
        if rise <= RATE_EVIDENCE_Z * math.sqrt(p * (1.0 - p) / count):
            return 0.0
    if mean > baseline / ratio and rise > ABSOLUTE_SLACK:
        return rise / max(baseline, ABSOLUTE_SLACK)
    return 0.0


EVIDENCE_CONFIDENCE = 0.99
"""One-sided confidence of the diagnosis' evidence check of a mean."""


def _most_favourable(metric: str, count: int, mean: float, stddev: float | None) -> float:
    """The best value of the mean that the window still supports (its one-sided
    ``EVIDENCE_CONFIDENCE`` bound on the good side), so that noise in a small window does
    not make a healthy stage look failing; the mean itself without a spread.

    >>> _most_favourable("quality.diversity_score", 30, 0.5, 0.3) > 0.6
    True
    >>> _most_favourable("quality.diversity_score", 30, 0.5, None)
    0.5
    """
    if count < 2 or stddev is None or stddev != stddev:
        return mean
    if higher_is_better(metric):
        return mean_upper_bound(count, mean, stddev, EVIDENCE_CONFIDENCE)
    return max(0.0, mean_lower_bound(count, mean, stddev, EVIDENCE_CONFIDENCE))


def diagnose(
    failing_metrics: Iterable[str],
    stats: Mapping[str, WindowStats],
    baselines: Callable[[str], float | None],
    *,
    ratio: float = 0.85,
    also_firing: Iterable[str] = (),
) -> Diagnosis:
    """Name the failing perspective(s) of an alert on ``failing_metrics``.

    ``stats`` are the window's aggregates of the alert's series; ``baselines`` gives the
    trusted baseline of a metric id, or ``None``; ``also_firing`` the metrics of other
    conditions firing in the same window (only safety ones are used).
    """
    named = list(dict.fromkeys(failing_metrics))
    score: dict[Perspective, float] = {}
    compared: set[Perspective] = set()
    risen: set[str] = set()
    for metric, window in stats.items():
        perspective = perspective_of(metric)
        if perspective is None or metric == COMPOSITE or window.count <= 0:
            continue
        mean, baseline = window.mean, baselines(metric)
        if mean is None or baseline is None:
            continue
        if metric not in RATE_METRICS:  # a mean counts as dropped only with evidence
            mean = _most_favourable(metric, window.count, mean, getattr(window, "stddev", None))
        worse = worsening(metric, mean, baseline, ratio, window.count)
        if worse is None:
            continue
        compared.add(perspective)
        if worse > 0.0:
            score[perspective] = max(score.get(perspective, 0.0), worse)
            risen.add(metric)

    explicit = list(
        dict.fromkeys(p for m in named if m != COMPOSITE and (p := perspective_of(m)) is not None)
    )
    ranked = sorted(score, key=lambda p: (-score[p], PERSPECTIVES.index(p)))
    failing = list(dict.fromkeys([*explicit, *ranked]))
    stands_out = bool(failing)
    primary: Perspective | None = None
    safety_wave = any(perspective_of(m) == "safety" and m in risen for m in also_firing)
    if "safety" in explicit or safety_wave:
        primary = "safety"
    elif explicit and set(explicit) <= {"pipeline"}:
        primary = "pipeline"
    else:
        primary = next((p for p in STAGES if p in failing), None)
    if primary is None:
        primary = failing[0] if failing else (perspective_of(named[0]) if named else None)
    if primary is None:
        primary = PERSPECTIVE[COMPOSITE]
    failing = [primary, *(p for p in failing if p != primary)]
    healthy = [p for p in PERSPECTIVES if p in compared and p not in failing]
    return Diagnosis(
        perspective=primary,
        failing=failing,
        healthy=healthy,
        advice=_advice(primary, failing, healthy, stands_out),
    )


def _advice(
    primary: Perspective,
    failing: list[Perspective],
    healthy: list[Perspective],
    stands_out: bool,
) -> str:
    status = ", ".join(
        f"{_NAME[p]} OK" if p in healthy else f"{_NAME[p]} failing"
        for p in PERSPECTIVES
        if p in healthy or p in failing
    )
    text = f"{status}: {ADVICE[primary]}"
    if not stands_out:
        text = f"{status}: no perspective dropped against its baseline; {ADVICE[primary]}"
    for other in failing[1:]:
        text += f"; {_NAME[other]}: {ADVICE[other]}"
    return text[0].upper() + text[1:]
