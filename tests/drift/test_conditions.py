"""Window rules: spec 000 exactly at its thresholds, the evidence check at its boundary
(few events do not page, many do, a bound exactly at the threshold does not), rates,
latency budgets, what is evaluated and what is clear (hysteresis)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pytest

from monitor.drift.baseline import BaselineBook
from monitor.drift.changepoint import ChangePoint
from monitor.drift.conditions import (
    CRITICAL_MESSAGE,
    DEGRADATION_MESSAGE,
    Condition,
    evaluate_window,
)
from monitor.drift.config import DriftConfig
from monitor.drift.evidence import mean_upper_bound, rate_lower_bound
from monitor.windows.aggregate import Aggregate

KEY = ("treatment", None, None)
Q = "quality.overall"
END = 600_000


@dataclass
class Stats:
    """A WindowStats test double (``stddev`` 0: the bound is the mean itself)."""

    count: int
    mean: float | None
    quantiles: dict[float, float] = field(default_factory=dict)
    stddev: float | None = 0.0

    def quantile(self, q: float) -> float | None:
        return self.quantiles.get(q)


def window_conditions(*args: Any) -> list[Condition]:
    """The active conditions of :func:`evaluate_window`."""
    return list(evaluate_window(*args).conditions)


def rule_keys(*args: Any) -> list[tuple[str, str]]:
    """Every ``(rule, metric)`` :func:`evaluate_window` evaluated."""
    return list(evaluate_window(*args).evaluated)


def _conditions(stats: dict[str, Stats], **config: object) -> list[Condition]:
    cfg = DriftConfig(**config)  # type: ignore[arg-type]
    return window_conditions(KEY, stats, BaselineBook(cfg), cfg, END)


def _rules(conditions: list[Condition]) -> list[tuple[str, str]]:
    return [(c.rule, c.severity) for c in conditions]


BASE = 0.8
AT = BASE * 0.85  # computed as the rule computes it


@pytest.mark.parametrize(
    ("mean", "degraded"),
    [
        (AT, False),
        (math.nextafter(AT, 0.0), True),
        (math.nextafter(AT, 1.0), False),
        (0.5, True),
        (0.9, False),
    ],
)
def test_spec000_degradation_exactly_at_the_threshold(mean: float, degraded: bool) -> None:
    found = _conditions({Q: Stats(100, mean)}, baselines={Q: BASE})
    got = [c for c in found if c.rule == "degradation"]
    assert bool(got) is degraded
    if degraded:
        (c,) = got
        assert (c.type, c.severity, c.message) == ("degradation", "warning", DEGRADATION_MESSAGE)
        assert (c.metric, c.key, c.current_value) == (Q, KEY, mean)
        assert c.threshold == BASE * 0.85


@pytest.mark.parametrize(
    ("mean", "critical"),
    [
        (0.4, False),
        (math.nextafter(0.4, 0.0), True),
        (math.nextafter(0.4, 1.0), False),
        (0.0, True),
    ],
)
def test_spec000_critical_exactly_at_the_threshold(mean: float, critical: bool) -> None:
    found = _conditions({Q: Stats(20, mean)})  # no baseline: critical needs none
    got = [c for c in found if c.rule == "critical_quality"]
    assert bool(got) is critical
    if critical:
        (c,) = got
        assert (c.type, c.severity, c.message) == ("threshold", "critical", CRITICAL_MESSAGE)
        assert (c.metric, c.current_value, c.threshold) == (Q, mean, 0.4)


def test_low_quality_fires_both_like_spec000() -> None:
    found = _conditions({Q: Stats(20, 0.3)}, baselines={Q: 0.8})
    assert _rules(found) == [("degradation", "warning"), ("critical_quality", "critical")]


def test_degradation_needs_a_trusted_baseline_and_is_then_not_evaluated() -> None:
    stats = {Q: Stats(100, 0.1)}
    cfg = DriftConfig()
    book = BaselineBook(cfg)
    assert ("degradation", Q) not in rule_keys(KEY, stats, book, cfg, END)
    assert _rules(window_conditions(KEY, stats, book, cfg, END)) == [
        ("critical_quality", "critical")
    ]


def test_degradation_against_a_learned_baseline() -> None:
    cfg = DriftConfig(min_events=300, min_windows=3)
    book = BaselineBook(cfg)
    for i in range(1, 4):
        book.observe(KEY, Q, window_end_ms=i * 60_000, count=100, mean=0.8)
    stats = {Q: Stats(100, 0.6)}
    (c,) = window_conditions(KEY, stats, book, cfg, 4 * 60_000)
    assert c.rule == "degradation" and c.threshold == pytest.approx(0.68)
    # another series has no baseline
    assert window_conditions(("control", None, None), stats, book, cfg, 4 * 60_000) == []


def test_sub_score_degradation_has_its_own_message() -> None:
    m = "quality.estimated_faithfulness"
    found = _conditions({m: Stats(100, 0.3), Q: Stats(100, 0.7)}, baselines={m: 0.8, Q: 0.75})
    (c,) = found
    assert (c.rule, c.metric, c.type) == ("degradation", m, "degradation")
    assert c.message == f"{m} degraded from baseline"
    assert c.threshold == 0.8 * 0.85


def test_min_window_events_gates_spec000_rules() -> None:
    stats = {Q: Stats(4, 0.1)}
    assert _conditions(stats, min_window_events=5) == []
    assert _rules(_conditions(stats, min_window_events=4)) == [("critical_quality", "critical")]
    # the default: 20 events; one event never pages (it used to fire critical_quality)
    assert DriftConfig().min_window_events == 20
    assert _conditions({Q: Stats(1, 0.0)}) == []
    assert _conditions({Q: Stats(19, 0.0)}) == []
    assert _rules(_conditions({Q: Stats(20, 0.0)})) == [("critical_quality", "critical")]


SD = 0.2  # a typical spread of composite quality scores


@pytest.mark.parametrize(
    ("count", "mean", "fires"),
    [
        (5, 0.39, False),  # below the minimum count
        (20, 0.39, False),  # just below with 20 events: the bound is 0.50
        (20, 0.30, False),  # 0.30 + 2.539 * 0.2 / sqrt(20) = 0.414
        (30, 0.30, True),  # 0.30 + 2.462 * 0.2 / sqrt(30) = 0.390
        (2_000, 0.39, False),  # 0.39 + 2.33 * 0.2 / 44.7 = 0.4004
        (100_000, 0.39, True),  # just below with many events: 0.3915
        (100_000, 0.40, False),  # at the threshold
        (20, 0.0, True),
    ],
)
def test_evidence_for_a_low_mean_at_the_boundary(count: int, mean: float, fires: bool) -> None:
    found = _conditions({Q: Stats(count, mean, stddev=SD)})
    assert [c.rule for c in found] == (["critical_quality"] if fires else [])
    for c in found:  # the alert shows the point estimate, not the bound
        assert (c.current_value, c.threshold) == (mean, 0.4)


@pytest.mark.parametrize(("count", "mean"), [(20, 0.2), (50, 0.35), (10_000, 0.399)])
def test_a_mean_bound_exactly_at_the_threshold_does_not_fire(count: int, mean: float) -> None:
    bound = mean_upper_bound(count, mean, SD, 0.99)
    stats = {Q: Stats(count, mean, stddev=SD)}
    assert _conditions(stats, critical_quality=bound) == []
    assert [c.rule for c in _conditions(stats, critical_quality=math.nextafter(bound, 1.0))] == [
        "critical_quality"
    ]


def test_degradation_needs_evidence_too() -> None:
    # baseline 0.8, threshold 0.68; a window mean of 0.6 over 20 events with the usual
    # spread is noise (bound 0.714), over 60 events it is not (bound 0.662)
    assert _conditions({Q: Stats(20, 0.6, stddev=SD)}, baselines={Q: 0.8}) == []
    [c] = _conditions({Q: Stats(60, 0.6, stddev=SD)}, baselines={Q: 0.8})
    assert (c.rule, c.current_value) == ("degradation", 0.6)
    # a higher confidence needs more events
    assert _conditions({Q: Stats(60, 0.6, stddev=SD)}, baselines={Q: 0.8}, confidence=0.9999) == []


def test_empty_window_or_missing_mean_is_not_evaluated() -> None:
    cfg = DriftConfig(baselines={Q: 0.8})
    book = BaselineBook(cfg)
    for stats in ({Q: Stats(0, None)}, {Q: Stats(3, None)}, {Q: Stats(3, math.nan)}, {}):
        result = evaluate_window(KEY, stats, book, cfg, END)
        assert result.conditions == ()
        assert [p for p in result.evaluated if not p[0].startswith("change_point")] == []


LEAK = "safety.leakage.detected"  # default threshold 0.01


@pytest.mark.parametrize(
    ("count", "rate", "expected"),
    [
        (100, 0.01, []),  # at the threshold
        (100, 0.011, []),  # just above, 1 in 100: no evidence (it used to page)
        (100, 0.02, []),  # exact lower bound 0.0015
        (100, 0.05, [("rate:safety.leakage.detected", "warning")]),  # bound 0.0130
        (1_000, 0.03, [("rate:safety.leakage.detected", "warning")]),  # bound 0.0188 < 2x
        (1_000, 0.05, [("rate:safety.leakage.detected", "critical")]),  # bound 0.035
        (100_000, 0.011, [("rate:safety.leakage.detected", "warning")]),  # many events
        (19, 0.5, []),  # below rate_min_events
        (20, 0.5, [("rate:safety.leakage.detected", "critical")]),
    ],
)
def test_rate_thresholds(count: int, rate: float, expected: list[tuple[str, str]]) -> None:
    found = _conditions({LEAK: Stats(count, rate)})
    assert _rules(found) == expected
    for c in found:
        assert c.type == "threshold" and c.metric == LEAK and c.current_value == rate
        assert c.threshold == (0.02 if c.severity == "critical" else 0.01)


@pytest.mark.parametrize(("count", "rate"), [(20, 0.5), (100, 0.05), (10_000, 0.0101)])
def test_a_rate_bound_exactly_at_the_threshold_does_not_fire(count: int, rate: float) -> None:
    bound = rate_lower_bound(count, rate, 0.99)
    stats = {LEAK: Stats(count, rate)}
    assert _conditions(stats, rate_thresholds={LEAK: bound}) == []
    below = math.nextafter(bound, 0.0)
    assert _rules(_conditions(stats, rate_thresholds={LEAK: below})) == [
        (f"rate:{LEAK}", "warning")
    ]


def test_rate_rule_evaluated_only_with_enough_events() -> None:
    cfg = DriftConfig()
    book = BaselineBook(cfg)
    few = rule_keys(KEY, {LEAK: Stats(19, 0.0)}, book, cfg, END)
    enough = rule_keys(KEY, {LEAK: Stats(20, 0.0)}, book, cfg, END)
    assert (f"rate:{LEAK}", LEAK) not in few
    assert (f"rate:{LEAK}", LEAK) in enough


def test_every_configured_rate() -> None:
    stats = {m: Stats(100, 0.9) for m in DriftConfig().rate_thresholds}
    found = _conditions(stats)
    assert sorted(c.metric for c in found) == sorted(stats)
    assert {c.severity for c in found} == {"critical"}


LAT = "latency_ms.total"


def _latencies(fast: int, slow: int) -> Aggregate:
    return Aggregate.of([100.0] * fast + [9_000.0] * slow)


@pytest.mark.parametrize(
    ("stats", "fires"),
    [
        (_latencies(90, 10), False),  # p95 9000 ms, but 10 of 100 could be a fluke
        (_latencies(80, 20), True),  # the lower bound of the p95 (the 89th value) is slow
        (_latencies(100, 0), False),
        (_latencies(0, 19), False),  # below latency_min_events
        (_latencies(0, 20), True),
    ],
)
def test_latency_p95_budget(stats: Aggregate, fires: bool) -> None:
    found = _conditions({LAT: stats})
    assert bool(found) is fires
    if fires:
        (c,) = found
        assert (c.rule, c.type, c.severity) == ("latency_p95:total", "threshold", "warning")
        assert (c.metric, c.current_value, c.threshold) == (LAT, stats.quantile(0.95), 5000.0)
        assert c.current_value == pytest.approx(9_000.0, rel=0.02)


def test_latency_budget_per_stage_and_missing_quantile() -> None:
    cfg = {"latency_p95_budget_ms": {"retrieve": 100.0, "total": 5000.0}}
    stats = {
        "latency_ms.retrieve": Aggregate.of([150.0] * 50),
        LAT: Stats(50, 90.0),  # no quantile available: not evaluated
    }
    found = _conditions(stats, **cfg)
    assert [c.rule for c in found] == ["latency_p95:retrieve"]
    c2 = DriftConfig(**cfg)  # type: ignore[arg-type]
    keys = rule_keys(KEY, stats, BaselineBook(c2), c2, END)
    assert ("latency_p95:total", LAT) not in keys


def test_change_points_become_anomalies_and_are_evaluated_with_events() -> None:
    cfg = DriftConfig()
    book = BaselineBook(cfg)
    point = ChangePoint(Q, KEY, "adwin", END - 1, 0.5, 0.8, "down")
    other = ChangePoint(Q, ("control", None, None), "page_hinkley", END - 1, 0.5, 0.8, "down")
    result = evaluate_window(KEY, {Q: Stats(30, 0.6)}, book, cfg, END, [point, other])
    (c,) = result.conditions
    assert (c.rule, c.type, c.severity, c.metric) == ("change_point:adwin", "anomaly", "warning", Q)
    assert (c.current_value, c.threshold) == (0.5, 0.8)
    assert ("change_point:page_hinkley", Q) in result.evaluated
    # no events of the metric in the window: the detectors were not evaluated
    assert evaluate_window(KEY, {}, book, cfg, END).evaluated == ()


def test_active_conditions_are_always_evaluated() -> None:
    cfg = DriftConfig(baselines={Q: 0.9})
    book = BaselineBook(cfg)
    stats = {Q: Stats(100, 0.2), LEAK: Stats(100, 0.5), LAT: Aggregate.of([1e4] * 100)}
    result = evaluate_window(KEY, stats, book, cfg, END)
    assert {c.pair for c in result.conditions} <= set(result.evaluated)
    assert len(result.conditions) == 4
    assert not {c.pair for c in result.conditions} & set(result.cleared)


@pytest.mark.parametrize(
    ("stats", "pair", "clear"),
    [
        # critical_quality: clear above 0.4 x 1.1 = 0.44
        ({Q: Stats(100, 0.43)}, ("critical_quality", Q), False),
        ({Q: Stats(100, 0.45)}, ("critical_quality", Q), True),
        # degradation against 0.8: threshold 0.68, clear above 0.748
        ({Q: Stats(100, 0.74)}, ("degradation", Q), False),
        ({Q: Stats(100, 0.75)}, ("degradation", Q), True),
        # leakage rate 0.01: clear below 0.009
        ({LEAK: Stats(100, 0.0095)}, (f"rate:{LEAK}", LEAK), False),
        ({LEAK: Stats(100, 0.0)}, (f"rate:{LEAK}", LEAK), True),
        # p95 budget 5000 ms: clear below 4500 ms
        ({LAT: Aggregate.of([4_800.0] * 100)}, ("latency_p95:total", LAT), False),
        ({LAT: Aggregate.of([100.0] * 100)}, ("latency_p95:total", LAT), True),
    ],
)
def test_clear_needs_the_resolve_margin(stats: dict[str, Any], pair: Any, clear: bool) -> None:
    cfg = DriftConfig(baselines={Q: 0.8})
    result = evaluate_window(KEY, stats, BaselineBook(cfg), cfg, END)
    assert pair in result.evaluated
    assert (pair in result.cleared) is clear
    assert pair not in {c.pair for c in result.conditions}  # in between: neither


def test_span_start_is_copied_into_the_conditions() -> None:
    cfg = DriftConfig()
    book = BaselineBook(cfg)
    result = evaluate_window(KEY, {Q: Stats(30, 0.1)}, book, cfg, END, (), {Q: END - 300_000})
    [c] = result.conditions
    assert c.span_start_ms == END - 300_000
