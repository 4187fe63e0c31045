"""The normal, Student t and chi-square distributions the A/B tests need; pure Python.

- normal: :func:`normal_cdf` / :func:`normal_sf` from ``math.erfc`` (full relative precision
  in both tails), :func:`normal_ppf` from ``statistics.NormalDist.inv_cdf`` (Wichura's
  AS 241, ~1e-16 relative);
- Student t with any real ``df > 0`` (Welch's degrees of freedom are fractional; ``df =
  math.inf`` is the normal): :func:`t_cdf` / :func:`t_sf` from the regularized incomplete
  beta function (:mod:`monitor.ab.special`); :func:`t_ppf` by Newton's method, safeguarded
  by bisection, on ``log P(T > t)`` against ``log t`` in the tails (``p < 0.25`` or ``p >
  0.75``) and on ``P(0 < T < t)`` near the centre, so that both stay precise;
- chi-square: :func:`chi2_sf`, the regularized upper incomplete gamma ``Q(k/2, x/2)``.

Accuracy (checked against ``scipy.stats`` in ``tests/ab/test_distributions.py``): every
probability to 1e-9 *relative* (in practice ~1e-13), so tiny tail probabilities are right
too, not merely near zero; quantiles to 1e-9 relative (absolute 1e-12 within 1e-12 of the
median, where the quantile itself is ~0 and only absolute precision has a meaning).

>>> round(normal_cdf(1.959963984540054), 12), round(normal_ppf(0.975), 12)
(0.975, 1.95996398454)
>>> round(t_sf(2.0, 10), 12), round(t_ppf(0.975, 10), 12)
(0.036694017385, 2.228138851986)
>>> t_cdf(-2.0, 10) == t_sf(2.0, 10), t_ppf(0.5, 3.5), t_ppf(0.025, math.inf) == normal_ppf(0.025)
(True, 0.0, True)
>>> round(chi2_sf(3.841458820694124, 1), 12)
0.05
"""

from __future__ import annotations

import math
from collections.abc import Callable
from statistics import NormalDist

from monitor.ab.special import incomplete_beta, log_beta, upper_gamma

__all__ = [
    "chi2_sf",
    "normal_cdf",
    "normal_pdf",
    "normal_ppf",
    "normal_sf",
    "t_cdf",
    "t_pdf",
    "t_ppf",
    "t_sf",
]

_SQRT2 = math.sqrt(2.0)
_LN_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
_STANDARD_NORMAL = NormalDist()
_MAX = 1.7976931348623157e308
_LOG_MAX = math.log(_MAX)


# ---------------------------------------------------------------------- normal


def normal_cdf(x: float) -> float:
    """``P(Z <= x)`` for a standard normal ``Z``."""
    return 0.5 * math.erfc(-x / _SQRT2)


def normal_sf(x: float) -> float:
    """``P(Z > x)`` for a standard normal ``Z``."""
    return 0.5 * math.erfc(x / _SQRT2)


def normal_pdf(x: float) -> float:
    """The standard normal density."""
    return math.exp(-0.5 * x * x - _LN_SQRT_2PI)


def normal_ppf(p: float) -> float:
    """The ``x`` with ``P(Z <= x) = p``; ``-inf`` / ``inf`` for ``p`` 0 / 1."""
    _check_probability(p)
    if p == 0.0:
        return -math.inf
    if p == 1.0:
        return math.inf
    return _STANDARD_NORMAL.inv_cdf(p)


# ---------------------------------------------------------------------- Student t


def t_sf(t: float, df: float) -> float:
    """``P(T > t)`` for Student's t with ``df > 0`` degrees of freedom."""
    _check_df(df)
    if math.isnan(t):
        raise ValueError("t_sf: t is NaN")
    if math.isinf(df):
        return normal_sf(t)
    if t == 0.0:
        return 0.5
    tail, central = _t_halves(abs(t), df)
    return tail if t > 0.0 else 0.5 + central


def t_cdf(t: float, df: float) -> float:
    """``P(T <= t)`` for Student's t with ``df > 0`` degrees of freedom."""
    return t_sf(-t, df)


def t_pdf(t: float, df: float) -> float:
    """Student's t density."""
    _check_df(df)
    if math.isinf(df):
        return normal_pdf(t)
    if math.isinf(t):
        return 0.0
    return math.exp(
        -log_beta(0.5 * df, 0.5) - 0.5 * math.log(df) - 0.5 * (df + 1.0) * math.log1p(t * t / df)
    )


def t_ppf(p: float, df: float) -> float:
    """The ``t`` with ``P(T <= t) = p``; ``-inf`` / ``inf`` for ``p`` 0 / 1."""
    _check_probability(p)
    _check_df(df)
    if math.isinf(df):
        return normal_ppf(p)
    if p == 0.0:
        return -math.inf
    if p == 1.0:
        return math.inf
    if p == 0.5:
        return 0.0
    sign = 1.0 if p > 0.5 else -1.0
    tail = 1.0 - p if p > 0.5 else p  # exact (Sterbenz) for p >= 0.5
    if tail >= 0.25:
        return sign * _t_central_quantile(abs(p - 0.5), df)  # p - 0.5 is exact here
    return sign * _t_tail_quantile(tail, df)


