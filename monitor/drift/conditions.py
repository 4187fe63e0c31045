"""The rules evaluated on a closed window of one series: which conditions are active.

Rules (``Condition.rule``), each naming one ``metric``:

- ``degradation`` (spec 000): window mean < ``degradation_ratio`` x baseline; type
  ``degradation``, severity ``warning``, threshold = baseline x ratio. Evaluated for each
  metric of ``DriftConfig.degradation_metrics`` (``quality.overall`` and its sub-scores, and
  the grounding metrics and abstention) that has a trusted baseline. For a metric that is
  better when lower (``grounding.unsupported_answer``, ``outcome.abstained``) the rule is
  mirrored: window mean > threshold = max(baseline / ratio, baseline +
  ``degradation_min_rise``). For ``quality.overall`` the message is spec 000's "Quality
  score degraded from baseline"; for a sub-score it is "<metric> degraded from baseline".
- ``critical_quality`` (spec 000): ``quality.overall`` window mean < ``critical_quality``;
  type ``threshold``, severity ``critical``, threshold = ``critical_quality``, message
  "Average quality score critically low". Needs no baseline.
- ``rate:<metric>``: the window mean of a 0/1 metric (its rate) > its threshold, evaluated
  only with at least ``rate_min_events`` events; type ``threshold``, severity ``warning``,
  or ``critical`` when the rate is more than twice the threshold. ``threshold`` is the
  bound that was crossed (the configured threshold, or twice it when critical).
- ``latency_p95:<stage>``: ``latency_ms.<stage>`` p95 > its budget (ms), evaluated only
  with at least ``latency_min_events`` events; type ``threshold``, severity ``warning``.
- ``change_point:adwin`` / ``change_point:page_hinkley``: a change for the worse found on
  the per-event stream (:mod:`monitor.drift.changepoint`) during this window; type
  ``anomaly``, severity ``warning``, ``current_value`` the recent level, ``threshold`` the
  level before the change. Evaluated whenever the window has events of a change-point
  metric, so such an alert resolves at the first later window without a new change point.

All comparisons are strict: a value exactly at a threshold does not fire. A window needs at
least ``min_window_events`` events for the spec 000 rules. :func:`evaluate_window` returns
both the active conditions and every ``(rule, metric)`` that was evaluated; a rule that
was not evaluated (no baseline yet, too few events, metric absent) neither fires nor
resolves an alert.

>>> from dataclasses import dataclass
>>> @dataclass
... class S:
...     count: int
...     mean: float | None
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
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from monitor.drift.baseline import BaselineBook
from monitor.drift.changepoint import ChangePoint
from monitor.drift.config import DriftConfig
from monitor.drift.direction import higher_is_better
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

    @property
    def pair(self) -> RulePair:
        return (self.rule, self.metric)


@dataclass(frozen=True)
class WindowEvaluation:
    """The active conditions of one window, and every ``(rule, metric)`` evaluated."""

    conditions: tuple[Condition, ...]
    evaluated: tuple[RulePair, ...]


def _mean(stats: WindowStats | None, min_count: int) -> float | None:
    if stats is None or stats.count < min_count:
        return None
    mean = stats.mean
    if mean is None or mean != mean:  # no value or NaN
        return None
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
) -> WindowEvaluation:
    """Evaluate every rule on the window of ``key`` ending at ``window_end_ms``.

    ``stats`` maps metric ids to that window's aggregates. ``change_points`` are the ones
    the per-event detectors found for this key during the window (others are ignored; of
    several for one detector and metric, the last one counts).
    """
    conditions: list[Condition] = []
    evaluated: list[RulePair] = []

    for metric in config.degradation_metrics:
        mean = _mean(stats.get(metric), config.min_window_events)
        if mean is None:
            continue
        baseline = book.baseline(key, metric, window_end_ms)
        if baseline is None:
            continue
        evaluated.append(("degradation", metric))
        threshold = baseline.value * config.degradation_ratio
        worse = mean < threshold
        if not higher_is_better(metric):
            threshold = max(
                baseline.value / config.degradation_ratio,
                baseline.value + config.degradation_min_rise,
            )
            worse = mean > threshold
        if worse:
            message = (
                DEGRADATION_MESSAGE if metric == QUALITY else f"{metric} degraded from baseline"
            )
            conditions.append(
                Condition(
                    "degradation", "degradation", "warning", metric, key, mean, threshold, message
                )
            )

    mean = _mean(stats.get(QUALITY), config.min_window_events)
    if mean is not None:
        evaluated.append(("critical_quality", QUALITY))
        if mean < config.critical_quality:
            conditions.append(
                Condition(
                    "critical_quality",
                    "threshold",
                    "critical",
                    QUALITY,
                    key,
                    mean,
                    config.critical_quality,
                    CRITICAL_MESSAGE,
                )
            )

    for metric, limit in config.rate_thresholds.items():
        rate = _mean(stats.get(metric), config.rate_min_events)
        if rate is None:
            continue
        rule = f"rate:{metric}"
        evaluated.append((rule, metric))
        if rate > 2.0 * limit:
            conditions.append(
                Condition(
                    rule,
                    "threshold",
                    "critical",
                    metric,
                    key,
                    rate,
                    2.0 * limit,
                    f"Rate of {metric} more than twice its threshold",
                )
            )
        elif rate > limit:
            conditions.append(
                Condition(
                    rule,
                    "threshold",
                    "warning",
                    metric,
                    key,
                    rate,
                    limit,
                    f"Rate of {metric} above its threshold",
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
        if p95 > budget:
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
                )
            )

    latest: dict[RulePair, Condition] = {}
    for point in change_points:
        if point.key == key:
            condition = change_point_condition(point)
            latest[condition.pair] = condition
    for metric in config.changepoint_metrics:
        window = stats.get(metric)
        for detector in ("adwin", "page_hinkley"):
            pair = (f"change_point:{detector}", metric)
            if (window is not None and window.count > 0) or pair in latest:
                evaluated.append(pair)
            if pair in latest:
                conditions.append(latest.pop(pair))
    conditions.extend(latest.values())  # change points of metrics not configured
    evaluated.extend(c.pair for c in latest.values())
    return WindowEvaluation(tuple(conditions), tuple(evaluated))
