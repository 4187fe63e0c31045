"""Thresholds, categories and the evidence combination shared by every part of the detector.

>>> action_for(0.39999), action_for(0.4), action_for(0.5)
('allow', 'warn', 'block')
>>> combine({"o_core": ("instruction_override", 0.85), "z_soft": ("instruction_override", 0.1)})
Injection(score=0.865, categories=['instruction_override'], action='block')
"""

from __future__ import annotations

from typing import Literal, get_args

from monitor.events.construct import construct
from monitor.events.scored_event import Injection

__all__ = [
    "BI",
    "BLOCK_THRESHOLD",
    "CATEGORIES",
    "DA",
    "IO",
    "JP",
    "MIN_CATEGORY_WEIGHT",
    "PE",
    "RO",
    "SCAN_HEAD",
    "SCAN_TAIL",
    "WARN_THRESHOLD",
    "Action",
    "AttackCategory",
    "Evidence",
    "action_for",
    "combine",
    "combined_score",
]

WARN_THRESHOLD = 0.40
BLOCK_THRESHOLD = 0.50

AttackCategory = Literal[
    "instruction_override",
    "prompt_extraction",
    "jailbreak_persona",
    "delimiter_attack",
    "role_override",
    "bypass_intent",
]
"""Spec 003 E's attack categories (an ``Injection``'s ``categories``)."""

CATEGORIES: tuple[AttackCategory, ...] = get_args(AttackCategory)
IO, PE, JP, DA, RO, BI = CATEGORIES

MIN_CATEGORY_WEIGHT = 0.25
"""A category is listed when one of its evidence items has at least this weight."""

SCAN_HEAD = 48_000
SCAN_TAIL = 16_000
"""Texts longer than ``SCAN_HEAD + SCAN_TAIL`` characters are scored on their first
``SCAN_HEAD`` and last ``SCAN_TAIL`` characters, which bounds the time per text."""

Action = Literal["allow", "warn", "block"]

Evidence = dict[str, tuple[str, float]]
"""Evidence item name -> (category, weight), in the order the items were found."""


def action_for(score: float) -> Action:
    """``block`` at ``score >= 0.50``, ``warn`` at ``>= 0.40``, else ``allow``.

    >>> action_for(0.0), action_for(0.39999), action_for(0.4), action_for(0.49999)
    ('allow', 'allow', 'warn', 'warn')
    >>> action_for(0.5), action_for(1.0)
    ('block', 'block')
    """
    if score >= BLOCK_THRESHOLD:
        return "block"
    if score >= WARN_THRESHOLD:
        return "warn"
    return "allow"


def combined_score(evidence: Evidence) -> tuple[float, list[str]]:
    """The noisy-OR ``1 - prod(1 - w)`` (rounded to 6 decimals; the items multiplied in
    the order they were found) and the sorted categories with an item of weight >=
    ``MIN_CATEGORY_WEIGHT``."""
    keep = 1.0
    cats: set[str] = set()
    for cat, w in evidence.values():
        keep *= 1.0 - w
        if w >= MIN_CATEGORY_WEIGHT:
            cats.add(cat)
    return round(1.0 - keep, 6), sorted(cats)


def combine(evidence: Evidence) -> Injection:
    """The ``Injection`` result for the evidence (see :func:`combined_score`)."""
    score, cats = combined_score(evidence)
    return construct(Injection, score=score, categories=cats, action=action_for(score))
