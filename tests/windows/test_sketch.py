"""The DDSketch-style quantile sketch (``monitor.windows.sketch``): accuracy, exact
merging, vectorised adds, serialisation."""

from __future__ import annotations

import json
import math
import sys

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monitor.windows.sketch import ZERO_THRESHOLD, QuantileSketch

Q = (0.5, 0.95, 0.99)
SLACK = 1 + 1e-9  # rounding of the logarithm at bucket edges


def sketch_of(values: npt.NDArray[np.float64], accuracy: float = 0.01) -> QuantileSketch:
    s = QuantileSketch(accuracy)
    s.add_many(values)
    return s


def lower_rank_value(values: npt.NDArray[np.float64], q: float) -> float:
    """The value at rank floor(q * (n - 1)) of the sorted values (numpy's "lower")."""
    return float(np.sort(values)[math.floor(q * (len(values) - 1))])


def assert_within(estimate: float | None, true: float, accuracy: float) -> None:
    assert estimate is not None
    assert abs(estimate - true) <= accuracy * abs(true) * SLACK, (estimate, true)


def datasets() -> dict[str, npt.NDArray[np.float64]]:
    rng = np.random.default_rng(20240611)
    mixed = np.concatenate(
        [rng.normal(0.2, 1.0, 3000), np.zeros(500), -rng.lognormal(0, 2, 700), [-0.0]]
    )
    rng.shuffle(mixed)
    return {
        "lognormal": rng.lognormal(3.0, 1.5, 5000),
        "uniform01": rng.uniform(0.0, 1.0, 5000),
        "mixed_sign_with_zeros": mixed,
        "mostly_negative": -rng.uniform(0.0, 1.0, 1001),
        "latency_ms": rng.gamma(2.0, 150.0, 4000) + 1.0,
    }


@pytest.mark.parametrize(("name", "values"), list(datasets().items()))
@pytest.mark.parametrize("accuracy", [0.01, 0.05])
def test_relative_error_at_the_lower_rank(
    name: str, values: npt.NDArray[np.float64], accuracy: float
) -> None:
    s = sketch_of(values, accuracy)
    assert s.count == len(values)
    for q in Q:
        true = lower_rank_value(values, q)
        assert true == float(np.quantile(values, q, method="lower"))
        assert_within(s.quantile(q), true, accuracy)
    # every rank, not only the monitored ones
    for q in np.linspace(0.0, 1.0, 201):
        assert_within(s.quantile(float(q)), lower_rank_value(values, float(q)), accuracy)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=False),
        min_size=1,
        max_size=60,
    ),
    st.sampled_from([0.0, 0.01, 0.25, 0.5, 0.95, 0.99, 1.0]),
)
def test_relative_error_on_any_finite_floats(values: list[float], q: float) -> None:
    array = np.array(values, dtype=np.float64)
    assert_within(sketch_of(array).quantile(q), lower_rank_value(array, q), 0.01)


def test_zero_bucket_and_subnormals() -> None:
    s = sketch_of(np.array([0.0, -0.0, 5e-324, -1e-310, ZERO_THRESHOLD, -ZERO_THRESHOLD]))
    assert s.zero_count == 4 and s.count == 6
    assert len(s.positive_bins) == 1 and len(s.negative_bins) == 1
    assert s.quantile(0.5) == 0.0
    assert_within(s.quantile(1.0), ZERO_THRESHOLD, 0.01)
    assert_within(s.quantile(0.0), -ZERO_THRESHOLD, 0.01)


def test_extreme_magnitudes() -> None:
    big = sys.float_info.max
    s = sketch_of(np.array([big, -big, 1e-300]))
    assert_within(s.quantile(1.0), big, 0.01)  # no overflow to inf
    assert_within(s.quantile(0.0), -big, 0.01)
    for accuracy in (0.001, 0.02, 0.1, 0.3, 0.5, 0.9):  # representatives capped, never inf
        assert_within(sketch_of(np.array([big]), accuracy).quantile(0.5), big, accuracy)
    assert_within(s.quantile(0.5), 1e-300, 0.01)


def test_merge_is_exact_associative_and_commutative() -> None:
    data = datasets()["mixed_sign_with_zeros"]
    a, b, c = data[:1000], data[1000:1001], data[1001:]
    sa, sb, sc = sketch_of(a), sketch_of(b), sketch_of(c)
    whole = sketch_of(data)
    assert sa.merge(sb).merge(sc) == whole
    assert sc.merge(sa.merge(sb)) == whole
    assert sb.merge(sc).merge(sa) == whole
    merged = sa.merge(sb).merge(sc)
    assert dict(merged.positive_bins) == dict(whole.positive_bins)
    assert dict(merged.negative_bins) == dict(whole.negative_bins)
    assert merged.zero_count == whole.zero_count and merged.count == whole.count
    for q in Q:
        assert merged.quantile(q) == whole.quantile(q)


