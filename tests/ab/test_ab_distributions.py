"""The scipy-backed distributions (``monitor.ab.distributions``): the wrappers give what
``scipy.stats`` gives (they call the same ufuncs), keep the edges scipy gets wrong or
leaves as NaN, and reject arguments outside the domain."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats as st

from monitor.ab.distributions import (
    chi2_sf,
    normal_cdf,
    normal_pdf,
    normal_ppf,
    normal_sf,
    t_cdf,
    t_ppf,
    t_sf,
)

RTOL = 1e-12


def test_t_matches_scipy_stats() -> None:
    rng = np.random.default_rng(1)
    for _ in range(300):
        df = float(np.exp(rng.uniform(0.0, math.log(1e7))))
        t = float(rng.standard_cauchy() * rng.choice([0.01, 1.0, 10.0]))
        assert t_sf(t, df) == pytest.approx(st.t.sf(t, df), rel=RTOL, abs=1e-300)
        assert t_cdf(t, df) == pytest.approx(st.t.cdf(t, df), rel=RTOL, abs=1e-300)
        p = float(rng.uniform(1e-9, 1.0 - 1e-9))
        assert t_ppf(p, df) == pytest.approx(st.t.ppf(p, df), rel=RTOL, abs=1e-15)


def test_normal_and_chi2_match_scipy_stats() -> None:
    rng = np.random.default_rng(4)
    for _ in range(300):
        x = float(rng.normal() * 10.0)
        assert normal_cdf(x) == pytest.approx(st.norm.cdf(x), rel=RTOL, abs=1e-300)
        assert normal_sf(x) == pytest.approx(st.norm.sf(x), rel=RTOL, abs=1e-300)
        assert normal_pdf(x) == pytest.approx(st.norm.pdf(x), rel=RTOL, abs=1e-300)
        p = float(10.0 ** rng.uniform(-300.0, 0.0)) * 0.999
        assert normal_ppf(p) == pytest.approx(st.norm.ppf(p), rel=RTOL)
        k = float(rng.integers(1, 101))
        y = float(rng.exponential(k) * rng.choice([0.05, 1.0, 3.0, 30.0]))
        assert chi2_sf(y, k) == pytest.approx(st.chi2.sf(y, k), rel=RTOL, abs=1e-300)


def test_edges() -> None:
    assert t_ppf(0.0, 4.0) == -math.inf and t_ppf(1.0, 4.0) == math.inf
    assert t_ppf(0.5, 0.7) == 0.0
    assert t_ppf(0.975, math.inf) == pytest.approx(normal_ppf(0.975), rel=1e-15)
    assert t_sf(1.5, math.inf) == pytest.approx(normal_sf(1.5), rel=1e-15)
    assert t_sf(math.inf, 3.0) == 0.0 and t_sf(-math.inf, 3.0) == 1.0
    assert normal_ppf(0.0) == -math.inf and normal_ppf(1.0) == math.inf
    assert chi2_sf(0.0, 3.0) == 1.0 and chi2_sf(-1.0, 3.0) == 1.0
    assert chi2_sf(math.inf, 3.0) == 0.0
    for bad in (0.0, -1.0, math.nan):
        with pytest.raises(ValueError):
            t_sf(1.0, bad)
    with pytest.raises(ValueError):
        t_ppf(1.5, 3.0)
    with pytest.raises(ValueError):
        t_sf(math.nan, 3.0)
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0.0)
