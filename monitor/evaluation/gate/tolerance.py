"""``Tolerance``: how much a metric may worsen against the baseline before the gate looks
at it, and the default of every metric id.

The allowed worsening is ``max(absolute, relative × |baseline|)``, in the metric's own
units. Defaults (:func:`default_tolerance`): latency percentiles (``latency_ms.*``) 10 %
of the baseline; count-like means (unsupported claims, numeric fabrications, forbidden
claims per answer, fact dispersion) 0.1; the judge's 1-5 / 0-5 scores 0.1; every other
metric (rates and 0-1 scores) 0.02.

>>> Tolerance().allowed(0.8), Tolerance(absolute=0.0, relative=0.1).allowed(-250.0)
(0.02, 25.0)
>>> default_tolerance("latency_ms.total.p95")
Tolerance(absolute=0.0, relative=0.1)
>>> default_tolerance("judge.faithfulness"), default_tolerance("judge.fc_pass")
(Tolerance(absolute=0.1, relative=0.0), Tolerance(absolute=0.02, relative=0.0))
>>> default_tolerance("grounding.unsupported_claims").absolute
0.1
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["COUNT_LIKE_METRICS", "Tolerance", "default_tolerance"]

COUNT_LIKE_METRICS: frozenset[str] = frozenset(
    {
        "grounding.unsupported_claims",
        "grounding.numeric_fabrications",
        "grounding.forbidden_claims_found",
        "context_quality.fact_dispersion",
    }
)
"""``mean`` metrics that count things per answer (not bounded by 1)."""


@dataclass(frozen=True, slots=True)
class Tolerance:
    """The allowed worsening: ``max(absolute, relative × |baseline|)`` (both ``>= 0``)."""

    absolute: float = 0.02
    relative: float = 0.0

    def __post_init__(self) -> None:
        for name in ("absolute", "relative"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0.0):
                raise ValueError(f"Tolerance.{name} must be a finite number >= 0, got {value!r}")

    def allowed(self, baseline: float) -> float:
        """The worsening allowed from ``baseline``, in the metric's units."""
        return max(self.absolute, self.relative * abs(baseline))


def default_tolerance(metric_id: str) -> Tolerance:
    """The default tolerance of ``metric_id`` (any id: unknown ones get the 0.02 default)."""
    if metric_id.startswith("latency_ms."):
        return Tolerance(absolute=0.0, relative=0.10)
    if metric_id in COUNT_LIKE_METRICS:
        return Tolerance(absolute=0.1)
    if metric_id.startswith("judge.") and not metric_id.endswith("_pass"):
        return Tolerance(absolute=0.1)
    return Tolerance()
