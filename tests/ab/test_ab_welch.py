"""Welch's test on merged aggregates against ``scipy.stats.ttest_ind(equal_var=False)`` on
the raw values: statistic, p-value, degrees of freedom and confidence interval to 1e-9."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
import scipy.stats as st

from monitor.ab.summary import Moments
from monitor.ab.welch import welch
from monitor.windows.aggregate import Aggregate

Merge = Callable[[np.ndarray], Aggregate]

RTOL = 1e-9


def _sample(rng: np.random.Generator) -> np.ndarray:
    n = int(rng.choice([2, 3, 5, 20, 100, 1000, 5000]))
    kind = rng.integers(0, 3)
    location, scale = float(rng.normal(0.0, 10.0)), float(np.exp(rng.uniform(-4.0, 4.0)))
    if kind == 0:
        return rng.normal(location, scale, n)
    if kind == 1:
        return location + rng.lognormal(0.0, 1.0, n) * scale
    return rng.uniform(0.0, 1.0, n)


def test_welch_matches_scipy_on_merged_aggregates(merge: Merge) -> None:
    rng = np.random.default_rng(11)
    for _ in range(400):
        control, treatment = _sample(rng), _sample(rng)
        if rng.uniform() < 0.3:  # a real difference, so small p-values are covered too
            treatment = treatment + float(rng.normal(0.0, 3.0)) * treatment.std()
        ours = welch(merge(control), merge(treatment))
        assert ours is not None
        reference = st.ttest_ind(treatment, control, equal_var=False)
        assert ours.statistic == pytest.approx(reference.statistic, rel=RTOL)
        assert ours.df == pytest.approx(reference.df, rel=RTOL)
        assert ours.p_value == pytest.approx(reference.pvalue, rel=RTOL, abs=1e-300)
        assert ours.difference == pytest.approx(treatment.mean() - control.mean(), rel=RTOL)
        for confidence in (0.95, 0.9, 0.99):
            ours_ci = welch(merge(control), merge(treatment), confidence)
            assert ours_ci is not None
            low, high = reference.confidence_interval(confidence)
            width = float(high - low)
            # relative to the interval's width (an end can be ~0 when the difference is)
            assert abs(ours_ci.ci_low - low) <= RTOL * width
            assert abs(ours_ci.ci_high - high) <= RTOL * width
        n_c, n_t = control.size, treatment.size
        pooled = ((n_c - 1) * control.var(ddof=1) + (n_t - 1) * treatment.var(ddof=1)) / (
            n_c + n_t - 2
        )
        expected_d = (treatment.mean() - control.mean()) / math.sqrt(pooled)
        assert ours.cohen_d == pytest.approx(expected_d, rel=1e-9)


def test_needs_two_values_per_side() -> None:
    assert welch(Moments(1, 0.5, None), Moments(10, 0.5, 0.1)) is None
    assert welch(Moments(10, 0.5, 0.1), Moments(0, None, None)) is None
    assert welch(Moments(10, 0.5, 0.1), Moments(10, 0.6, 0.1)) is not None
    with pytest.raises(ValueError):
        welch(Moments(10, 0.5, 0.1), Moments(10, 0.6, 0.1), confidence=1.0)


@pytest.mark.filterwarnings("ignore:Precision loss occurred")
def test_zero_variance() -> None:
    same = welch(Moments(5, 0.7, 0.0), Moments(8, 0.7, 0.0))
    assert same is not None
    assert (same.p_value, same.statistic, same.df, same.cohen_d) == (1.0, None, None, None)
    assert (same.ci_low, same.ci_high, same.standard_error) == (0.0, 0.0, 0.0)
    apart = welch(Moments(5, 0.7, 0.0), Moments(8, 0.9, 0.0))
    assert apart is not None and apart.p_value == 0.0
    assert apart.ci_low == apart.ci_high == apart.difference
    # one side constant: df is the other side's n - 1, as in scipy
    control, treatment = np.full(6, 0.5), np.array([0.4, 0.55, 0.6, 0.7, 0.52])
    one = welch(Moments(6, 0.5, 0.0), Moments.of(_moments(treatment)))
    reference = st.ttest_ind(treatment, control, equal_var=False)
    assert one is not None and one.df == pytest.approx(4.0)
    assert one.p_value == pytest.approx(reference.pvalue, rel=RTOL)


def _moments(values: np.ndarray) -> Moments:
    return Moments(values.size, float(values.mean()), float(values.var(ddof=1)))
