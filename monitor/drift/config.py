"""Every threshold of the drift rules and detectors, in one frozen value.

The defaults mirror the "Baselines and detectors" fields of
:class:`monitor.config.Settings`; :meth:`DriftConfig.from_settings` copies them over.
Mappings are stored read-only, so a config can be shared between threads and series.

>>> config = DriftConfig(baselines={"quality.overall": 0.8})
>>> config.baselines["quality.overall"], config.degradation_ratio, config.critical_quality
(0.8, 0.85, 0.4)
>>> config.rate_thresholds["safety.leakage.detected"], config.latency_p95_budget_ms["total"]
(0.01, 5000.0)
>>> config.baselines["x"] = 1.0
Traceback (most recent call last):
...
TypeError: 'mappingproxy' object does not support item assignment
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from monitor.config import Settings

__all__ = [
    "DEFAULT_DEGRADATION_METRICS",
    "DEFAULT_LATENCY_P95_BUDGET_MS",
    "DEFAULT_RATE_THRESHOLDS",
    "DriftConfig",
]

DEFAULT_RATE_THRESHOLDS: Mapping[str, float] = MappingProxyType(
    {
        "safety.injection.blocked": 0.05,
        "safety.leakage.detected": 0.01,
        "outcome.no_results": 0.2,
        "outcome.abstained": 0.3,
        "pipeline.dead_letter": 0.01,
    }
)
DEFAULT_LATENCY_P95_BUDGET_MS: Mapping[str, float] = MappingProxyType({"total": 5000.0})
DEFAULT_DEGRADATION_METRICS: tuple[str, ...] = (
    "quality.overall",
    "quality.retrieval_confidence",
    "quality.context_sufficiency",
    "quality.diversity_score",
    "quality.estimated_faithfulness",
    # generation: spec 000's composite reads only the query and the chunks, so an answer
    # that leaves its context shows only here (direction: monitor.drift.direction)
    "grounding.claim_support_rate",  # higher is better
    "grounding.citation_validity_content",  # higher is better
    "grounding.unsupported_answer",  # lower is better
    "outcome.abstained",  # lower is better
)


def _frozen(mapping: Mapping[str, float]) -> Mapping[str, float]:
    return MappingProxyType({str(k): float(v) for k, v in mapping.items()})


@dataclass(frozen=True)
class DriftConfig:
    """Baselines, rule thresholds, detector parameters and the alert cooldown.

    ``min_window_events`` is the least number of events a window needs before spec 000's
    rules (degradation, critical) are evaluated on it; the default of 1 is spec 000's
    behaviour (any non-empty window). ``latency_min_events`` does the same for p95 budgets.
    ``degradation_metrics`` are the metrics the degradation rule watches; each needs a
    trusted (configured or learned) baseline. A metric that is better when higher degrades
    below ``degradation_ratio`` x baseline; one that is better when lower
    (:func:`monitor.drift.direction.higher_is_better`) degrades above baseline /
    ``degradation_ratio`` and at least ``degradation_min_rise`` above its baseline (default
    0.05, so a rate learned near 0 does not page on one event).

    Page-Hinkley's ``threshold`` (and ``delta``) are in the units of the metric: the default
    of 50 suits scores in [0, 1] (a drop of 0.3 is found after about 170 events), while a
    latency in milliseconds needs a much larger one, set in
    ``page_hinkley_threshold_by_metric`` (with the default, a stationary latency with a
    standard deviation of 10 ms raises false alarms).
    """

    baselines: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))
    horizon_ms: int = 86_400_000
    min_events: int = 500
    min_windows: int = 3
    degradation_ratio: float = 0.85
    critical_quality: float = 0.4
    degradation_metrics: tuple[str, ...] = DEFAULT_DEGRADATION_METRICS
    degradation_min_rise: float = 0.05
    min_window_events: int = 1
    rate_thresholds: Mapping[str, float] = field(default_factory=lambda: DEFAULT_RATE_THRESHOLDS)
    rate_min_events: int = 20
    latency_p95_budget_ms: Mapping[str, float] = field(
        default_factory=lambda: DEFAULT_LATENCY_P95_BUDGET_MS
    )
    latency_min_events: int = 20
    changepoint_metrics: tuple[str, ...] = ("quality.overall",)
    adwin_delta: float = 0.002
    page_hinkley_threshold: float = 50.0
    page_hinkley_delta: float = 0.005
    page_hinkley_min_instances: int = 200
    page_hinkley_threshold_by_metric: Mapping[str, float] = field(
        default_factory=lambda: MappingProxyType({})
    )
    cooldown_ms: int = 900_000

    def __post_init__(self) -> None:
        # Copy the mappings so that a caller mutating its dict cannot change a live config.
        object.__setattr__(self, "baselines", _frozen(self.baselines))
        object.__setattr__(self, "rate_thresholds", _frozen(self.rate_thresholds))
        object.__setattr__(self, "latency_p95_budget_ms", _frozen(self.latency_p95_budget_ms))
        object.__setattr__(
            self,
            "page_hinkley_threshold_by_metric",
            _frozen(self.page_hinkley_threshold_by_metric),
        )
        object.__setattr__(self, "degradation_metrics", tuple(self.degradation_metrics))
        object.__setattr__(self, "changepoint_metrics", tuple(self.changepoint_metrics))
        if self.horizon_ms < 1:
            raise ValueError("horizon_ms must be >= 1")
        if not 0.0 < self.degradation_ratio <= 1.0:
            raise ValueError("degradation_ratio must be in (0, 1]")
        if min(self.min_events, self.min_windows, self.min_window_events) < 1:
            raise ValueError("min_events, min_windows and min_window_events must be >= 1")
        if min(self.rate_min_events, self.latency_min_events) < 1:
            raise ValueError("rate_min_events and latency_min_events must be >= 1")
        if self.cooldown_ms < 0:
            raise ValueError("cooldown_ms must be >= 0")
        if self.degradation_min_rise < 0.0:
            raise ValueError("degradation_min_rise must be >= 0")

    @classmethod
    def from_settings(cls, settings: Settings) -> DriftConfig:
        """The drift part of the worker's settings."""
        return cls(
            baselines=settings.baselines,
            horizon_ms=settings.baseline_horizon_ms,
            min_events=settings.baseline_min_events,
            min_windows=settings.baseline_min_windows,
            degradation_ratio=settings.degradation_ratio,
            critical_quality=settings.critical_quality,
            degradation_metrics=tuple(settings.degradation_metrics),
            degradation_min_rise=settings.degradation_min_rise,
            rate_thresholds=settings.rate_thresholds,
            rate_min_events=settings.rate_min_events,
            latency_p95_budget_ms=settings.latency_p95_budget_ms,
            changepoint_metrics=tuple(settings.changepoint_metrics),
            adwin_delta=settings.adwin_delta,
            page_hinkley_threshold=settings.page_hinkley_threshold,
            page_hinkley_delta=settings.page_hinkley_delta,
            page_hinkley_min_instances=settings.page_hinkley_min_instances,
            cooldown_ms=settings.alert_cooldown_ms,
        )
