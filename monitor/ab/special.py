"""Special functions behind the t and chi-square distributions, in plain Python.

- :func:`log_beta`: ``log B(a, b)``, with the Stirling remainder of each log-gamma taken
  apart (as R's ``lbeta``) so that large arguments (a t-distribution with a million degrees
  of freedom has ``a = 500000``) lose nothing to the cancellation of ``lgamma`` terms.
- :func:`incomplete_beta`: the regularized incomplete beta function ``I_x(a, b)`` *and* its
  complement ``1 - I_x(a, b)``, each to ~1e-14 relative. The modified Lentz continued
  fraction (Numerical Recipes, ``betacf``) is evaluated on the side where it converges
  fast, ``x < (a + 1) / (a + b + 2)``, giving that side to full relative precision; the
  other is one minus it, which is then not small. The caller passes ``y = 1 - x`` too
  (and, optionally, both logarithms), since it may know them more accurately than from
  ``x`` (a t-tail's ``y = t**2 / (df + t**2)``). When the fast side has ``x`` within
  1e-3 of 1 (``a`` large, as in a t-distribution with ``df`` in the thousands), the
  fraction is conditioned like ``1 / (1 - x)`` and is evaluated in 36-digit ``decimal``
  arithmetic from the exact ``1 - y``: in float it lost up to ``5e-17 · df`` relative
  (3.5e-11 at ``df = 7e5``).
- :func:`upper_gamma`: the regularized upper incomplete gamma function ``Q(a, x)``: a
  power series for ``P = 1 - Q`` when ``x < a + 1``, else the Lentz continued fraction.

>>> round(math.exp(log_beta(2.0, 3.0)), 15)  # B(2, 3) = 1/12
0.083333333333333
>>> i, c = incomplete_beta(2.0, 3.0, 0.4, 0.6)  # I_0.4(2, 3) = 0.5248
>>> round(i, 12), round(c, 12)
(0.5248, 0.4752)
>>> round(upper_gamma(1.0, 2.0), 15) == round(math.exp(-2.0), 15)  # Q(1, x) = e^-x
True
"""

from __future__ import annotations

import decimal
import math
from typing import TypeVar

__all__ = ["incomplete_beta", "log_beta", "upper_gamma"]

_EPS = 2.5e-16  # just over one ulp of 1.0
_TINY = 1e-300
_MAX_ITERATIONS = 1_000_000  # the continued fractions need ~sqrt(max(a, b)) terms
_Real = TypeVar("_Real", float, decimal.Decimal)
_LN_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)

# Stirling series of lgamma(x) - ((x - 1/2) log x - x + log sqrt(2 pi)): B_2k / (2k (2k-1))
_STIRLING = (
    1.0 / 12.0,
    -1.0 / 360.0,
    1.0 / 1260.0,
    -1.0 / 1680.0,
    1.0 / 1188.0,
    -691.0 / 360360.0,
    1.0 / 156.0,
)


def _lgamma_remainder(x: float) -> float:
    """``lgamma(x) - ((x - 0.5) log x - x + log sqrt(2 pi))`` for ``x >= 10`` (to < 1e-16)."""
    inverse = 1.0 / x
    square = inverse * inverse
    total = 0.0
    for coefficient in reversed(_STIRLING):
        total = total * square + coefficient
    return total * inverse


def log_beta(a: float, b: float) -> float:
    """``log B(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b)`` for ``a, b > 0``."""
    if not (a > 0.0 and b > 0.0):
        raise ValueError(f"log_beta needs a, b > 0, got {a!r}, {b!r}")
    p, q = min(a, b), max(a, b)
    total = p + q
    if p >= 10.0:
        correction = _lgamma_remainder(p) + _lgamma_remainder(q) - _lgamma_remainder(total)
        return (
            -0.5 * math.log(q)
            + _LN_SQRT_2PI
            + correction
            + (p - 0.5) * math.log(p / total)
            + q * math.log1p(-p / total)
        )
    if q >= 10.0:
        correction = _lgamma_remainder(q) - _lgamma_remainder(total)
        return (
            math.lgamma(p)
            + correction
            + p
            - p * math.log(total)
            + (q - 0.5) * math.log1p(-p / total)
        )
    return math.lgamma(p) + math.lgamma(q) - math.lgamma(total)


