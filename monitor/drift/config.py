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
    # the pipeline: a latency regression well inside the absolute p95 budget (generation
    # three times slower, still under 5 s) is a drop from the learned baseline
    "latency_ms.total",  # lower is better
)


def _frozen(mapping: Mapping[str, float]) -> Mapping[str, float]:
    return MappingProxyType({str(k): float(v) for k, v in mapping.items()})


@dataclass(frozen=True)
class DriftConfig:
    """Baselines, rule thresholds, detector parameters and the alert cooldown.

    Evidence before a page (:mod:`monitor.drift.evidence`, :mod:`monitor.drift.span`):

    - ``min_window_events`` (default 20) is the least number of events spec 000's rules
      (degradation, critical) are evaluated on; ``rate_min_events`` and
      ``latency_min_events`` (20 each) do the same for rates and p95 budgets. A series
      whose window holds fewer is evaluated on the shortest run of its trailing windows
      that holds enough, spanning at most ``max_span_windows`` tumbling windows (30);
      with fewer events even then, the rule is not evaluated.
    - ``confidence`` (0.99, one-sided) is how sure a rule must be: a mean fires only when
      its upper confidence bound is below the threshold, a rate only when its exact
      (Clopper-Pearson) lower bound is above it, a p95 only when its lower
      (order-statistic) bound is above it.

    Hysteresis and resolve (:mod:`monitor.alerts.rules.alert_book`):

    - ``resolve_margin`` (0.1, a fraction of the threshold) and ``resolve_windows`` (3):
      a firing alert resolves only when the value (the point estimate) is back past its
      threshold by this margin (a mean above ``threshold * (1 + margin)``, a rate or p95
      below ``threshold * (1 - margin)``) in ``resolve_windows`` consecutive windows that
      evaluate the rule. Otherwise it stays firing, silently.
    - ``quiet_resolve_windows`` (5): a firing alert whose series had no events of the
      rule's metric for this many tumbling windows resolves with reason ``quiet``; so does
      one whose series had events but too few to evaluate the rule for
      ``max(quiet_resolve_windows, 2 * max_span_windows)`` windows; 0 turns both off.

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
    min_window_events: int = 20
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
    confidence: float = 0.99
    max_span_windows: int = 30
    resolve_margin: float = 0.1
    resolve_windows: int = 3
    quiet_resolve_windows: int = 5

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
        if not 0.5 <= self.confidence < 1.0:
            raise ValueError("confidence must be in [0.5, 1)")
        if self.max_span_windows < 1:
            raise ValueError("max_span_windows must be >= 1")
        if not 0.0 <= self.resolve_margin < 1.0:
            raise ValueError("resolve_margin must be in [0, 1)")
        if self.resolve_windows < 1:
            raise ValueError("resolve_windows must be >= 1")
        if self.quiet_resolve_windows < 0:
            raise ValueError("quiet_resolve_windows must be >= 0")

    def min_count(self, metric: str) -> int:
        """The least number of events a rule on ``metric`` is evaluated on (the largest
        minimum of the rules that read it; 1 for a metric no rule reads).

        >>> config = DriftConfig(min_window_events=30)
        >>> config.min_count("quality.overall"), config.min_count("safety.leakage.detected")
        (30, 20)
        """
        found = 1
        if metric in self.degradation_metrics or metric == "quality.overall":
            found = max(found, self.min_window_events)
        if metric in self.rate_thresholds:
            found = max(found, self.rate_min_events)
        if metric.startswith("latency_ms.") and metric[11:] in self.latency_p95_budget_ms:
            found = max(found, self.latency_min_events)
        return found

    def span_metrics(self) -> tuple[str, ...]:
        """Every metric a window rule reads (the ones :mod:`monitor.drift.span` keeps)."""
        names = [*self.degradation_metrics, "quality.overall", *self.rate_thresholds]
        names += [f"latency_ms.{stage}" for stage in self.latency_p95_budget_ms]
        return tuple(dict.fromkeys(names))

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
            min_window_events=settings.min_window_events,
            latency_min_events=settings.latency_min_events,
            latency_p95_budget_ms=settings.latency_p95_budget_ms,
            changepoint_metrics=tuple(settings.changepoint_metrics),
            adwin_delta=settings.adwin_delta,
            page_hinkley_threshold=settings.page_hinkley_threshold,
            page_hinkley_delta=settings.page_hinkley_delta,
            page_hinkley_min_instances=settings.page_hinkley_min_instances,
            cooldown_ms=settings.alert_cooldown_ms,
            confidence=settings.alert_confidence,
            max_span_windows=settings.alert_max_span_windows,
            resolve_margin=settings.alert_resolve_margin,
            resolve_windows=settings.alert_resolve_windows,
            quiet_resolve_windows=settings.alert_quiet_resolve_windows,
        )
