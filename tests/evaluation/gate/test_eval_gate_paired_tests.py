"""The gate's tests against scipy: exact McNemar, paired t, Welch; the paired bootstrap's
determinism and its percentile p-value."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from scipy import stats

from monitor.evaluation.gate.paired_tests import (
    mcnemar_exact,
    paired_bootstrap_p,
    paired_t,
    welch_p,
)
from monitor.evaluation.results import CaseResult


def _binary_pairs(
    b: int, c: int, agree_one: int = 3, agree_zero: int = 2
) -> tuple[list[int], list[int]]:
    before = [1] * b + [0] * c + [1] * agree_one + [0] * agree_zero
    after = [0] * b + [1] * c + [1] * agree_one + [0] * agree_zero
    return before, after


@pytest.mark.parametrize(
    ("b", "c"),
    [(1, 0), (0, 1), (5, 1), (1, 5), (3, 3), (10, 4), (4, 11), (16, 0), (40, 25), (170, 130)],
)
def test_mcnemar_matches_scipy_binomtest(b: int, c: int) -> None:
    before, after = _binary_pairs(b, c)
    expected = stats.binomtest(min(b, c), b + c, 0.5).pvalue
    assert mcnemar_exact(before, after) == pytest.approx(expected, rel=1e-9, abs=1e-300)
    assert mcnemar_exact(after, before) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_mcnemar_without_discordant_pairs_and_bad_input() -> None:
    assert mcnemar_exact([1, 0, 1], [1, 0, 1]) == 1.0
    assert mcnemar_exact([], []) == 1.0
    with pytest.raises(ValueError, match="0 or 1"):
        mcnemar_exact([0.5, 1.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="one length"):
        mcnemar_exact([1, 0], [1])


@pytest.mark.parametrize(
    ("n", "shift", "seed"), [(2, 0.1, 0), (3, 0.0, 1), (10, -0.05, 2), (200, 0.01, 3)]
)
def test_paired_t_matches_scipy(n: int, shift: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    before = rng.uniform(0.2, 0.9, n)
    after = before + shift + rng.normal(0.0, 0.05, n)
    expected = stats.ttest_rel(after, before).pvalue
    assert paired_t(before.tolist(), after.tolist()) == pytest.approx(expected, rel=1e-9, abs=1e-15)


def test_paired_t_degenerate_cases() -> None:
    assert paired_t([0.5], [0.1]) == 1.0
    assert paired_t([], []) == 1.0
    assert paired_t([0.5, 0.6, 0.7], [0.5, 0.6, 0.7]) == 1.0
    assert paired_t([0.5, 0.75, 1.0], [0.25, 0.5, 0.75]) == 0.0


@pytest.mark.parametrize(
    ("n_before", "n_after", "seed"), [(2, 2, 0), (5, 9, 1), (40, 30, 2), (300, 250, 3)]
)
def test_welch_matches_scipy(n_before: int, n_after: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    before = rng.normal(0.7, 0.1, n_before)
    after = rng.normal(0.65, 0.15, n_after)
    expected = stats.ttest_ind(after, before, equal_var=False).pvalue
    assert welch_p(before.tolist(), after.tolist()) == pytest.approx(expected, rel=1e-9, abs=1e-15)


def test_welch_degenerate_cases() -> None:
    assert welch_p([0.5], [0.1, 0.2]) == 1.0
    assert welch_p([0.5, 0.5], [0.5, 0.5]) == 1.0
    assert welch_p([0.5, 0.5], [0.2, 0.2]) == 0.0


def _case(case_id: str, score: float | None) -> CaseResult:
    return CaseResult(case_id=case_id, origin="d", query="?", signals={"score": score})


def _mean_score(cases: Sequence[CaseResult]) -> float | None:
    scores = [c.signals["score"] for c in cases if c.signals["score"] is not None]
    return sum(scores) / len(scores) if scores else None


def _reference_p(before: np.ndarray, after: np.ndarray, resamples: int, seed: int) -> float:
    """The same bootstrap vectorised: the same draws, ``2 min(P(d <= 0), P(d >= 0))``."""
    rng = np.random.Generator(np.random.PCG64(seed))
    draws = rng.integers(0, before.size, size=(resamples, before.size))
    d = after[draws].mean(axis=1) - before[draws].mean(axis=1)
    return min(1.0, 2.0 * min(float(np.mean(d <= 0)), float(np.mean(d >= 0))))


def test_paired_bootstrap_equals_the_percentile_method_and_is_deterministic() -> None:
    rng = np.random.default_rng(7)
    before = rng.uniform(0.4, 0.9, 30)
    after = before - 0.02 + rng.normal(0.0, 0.08, 30)
    old = [_case(f"q{i}", float(v)) for i, v in enumerate(before)]
    new = [_case(f"q{i}", float(v)) for i, v in enumerate(after)]
    kwargs = {"resamples": 500, "seed": 11}
    p = paired_bootstrap_p(old, new, _mean_score, worse=lambda d: d < 0, **kwargs)
    assert p == pytest.approx(_reference_p(before, after, 500, 11), abs=1e-12)
    assert 0.0 < p < 1.0
    assert paired_bootstrap_p(old, new, _mean_score, worse=lambda d: d < 0, **kwargs) == p
    # the direction does not change the two-sided percentile p-value
    assert paired_bootstrap_p(old, new, _mean_score, worse=lambda d: d > 0, **kwargs) == p
    # pairs are matched by case id (in the current report's order), not by position
    shuffled = [_case("only-old", 5.0), *reversed(old)]
    assert paired_bootstrap_p(shuffled, new, _mean_score, worse=lambda d: d < 0, **kwargs) == p


def test_paired_bootstrap_edge_cases() -> None:
    same = [_case(f"q{i}", 0.1 * i) for i in range(8)]
    assert (
        paired_bootstrap_p(same, same, _mean_score, resamples=100, seed=1, worse=lambda d: d < 0)
        == 1.0
    )
    drop = [_case(f"q{i}", 0.1 * i - 0.5) for i in range(8)]
    assert (
        paired_bootstrap_p(same, drop, _mean_score, resamples=100, seed=1, worse=lambda d: d < 0)
        == 0.0
    )
    other = [_case(f"x{i}", 0.5) for i in range(8)]
    assert (
        paired_bootstrap_p(same, other, _mean_score, resamples=100, seed=1, worse=lambda d: d < 0)
        == 1.0
    )
    none = [_case(f"q{i}", None) for i in range(8)]
    assert (
        paired_bootstrap_p(same, none, _mean_score, resamples=100, seed=1, worse=lambda d: d < 0)
        == 1.0
    )
    with pytest.raises(ValueError, match="resamples"):
        paired_bootstrap_p(same, same, _mean_score, resamples=0, seed=1, worse=lambda d: d < 0)