def _beta_fraction(a: _Real, b: _Real, x: _Real, one: _Real, tiny: _Real, eps: _Real) -> _Real:
    """The continued fraction of ``I_x(a, b) * a * B(a, b) / (x**a * (1 - x)**b)``
    (modified Lentz), in the arithmetic of the arguments (float, or Decimal when ``x`` is
    so close to 1 that its float rounding would matter); converges fast for ``x < (a + 1)
    / (a + b + 2)``."""
    qab, qap, qam = a + b, a + one, a - one
    c = one
    d = one - qab * x / qap
    d = one / (d if abs(d) >= tiny else tiny)
    h = d
    for m in range(1, _MAX_ITERATIONS + 1):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = one + aa * d
        d = one / (d if abs(d) >= tiny else tiny)
        c = one + aa / c
        c = c if abs(c) >= tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = one + aa * d
        d = one / (d if abs(d) >= tiny else tiny)
        c = one + aa / c
        c = c if abs(c) >= tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - one) <= eps:
            return h
    raise ArithmeticError(f"incomplete beta: no convergence for a={a}, b={b}, x={x}")


def _fraction(a: float, b: float, x: float, y: float) -> float:
    """:func:`_beta_fraction` at ``x = 1 - y``. For ``y`` below ``1e-3`` (a large ``a``,
    such as a t-distribution's ``df / 2``, puts the fast side there) the fraction depends
    on ``x`` through ``1 - x`` with a condition number ~``1 / y``, so the float ``x`` would
    cost ~``1e-16 / y`` relative: it is then evaluated in 36-digit decimal arithmetic from
    the exact ``1 - y`` (~0.1 ms)."""
    if y >= 1e-3:
        return _beta_fraction(a, b, x, 1.0, _TINY, _EPS)
    with decimal.localcontext() as context:
        context.prec = 36
        one = decimal.Decimal(1)
        value = _beta_fraction(
            decimal.Decimal(a),
            decimal.Decimal(b),
            one - decimal.Decimal(y),
            one,
            decimal.Decimal(_TINY),
            decimal.Decimal("1e-30"),
        )
        return float(value)


def incomplete_beta(
    a: float,
    b: float,
    x: float,
    y: float | None = None,
    *,
    log_x: float | None = None,
    log_y: float | None = None,
) -> tuple[float, float]:
    """``(I_x(a, b), 1 - I_x(a, b))`` for ``a, b > 0`` and ``0 <= x <= 1``; ``y`` is
    ``1 - x`` (computed from ``x`` when not given). ``log_x`` and ``log_y``, when given,
    are their logarithms, for an ``x`` so small that it underflows (a far t-tail)."""
    if not (a > 0.0 and b > 0.0):
        raise ValueError(f"incomplete_beta needs a, b > 0, got {a!r}, {b!r}")
    if y is None:
        y = 1.0 - x
    if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
        raise ValueError(f"incomplete_beta needs 0 <= x <= 1, got x={x!r}, y={y!r}")
    if log_x is None:
        log_x = _log(x) if x <= 0.5 else math.log1p(-y)
    if log_y is None:
        log_y = _log(y) if y <= 0.5 else math.log1p(-x)
    if log_x == -math.inf:
        return 0.0, 1.0
    if log_y == -math.inf:
        return 1.0, 0.0
    front = math.exp(a * log_x + b * log_y - log_beta(a, b))
    if x < (a + 1.0) / (a + b + 2.0):
        value = front * _fraction(a, b, x, y) / a
        return value, 1.0 - value
    complement = front * _fraction(b, a, y, x) / b
    return 1.0 - complement, complement


def _log(x: float) -> float:
    return math.log(x) if x > 0.0 else -math.inf


def upper_gamma(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function ``Q(a, x) = Γ(a, x) / Γ(a)`` for
    ``a > 0``, ``x >= 0``: to ~1e-14 relative when ``x >= a + 1`` (the upper tail, where
    it can be tiny), and absolute below (where it is above ~0.3)."""
    if not a > 0.0:
        raise ValueError(f"upper_gamma needs a > 0, got {a!r}")
    if not x >= 0.0:
        raise ValueError(f"upper_gamma needs x >= 0, got {x!r}")
    if x == 0.0:
        return 1.0
    if math.isinf(x):
        return 0.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1.0:
        term = total = 1.0 / a
        denominator = a
        for _ in range(_MAX_ITERATIONS):
            denominator += 1.0
            term *= x / denominator
            total += term
            if abs(term) <= abs(total) * _EPS:
                return 1.0 - total * math.exp(log_front)
        raise ArithmeticError(f"upper_gamma: no convergence for a={a}, x={x}")
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITERATIONS + 1):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = 1.0 / (d if abs(d) >= _TINY else _TINY)
        c = b + an / c
        c = c if abs(c) >= _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) <= _EPS:
            return math.exp(log_front) * h
    raise ArithmeticError(f"upper_gamma: no convergence for a={a}, x={x}")