def test_merge_leaves_operands_untouched_and_merge_in_mutates() -> None:
    a = sketch_of(np.array([1.0, 2.0]))
    b = sketch_of(np.array([3.0, -1.0, 0.0]))
    a_before, b_before = a.copy(), b.copy()
    m = a.merge(b)
    assert a == a_before and b == b_before and m.count == 5
    a.merge_in(b)
    assert a == m and b == b_before
    a.merge_in(a)  # merging with itself doubles every count
    assert a.count == 10 and a == m.merge(m)
    assert QuantileSketch().merge(QuantileSketch()) == QuantileSketch()


def test_merge_rejects_different_accuracies() -> None:
    with pytest.raises(ValueError, match="relative accuracy"):
        QuantileSketch(0.01).merge(QuantileSketch(0.02))
    with pytest.raises(ValueError, match="relative accuracy"):
        QuantileSketch(0.01).merge_in(QuantileSketch(0.02))


def test_add_many_equals_repeated_add() -> None:
    for values in datasets().values():
        one_by_one = QuantileSketch()
        for v in values[:700].tolist():
            one_by_one.add(v)
        assert one_by_one == sketch_of(values[:700])
    batched = QuantileSketch()
    batched.add_many(np.array([1.0, 2.0]))
    batched.add_many(np.array([], dtype=np.float64))
    batched.add_many(np.array([[3.0], [4.0]]))  # any shape
    assert batched == sketch_of(np.array([1.0, 2.0, 3.0, 4.0]))


@given(st.lists(st.floats(-1e6, 1e6), max_size=40), st.lists(st.floats(-1e6, 1e6), max_size=40))
def test_merge_of_sketches_is_sketch_of_concatenation(a: list[float], b: list[float]) -> None:
    sa, sb = sketch_of(np.array(a)), sketch_of(np.array(b))
    assert sa.merge(sb) == sketch_of(np.array(a + b)) == sb.merge(sa)


@pytest.mark.parametrize("name", list(datasets()))
def test_json_round_trip(name: str) -> None:
    s = sketch_of(datasets()[name])
    data = s.to_dict()
    text = json.dumps(data, allow_nan=False)
    back = QuantileSketch.from_dict(json.loads(text))
    assert back == s and back.count == s.count
    assert all(back.quantile(q) == s.quantile(q) for q in Q)
    assert len(text) < 20 * (len(s.positive_bins) + len(s.negative_bins)) + 200


def test_json_round_trip_with_gaps_and_empty() -> None:
    s = sketch_of(np.array([1e-3, 1e-3, 1e5, 1.0, 1.02, 1.0201, 1.1, -7.0, 0.0]))
    data = json.loads(json.dumps(s.to_dict()))
    assert QuantileSketch.from_dict(data) == s
    # runs: 1e-3 | 1.0 .. 1.1 (the 3 empty keys in between as 0) | 1e5
    assert [len(counts) for _, counts in data["positive"]] == [1, 6, 1]
    empty = QuantileSketch(0.05)
    assert QuantileSketch.from_dict(json.loads(json.dumps(empty.to_dict()))) == empty


def test_bucket_count_stays_small() -> None:
    s = sketch_of(np.geomspace(1e-3, 1e5, 100_000))
    assert len(s.positive_bins) <= 925  # log(1e8) / log(gamma) + 1


def test_equality() -> None:
    assert QuantileSketch() == QuantileSketch()
    assert QuantileSketch(0.01) != QuantileSketch(0.02)
    assert sketch_of(np.array([1.0])) != sketch_of(np.array([-1.0]))
    assert sketch_of(np.array([0.0])) != QuantileSketch()
    assert QuantileSketch() != "sketch"


def test_errors() -> None:
    s = sketch_of(np.array([1.0]))
    assert QuantileSketch().quantile(0.5) is None
    for q in (-0.01, 1.01, math.nan):
        with pytest.raises(ValueError, match="quantile"):
            s.quantile(q)
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError, match="finite"):
            s.add(bad)
        with pytest.raises(ValueError, match="finite"):
            s.add_many(np.array([2.0, bad]))
    assert s == sketch_of(np.array([1.0]))  # nothing added by a rejected batch
    for accuracy in (0.0, 1.0, -0.5, math.nan):
        with pytest.raises(ValueError, match="relative_accuracy"):
            QuantileSketch(accuracy)
    with pytest.raises(ValueError, match="malformed"):
        QuantileSketch.from_dict({"relative_accuracy": 0.01})
    with pytest.raises(ValueError, match="malformed"):
        QuantileSketch.from_dict(
            {"relative_accuracy": 0.01, "zero": 0, "positive": [[0, [-1]]], "negative": []}
        )


def test_with_bins_takes_over_ready_buckets() -> None:
    # the internal constructor behind Aggregate.from_groups: no validation, no copy
    prototype = QuantileSketch(0.05)
    positive, negative = {0: 2}, {6: 1}
    s = prototype._with_bins(positive, negative, 1, 4)
    assert s == sketch_of(np.array([1.0, 0.99, -1.8, 0.0]), 0.05) and s.count == 4
    assert s.positive_bins is positive and s.negative_bins is negative
    s.add(1.0)
    assert positive == {0: 3} and prototype == QuantileSketch(0.05) and prototype.count == 0
