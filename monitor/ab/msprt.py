"""Always-valid inference: the mixture SPRT (mSPRT) for the difference of two means.

A fixed-sample test read after every window rejects a true null far more often than its
alpha (20 looks at alpha 0.05: ~25 %). The mixture sequential probability ratio test of
Robbins (1970), as set out for A/B testing by Johari, Koomen, Pekelis & Walsh ("Peeking at
A/B tests", KDD 2017) and Johari, Pekelis & Walsh ("Always valid inference", Operations
Research 2022), gives a p-value and a confidence sequence that stay valid however often,
and whenever, they are read.

**Statistic.** At a look, from the control's and the treatment's summaries (counts
``n_c``, ``n_t``, means, variances ``σ_c²``, ``σ_t²``), the estimate ``θ̂ = m_t - m_c`` of
``θ = μ_t - μ_c`` is ~``N(θ, V)`` with ``V = σ_c² / n_c + σ_t² / n_t``. Mixing the
alternative over ``θ ~ N(0, τ²)``, the likelihood ratio against ``θ = 0`` is

    Λ = sqrt(V / (V + τ²)) · exp(τ² θ̂² / (2 V (V + τ²))).

Under the null ``Λ`` is a non-negative martingale with mean 1 (exactly so for normal data
of known variance and equal allocation; asymptotically with the plug-in variances below),
so by Ville's inequality ``P(Λ ever reaches 1/α) <= α``. Hence:

- the **always-valid p-value** ``p_n = min(1, min over looks k <= n of 1 / Λ_k)``: the
  chance that it *ever* drops below ``α`` under the null is at most ``α``; the latest
  look's own ``min(1, 1 / Λ_n)`` is kept too (``latest_p_value``);
- the **confidence sequence**: at each look the ``θ0`` with ``Λ(θ0) < 1/α`` (``Λ`` with
  ``θ̂ - θ0`` in place of ``θ̂``) form the interval

      θ̂ ± sqrt(V (V + τ²) / τ² · (2 log(1/α) + log((V + τ²) / V))),

  and the sequence is the running intersection of these intervals: it holds ``θ`` at
  every look at once with probability ``>= 1 - α``. ``p_n < α`` exactly when ``0`` has
  left the sequence. If the intersection ever becomes empty, no constant effect is
  consistent with every look: under a constant effect that happens with probability
  ``<= α``, so it is evidence that **the effect changed** during the experiment. The test
  then records the look (``emptied_look``, ``emptied_ms``) and keeps the last non-empty
  intersection unchanged (``emptied`` in the result); the verdict built on it is
  "effect changed" (:mod:`monitor.ab.verdict`).

**Plug-ins.** ``σ²`` is each side's sample variance for a ``"mean"`` metric and the
Bernoulli variance ``p̂ (1 - p̂)`` for a ``"proportion"``. The mixing variance is set on
the scale of the data: ``τ² = tau2 · s²`` with ``s²`` the pooled variance (``((n_c - 1)
σ_c² + (n_t - 1) σ_t²) / (n_c + n_t - 2)`` for means, ``p̄ (1 - p̄)`` at the pooled rate
for proportions), so ``tau2`` is the prior variance of the *standardised* effect (Cohen's
d) and one value suits quality scores, latencies in milliseconds and rare rates alike. A
larger ``tau2`` detects large effects sooner and small ones later.

A look needs ``min_samples`` values on each side (10 by default) and ``V > 0``; otherwise
it is skipped and nothing changes. This is not a significance rule but a condition of the
plug-in: the variance of two or three values is so noisy that, looked at from the second
event on, the false-positive rate of the mixture ratio reaches 2× alpha (0.105 at alpha
0.05 with ``tau2 = 1``, 200 looks of 2 events per arm, simulated); from ten values on it
is below alpha (0.037 in the same simulation, 0.029 at the default ``tau2``).

**State.** :class:`SequentialTest` keeps the number of looks, the running minimum of ``1 /
Λ`` and the running intersection; it is deterministic and round-trips through JSON with
:meth:`~SequentialTest.to_dict` / :meth:`~SequentialTest.from_dict`. Feed it cumulative
summaries (everything since the experiment began), one look per window.

>>> from monitor.ab.summary import Moments
>>> test = SequentialTest("mean", tau2=0.1, alpha=0.05)
>>> test.update(Moments(9, 0.7, 0.01), Moments(9, 0.8, 0.01))  # too few values: skipped
SequentialResult(p_value=None, cs_low=None, cs_high=None, emptied=False, latest_p_value=None)
>>> r = test.update(Moments(200, 0.70, 0.0225), Moments(200, 0.75, 0.0225))
>>> round(r.p_value, 4), round(r.cs_low, 4), round(r.cs_high, 4)
(0.0212, 0.0044, 0.0956)
>>> r = test.update(Moments(400, 0.70, 0.0225), Moments(400, 0.74, 0.0225))
>>> round(r.p_value, 6), round(r.cs_low, 4), round(r.cs_high, 4)
(0.005246, 0.0073, 0.0727)
>>> SequentialTest.from_dict(test.to_dict()) == test
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from monitor.ab.distributions import scipy_special
from monitor.ab.summary import Summary

__all__ = [
    "DEFAULT_TAU2_MEAN",
    "DEFAULT_TAU2_PROPORTION",
    "MetricKind",
    "SequentialResult",
    "SequentialTest",
    "mixture_log_ratio",
    "mixture_radius",
    "one_sided_log_ratio",
]

MetricKind = Literal["mean", "proportion"]

DEFAULT_TAU2_MEAN = 0.1
"""Mixing variance of the standardised effect for means: effects of ~0.3 SD (0.05 on a
quality score of SD 0.15) are found within a few hundred events per arm."""

DEFAULT_TAU2_PROPORTION = 0.01
"""Mixing variance of the standardised effect for rates: small shifts (a leakage rate of
1 % doubling is ~0.1 SD) are what matter there."""


@dataclass(frozen=True, slots=True)
class SequentialResult:
    """The always-valid p-value and confidence sequence after the latest look (``None``
    before the first usable look)."""

    p_value: float | None
    cs_low: float | None
    cs_high: float | None
    emptied: bool = False
    latest_p_value: float | None = None


def mixture_log_ratio(estimate: float, variance: float, mixing_variance: float) -> float:
    """``log Λ`` for the estimate ``θ̂`` of variance ``V`` under the ``N(0, τ²)`` mixture."""
    total = variance + mixing_variance
    return 0.5 * math.log(variance / total) + (
        mixing_variance * estimate * estimate / (2.0 * variance * total)
    )


def one_sided_log_ratio(excess: float, variance: float, mixing_variance: float) -> float:
    """``log Λ⁺`` of the one-sided mixture: ``θ̂ - θ0 = excess`` of variance ``V``, the
    alternative ``θ = θ0 + δ`` mixed over the half-normal ``δ ~ |N(0, τ²)|``:

        Λ⁺ = 2 sqrt(V / (V + τ²)) exp(τ² x² / (2 V (V + τ²))) Φ(τ x / sqrt(V (V + τ²))).

    Each ``δ > 0`` gives a likelihood ratio of mean 1 at ``θ = θ0`` and at most 1 below
    it, so ``Λ⁺`` is a non-negative supermartingale under ``θ <= θ0`` and Ville's
    inequality bounds ``P(Λ⁺ ever >= 1/α)`` by ``α``: a one-sided always-valid test.

    >>> round(one_sided_log_ratio(0.0, 1.0, 1.0), 12) == round(0.5 * math.log(0.5), 12)
    True
    """
    total = variance + mixing_variance
    scale = math.sqrt(variance * total)
    return (
        math.log(2.0)
        + 0.5 * math.log(variance / total)
        + mixing_variance * excess * excess / (2.0 * variance * total)
        + float(scipy_special().log_ndtr(math.sqrt(mixing_variance) * excess / scale))
    )


def mixture_radius(variance: float, mixing_variance: float, alpha: float) -> float:
    """The half-width of the per-look ``1 - α`` mixture interval around ``θ̂``."""
    total = variance + mixing_variance
    return math.sqrt(
        variance
        * total
        / mixing_variance
        * (2.0 * math.log(1.0 / alpha) + math.log1p(mixing_variance / variance))
    )


@dataclass(slots=True)
class SequentialTest:
    """The mSPRT of ``treatment - control`` on one metric, updated look by look."""

    kind: MetricKind = "mean"
    tau2: float = DEFAULT_TAU2_MEAN
    alpha: float = 0.05
    min_samples: int = 10
    looks: int = 0
    p_value: float | None = None
    cs_low: float | None = None
    cs_high: float | None = None
    emptied_look: int | None = None
    emptied_ms: int | None = None
    latest_p_value: float | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("mean", "proportion"):
            raise ValueError(f"kind must be 'mean' or 'proportion', got {self.kind!r}")
        if not (math.isfinite(self.tau2) and self.tau2 > 0.0):
            raise ValueError(f"tau2 must be > 0, got {self.tau2!r}")
        if not 0.0 < self.alpha < 1.0:
            raise ValueError(f"alpha must be in (0, 1), got {self.alpha!r}")
        if self.min_samples < 2:
            raise ValueError(f"min_samples must be >= 2, got {self.min_samples!r}")

    @property
    def result(self) -> SequentialResult:
        """The current always-valid p-value and confidence sequence."""
        return SequentialResult(
            self.p_value,
            self.cs_low,
            self.cs_high,
            self.emptied_look is not None,
            self.latest_p_value,
        )

    def estimate(self, control: Summary, treatment: Summary) -> tuple[float, float, float] | None:
        """``(θ̂, V, τ²)`` of a look at these summaries, ``None`` when it cannot be used."""
        return self._look(control, treatment)

    def update(
        self, control: Summary, treatment: Summary, end_ms: int | None = None
    ) -> SequentialResult:
        """One look at the (cumulative) summaries ending at ``end_ms``; returns the
        updated result."""
        look = self._look(control, treatment)
        if look is None:
            return self.result
        estimate, variance, mixing_variance = look
        p_look = min(1.0, math.exp(-mixture_log_ratio(estimate, variance, mixing_variance)))
        self.latest_p_value = p_look
        radius = mixture_radius(variance, mixing_variance, self.alpha)
        low, high = estimate - radius, estimate + radius
        if self.p_value is None or self.cs_low is None or self.cs_high is None:
            self.p_value, self.cs_low, self.cs_high = p_look, low, high
        else:
            self.p_value = min(self.p_value, p_look)
            new_low, new_high = max(self.cs_low, low), min(self.cs_high, high)
            if self.emptied_look is not None:
                pass  # the sequence broke earlier: it stays as it was then
            elif new_low > new_high:  # no constant effect fits every look
                self.emptied_look, self.emptied_ms = self.looks + 1, end_ms
            else:
                self.cs_low, self.cs_high = new_low, new_high
        self.looks += 1
        return self.result

    def _look(self, control: Summary, treatment: Summary) -> tuple[float, float, float] | None:
        """``(θ̂, V, τ²)`` for this look, or ``None`` when it cannot be used."""
        n_c, n_t = control.count, treatment.count
        m_c, m_t = control.mean, treatment.mean
        if n_c < self.min_samples or n_t < self.min_samples or m_c is None or m_t is None:
            return None
        if self.kind == "proportion":
            p_c, p_t = min(max(m_c, 0.0), 1.0), min(max(m_t, 0.0), 1.0)
            v_c, v_t = p_c * (1.0 - p_c), p_t * (1.0 - p_t)
            pooled_rate = (n_c * p_c + n_t * p_t) / (n_c + n_t)
            scale = pooled_rate * (1.0 - pooled_rate)
        else:
            if control.variance is None or treatment.variance is None:
                return None
            v_c, v_t = control.variance, treatment.variance
            scale = ((n_c - 1) * v_c + (n_t - 1) * v_t) / (n_c + n_t - 2)
        variance = v_c / n_c + v_t / n_t
        if not (variance > 0.0 and scale > 0.0):
            return None
        return m_t - m_c, variance, self.tau2 * scale

    # ------------------------------------------------------------------ serialising

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; :meth:`from_dict` restores an equal test."""
        return {
            "kind": self.kind,
            "tau2": self.tau2,
            "alpha": self.alpha,
            "min_samples": self.min_samples,
            "looks": self.looks,
            "p_value": self.p_value,
            "cs_low": self.cs_low,
            "cs_high": self.cs_high,
            "emptied_look": self.emptied_look,
            "emptied_ms": self.emptied_ms,
            "latest_p_value": self.latest_p_value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SequentialTest:
        """The inverse of :meth:`to_dict`; ``ValueError`` on malformed data."""
        try:
            kind = data["kind"]
            if kind not in ("mean", "proportion"):
                raise ValueError(f"kind must be 'mean' or 'proportion', got {kind!r}")
            return cls(
                kind,
                float(data["tau2"]),
                float(data["alpha"]),
                int(data["min_samples"]),
                int(data["looks"]),
                _optional_float(data["p_value"]),
                _optional_float(data["cs_low"]),
                _optional_float(data["cs_high"]),
                _optional_int(data.get("emptied_look")),
                _optional_int(data.get("emptied_ms")),
                _optional_float(data.get("latest_p_value")),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed SequentialTest data: {exc!r}") from exc


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)
