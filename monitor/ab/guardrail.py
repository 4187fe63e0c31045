"""Guardrail metrics: is the treatment worse than the control by more than a margin?

A treatment that raises quality but doubles latency, or leaks more, should not ship on
its quality verdict. Each guardrail metric (higher is worse: latency, the rates of
injection blocks, leakage, abstention and CRAG ``incorrect``) gets a one-sided
always-valid test of ``H0: θ <= margin`` against ``θ > margin`` (``θ = μ_t - μ_c``, in the
metric's unit): the one-sided mixture SPRT
(:func:`~monitor.ab.msprt.one_sided_log_ratio` with ``x = θ̂ - margin``), the p-value
being the running minimum of ``1 / Λ⁺`` over the looks, valid when read after every
window. Its verdict (:data:`~monitor.events.ab_result.GuardrailVerdict`):

- ``worse_beyond_margin`` when that p-value is below ``alpha``;
- ``within_margin`` when the two-sided confidence sequence of the same metric has its
  upper end below the margin (the treatment is shown to be no worse than that);
- ``undecided`` otherwise, ``insufficient_data`` before a usable look.

The variance plug-ins and the mixing variance are those of
:class:`~monitor.ab.msprt.SequentialTest` (same ``kind`` and ``tau2``).

>>> from monitor.ab.summary import Moments
>>> test = GuardrailTest("mean", tau2=0.1, alpha=0.05, margin=50.0)
>>> p = test.update(Moments(400, 800.0, 200.0**2), Moments(400, 1600.0, 400.0**2))
>>> p < 1e-9, verdict(test.p_value, 0.05, 50.0, cs_high=900.0)
(True, 'worse_beyond_margin')
>>> test = GuardrailTest("mean", tau2=0.1, alpha=0.05, margin=50.0)
>>> p = test.update(Moments(400, 800.0, 200.0**2), Moments(400, 805.0, 200.0**2))
>>> round(p, 3), verdict(p, 0.05, 50.0, cs_high=45.0), verdict(p, 0.05, 50.0, cs_high=60.0)
(1.0, 'within_margin', 'undecided')
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from monitor.ab.msprt import DEFAULT_TAU2_MEAN, MetricKind, SequentialTest, one_sided_log_ratio
from monitor.ab.summary import Summary
from monitor.events.ab_result import GuardrailVerdict

__all__ = ["GuardrailTest", "verdict"]


@dataclass(slots=True)
class GuardrailTest:
    """The one-sided always-valid test of ``treatment - control > margin``."""

    kind: MetricKind = "mean"
    tau2: float = DEFAULT_TAU2_MEAN
    alpha: float = 0.05
    margin: float = 0.0
    looks: int = 0
    p_value: float | None = None
    _plugin: SequentialTest = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not math.isfinite(self.margin):
            raise ValueError(f"margin must be finite, got {self.margin!r}")
        self._plugin = SequentialTest(self.kind, self.tau2, self.alpha)

    def update(self, control: Summary, treatment: Summary) -> float | None:
        """One look at the (cumulative) summaries; returns the always-valid p-value."""
        look = self._plugin.estimate(control, treatment)
        if look is None:
            return self.p_value
        estimate, variance, mixing_variance = look
        log_ratio = one_sided_log_ratio(estimate - self.margin, variance, mixing_variance)
        p_look = 1.0 if log_ratio <= 0.0 else math.exp(-log_ratio)
        self.p_value = p_look if self.p_value is None else min(self.p_value, p_look)
        self.looks += 1
        return self.p_value

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; :meth:`from_dict` restores an equal test."""
        return {
            "kind": self.kind,
            "tau2": self.tau2,
            "alpha": self.alpha,
            "margin": self.margin,
            "looks": self.looks,
            "p_value": self.p_value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GuardrailTest:
        """The inverse of :meth:`to_dict`; ``ValueError`` on malformed data."""
        try:
            p = data["p_value"]
            return cls(
                data["kind"],
                float(data["tau2"]),
                float(data["alpha"]),
                float(data["margin"]),
                int(data["looks"]),
                None if p is None else float(p),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed GuardrailTest data: {exc!r}") from exc


def verdict(
    p_value: float | None, alpha: float, margin: float, cs_high: float | None
) -> GuardrailVerdict:
    """The guardrail verdict from the one-sided p-value and the two-sided sequence."""
    if p_value is None:
        return "insufficient_data"
    if p_value < alpha:
        return "worse_beyond_margin"
    if cs_high is not None and cs_high < margin:
        return "within_margin"
    return "undecided"
