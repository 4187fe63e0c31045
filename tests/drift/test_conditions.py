"""Window rules: spec 000 exactly at its thresholds, rates, latency budgets, what is evaluated."""

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

KEY = ("treatment", None, None)
Q = "quality.overall"
END = 600_000


@dataclass
class Stats:
    """A WindowStats test double."""

    count: int
    mean: float | None
    quantiles: dict[float, float] = field(default_factory=dict)

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
    found = _conditions({Q: Stats(1, mean)})  # no baseline: critical needs none
    got = [c for c in found if c.rule == "critical_quality"]
    assert bool(got) is critical
    if critical:
        (c,) = got
        assert (c.type, c.severity, c.message) == ("threshold", "critical", CRITICAL_MESSAGE)
        assert (c.metric, c.current_value, c.threshold) == (Q, mean, 0.4)


def test_low_quality_fires_both_like_spec000() -> None:
    found = _conditions({Q: Stats(10, 0.3)}, baselines={Q: 0.8})
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
        (100, 0.011, [("rate:safety.leakage.detected", "warning")]),
        (100, 0.02, [("rate:safety.leakage.detected", "warning")]),  # exactly 2x: warning
        (100, 0.03, [("rate:safety.leakage.detected", "critical")]),
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


@pytest.mark.parametrize(
    ("count", "p95", "fires"),
    [(100, 5000.0, False), (100, 5000.5, True), (100, 100.0, False), (19, 9e9, False)],
)
def test_latency_p95_budget(count: int, p95: float, fires: bool) -> None:
    found = _conditions({LAT: Stats(count, 10.0, {0.95: p95})})
    assert bool(found) is fires
    if fires:
        (c,) = found
        assert (c.rule, c.type, c.severity) == ("latency_p95:total", "threshold", "warning")
        assert (c.metric, c.current_value, c.threshold) == (LAT, p95, 5000.0)


def test_latency_budget_per_stage_and_missing_quantile() -> None:
    cfg = {"latency_p95_budget_ms": {"retrieve": 100.0, "total": 5000.0}}
    stats = {
        "latency_ms.retrieve": Stats(50, 90.0, {0.95: 150.0}),
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
    stats = {Q: Stats(100, 0.2), LEAK: Stats(100, 0.5), LAT: Stats(100, 1.0, {0.95: 1e4})}
    result = evaluate_window(KEY, stats, book, cfg, END)
    assert {c.pair for c in result.conditions} <= set(result.evaluated)
    assert len(result.conditions) == 4
