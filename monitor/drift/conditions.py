"""The rules evaluated on a closed window of one series: which conditions are active,
and which are clear.

Each rule reads one metric's aggregate over the series' span
(:mod:`monitor.drift.span`: the window itself, or for a low-traffic series the shortest run
of trailing windows holding the rule's minimum count), and fires only with statistical
evidence (:mod:`monitor.drift.evidence`, one-sided at ``DriftConfig.confidence``):

- ``degradation`` (spec 000): window mean < ``degradation_ratio`` x baseline; type
  ``degradation``, severity ``warning``, threshold T = baseline x ratio. Fires when the
  mean's upper confidence bound ``mean + t(confidence, n - 1) * stddev / sqrt(n)`` < T.
  Evaluated for each metric of ``DriftConfig.degradation_metrics`` (``quality.overall``
  and its sub-scores, the grounding metrics and abstention) that has a trusted baseline
  and at least ``min_window_events`` events. For a metric that is better when lower
  (``grounding.unsupported_answer``, ``outcome.abstained``) the rule is mirrored:
  T = max(baseline / ratio, baseline + ``degradation_min_rise``), and it fires when the
  mean's lower bound > T. For ``quality.overall`` the message is spec 000's "Quality
  score degraded from baseline"; for a sub-score it is "<metric> degraded from baseline".
- ``critical_quality`` (spec 000): ``quality.overall`` mean < ``critical_quality``; type
  ``threshold``, severity ``critical``, message "Average quality score critically low".
  Fires when the upper bound < ``critical_quality``. Needs no baseline.
- ``rate:<metric>``: the rate (mean of a 0/1 metric) > its threshold T, with at least
  ``rate_min_events`` events; fires when its exact (Clopper-Pearson) lower bound > T:
  severity ``warning``,
  or ``critical`` when the bound > 2 T (``threshold`` is then 2 T).
- ``latency_p95:<stage>``: ``latency_ms.<stage>`` p95 > its budget (ms), with at least
  ``latency_min_events`` events; fires when a distribution-free lower bound of the p95
  (an order statistic) > the budget; ``current_value`` is the p95 estimate.
- ``change_point:adwin`` / ``change_point:page_hinkley``: a change for the worse found on
  the per-event stream (:mod:`monitor.drift.changepoint`) during this window; type
  ``anomaly``, severity ``warning``, ``current_value`` the recent level, ``threshold`` the
  level before the change. Evaluated whenever the window has events of a change-point
  metric; clear whenever evaluated without a new change point.

``current_value`` is always the point estimate (the span mean, rate or p95). All
comparisons are strict: a bound exactly at a threshold does not fire.

**Clear** (the resolving condition, hysteresis): an evaluated rule is clear when the point
estimate is back past the threshold by ``resolve_margin`` (a fraction of the threshold):
a mean > T x (1 + margin), a rate or p95 < T x (1 - margin). A rule that is neither active
nor clear leaves a firing alert firing (and a quiet one quiet), so a value hovering at the
threshold does not flap. :func:`evaluate_window` returns the active conditions, every
``(rule, metric)`` evaluated and the clear ones; a rule not evaluated (no baseline yet,
too few events, metric absent) neither fires nor resolves an alert. ``observed`` lists
the rules whose metric had events at all (evaluated or not), for the quiet-series rule.

>>> from dataclasses import dataclass
>>> @dataclass
... class S:
...     count: int
...     mean: float | None
...     stddev: float | None = 0.1
...     def quantile(self, q: float) -> float | None:
...         return None
>>> config = DriftConfig(baselines={"quality.overall": 0.8})
>>> book = BaselineBook(config)
>>> result = evaluate_window((None, None, None), {"quality.overall": S(50, 0.3)}, book,
...                          config, window_end_ms=60_000)
>>> [(c.rule, c.type, c.severity, round(c.threshold, 2)) for c in result.conditions]
[('degradation', 'degradation', 'warning', 0.68), ('critical_quality', 'threshold', 'critical', 0.4)]
>>> [rule for rule, metric in result.evaluated]
['degradation', 'critical_quality', 'change_point:adwin', 'change_point:page_hinkley']
>>> few = evaluate_window((None, None, None), {"quality.overall": S(5, 0.3)}, book, config,
...                       window_end_ms=60_000)  # 5 events < min_window_events: no page
>>> few.conditions, [rule for rule, metric in few.cleared]
((), ['change_point:adwin', 'change_point:page_hinkley'])
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from monitor.drift.baseline import BaselineBook
from monitor.drift.changepoint import ChangePoint
from monitor.drift.config import DriftConfig
from monitor.drift.direction import higher_is_better
from monitor.drift.evidence import (
    mean_lower_bound,
    mean_upper_bound,
    quantile_lower_level,
    rate_lower_bound,
)
from monitor.drift.stats import SeriesKey, WindowStats

__all__ = [
    "CRITICAL_MESSAGE",
    "DEGRADATION_MESSAGE",
    "QUALITY",
    "Condition",
    "ConditionType",
    "RulePair",
    "Severity",
    "WindowEvaluation",
    "change_point_condition",
    "evaluate_window",
]

ConditionType = Literal["degradation", "anomaly", "threshold"]
Severity = Literal["warning", "critical"]
RulePair = tuple[str, str]
"""``(rule, metric)``."""

QUALITY = "quality.overall"
DEGRADATION_MESSAGE = "Quality score degraded from baseline"
CRITICAL_MESSAGE = "Average quality score critically low"


@dataclass(frozen=True)
class Condition:
    """One active rule on one metric of one series: what an alert is made of."""

    rule: str
    type: ConditionType
    severity: Severity
    metric: str
    key: SeriesKey
    current_value: float
    threshold: float
    message: str
    span_start_ms: int | None = None  # start of the span evaluated, when not the window

    @property
    def pair(self) -> RulePair:
        return (self.rule, self.metric)


@dataclass(frozen=True)
class WindowEvaluation:
    """The active conditions of one window, every ``(rule, metric)`` evaluated, the
    evaluated ones whose resolving condition holds (``cleared``), and every rule whose
    metric had events in the window, evaluated or not (``observed``: the series is not
    quiet for that rule)."""

    conditions: tuple[Condition, ...]
    evaluated: tuple[RulePair, ...]
    cleared: tuple[RulePair, ...] = ()
    observed: tuple[RulePair, ...] = ()


def _enough(stats: WindowStats | None, min_count: int) -> WindowStats | None:
    """``stats`` when it holds at least ``min_count`` events and a mean (not NaN)."""
    if stats is None or stats.count < min_count:
        return None
    mean = stats.mean
    if mean is None or mean != mean:  # no value or NaN
        return None
    return stats


def _value(stats: WindowStats) -> float:
    mean = stats.mean
    assert mean is not None
    return mean


def change_point_condition(point: ChangePoint) -> Condition:
    """The ``anomaly`` condition of one change point."""
    verb = "dropped" if point.direction == "down" else "rose"
    return Condition(
        rule=f"change_point:{point.detector}",
        type="anomaly",
        severity="warning",
        metric=point.metric,
        key=point.key,
        current_value=point.value,
        threshold=point.reference,
        message=f"Change point: {point.metric} {verb}",
    )


def evaluate_window(
    key: SeriesKey,
    stats: Mapping[str, WindowStats],
    book: BaselineBook,
    config: DriftConfig,
    window_end_ms: int,
    change_points: Iterable[ChangePoint] = (),
    span_start_ms: Mapping[str, int] | None = None,
) -> WindowEvaluation:
    """Evaluate every rule on the window of ``key`` ending at ``window_end_ms``.

    ``stats`` maps metric ids to the aggregates to evaluate (the window's, or its span's:
    then ``span_start_ms`` maps the metric to the span's start, copied into the
    conditions). ``change_points`` are the ones the per-event detectors found for this key
    during the window (others are ignored; of several for one detector and metric, the
    last one counts).
    """
    conditions: list[Condition] = []
    evaluated: list[RulePair] = []
    cleared: list[RulePair] = []
    starts = span_start_ms or {}
    confidence, margin = config.confidence, config.resolve_margin

    def below(rule: str, metric: str, window: WindowStats, threshold: float) -> bool:
        """Evaluate a "lower is bad" mean rule: True when it fires."""
        mean = window.mean
        assert mean is not None
        evaluated.append((rule, metric))
        if mean > threshold * (1.0 + margin):
            cleared.append((rule, metric))
        bound = mean_upper_bound(window.count, mean, window.stddev, confidence)
        return bound < threshold

    def above(rule: str, metric: str, window: WindowStats, threshold: float) -> bool:
        """Evaluate a "higher is bad" mean rule (a lower-is-better metric): True when it
        fires, on the mean's lower confidence bound."""
        mean = window.mean
        assert mean is not None
        evaluated.append((rule, metric))
        if mean < threshold * (1.0 - margin):
            cleared.append((rule, metric))
        bound = mean_lower_bound(window.count, mean, window.stddev, confidence)
        return bound > threshold

    for metric in config.degradation_metrics:
        window = _enough(stats.get(metric), config.min_window_events)
        if window is None:
            continue
        baseline = book.baseline(key, metric, window_end_ms)
        if baseline is None:
            continue
        threshold = baseline.value * config.degradation_ratio
        if higher_is_better(metric):
            worse = below("degradation", metric, window, threshold)
        else:
            threshold = max(
                baseline.value / config.degradation_ratio,
                baseline.value + config.degradation_min_rise,
            )
            worse = above("degradation", metric, window, threshold)
        if worse:
            message = (
                DEGRADATION_MESSAGE if metric == QUALITY else f"{metric} degraded from baseline"
            )
            conditions.append(
                Condition(
                    "degradation",
                    "degradation",
                    "warning",
                    metric,
                    key,
                    _value(window),
                    threshold,
                    message,
                    starts.get(metric),
                )
            )

    window = _enough(stats.get(QUALITY), config.min_window_events)
    if window is not None and below("critical_quality", QUALITY, window, config.critical_quality):
        conditions.append(
            Condition(
                "critical_quality",
                "threshold",
                "critical",
                QUALITY,
                key,
                _value(window),
                config.critical_quality,
                CRITICAL_MESSAGE,
                starts.get(QUALITY),
            )
        )

    for metric, limit in config.rate_thresholds.items():
        window = _enough(stats.get(metric), config.rate_min_events)
        if window is None:
            continue
        rate = _value(window)
        rule = f"rate:{metric}"
        evaluated.append((rule, metric))
        if rate < limit * (1.0 - margin):
            cleared.append((rule, metric))
        bound = rate_lower_bound(window.count, rate, confidence)
        if bound > 2.0 * limit:
            severity: Severity = "critical"
            threshold, message = 2.0 * limit, f"Rate of {metric} more than twice its threshold"
        elif bound > limit:
            severity, threshold, message = "warning", limit, f"Rate of {metric} above its threshold"
        else:
            continue
        conditions.append(
            Condition(
                rule,
                "threshold",
                severity,
                metric,
                key,
                rate,
                threshold,
                message,
                starts.get(metric),
            )
        )

    for stage, budget in config.latency_p95_budget_ms.items():
        metric = f"latency_ms.{stage}"
        window = stats.get(metric)
        if window is None or window.count < config.latency_min_events:
            continue
        p95 = window.quantile(0.95)
        if p95 is None or p95 != p95:
            continue
        rule = f"latency_p95:{stage}"
        evaluated.append((rule, metric))
        if p95 < budget * (1.0 - margin):
            cleared.append((rule, metric))
        level = quantile_lower_level(window.count, 0.95, confidence)
        low = None if level is None else window.quantile(level)
        if low is not None and low > budget:
            conditions.append(
                Condition(
                    rule,
                    "threshold",
                    "warning",
                    metric,
                    key,
                    p95,
                    budget,
                    f"p95 latency of stage {stage} over budget",
                    starts.get(metric),
                )
            )

    latest: dict[RulePair, Condition] = {}
    for point in change_points:
        if point.key == key:
            condition = change_point_condition(point)
            latest[condition.pair] = condition
    for metric in config.changepoint_metrics:
        stat = stats.get(metric)
        for detector in ("adwin", "page_hinkley"):
            pair = (f"change_point:{detector}", metric)
            if (stat is not None and stat.count > 0) or pair in latest:
                evaluated.append(pair)
            if pair in latest:
                conditions.append(latest.pop(pair))
            elif stat is not None and stat.count > 0:
                cleared.append(pair)
    conditions.extend(latest.values())  # change points of metrics not configured
    evaluated.extend(c.pair for c in latest.values())

    def has_events(metric: str) -> bool:
        found = stats.get(metric)
        return found is not None and found.count > 0

    observed = [("degradation", m) for m in config.degradation_metrics if has_events(m)]
    observed += [("critical_quality", QUALITY)] if has_events(QUALITY) else []
    observed += [(f"rate:{m}", m) for m in config.rate_thresholds if has_events(m)]
    observed += [
        (f"latency_p95:{stage}", f"latency_ms.{stage}")
        for stage in config.latency_p95_budget_ms
        if has_events(f"latency_ms.{stage}")
    ]
    observed += [pair for pair in evaluated if pair not in observed]
    return WindowEvaluation(
        tuple(conditions), tuple(evaluated), tuple(cleared), tuple(dict.fromkeys(observed))
    )
