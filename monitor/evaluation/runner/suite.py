"""``--suite``: ``full`` runs every case; ``smoke`` a small, seeded, stratified subset for
pull requests (003's "fast" suite).

A smoke run takes the cases tagged ``smoke`` when the dataset has any (the dataset's
authors chose them). Otherwise it keeps up to :data:`SMOKE_PER_GROUP` cases of every
(perspective, category) group, drawn with ``seed``, so every perspective and every
category stays covered; the cases keep their dataset order.

>>> from monitor.evaluation.datasets.case import EvalCase
>>> cases = [EvalCase(case_id=f"q{i}", query="q", origin=f"f:{i}", category=c,
...     perspectives=frozenset({"pipeline"})) for i, c in enumerate("aaaaabbbbb")]
>>> [c.case_id for c in select_suite(cases, "smoke", seed=1)]
['q0', 'q1', 'q5', 'q7']
>>> len(select_suite(cases, "full", seed=1))
10
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Literal

from monitor.evaluation.datasets.case import EvalCase

__all__ = ["SMOKE_PER_GROUP", "Suite", "select_suite"]

Suite = Literal["full", "smoke"]
SMOKE_PER_GROUP = 2


def select_suite(cases: Sequence[EvalCase], suite: Suite, *, seed: int) -> list[EvalCase]:
    """The cases ``suite`` runs, in dataset order (see the module docstring)."""
    if suite == "full":
        return list(cases)
    tagged = [c for c in cases if "smoke" in c.tags]
    if tagged:
        return tagged
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, case in enumerate(cases):
        for perspective in sorted(case.perspectives) or ["none"]:
            groups[(perspective, case.category or "")].append(index)
    rng = random.Random(seed)
    chosen: set[int] = set()
    for key in sorted(groups):
        members = groups[key]
        chosen.update(rng.sample(members, min(SMOKE_PER_GROUP, len(members))))
    return [cases[i] for i in sorted(chosen)]
