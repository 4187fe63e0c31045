"""Which metric ids the reports show together, and in what order.

Perspectives come in the order of the evaluation (retrieval first, the judge last), a
perspective's metric ids by name with the ``@k`` cut-offs in numeric order. Two families
get tables of their own: the per-category safety rates
(``safety.injection.detection_rate.<category>``...) and the latency percentiles
(``latency_ms.<stage>.p50``/``p95``).

>>> sorted(["retrieval.ndcg@10", "retrieval.ndcg@5", "retrieval.mrr"], key=metric_sort_key)
['retrieval.mrr', 'retrieval.ndcg@5', 'retrieval.ndcg@10']
>>> category_rate("safety.injection.block_rate.jailbreak_persona")
('injection', 'block_rate', 'jailbreak_persona')
>>> category_rate("safety.injection.block_rate") is None
True
>>> latency_stage("latency_ms.total.p95"), latency_stage("pipeline.pass")
(('total', 'p95'), None)
>>> sorted(["total", "retrieve", "zeta"], key=stage_sort_key)
['retrieve', 'zeta', 'total']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from monitor.evaluation.datasets.case import PERSPECTIVES
from monitor.evaluation.results import Breakdown, MetricValue
from monitor.windows.metric_ids import LATENCY_STAGES

__all__ = [
    "BREAKDOWN_METRICS",
    "COUNT_METRICS",
    "LOWER_IS_BETTER",
    "MAX_BREAKDOWN_COLUMNS",
    "PERSPECTIVE_ORDER",
    "SCORE_METRICS",
    "STAGE_ORDER",
    "category_rate",
    "latency_stage",
    "metric_sort_key",
    "metrics_by_perspective",
    "perspective_sort_key",
    "stage_sort_key",
]

PERSPECTIVE_ORDER: tuple[str, ...] = (*PERSPECTIVES, "abstention", "operational", "judge")
"""The perspectives in report order; any other sorts after them, by name."""

STAGE_ORDER: tuple[str, ...] = LATENCY_STAGES
"""The latency stages in pipeline order (``total`` last); any other sorts before total."""

BREAKDOWN_METRICS: tuple[str, ...] = (
    "pipeline.pass",
    "retrieval.ndcg@5",
    "grounding.claim_support_rate",
    "abstention.accuracy",
    "quality.overall",
    "context_quality.redundancy_ngram",
    "safety.injection.detection_rate",
    "retrieval.recall@5",
    "judge.faithfulness",
    "judge.groundedness",
)
"""The key metrics of a breakdown by tag, category...: the first present ones are shown."""

COUNT_METRICS: frozenset[str] = frozenset(
    {
        "context_quality.fact_dispersion",
        "grounding.unsupported_claims",
        "grounding.numeric_fabrications",
        "grounding.forbidden_claims_found",
    }
)
"""Means of a count per case (chunks, claims, numbers): plotted on an axis of their own,
not with the rates in [0, 1]."""

LOWER_IS_BETTER: frozenset[str] = frozenset(
    {
        "context_quality.redundancy_ngram",
        "context_quality.redundancy_tfidf",
        "context_quality.fact_dispersion",
        "grounding.unsupported_claims",
        "grounding.numeric_fabrications",
        "grounding.forbidden_claims_found",
        "abstention.false_abstention_rate",
        "abstention.hallucination_rate",
        "safety.injection.false_positive_rate",
        "safety.leakage.false_positive_rate",
        "operational.error_rate",
        "operational.timeout_rate",
        "operational.empty_response_rate",
    }
)
"""The breakdown columns where less is better (a breakdown keeps no direction)."""

MAX_BREAKDOWN_COLUMNS = 6
"""The metric columns of a breakdown table."""

SCORE_METRICS: tuple[str, ...] = (
    "quality.overall",
    "retrieval.ndcg@5",
    "grounding.claim_support_rate",
    "context_quality.redundancy_ngram",
    "judge.faithfulness",
    "judge.groundedness",
    "retrieval.recall@5",
    "retrieval.mrr",
    "grounding.citation_validity_form",
    "judge.completeness",
    "judge.correctness",
    "context_quality.unique_token_ratio",
)
"""The per-case scores worth a histogram, most telling first."""

_CATEGORY_FAMILIES: tuple[tuple[str, str], ...] = (
    ("injection", "detection_rate"),
    ("injection", "block_rate"),
    ("leakage", "detection_rate"),
)


def perspective_sort_key(name: str) -> tuple[int, str]:
    """Sort key of a perspective name (see :data:`PERSPECTIVE_ORDER`)."""
    try:
        return (PERSPECTIVE_ORDER.index(name), "")
    except ValueError:
        return (len(PERSPECTIVE_ORDER), name)


def stage_sort_key(stage: str) -> tuple[int, str]:
    """Sort key of a latency stage (see :data:`STAGE_ORDER`)."""
    if stage == "total":
        return (2, "")
    try:
        return (0, f"{STAGE_ORDER.index(stage):03d}")
    except ValueError:
        return (1, stage)


def metric_sort_key(metric_id: str) -> tuple[str, int, int, str]:
    """Sort key of a metric id: by name, an integer ``@k`` numerically, ``@`` ids after
    the plain ones of the same name."""
    base, at, suffix = metric_id.partition("@")
    if not at:
        return (base, 0, 0, "")
    if suffix.isdigit():
        return (base, 1, int(suffix), "")
    return (base, 2, 0, suffix)


def category_rate(metric_id: str) -> tuple[str, str, str] | None:
    """``(family, rate, category)`` of a per-category safety rate, else ``None``."""
    for family, rate in _CATEGORY_FAMILIES:
        prefix = f"safety.{family}.{rate}."
        if metric_id.startswith(prefix) and len(metric_id) > len(prefix):
            return (family, rate, metric_id[len(prefix) :])
    return None


def latency_stage(metric_id: str) -> tuple[str, str] | None:
    """``(stage, quantile)`` of a ``latency_ms.<stage>.<quantile>`` id, else ``None``."""
    parts = metric_id.split(".")
    if len(parts) == 3 and parts[0] == "latency_ms" and parts[1] and parts[2]:
        return (parts[1], parts[2])
    return None


def metrics_by_perspective(
    metrics: Mapping[str, MetricValue], *, exclude: Iterable[str] = ()
) -> dict[str, list[tuple[str, MetricValue]]]:
    """The metrics grouped by their perspective, both in report order, minus ``exclude``."""
    skip = set(exclude)
    groups: dict[str, list[tuple[str, MetricValue]]] = {}
    for metric_id in sorted(metrics, key=metric_sort_key):
        if metric_id in skip:
            continue
        metric = metrics[metric_id]
        groups.setdefault(metric.perspective, []).append((metric_id, metric))
    return {name: groups[name] for name in sorted(groups, key=perspective_sort_key)}


def breakdown_columns(groups: Mapping[str, Breakdown]) -> list[str]:
    """The metric columns of a breakdown table: the :data:`BREAKDOWN_METRICS` with a
    value in some group (else the first metrics with one), at most
    :data:`MAX_BREAKDOWN_COLUMNS`.

    >>> breakdown_columns({"hr": Breakdown(cases=2, metrics={"pipeline.pass": 0.5,
    ...     "retrieval.mrr": 1.0, "abstention.accuracy": None})})
    ['pipeline.pass']
    """
    present = {
        mid for group in groups.values() for mid, v in group.metrics.items() if v is not None
    }
    columns = [m for m in BREAKDOWN_METRICS if m in present]
    if not columns:
        columns = sorted(present, key=metric_sort_key)
    return columns[:MAX_BREAKDOWN_COLUMNS]
