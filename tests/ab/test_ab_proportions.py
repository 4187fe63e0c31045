"""Two proportions on merged 0/1 aggregates: Newcombe's published examples, Wilson against
scipy, the pooled z-test against scipy's 2×2 chi-square (without continuity correction)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
import scipy.stats as st

from monitor.ab.proportions import successes, two_proportions, wilson
from monitor.ab.summary import Moments
from monitor.windows.aggregate import Aggregate

Merge = Callable[[np.ndarray], Aggregate]

# Newcombe (1998), "Interval estimation for the difference between independent
# proportions", Statistics in Medicine 17, Table II, method 10 (score, no continuity
# correction): (x1, n1, x2, n2) -> (lower, upper) for p1 - p2.
NEWCOMBE_TABLE_II = {
    (56, 70, 48, 80): (0.0524, 0.3339),
    (9, 10, 3, 10): (0.1705, 0.8090),
    (6, 7, 2, 7): (0.0582, 0.8062),
    (5, 56, 0, 29): (-0.0381, 0.1926),
    (0, 10, 0, 20): (-0.1611, 0.2775),
    (0, 10, 0, 10): (-0.2775, 0.2775),
    (10, 10, 0, 20): (0.6791, 1.0000),
    (10, 10, 0, 10): (0.6075, 1.0000),
}

# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
# the Wilson score interval (method 3).
NEWCOMBE_TABLE_I = {
    (81, 263): (0.2553, 0.3662),
    (15, 148): (0.0624, 0.1605),
    (0, 20): (0.0000, 0.1611),
    (1, 29): (0.0061, 0.1718),
}


def _rates(x: int, n: int, merge: Merge) -> Aggregate:
    values = np.zeros(n)
    values[:x] = 1.0
    np.random.default_rng(x * 1000 + n).shuffle(values)
    return merge(values)


@pytest.mark.parametrize(("case", "expected"), list(NEWCOMBE_TABLE_II.items()))
def test_newcombe_table_ii(
    case: tuple[int, int, int, int], expected: tuple[float, float], merge: Merge
) -> None:
    x1, n1, x2, n2 = case
    # Newcombe's difference is p1 - p2: the first sample is our treatment
    result = two_proportions(_rates(x2, n2, merge), _rates(x1, n1, merge))
    assert result is not None
    assert result.difference == pytest.approx(x1 / n1 - x2 / n2, abs=1e-12)
    assert (round(result.ci_low, 4), round(result.ci_high, 4)) == pytest.approx(expected)


@pytest.mark.parametrize(("case", "expected"), list(NEWCOMBE_TABLE_I.items()))
def test_wilson_table_i(case: tuple[int, int], expected: tuple[float, float]) -> None:
    low, high = wilson(*case)
    assert (round(low, 4), round(high, 4)) == pytest.approx(expected)


def test_wilson_matches_scipy() -> None:
    rng = np.random.default_rng(21)
    for _ in range(500):
        n = int(rng.integers(1, 5000))
        x = int(rng.integers(0, n + 1))
        confidence = float(rng.choice([0.8, 0.9, 0.95, 0.99]))
        low, high = wilson(x, n, confidence)
        reference = st.binomtest(x, n).proportion_ci(confidence, method="wilson")
        assert low == pytest.approx(reference.low, rel=1e-9, abs=1e-15)
        assert high == pytest.approx(reference.high, rel=1e-9, abs=1e-15)
    assert wilson(0, 7)[0] == 0.0 and wilson(7, 7)[1] == 1.0
    for bad in ((3, 2), (-1, 2), (0, 0)):
        with pytest.raises(ValueError):
            wilson(*bad)


def test_z_test_matches_scipy_chi2_contingency(merge: Merge) -> None:
    rng = np.random.default_rng(22)
    for _ in range(300):
        n_c, n_t = (int(v) for v in rng.integers(1, 3000, 2))
        rate = float(rng.uniform(0.0, 0.3))
        x_c = int(rng.binomial(n_c, rate))
        x_t = int(rng.binomial(n_t, min(1.0, rate * float(rng.uniform(0.5, 2.0)))))
        if x_c + x_t in (0, n_c + n_t):
            continue  # chi2_contingency rejects a table with an empty column
        result = two_proportions(_rates(x_c, n_c, merge), _rates(x_t, n_t, merge))
        assert result is not None
        table = np.array([[x_t, n_t - x_t], [x_c, n_c - x_c]])
        reference = st.chi2_contingency(table, correction=False)
        assert result.p_value == pytest.approx(reference.pvalue, rel=1e-9, abs=1e-300)
        assert result.statistic is not None
        assert result.statistic**2 == pytest.approx(reference.statistic, rel=1e-9)
        assert (
            math.copysign(1.0, result.statistic) == math.copysign(1.0, x_t / n_t - x_c / n_c)
            or result.statistic == 0.0
        )
        h = 2 * math.asin(math.sqrt(x_t / n_t)) - 2 * math.asin(math.sqrt(x_c / n_c))
        assert result.cohen_h == pytest.approx(h, rel=1e-12, abs=1e-15)
        assert result.ci_low <= result.difference <= result.ci_high


def test_degenerate_and_empty() -> None:
    none = two_proportions(Moments(50, 0.0, 0.0), Moments(80, 0.0, 0.0))
    assert none is not None
    assert (none.statistic, none.p_value, none.difference, none.cohen_h) == (None, 1.0, 0.0, 0.0)
    assert none.ci_low < 0.0 < none.ci_high
    assert two_proportions(Moments(0, None, None), Moments(5, 0.2, 0.2)) is None
    assert two_proportions(Moments(5, 0.2, 0.2), Moments(0, None, None)) is None


def test_successes_rounds_and_checks() -> None:
    assert successes(Moments(70, 56 / 70, None)) == 56
    assert successes(Aggregate.of([1.0, 0.0, 1.0])) == 2
    assert successes(Moments(0, None, None)) == 0
    with pytest.raises(ValueError):
        successes(Moments(10, 1.5, 0.1))
