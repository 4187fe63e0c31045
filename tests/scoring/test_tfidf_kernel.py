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
from monitor.scoring.context_quality import _cosine_total, _norm, redundancy_tfidf

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


@st.composite
def _pairs(draw: st.DrawFn) -> tuple[list, dict[str, float], list[float]]:
    n = draw(st.integers(2, 8))
    idf2 = draw(st.dictionaries(_TERMS, _WEIGHTS, min_size=1))
    terms = sorted(idf2)
    norms = draw(st.lists(st.floats(0.01, 1e4), min_size=n, max_size=n))
    found = []
    for i in range(n - 1):
        for j in range(i + 1, n):
            shared = draw(st.lists(st.sampled_from(terms), min_size=1, max_size=12))
            products = draw(st.lists(st.integers(1, 10**6), min_size=len(shared)))
            found.append((i, j, tuple(shared), tuple(products[: len(shared)])))
    return found, idf2, norms


@settings(max_examples=300, deadline=None)
@given(_pairs())
def test_cosine_total_is_the_python_loop(case: tuple[list, dict[str, float], list[float]]) -> None:
    found, idf2, norms = case
    assert _TFIDF.cosine_total(found, idf2, norms).hex() == _cosine_total(found, idf2, norms).hex()


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(_TERMS, st.integers(1, 5000), min_size=1),
    st.dictionaries(_TERMS, _WEIGHTS),
    st.floats(0.5, 20.0),
)
def test_norm_is_the_python_norm(
    counts: dict[str, int], idf2: dict[str, float], single: float
) -> None:
    """Either set may be the smaller (the kernel walks the smaller one)."""
    keys, tf = frozenset(counts), Counter(counts)
    square_sum = sum(c * c for c in counts.values())
    assert (
        _TFIDF.norm(keys, tf, square_sum, idf2, single).hex()
        == _norm(keys, tf, square_sum, idf2, single).hex()
    )


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
    """None (the Python loop decides) for a non-finite weight or a count beyond 2 ** 31."""
    found = [(0, 1, ("a",), (2,))]
    assert _TFIDF.cosine_total(found, {"a": math.inf}, [1.0, 1.0]) is None
    assert _TFIDF.cosine_total(found, {"a": 0.5}, [1.0, math.nan]) is None
    keys, counts = frozenset({"a"}), Counter({"a": 2**31})
    assert _TFIDF.norm(keys, counts, 2**62, {"a": 2.0}, 1.0) is None


def test_the_kernel_refuses_what_it_cannot_read() -> None:
    with pytest.raises(TypeError):
        _TFIDF.cosine_total([], {}, ())
    with pytest.raises(TypeError):
        _TFIDF.cosine_total([(0, 1, ("a",))], {"a": 1.0}, [1.0, 1.0])
    with pytest.raises(ValueError):
        _TFIDF.cosine_total([(0, 5, ("a",), (1,))], {"a": 1.0}, [1.0, 1.0])
    with pytest.raises(KeyError):
        _TFIDF.cosine_total([(0, 1, ("b",), (1,))], {"a": 1.0}, [1.0, 1.0])
    with pytest.raises(ZeroDivisionError):
        _TFIDF.cosine_total([(0, 1, ("a",), (1,))], {"a": 1.0}, [0.0, 1.0])
    with pytest.raises(TypeError):
        _TFIDF.norm(["a"], {"a": 1}, 1, {"a": 1.0}, 1.0)
    with pytest.raises(KeyError):
        _TFIDF.norm(frozenset({"a"}), {}, 1, {"a": 1.0}, 1.0)


_COUNTS = st.dictionaries(_TERMS, st.integers(1, 2**40)).map(Counter)


@given(_COUNTS, _COUNTS)
def test_common_terms_are_the_python_ones(a: Counter[str], b: Counter[str]) -> None:
    """The same terms with the same products (the order is the smaller dict's)."""
    terms, products = _TFIDF.common_terms(a, b)
    assert len(terms) == len(products) == len(a.keys() & b.keys())
    assert dict(zip(terms, products, strict=True)) == {t: a[t] * b[t] for t in a.keys() & b.keys()}
    smaller = a if len(a) <= len(b) else b
    assert list(terms) == [t for t in smaller if t in a and t in b]
    with pytest.raises(TypeError):
        _TFIDF.common_terms(a, list(b))
