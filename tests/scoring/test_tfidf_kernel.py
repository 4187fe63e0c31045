"""The compiled TF-IDF loops (``monitor/scoring/_tfidf.c``) give what their Python
versions in :mod:`monitor.scoring.context_quality` give, to the bit."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.realtext import RealTextEvents
from monitor.scoring import context_quality
from monitor.scoring.context_quality import _tfidf_total, redundancy_tfidf

_TFIDF = context_quality._TFIDF
_TERMS = st.sampled_from([f"t{i}" for i in range(40)])
# idf^2 values as the module makes them (ln(..) + 1 squared), and arbitrary doubles
_WEIGHTS = st.one_of(
    st.integers(2, 20).map(lambda n: (math.log((1 + n) / 3) + 1) ** 2),
    st.floats(1e-6, 1e6, allow_nan=False, allow_infinity=False),
)


def test_the_tfidf_kernel_is_built() -> None:
    """``make test`` builds it (see ``test_injection_kernel.test_the_kernel_is_built``)."""
    assert _TFIDF is not None


_COUNTS = st.dictionaries(_TERMS, st.integers(1, 5000)).map(Counter)


@settings(max_examples=500, deadline=None)
@given(st.lists(_COUNTS, max_size=8), st.data())
def test_redundancy_is_the_python_loop(counts: list[Counter[str]], data: st.DataObject) -> None:
    """Weights as the module makes them (row[df] ** 2) or arbitrary, to the bit."""
    n = len(counts)
    if data.draw(st.booleans()):
        idf2_by_df = context_quality._IDF2[n]
        single = context_quality._IDF[n][1] ** 2 if n else 1.0
    else:
        idf2_by_df = data.draw(st.lists(_WEIGHTS, min_size=n + 1, max_size=n + 1))
        single = data.draw(_WEIGHTS)
    found = _TFIDF.redundancy(counts, idf2_by_df, single)
    assert found.hex() == _tfidf_total(counts, idf2_by_df, single).hex()


def test_redundancy_on_real_text_is_the_same_without_the_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """8 and 32 KB events of real prose, with and without passages reused."""
    events = [
        e
        for reuse, kb in ((True, 8), (False, 8), (True, 32), (False, 32))
        for e in RealTextEvents(seed=kb, size_kb=kb, reuse=reuse).events(15)
    ]
    texts = [[c["content"] for c in e["chunks"]][:20] for e in events]
    compiled = [redundancy_tfidf(t).hex() for t in texts]
    monkeypatch.setattr(context_quality, "_TFIDF", None)
    assert [redundancy_tfidf(t).hex() for t in texts] == compiled


def test_values_it_cannot_sum_are_left_to_python() -> None:
    """None (the Python loops decide) for a non-finite weight or a count beyond 2 ** 31."""
    pair = [Counter({"a": 2}), Counter({"a": 3})]
    assert _TFIDF.redundancy(pair, [0.0, 1.0, math.inf], 1.0) is None
    assert _TFIDF.redundancy(pair, [0.0, 1.0, math.nan], 1.0) is None
    for tf in (2**31, -1):
        assert _TFIDF.redundancy([Counter({"a": tf}), Counter({"a": 1})], [0, 1, 2.0], 1.0) is None


def test_the_kernel_refuses_what_it_cannot_read() -> None:
    with pytest.raises(TypeError):
        _TFIDF.redundancy((), [1.0], 1.0)
    with pytest.raises(TypeError):
        _TFIDF.redundancy([["a"]], [1.0, 1.0], 1.0)
    with pytest.raises(ValueError):
        _TFIDF.redundancy([Counter(), Counter()], [1.0, 1.0], 1.0)
    with pytest.raises(TypeError):
        _TFIDF.redundancy([Counter({"a": "x"}), Counter()], [1.0, 1.0, 1.0], 1.0)
