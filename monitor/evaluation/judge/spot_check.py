"""The judge reliability spot-check of spec 004: re-judge a seeded random sample with a
second judge and report how often the two disagree.

The second judge is a second model with the same rubric (option A: another
:class:`~monitor.evaluation.judge.client.JudgeClient`) or the same model with another
prompt version (option B: :meth:`~monitor.evaluation.judge.rubrics.Rubric.variant`). The
cases come from the verdicts themselves (each keeps its full judge input). Two verdicts
disagree when a score differs by more than ``max_score_difference`` (1) or one passes and
the other does not. A disagreement rate above 0.2 suggests an unstable judge.

>>> from types import SimpleNamespace as V
>>> disagree(V(scores={"a": 4, "b": 5}, passed=True), V(scores={"a": 5, "b": 4}, passed=True))
False
>>> disagree(V(scores={"a": 5}, passed=True), V(scores={"a": 3}, passed=False))
True
>>> disagree(V(scores={"a": 4}, passed=True), V(scores={"a": 3}, passed=False))  # crosses 4
True
>>> [v.key for v in sample([V(key=k) for k in "edcba"], fraction=0.4, seed=1)]
['a', 'b']
>>> len(sample([V(key=k) for k in "abc"], fraction=0.01, seed=1))  # at least min_n
1
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from monitor.evaluation.judge.case import case_hash
from monitor.evaluation.judge.client import JudgeClient
from monitor.evaluation.judge.progress import ProgressStore
from monitor.evaluation.judge.rubrics import Rubric
from monitor.evaluation.judge.runner import judge_all
from monitor.evaluation.judge.verdict import Verdict

__all__ = ["ReliabilityPair", "ReliabilityReport", "disagree", "sample", "spot_check"]


class _Scored(Protocol):
    @property
    def scores(self) -> dict[str, int]: ...

    @property
    def passed(self) -> bool: ...


class _Keyed(Protocol):
    @property
    def key(self) -> str: ...


K = TypeVar("K", bound=_Keyed)


def disagree(first: _Scored, second: _Scored, max_score_difference: int = 1) -> bool:
    """Whether two verdicts on one case disagree (see the module docstring)."""
    if first.passed != second.passed:
        return True
    shared = first.scores.keys() & second.scores.keys()
    return any(abs(first.scores[d] - second.scores[d]) > max_score_difference for d in shared)


def sample(
    verdicts: Sequence[K], fraction: float, seed: int, *, min_n: int = 1, max_n: int | None = None
) -> list[K]:
    """A seeded sample of ``round(fraction * len)`` verdicts (at least ``min_n``, at most
    ``max_n``), in key order. The same verdicts and seed give the same sample, in any input
    order."""
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction must be in (0, 1], got {fraction}")
    by_key = sorted(verdicts, key=lambda v: v.key)
    n = max(min_n, round(fraction * len(by_key)))
    if max_n is not None:
        n = min(n, max_n)
    n = min(n, len(by_key))
    return sorted(random.Random(seed).sample(by_key, n), key=lambda v: v.key)


@dataclass(frozen=True)
class ReliabilityPair:
    """One case judged twice."""

    case_id: str
    first_scores: dict[str, int]
    second_scores: dict[str, int]
    first_passed: bool
    second_passed: bool
    disagree: bool


@dataclass(frozen=True)
class ReliabilityReport:
    """The spot-check result. ``disagreement_rate`` is ``None`` when nothing was compared;
    ``failed`` counts sampled cases the second judge could not judge (left out of ``n``)."""

    disagreement_rate: float | None
    n: int
    pairs: tuple[ReliabilityPair, ...]
    first_model: str
    first_prompt_version: str
    second_model: str
    second_prompt_version: str
    seed: int
    failed: int = 0

    def as_metrics(self) -> dict[str, Any]:
        """The ``judge_reliability`` entry of the metrics (spec 004)."""
        return {
            "disagreement_rate": self.disagreement_rate,
            "spot_check_n": self.n,
            "failed": self.failed,
            "seed": self.seed,
            "first": {"model": self.first_model, "prompt_version": self.first_prompt_version},
            "second": {"model": self.second_model, "prompt_version": self.second_prompt_version},
        }


async def spot_check(
    verdicts: Sequence[Verdict],
    client: JudgeClient,
    rubric: Rubric,
    *,
    sample_fraction: float = 0.1,
    seed: int = 0,
    min_n: int = 10,
    max_n: int | None = 20,
    store: ProgressStore | None = None,
    concurrency: int = 4,
    max_score_difference: int = 1,
) -> ReliabilityReport:
    """Re-judge a seeded sample of ``verdicts`` with ``client`` and ``rubric`` (the second
    judge), and compare. Defaults follow spec 004: 10% of the set, 10 to 20 cases.

    The verdicts must all come from one judge (model and prompt version) with the same
    rubric name as ``rubric``, and the second judge must differ from it. With ``store``
    the re-judgements resume after a crash like any other.
    """
    if not verdicts:
        raise ValueError("nothing to spot-check: no verdicts")
    judges = {(v.rubric, v.model, v.prompt_version) for v in verdicts}
    if len(judges) != 1:
        raise ValueError(f"the verdicts come from {len(judges)} judges; spot-check one")
    [(rubric_name, first_model, first_version)] = judges
    if rubric_name != rubric.name:
        raise ValueError(f"{rubric_name} verdicts cannot be re-judged with {rubric.name}")
    if (client.model, rubric.prompt_version) == (first_model, first_version):
        raise ValueError("the second judge must differ in model or prompt version")
    chosen = sample(verdicts, sample_fraction, seed, min_n=min_n, max_n=max_n)
    second = await judge_all(
        [v.judge_input.case for v in chosen],
        client,
        rubric,
        store,
        concurrency=concurrency,
        on_error="skip",
    )
    by_key = {v.key: v for v in second}
    matched = [
        (
            first,
            by_key.get(
                case_hash(first.judge_input.case, rubric.name, client.model, rubric.prompt_version)
            ),
        )
        for first in chosen
    ]
    pairs = tuple(
        ReliabilityPair(
            case_id=first.case_id,
            first_scores=first.scores,
            second_scores=again.scores,
            first_passed=first.passed,
            second_passed=again.passed,
            disagree=disagree(first, again, max_score_difference),
        )
        for first, again in matched
        if again is not None
    )
    n = len(pairs)
    return ReliabilityReport(
        disagreement_rate=sum(p.disagree for p in pairs) / n if n else None,
        n=n,
        pairs=pairs,
        first_model=first_model,
        first_prompt_version=first_version,
        second_model=client.model,
        second_prompt_version=rubric.prompt_version,
        seed=seed,
        failed=len(chosen) - n,
    )
