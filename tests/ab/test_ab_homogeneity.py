"""The homogeneity test across windows: blocks, Cochran's Q and the best split against
scipy, the spending of alpha over looks, the cap on blocks, and the JSON state."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

from monitor.ab.homogeneity import Block, HomogeneityTest, cochran_q, homogeneity_p_value, locate
from monitor.ab.summary import Moments, subtract
from monitor.windows.aggregate import Aggregate


def test_subtract_undoes_a_merge() -> None:
    rng = np.random.default_rng(1)
    for _ in range(50):
        early, late = rng.normal(0.7, 0.2, int(rng.integers(1, 60))), rng.normal(0.5, 0.1, 40)
        total = Aggregate.from_array(np.concatenate([early, late]))
        rest = subtract(total, Aggregate.from_array(early))
        assert rest.count == 40
        assert rest.mean == pytest.approx(late.mean(), rel=1e-9)
        assert rest.variance == pytest.approx(late.var(ddof=1), rel=1e-7)
    assert subtract(Moments(5, 1.0, 0.0), Moments(0, None, None)) == Moments(5, 1.0, 0.0)
    assert subtract(Moments(5, 1.0, 0.0), Moments(5, 1.0, 0.0)).count == 0
    with pytest.raises(ValueError):
        subtract(Moments(2, 1.0, 0.0), Moments(3, 1.0, 0.0))


def _blocks(rng: np.random.Generator, effects: list[float], n: int = 80) -> list[Block]:
    return [
        Block(i, i + 1, n, float(rng.normal(0.7, 0.15 / n**0.5)), n, 0.7 + e)
        for i, e in enumerate(effects)
    ]


def test_q_and_the_split_match_their_definitions() -> None:
    rng = np.random.default_rng(2)
    blocks = _blocks(rng, [0.05, 0.04, 0.06, -0.05, -0.04])
    var = 0.0225
    d = np.array([b.difference for b in blocks])
    w = np.array([1.0 / (var / b.control_count + var / b.treatment_count) for b in blocks])
    pooled = (w * d).sum() / w.sum()
    assert cochran_q(blocks, var, var) == pytest.approx((w * (d - pooled) ** 2).sum())
    found = locate(blocks, var, var)
    assert found is not None and found[0] == 3  # the change is before the fourth block
    before, after = (w[:3] * d[:3]).sum() / w[:3].sum(), (w[3:] * d[3:]).sum() / w[3:].sum()
    assert found[1:3] == pytest.approx((before, after))
    q = cochran_q(blocks, var, var)
    assert q is not None
    expected = min(1.0, 2 * min(stats.chi2.sf(q, 4), 4 * stats.chi2.sf(found[3], 1)))
    assert homogeneity_p_value(blocks, var, var) == pytest.approx(expected, rel=1e-12)
    assert homogeneity_p_value(blocks[:1], var, var) is None


def test_quiet_windows_are_carried_into_the_next_block() -> None:
    test = HomogeneityTest("mean", alpha=0.01, min_samples=10)
    test.update(Moments(5, 0.7, 0.02), Moments(5, 0.7, 0.02), 0, 60_000)
    assert test.blocks == []
    test.update(Moments(12, 0.7, 0.02), Moments(11, 0.7, 0.02), 0, 120_000)
    assert [(b.start_ms, b.end_ms, b.control_count) for b in test.blocks] == [(0, 120_000, 12)]
    test.update(Moments(30, 0.7, 0.02), Moments(30, 0.7, 0.02), 0, 180_000)
    assert [(b.start_ms, b.end_ms) for b in test.blocks] == [(0, 120_000), (120_000, 180_000)]
    assert test.tests == 1 and test.change is None


def test_alpha_is_spent_over_the_looks() -> None:
    """The j-th test rejects exactly when its p-value is below alpha / (j (j + 1)), so a
    p-value below alpha is not enough once many looks were taken."""
    rng = np.random.default_rng(4)
    spent = 0
    for _ in range(200):
        test = HomogeneityTest("mean", alpha=0.05)
        c, t = Aggregate(), Aggregate()
        for k in range(12):
            c.merge_in(Aggregate.from_array(rng.normal(0.7, 0.15, 60)))
            t.merge_in(Aggregate.from_array(rng.normal(0.7 + 0.03 * (k % 2), 0.15, 60)))
            before = test.change
            test.update(c, t, 0, (k + 1) * 1000)
            if before is None and test.p_value is not None and test.tests > 0:
                j = test.tests
                assert (test.change is not None) == (test.p_value < 0.05 / (j * (j + 1)))
                spent += test.change is None and test.p_value < 0.05
    assert spent > 0  # some looks had p < alpha and were (rightly) not enough


def test_blocks_are_capped_by_merging_the_smallest_neighbours() -> None:
    test = HomogeneityTest("mean", alpha=0.01, max_blocks=4)
    n = 0
    for k, size in enumerate([50, 10, 10, 50, 50]):
        n += size
        test.update(Moments(n, 0.7, 0.02), Moments(n, 0.7, 0.02), 0, (k + 1) * 1000)
    assert [(b.start_ms, b.end_ms, b.control_count) for b in test.blocks] == [
        (0, 1000, 50),
        (1000, 3000, 20),
        (3000, 4000, 50),
        (4000, 5000, 50),
    ]


def test_state_round_trips() -> None:
    rng = np.random.default_rng(3)
    test = HomogeneityTest("proportion", alpha=0.01)
    c, t = Aggregate(), Aggregate()
    for k in range(8):
        c.merge_in(Aggregate.from_array((rng.uniform(size=200) < 0.1).astype(float)))
        rate = 0.1 if k < 4 else 0.3
        t.merge_in(Aggregate.from_array((rng.uniform(size=200) < rate).astype(float)))
        test.update(c, t, 0, (k + 1) * 1000)
        restored = HomogeneityTest.from_dict(json.loads(json.dumps(test.to_dict())))
        assert restored == test
    assert test.change is not None and test.change.window_start_ms == 4000
    assert test.change.difference_after == pytest.approx(0.2, abs=0.05)
    with pytest.raises(ValueError):
        HomogeneityTest.from_dict({"kind": "mean"})
