"""Sample-ratio mismatch against ``scipy.stats.chisquare`` (1e-9), and its edge cases."""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.stats as st

from monitor.ab.srm import sample_ratio_mismatch
from monitor.events.ab_result import SampleRatio


def test_matches_scipy_chisquare() -> None:
    rng = np.random.default_rng(31)
    for _ in range(300):
        k = int(rng.integers(2, 7))
        names = [f"v{i}" for i in range(k)]
        weights = rng.uniform(0.1, 1.0, k)
        total = int(rng.integers(k, 200_000))
        skew = rng.uniform(0.9, 1.1, k) if rng.uniform() < 0.5 else np.ones(k)
        counts = rng.multinomial(total, weights * skew / (weights * skew).sum())
        observed = dict(zip(names, (int(c) for c in counts), strict=True))
        split = dict(zip(names, (float(w) for w in weights), strict=True))
        result = sample_ratio_mismatch(observed, split)
        expected = weights / weights.sum() * counts.sum()
        reference = st.chisquare(counts, expected)
        assert result.chi2 == pytest.approx(reference.statistic, rel=1e-9)
        assert result.p_value == pytest.approx(reference.pvalue, rel=1e-9, abs=1e-300)
        assert result.mismatch == (reference.pvalue < 0.001)
        assert sum(result.expected.values()) == pytest.approx(1.0)


def test_sixty_forty_against_fifty_fifty() -> None:
    split = {"control": 0.5, "treatment": 0.5}
    broken = sample_ratio_mismatch({"control": 600, "treatment": 400}, split)
    assert broken.mismatch and broken.chi2 == pytest.approx(40.0)
    assert broken.p_value is not None and broken.p_value < 1e-9
    # the same ratio on few events is not evidence yet
    assert not sample_ratio_mismatch({"control": 12, "treatment": 8}, split).mismatch
    # and 60/40 is fine when it is the configured split
    assert not sample_ratio_mismatch(
        {"control": 600, "treatment": 400}, {"control": 3, "treatment": 2}
    ).mismatch


def test_edge_cases() -> None:
    rogue = sample_ratio_mismatch({"a": 10, "b": 9, "rogue": 1}, {"a": 1, "b": 1})
    assert rogue.mismatch and rogue.p_value == 0.0 and rogue.chi2 is None
    assert rogue.expected["rogue"] == 0.0
    unseen = sample_ratio_mismatch({"a": 100}, {"a": 1, "b": 1})
    assert unseen.observed == {"a": 100, "b": 0} and unseen.mismatch
    empty = sample_ratio_mismatch({}, {"a": 1, "b": 1})
    assert (empty.chi2, empty.p_value, empty.mismatch) == (None, None, False)
    single = sample_ratio_mismatch({"a": 5}, {"a": 1})
    assert (single.chi2, single.p_value, single.mismatch) == (None, None, False)
    for split in ({"a": -1.0, "b": 1.0}, {"a": 0.0}, {"a": float("nan")}):
        with pytest.raises(ValueError):
            sample_ratio_mismatch({"a": 1}, split)
    with pytest.raises(ValueError):
        sample_ratio_mismatch({"a": -1}, {"a": 1.0})
    with pytest.raises(ValueError):
        sample_ratio_mismatch({"a": 1}, {"a": 1.0}, threshold_p=0.0)
    data = json.loads(rogue.model_dump_json())
    assert SampleRatio.model_validate(data) == rogue