def _t_halves(t: float, df: float) -> tuple[float, float]:
    """``(P(T > t), P(0 < T < t))`` for ``t > 0``, each to full relative precision:
    ``P(T > t) = I_x(df/2, 1/2) / 2`` with ``x = df / (df + t**2)``, ``y = 1 - x``."""
    if math.isinf(t):
        return 0.0, 0.5
    root_df = math.sqrt(df)
    if t <= root_df:  # x = 1 / (1 + r2) with r2 = t**2 / df, computed without overflow
        r2 = (t / root_df) ** 2
        log_x = -math.log1p(r2)
        x, y = 1.0 / (1.0 + r2), r2 / (1.0 + r2)
        log_y = math.log(y) if y > 0.0 else -math.inf
    else:
        i2 = (root_df / t) ** 2
        log_x = -2.0 * (math.log(t) - 0.5 * math.log(df)) - math.log1p(i2)
        x, y = i2 / (1.0 + i2), 1.0 / (1.0 + i2)
        log_y = -math.log1p(i2)
    below, above = incomplete_beta(0.5 * df, 0.5, x, y, log_x=log_x, log_y=log_y)
    return 0.5 * below, 0.5 * above


def _t_central_quantile(central: float, df: float) -> float:
    """The ``t > 0`` with ``P(0 < T < t) = central`` (``0 < central <= 0.25``)."""

    def residual(t: float) -> tuple[float, float]:
        return _t_halves(t, df)[1] - central, t_pdf(t, df)

    guess = _cornish_fisher(-normal_ppf(0.5 - central), df)
    return _solve_increasing(residual, guess, lower=0.0)


def _t_tail_quantile(tail: float, df: float) -> float:
    """The ``t > 0`` with ``P(T > t) = tail`` (``0 < tail < 0.25``), solved in ``u = log t``
    so that heavy (power-law) tails converge as fast as light ones."""
    log_tail = math.log(tail)
    if _t_halves(_MAX, df)[0] > tail:
        return math.inf  # beyond the largest float (tiny tails with df < 1)

    def residual(u: float) -> tuple[float, float]:
        t = math.exp(min(u, _LOG_MAX))
        upper = _t_halves(t, df)[0]
        if upper <= 0.0:
            return math.inf, 0.0
        return log_tail - math.log(upper), t * t_pdf(t, df) / upper

    guess = _cornish_fisher(-normal_ppf(tail), df)
    u = _solve_increasing(residual, math.log(guess), lower=-math.inf, absolute=1e-16)
    return math.exp(u) if u < _LOG_MAX else math.inf  # beyond the largest float


def _cornish_fisher(z: float, df: float) -> float:
    """A starting point: the normal quantile corrected to second order in ``1 / df``."""
    z2 = z * z
    guess = z * (
        1.0 + (z2 + 1.0) / (4.0 * df) + (5.0 * z2 * z2 + 16.0 * z2 + 3.0) / (96.0 * df * df)
    )
    return guess if math.isfinite(guess) and guess > 0.0 else max(z, 1e-3)


def _solve_increasing(
    residual: Callable[[float], tuple[float, float]],
    guess: float,
    lower: float,
    absolute: float = 0.0,
) -> float:
    """The root of an increasing ``residual`` (returning value and derivative) above
    ``lower``: Newton's method kept inside a bracket (which it first widens by doubling
    steps when one side is still open), bisecting when a step would leave it; stops when
    a step is below ``4e-16`` relative plus ``absolute``."""
    low, high = lower, math.inf
    x = guess
    for _ in range(500):
        value, slope = residual(x)
        if value == 0.0:
            return x
        if value < 0.0:
            low = x
        else:
            high = x
        newton = x - value / slope if math.isfinite(value) and slope > 0.0 else math.nan
        if low < newton < high:
            candidate = newton
        elif math.isinf(high):
            candidate = x + max(1.0, abs(x))
        elif math.isinf(low):
            candidate = x - max(1.0, abs(x))
        else:
            candidate = 0.5 * (low + high)
        if abs(candidate - x) <= 4e-16 * abs(candidate) + absolute or candidate in (low, high):
            return candidate
        x = candidate
    raise ArithmeticError("t_ppf: Newton iteration did not converge")


# ---------------------------------------------------------------------- chi-square


def chi2_sf(x: float, k: float) -> float:
    """``P(X > x)`` for a chi-square ``X`` with ``k > 0`` degrees of freedom."""
    if not k > 0.0:
        raise ValueError(f"chi2_sf needs k > 0, got {k!r}")
    if math.isnan(x):
        raise ValueError("chi2_sf: x is NaN")
    if x <= 0.0:
        return 1.0
    return upper_gamma(0.5 * k, 0.5 * x)


# ---------------------------------------------------------------------- checks


def _check_probability(p: float) -> None:
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"probability must be in [0, 1], got {p!r}")


def _check_df(df: float) -> None:
    if not df > 0.0:
        raise ValueError(f"degrees of freedom must be > 0, got {df!r}")
