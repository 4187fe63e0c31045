"""The mixture SPRT: its formulas, the running minimum and intersection, skipped looks,
and the JSON state."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from monitor.ab.msprt import SequentialTest, mixture_log_ratio, mixture_radius
from monitor.ab.summary import Moments
from monitor.windows.aggregate import Aggregate


def _reference(
    n_c: int, m_c: float, v_c: float, n_t: int, m_t: float, v_t: float, tau2: float, alpha: float
) -> tuple[float, float, float]:
    """1/Λ and the per-look interval, written out from Johari et al. directly."""
    variance = v_c / n_c + v_t / n_t
    mixing = tau2 * ((n_c - 1) * v_c + (n_t - 1) * v_t) / (n_c + n_t - 2)
    theta = m_t - m_c
    # Λ = sqrt(V / (V + τ²)) exp(τ² θ² / (2 V (V + τ²))), in logs (it overflows)
    log_ratio = 0.5 * math.log(variance / (variance + mixing)) + mixing * theta**2 / (
        2 * variance * (variance + mixing)
    )
    # the interval: solve 1/Λ(θ0) = α for θ0
    radius_sq = (
        2
        * variance
        * (variance + mixing)
        / mixing
        * (math.log(1 / alpha) - 0.5 * math.log(variance / (variance + mixing)))
    )
    return (
        min(1.0, math.exp(-log_ratio)),
        theta - math.sqrt(radius_sq),
        theta + math.sqrt(radius_sq),
    )


def test_one_look_matches_the_formulas() -> None:
    rng = np.random.default_rng(41)
    for _ in range(200):
        n_c, n_t = (int(v) for v in rng.integers(10, 5000, 2))
        m_c, m_t = float(rng.normal(0.7, 0.05)), float(rng.normal(0.7, 0.05))
        v_c, v_t = (float(v) for v in rng.uniform(0.001, 0.1, 2))
        tau2, alpha = float(rng.uniform(0.01, 2.0)), float(rng.choice([0.01, 0.05, 0.1]))
        test = SequentialTest("mean", tau2, alpha)
        result = test.update(Moments(n_c, m_c, v_c), Moments(n_t, m_t, v_t))
        p, low, high = _reference(n_c, m_c, v_c, n_t, m_t, v_t, tau2, alpha)
        assert result.p_value == pytest.approx(p, rel=1e-9)
        assert result.cs_low == pytest.approx(low, rel=1e-9)
        assert result.cs_high == pytest.approx(high, rel=1e-9)
        # the interval's ends are exactly where 1/Λ(θ0) = α
        assert result.cs_low is not None and result.cs_high is not None
        variance = v_c / n_c + v_t / n_t
        mixing = tau2 * ((n_c - 1) * v_c + (n_t - 1) * v_t) / (n_c + n_t - 2)
        for end in (result.cs_low, result.cs_high):
            log_ratio = mixture_log_ratio(m_t - m_c - end, variance, mixing)
            assert math.exp(-log_ratio) == pytest.approx(alpha, rel=1e-9)
        assert mixture_radius(variance, mixing, alpha) == pytest.approx((high - low) / 2)


def test_running_minimum_and_intersection() -> None:
    rng = np.random.default_rng(42)
    for _ in range(50):
        test = SequentialTest("mean", 0.1, 0.05)
        control, treatment = Aggregate(), Aggregate()
        p_min, low, high = 1.0, -math.inf, math.inf
        effect = float(rng.choice([0.0, 0.02, 0.05]))
        for _ in range(15):
            control.merge_in(Aggregate.from_array(rng.normal(0.7, 0.15, 40)))
            treatment.merge_in(Aggregate.from_array(rng.normal(0.7 + effect, 0.15, 40)))
            previous = (test.p_value, test.cs_low, test.cs_high)
            result = test.update(control, treatment)
            assert control.variance is not None and treatment.variance is not None
            p, look_low, look_high = _reference(
                control.count,
                control.mean or 0.0,
                control.variance,
                treatment.count,
                treatment.mean or 0.0,
                treatment.variance,
                0.1,
                0.05,
            )
            p_min, low, high = min(p_min, p), max(low, look_low), min(high, look_high)
            assert result.p_value == pytest.approx(p_min, rel=1e-12)
            if low <= high:
                assert (result.cs_low, result.cs_high) == pytest.approx((low, high), rel=1e-12)
            # monotone: the p-value never rises, the sequence never widens
            if previous[0] is not None:
                assert result.p_value <= previous[0]
                assert result.cs_low >= previous[1] and result.cs_high <= previous[2]
            # p < alpha exactly when 0 has left the confidence sequence
            assert (result.p_value < 0.05) == (not result.cs_low <= 0.0 <= result.cs_high)
        assert test.looks == 15


def test_skipped_looks_change_nothing() -> None:
    test = SequentialTest()
    assert test.update(Moments(9, 0.7, 0.02), Moments(50, 0.8, 0.02)).p_value is None
    assert test.update(Moments(50, 0.7, 0.0), Moments(50, 0.7, 0.0)).p_value is None  # V = 0
    assert test.update(Moments(50, None, None), Moments(50, 0.7, 0.02)).p_value is None
    assert test.looks == 0
    first = test.update(Moments(50, 0.7, 0.02), Moments(50, 0.75, 0.02))
    assert test.looks == 1
    assert test.update(Moments(50, 0.7, 0.0), Moments(50, 0.7, 0.0)) == first
    assert test.looks == 1


def test_disjoint_intervals_mark_the_sequence_emptied() -> None:
    test = SequentialTest("mean", 0.1, 0.05)
    first = test.update(Moments(1000, 0.70, 0.0225), Moments(1000, 0.70, 0.0225), 60_000)
    assert first.cs_high is not None and not first.emptied
    far = test.update(Moments(100_000, 0.70, 0.0225), Moments(100_000, 0.80, 0.0225), 120_000)
    assert far.emptied and (test.emptied_look, test.emptied_ms) == (2, 120_000)
    assert (far.cs_low, far.cs_high) == (first.cs_low, first.cs_high)  # kept as it was
    assert far.p_value is not None and far.p_value < 0.05
    later = test.update(Moments(200_000, 0.70, 0.0225), Moments(200_000, 0.70, 0.0225), 180_000)
    assert later.emptied and test.emptied_look == 2
    assert SequentialTest.from_dict(test.to_dict()) == test


def test_proportions_use_the_bernoulli_variance() -> None:
    n_c, p_c, n_t, p_t = 2000, 0.10, 2000, 0.13
    # the aggregate's sample variance is n/(n-1) p(1-p): the test uses p(1-p)
    control = Moments(n_c, p_c, p_c * (1 - p_c) * n_c / (n_c - 1))
    treatment = Moments(n_t, p_t, p_t * (1 - p_t) * n_t / (n_t - 1))
    result = SequentialTest("proportion", 0.01, 0.05).update(control, treatment)
    variance = p_c * (1 - p_c) / n_c + p_t * (1 - p_t) / n_t
    pooled = (n_c * p_c + n_t * p_t) / (n_c + n_t)
    mixing = 0.01 * pooled * (1 - pooled)
    expected = math.exp(-mixture_log_ratio(p_t - p_c, variance, mixing))
    assert result.p_value == pytest.approx(min(1.0, expected), rel=1e-12)
    # no events of either kind on one side is still a usable look; none at all is not
    assert (
        SequentialTest("proportion")
        .update(Moments(100, 0.0, 0.0), Moments(100, 0.05, 0.05))
        .p_value
        is not None
    )
    assert (
        SequentialTest("proportion").update(Moments(100, 0.0, 0.0), Moments(100, 0.0, 0.0)).p_value
        is None
    )


def test_json_round_trip_and_validation() -> None:
    test = SequentialTest("proportion", 0.02, 0.1, min_samples=20)
    assert SequentialTest.from_dict(json.loads(json.dumps(test.to_dict()))) == test
    test.update(Moments(500, 0.10, 0.09), Moments(500, 0.14, 0.12))
    restored = SequentialTest.from_dict(json.loads(json.dumps(test.to_dict())))
    assert restored == test
    # restored tests carry on identically
    a = test.update(Moments(900, 0.10, 0.09), Moments(900, 0.15, 0.13))
    b = restored.update(Moments(900, 0.10, 0.09), Moments(900, 0.15, 0.13))
    assert a == b
    for bad in ({}, {**test.to_dict(), "kind": "median"}, {**test.to_dict(), "looks": None}):
        with pytest.raises(ValueError):
            SequentialTest.from_dict(bad)
    for kwargs in ({"tau2": 0.0}, {"alpha": 1.0}, {"min_samples": 1}, {"kind": "x"}):
        with pytest.raises(ValueError):
            SequentialTest(**kwargs)
