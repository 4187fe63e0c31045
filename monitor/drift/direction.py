"""Which way is worse for each metric id.

Quality scores, grounding rates, labelled retrieval metrics and the unique-token ratio are
better when higher: a drop is the bad news. Everything else (0/1 rates of bad outcomes, as
``grounding.unsupported_answer`` and ``outcome.abstained``, redundancy, the injection score,
latencies, the dead-letter rate) is better when lower: a rise is the bad news.
Detectors and the diagnosis use this to report only changes for the worse.

>>> worse_direction("quality.overall"), worse_direction("latency_ms.total")
('down', 'up')
>>> higher_is_better("grounding.claim_support_rate"), higher_is_better("safety.leakage.detected")
(True, False)
>>> higher_is_better("grounding.unsupported_answer"), worse_direction("outcome.abstained")
(False, 'up')
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "HIGHER_IS_BETTER_PREFIXES",
    "LOWER_IS_BETTER",
    "Direction",
    "higher_is_better",
    "worse_direction",
]

Direction = Literal["down", "up"]

HIGHER_IS_BETTER_PREFIXES: tuple[str, ...] = (
    "quality.",
    "grounding.",
    "retrieval.",
    "context_quality.unique_token_ratio",
)
"""Metric ids (or prefixes) for which a higher value is better."""

LOWER_IS_BETTER: frozenset[str] = frozenset({"grounding.unsupported_answer"})
"""Metric ids under a higher-is-better prefix that are rates of bad news."""


def higher_is_better(metric: str) -> bool:
    """True when a drop of ``metric`` is a change for the worse."""
    return metric not in LOWER_IS_BETTER and metric.startswith(HIGHER_IS_BETTER_PREFIXES)


def worse_direction(metric: str) -> Direction:
    """``"down"`` when a drop is bad news, ``"up"`` when a rise is."""
    return "down" if higher_is_better(metric) else "up"
