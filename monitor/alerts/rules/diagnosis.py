"""Which spec 003 perspective is failing: the diagnosis attached to every alert.

Every metric id belongs to one perspective (``PERSPECTIVE`` in
:mod:`monitor.windows.metric_ids`): the quality sub-scores, ``crag.incorrect`` and
``outcome.no_results`` to retrieval; ``context_quality.*`` and the sufficiency and
diversity sub-scores to context quality; ``grounding.*``, the faithfulness sub-score and
abstention to groundedness; ``safety.*`` to safety; ``latency_ms.*`` and dead letters to the
pipeline. :func:`diagnose` compares each metric of the window with its baseline, the way the
degradation rule does (a metric that is better when higher has dropped below ``ratio`` x
baseline; one that is better when lower has risen above baseline / ``ratio`` and by more
than ``ABSOLUTE_SLACK``), and so tells which perspectives dropped and which look healthy.

A failing metric named by the alert other than ``quality.overall`` fails its own perspective
and is the primary one. ``quality.overall`` is spec 000's composite and belongs to no single
perspective: for an alert on it the primary perspective is the one whose metric dropped the
most relative to its baseline; when none did (no baselines yet, or an even drop), it falls
back to context quality, which the composite measures. The advice is fixed text per
perspective, in the spirit of spec 003; it never contains anything from an event.

>>> from dataclasses import dataclass
>>> @dataclass
... class S:
...     count: int
...     mean: float | None
...     def quantile(self, q: float) -> float | None:
...         return None
>>> stats = {"quality.overall": S(100, 0.55), "quality.retrieval_confidence": S(100, 0.81),
...          "quality.estimated_faithfulness": S(100, 0.40)}
>>> base = {"quality.retrieval_confidence": 0.8, "quality.estimated_faithfulness": 0.8}
>>> d = diagnose(["quality.overall"], stats, base.get)
>>> d.perspective, d.failing, d.healthy
('groundedness', ['groundedness'], ['retrieval'])
>>> d.advice
"Retrieval OK, groundedness failing: focus on prompt engineering and the generator's grounding instructions"
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from monitor.alerts.alert import Diagnosis
from monitor.drift.direction import higher_is_better
from monitor.drift.stats import WindowStats
from monitor.windows.metric_ids import PERSPECTIVE, Perspective

__all__ = [
    "ABSOLUTE_SLACK",
    "ADVICE",
    "COMPOSITE",
    "PERSPECTIVES",
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


def worsening(metric: str, mean: float, baseline: float, ratio: float = 0.85) -> float | None:
    """How much worse than its baseline ``metric`` is, relative to the baseline: > 0 when it
    counts as dropped, 0.0 when it is fine, ``None`` when it cannot be compared.

    >>> worsening("quality.retrieval_confidence", 0.4, 0.8), worsening("outcome.no_results",
    ...     0.045, 0.04)
    (0.5, 0.0)
    """
    if mean != mean or baseline != baseline:  # NaN
        return None
    if higher_is_better(metric):
        if baseline <= 0.0:
            return None
        return (baseline - mean) / baseline if mean < baseline * ratio else 0.0
    if mean > baseline / ratio and mean - baseline > ABSOLUTE_SLACK:
        return (mean - baseline) / max(baseline, ABSOLUTE_SLACK)
    return 0.0


def diagnose(
    failing_metrics: Iterable[str],
    stats: Mapping[str, WindowStats],
    baselines: Callable[[str], float | None],
    *,
    ratio: float = 0.85,
) -> Diagnosis:
    """Name the failing perspective(s) of an alert on ``failing_metrics``.

    ``stats`` are the window's aggregates of the alert's series; ``baselines`` gives the
    trusted baseline of a metric id, or ``None``.
    """
    named = list(dict.fromkeys(failing_metrics))
    score: dict[Perspective, float] = {}
    compared: set[Perspective] = set()
    for metric, window in stats.items():
        perspective = perspective_of(metric)
        if perspective is None or metric == COMPOSITE or window.count <= 0:
            continue
        mean, baseline = window.mean, baselines(metric)
        if mean is None or baseline is None:
            continue
        worse = worsening(metric, mean, baseline, ratio)
        if worse is None:
            continue
        compared.add(perspective)
        if worse > 0.0:
            score[perspective] = max(score.get(perspective, 0.0), worse)

    explicit = [p for m in named if m != COMPOSITE and (p := perspective_of(m)) is not None]
    ranked = sorted(score, key=lambda p: (-score[p], PERSPECTIVES.index(p)))
    failing = list(dict.fromkeys([*explicit, *ranked]))
    stands_out = bool(failing)
    if not failing:
        fallback = perspective_of(named[0]) if named else None
        failing = [fallback or PERSPECTIVE[COMPOSITE]]
    primary = failing[0]
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
