"""Mergeable aggregates (``monitor.windows.aggregate``): any partition merged in any order
equals one pass; vectorised and scalar paths agree; exact JSON round trip."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from typing import Any

import numpy as np
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monitor.windows.aggregate import Aggregate
from monitor.windows.sketch import QuantileSketch

VALUES = st.lists(
    st.one_of(
        st.floats(-1e6, 1e6, allow_subnormal=False),
        st.sampled_from([0.0, -0.0, 1.0, 0.1, 0.7, 1e-9]),
    ),
    min_size=1,
    max_size=60,
)


def close(merged: float | None, one_pass: float | None, scale: float) -> bool:
    """Within 1e-9 relative, or 1e-12 absolute on the scale of the values' magnitudes
    (float sums of numbers of size M round at about 1e-16 * M)."""
    assert merged is not None and one_pass is not None
    return abs(merged - one_pass) <= 1e-9 * abs(one_pass) + 1e-12 * max(1.0, scale)


def assert_same(merged: Aggregate, one_pass: Aggregate, values: list[float]) -> None:
    # exactly equal
    assert merged.count == one_pass.count == len(values)
    assert merged.minimum == one_pass.minimum == min(values)
    assert merged.maximum == one_pass.maximum == max(values)
    assert merged.sketch == one_pass.sketch
    for q in (0.0, 0.5, 0.95, 0.99, 1.0):
        assert merged.quantile(q) == one_pass.quantile(q)
    # equal up to floating-point rounding
    top = max(abs(v) for v in values)
    assert close(merged.total, one_pass.total, sum(abs(v) for v in values))
    assert close(merged.total_sq, one_pass.total_sq, sum(v * v for v in values))
    assert close(merged.mean, one_pass.mean, top)
    if len(values) < 2:
        assert merged.variance is None and one_pass.variance is None
    else:
        assert close(merged.variance, one_pass.variance, top * top)
        assert merged.variance is not None and merged.variance >= 0.0


@settings(max_examples=200, deadline=None)
@given(VALUES, st.data())
def test_any_partition_merged_in_any_order_equals_one_pass(
    values: list[float], data: st.DataObject
) -> None:
    cuts = sorted(data.draw(st.lists(st.integers(0, len(values)), max_size=8), label="cuts"))
    bounds = [0, *cuts, len(values)]
    parts = [values[a:b] for a, b in itertools.pairwise(bounds)]  # some empty
    aggs = [
        Aggregate.from_array(np.array(p)) if data.draw(st.booleans()) else Aggregate.of(p)
        for p in parts
    ]
    aggs = data.draw(st.permutations(aggs), label="order")
    while len(aggs) > 1:  # merge two arbitrary operands until one remains (any grouping)
        i = data.draw(st.integers(0, len(aggs) - 1))
        left = aggs.pop(i)
        j = data.draw(st.integers(0, len(aggs) - 1))
        right = aggs.pop(j)
        if data.draw(st.booleans()):
            aggs.append(left.merge(right))
        else:
            left.merge_in(right)
            aggs.append(left)
    one_pass = Aggregate.from_array(np.array(values))
    assert_same(aggs[0], one_pass, values)
    assert one_pass.variance == (None if len(values) < 2 else one_pass.variance)


def test_cancelling_sums_need_the_scaled_tolerance() -> None:
    # the one-pass sum is -2.3e-11, the merged one 0.0: a plain 1e-12 absolute (or 1e-9
    # relative) bound cannot hold for sums that cancel, hence the scale in ``close``
    values = [1e6 + 0.1, -1e6, -0.1]
    merged = Aggregate.of(values[:1]).merge(Aggregate.of(values[1:]))
    one_pass = Aggregate.of(values)
    assert merged.total != one_pass.total
    assert_same(merged, one_pass, values)


@settings(max_examples=100, deadline=None)
@given(VALUES)
def test_from_array_equals_of_and_repeated_add(values: list[float]) -> None:
    vectorised = Aggregate.from_array(np.array(values))
    assert Aggregate.of(values) == vectorised
    assert Aggregate.of(iter(values)) == vectorised
    one_by_one = Aggregate()
    for v in values:
        one_by_one.add(v)
    assert_same(one_by_one, vectorised, values)


@settings(max_examples=100, deadline=None)
@given(VALUES)
def test_json_round_trip_is_exact(values: list[float]) -> None:
    agg = Aggregate.of(values)
    text = json.dumps(agg.to_dict(), allow_nan=False)
    assert Aggregate.from_dict(json.loads(text)) == agg
    assert Aggregate.from_dict(orjson.loads(orjson.dumps(agg.to_dict()))) == agg


def test_statistics_match_numpy() -> None:
    rng = np.random.default_rng(7)
    x = rng.gamma(2.0, 150.0, 1000)
    agg = Aggregate.from_array(x)
    assert agg.count == 1000
    assert agg.mean == pytest.approx(float(np.mean(x)), rel=1e-12)
    assert agg.variance == pytest.approx(float(np.var(x, ddof=1)), rel=1e-12)
    assert agg.stddev == pytest.approx(float(np.std(x, ddof=1)), rel=1e-12)
    assert agg.total_sq == pytest.approx(float(np.dot(x, x)), rel=1e-12)
    assert (agg.minimum, agg.maximum) == (float(x.min()), float(x.max()))
    for q in (0.5, 0.95, 0.99):
        true = float(np.quantile(x, q, method="lower"))
        estimate = agg.quantile(q)
        assert estimate is not None and abs(estimate - true) <= 0.01 * true


def test_variance_is_accurate_with_a_large_mean_and_tiny_spread() -> None:
    # sum-of-squares variance would be pure rounding noise here; m2 merging is not
    rng = np.random.default_rng(3)
    x = 1e9 + rng.normal(0.0, 1e-3, 2000)
    exact = float(np.var(x, ddof=1))
    merged = Aggregate()
    for chunk in np.array_split(x, 37):
        merged.merge_in(Aggregate.from_array(chunk))
    assert merged.variance == pytest.approx(exact, rel=1e-6)
    assert Aggregate.from_array(x).variance == pytest.approx(exact, rel=1e-6)


def test_constant_values_have_zero_variance_never_negative() -> None:
    a = Aggregate.of([0.1] * 1000)
    merged = Aggregate.of([0.1] * 3).merge(Aggregate.of([0.1] * 997))
    for agg in (a, merged):
        assert agg.variance is not None and 0.0 <= agg.variance < 1e-30
        assert agg.stddev is not None and agg.stddev >= 0.0


def test_empty_and_single() -> None:
    empty = Aggregate()
    assert empty.count == 0 and empty.minimum == math.inf and empty.maximum == -math.inf
    assert empty.mean is None and empty.variance is None and empty.stddev is None
    assert empty.quantile(0.5) is None and empty.total_sq == 0.0
    assert Aggregate.of([]) == empty == Aggregate.from_array(np.array([]))
    data = empty.to_dict()
    assert data["min"] is None and data["max"] is None
    assert Aggregate.from_dict(json.loads(json.dumps(data, allow_nan=False))) == empty

    one = Aggregate.of([2.5])
    assert (one.count, one.mean, one.variance, one.stddev) == (1, 2.5, None, None)
    assert one.quantile(0.5) == 2.5  # clamped to [min, max]
    assert one.merge(empty) == one == empty.merge(one)


def test_merge_leaves_operands_untouched() -> None:
    a, b = Aggregate.of([1.0, 2.0]), Aggregate.of([3.0])
    a_before, b_before = a.copy(), b.copy()
    m = a.merge(b)
    assert a == a_before and b == b_before and m.count == 3
    a.merge_in(b)
    assert a == m and b == b_before
    a.merge_in(a)
    assert a.count == 6 and a.mean == pytest.approx(2.0) and a.sketch == m.sketch.merge(m.sketch)


def test_merge_rejects_different_accuracies_and_changes_nothing() -> None:
    a = Aggregate.of([1.0])
    before = a.copy()
    with pytest.raises(ValueError, match="relative accuracy"):
        a.merge_in(Aggregate.of([2.0], relative_accuracy=0.05))
    assert a == before
    assert Aggregate.of([2.0], relative_accuracy=0.05).sketch == (
        QuantileSketch(0.05).merge(Aggregate.of([2.0], 0.05).sketch)
    )


def test_quantile_extremes_are_exact() -> None:
    agg = Aggregate.of([0.5, 0.7, 0.9, -3.25])
    assert agg.quantile(0.0) == -3.25 and agg.quantile(1.0) == 0.9
    with pytest.raises(ValueError, match="quantile"):
        agg.quantile(1.5)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_inputs_are_rejected(bad: float) -> None:
    with pytest.raises(ValueError, match="finite"):
        Aggregate.of([1.0, bad])
    with pytest.raises(ValueError, match="finite"):
        Aggregate.from_array(np.array([bad, 1.0]))
    agg = Aggregate.of([1.0])
    with pytest.raises(ValueError, match="finite"):
        agg.add(bad)
    assert agg == Aggregate.of([1.0])


def test_overflowing_sums_are_rejected() -> None:
    with pytest.raises(ValueError, match="overflows"):
        Aggregate.from_array(np.array([1e308, 1e308]))
    with pytest.raises(ValueError, match="overflows"):
        Aggregate.from_array(np.array([1e200, -1e200]))
    agg = Aggregate.of([1e308])
    with pytest.raises(ValueError, match="overflows"):
        agg.add(1e308)
    with pytest.raises(ValueError, match="overflow"):
        agg.merge(Aggregate.of([1e308]))
    assert agg == Aggregate.of([1e308])


def test_from_dict_rejects_malformed_data() -> None:
    good = Aggregate.of([1.0, 2.0]).to_dict()
    with pytest.raises(ValueError, match="malformed"):
        Aggregate.from_dict({k: v for k, v in good.items() if k != "m2"})
    with pytest.raises(ValueError, match="malformed"):
        Aggregate.from_dict({**good, "count": 3})
    with pytest.raises(ValueError, match="malformed"):
        Aggregate.from_dict({**good, "min": None})


# ---------------------------------------------------------------------- from_groups

GROUPED_VALUES = st.lists(
    st.one_of(
        st.floats(-1e6, 1e6),  # subnormals included: the sketch's zero bucket
        st.sampled_from([0.0, -0.0, 5e-324, -1e-310, 1.0, -1.0, 0.1, 1e-9, -1e-9]),
    ),
    max_size=120,
)


def assert_matches_per_group(
    values: np.ndarray, groups: np.ndarray, n_groups: int, accuracy: float = 0.01
) -> list[Aggregate]:
    """``from_groups`` against one ``from_array`` per group: count, min, max and sketch
    exactly (bucket for bucket), total and m2 up to rounding."""
    grouped = Aggregate.from_groups(values, groups, n_groups, accuracy)
    assert len(grouped) == n_groups
    for g, agg in enumerate(grouped):
        part = values[groups == g]
        single = Aggregate.from_array(part, accuracy)
        assert agg.sketch.relative_accuracy == accuracy
        assert agg.sketch.count == single.sketch.count == agg.count
        if part.size == 0:
            assert agg == single == Aggregate(sketch=QuantileSketch(accuracy))
            continue
        assert_same(agg, single, part.tolist())
        # the same buckets, in the same (ascending) order, so to_dict is identical too
        assert list(agg.sketch.positive_bins.items()) == list(single.sketch.positive_bins.items())
        assert list(agg.sketch.negative_bins.items()) == list(single.sketch.negative_bins.items())
        assert agg.sketch.zero_count == single.sketch.zero_count
        assert agg.sketch.to_dict() == single.sketch.to_dict()
        # total and m2 are the only fields allowed to differ, by rounding
        assert close(agg.m2, single.m2, float(np.dot(part, part)))
        assert dataclasses.replace(single, total=agg.total, m2=agg.m2) == agg
    return grouped


@settings(max_examples=300, deadline=None)
@given(GROUPED_VALUES, st.data())
def test_from_groups_equals_from_array_per_group(values: list[float], data: st.DataObject) -> None:
    # more group ids than values in many examples: some groups are empty
    n_groups = data.draw(st.integers(1 if values else 0, len(values) + 3), label="n_groups")
    groups = data.draw(
        st.lists(st.integers(0, max(n_groups - 1, 0)), min_size=len(values), max_size=len(values)),
        label="groups",
    )
    accuracy = data.draw(st.sampled_from([0.01, 0.05, 0.001]), label="accuracy")
    x = np.array(values, dtype=np.float64)
    assert_matches_per_group(x, np.array(groups, dtype=np.intp), n_groups, accuracy)


def test_from_groups_on_a_batch_like_the_workers() -> None:
    rng = np.random.default_rng(11)
    x = np.concatenate(
        [rng.gamma(2.0, 150.0, 600), -rng.lognormal(0.0, 2.0, 200), np.zeros(100), [-0.0] * 9]
    )
    x = np.concatenate([x, rng.uniform(0.0, 1.0, 1000 - x.size)])
    groups = rng.integers(0, 60, x.size)  # int64 ids work too
    groups[groups == 17] = 18  # group 17 is empty
    grouped = assert_matches_per_group(x, groups, 61)  # and so is group 60
    assert grouped[17] == grouped[60] == Aggregate()
    assert sum(a.count for a in grouped) == x.size


def test_from_groups_with_extreme_keys_takes_the_lexsort_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # with a tiny accuracy the bucket keys of 1e-307 and 1e150 are ~5e17 apart, so the
    # (group, store, key) codes of 12 groups no longer fit in int64: the fallback sorts
    accuracy = 1e-15
    x = np.array([1e-307, 1e150, -5.0, 0.0, 2.5, 2.5, -1e-307, 7.0, 1e150, -5.0, 3.0, 1e-307])
    groups = np.array([0, 0, 1, 1, 2, 2, 3, 4, 5, 6, 11, 11])
    keys = np.ceil(np.log(np.abs(x[x != 0.0])) / QuantileSketch(accuracy)._log_gamma)
    assert 2 * 12 * (int(keys.max()) - int(keys.min()) + 1) > 2**63 - 1
    lexsort, lexsorts = np.lexsort, list[int]()

    def spy(*args: Any, **kwargs: Any) -> Any:
        lexsorts.append(1)
        return lexsort(*args, **kwargs)

    monkeypatch.setattr(np, "lexsort", spy)
    assert_matches_per_group(x, groups, 12, accuracy)
    assert lexsorts  # the fallback ran
    lexsorts.clear()
    assert_matches_per_group(x, groups, 12, 0.01)
    assert not lexsorts  # at the default accuracy the codes fit


def test_from_groups_empty_shapes_and_accuracy() -> None:
    assert Aggregate.from_groups(np.array([]), np.array([], dtype=np.intp), 0) == []
    empty = Aggregate.from_groups(np.array([]), np.array([], dtype=np.intp), 3, 0.05)
    assert empty == [Aggregate(sketch=QuantileSketch(0.05))] * 3
    # any shape, as from_array: both arrays are flattened
    grid = np.array([[1.0, 2.0], [3.0, -4.0]])
    a, b = Aggregate.from_groups(grid, np.array([[0, 1], [1, 0]]), 2)
    assert a.sketch == Aggregate.of([1.0, -4.0]).sketch and a.count == 2
    assert (b.count, b.total, b.minimum, b.maximum) == (2, 5.0, 2.0, 3.0)
    # results are independent objects
    a.add(10.0)
    assert b.count == 2 and b.sketch.count == 2


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_from_groups_rejects_non_finite_values(bad: float) -> None:
    with pytest.raises(ValueError, match="finite"):
        Aggregate.from_groups(np.array([1.0, bad, 2.0]), np.array([0, 1, 0]), 2)


def test_from_groups_rejects_overflow_and_bad_groups() -> None:
    with pytest.raises(ValueError, match="overflows"):
        Aggregate.from_groups(np.array([1.0, 1e308, 1e308]), np.array([0, 1, 1]), 2)
    with pytest.raises(ValueError, match="overflows"):
        Aggregate.from_groups(np.array([1e200, 1.0, -1e200]), np.array([1, 0, 1]), 2)
    # sums that overflow only when groups are mixed up do not
    split = Aggregate.from_groups(np.array([1e308, 1e308]), np.array([0, 1]), 2)
    assert [a.total for a in split] == [1e308, 1e308]
    with pytest.raises(ValueError, match="group ids"):
        Aggregate.from_groups(np.array([1.0, 2.0]), np.array([0, 2]), 2)
    with pytest.raises(ValueError, match="group ids"):
        Aggregate.from_groups(np.array([1.0, 2.0]), np.array([0, -1]), 2)
    with pytest.raises(ValueError, match="group ids"):
        Aggregate.from_groups(np.array([1.0]), np.array([0]), 0)
    with pytest.raises(ValueError, match="integers"):
        Aggregate.from_groups(np.array([1.0]), np.array([0.0]), 1)
    with pytest.raises(ValueError, match="2 values but 1 group ids"):
        Aggregate.from_groups(np.array([1.0, 2.0]), np.array([0]), 1)
    with pytest.raises(ValueError, match="n_groups"):
        Aggregate.from_groups(np.array([]), np.array([], dtype=np.intp), -1)
    with pytest.raises(ValueError, match="relative_accuracy"):
        Aggregate.from_groups(np.array([1.0]), np.array([0]), 1, relative_accuracy=1.5)
