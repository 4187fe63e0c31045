"""``--suite``: ``full`` runs every case; ``smoke`` a small, seeded, stratified subset for
pull requests (003's "fast" suite).

A smoke run takes the cases tagged ``smoke`` when the dataset has any (the dataset's
authors chose them). Otherwise it keeps up to :data:`SMOKE_PER_GROUP` cases of every
category, drawn with ``seed``, then one more case (also drawn) for each perspective no
kept case is labelled for, so every category and every perspective stays covered; the
cases keep their dataset order.

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
    rng = random.Random(seed)
    by_category: dict[str, list[int]] = defaultdict(list)
    for index, case in enumerate(cases):
        by_category[case.category or ""].append(index)
    chosen: set[int] = set()
    for category in sorted(by_category):
        members = by_category[category]
        chosen.update(rng.sample(members, min(SMOKE_PER_GROUP, len(members))))
    covered = {p for i in chosen for p in cases[i].perspectives}
    for perspective in sorted({p for case in cases for p in case.perspectives} - covered):
        if perspective not in covered:
            members = [i for i, case in enumerate(cases) if perspective in case.perspectives]
            pick = rng.choice(members)
            chosen.add(pick)
            covered.update(cases[pick].perspectives)
    return [cases[i] for i in sorted(chosen)]
