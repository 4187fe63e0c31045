"""Score every case with the stream's scorers, on every core for large runs.

:func:`score_case` is one case: the labelled event through
:func:`~monitor.pipeline.score_event`, read against the case by
:func:`~monitor.evaluation.metrics.case_metrics.evaluate_case` (with the live call's status
when ``--target`` asked the service). :func:`score_cases` runs it over the cases; from
:data:`PARALLEL_MIN_CASES` cases on, and where the OS can fork, the cases are split into
ranges scored by forked worker processes (which inherit the loaded cases, so nothing is
sent to them but two integers per range); results come back in case order.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from monitor.evaluation.datasets import EvalCase, Perspective
from monitor.evaluation.metrics.case_metrics import evaluate_case
from monitor.evaluation.results import CaseResult
from monitor.evaluation.runner.frozen_heap import frozen_heap
from monitor.evaluation.target import TargetResult
from monitor.pipeline import score_event
from monitor.scoring.score_scale import UNDECLARED, ScoreScales
from monitor.scoring.warm_up import warm_up

__all__ = ["PARALLEL_MIN_CASES", "score_case", "score_cases"]

PARALLEL_MIN_CASES = 4000
_RANGE = 500

Scored = tuple[CaseResult, dict[str, Any] | None]
_job: (
    tuple[Sequence[EvalCase], Mapping[str, TargetResult], Sequence[Perspective], bool, ScoreScales]
    | None
)
_job = None


def score_case(
    case: EvalCase,
    call: TargetResult | None,
    perspectives: Sequence[Perspective],
    keep_traces: bool,
    score_scales: ScoreScales = UNDECLARED,
) -> Scored:
    """One case's result, and its trace (event and scores) when it failed and
    ``keep_traces``; ``score_scales`` are the chunk score scales of an event that declares
    none."""
    event = case.labelled_event()
    scored = score_event(event, score_scales=score_scales) if event is not None else None
    if call is not None and (event is None or call.status != "ok"):
        result = evaluate_case(
            case, scored, perspectives=perspectives, status=call.status, error=call.error
        )
    else:
        result = evaluate_case(case, scored, perspectives=perspectives)
    if call is not None:
        result.signals["target_attempts"] = call.attempts
    trace = None
    if keep_traces and (result.status != "ok" or result.failed_perspectives()):
        trace = {
            "event": event.model_dump(mode="json") if event is not None else None,
            "scored": scored.model_dump(mode="json") if scored is not None else None,
        }
    return result, trace


def _score_range(bounds: tuple[int, int]) -> list[Scored]:
    assert _job is not None  # set by score_cases before the fork
    cases, live, perspectives, keep_traces, scales = _job
    return [
        score_case(case, live.get(case.case_id), perspectives, keep_traces, scales)
        for case in cases[bounds[0] : bounds[1]]
    ]


def score_cases(
    cases: Sequence[EvalCase],
    live: Mapping[str, TargetResult],
    perspectives: Sequence[Perspective],
    keep_traces: bool,
    *,
    on_done: Callable[[int], None] | None = None,
    workers: int | None = None,
    score_scales: ScoreScales = UNDECLARED,
) -> tuple[list[CaseResult], dict[str, dict[str, Any]]]:
    """Every case's result in case order, and the traces by case id (see the module
    docstring). ``on_done(n)`` reports progress; ``workers`` defaults to the CPU count."""
    global _job
    workers = workers or os.cpu_count() or 1
    scored: list[Scored] = []
    forkable = "fork" in multiprocessing.get_all_start_methods()
    if workers > 1 and forkable and len(cases) >= PARALLEL_MIN_CASES:
        ranges = [(i, min(i + _RANGE, len(cases))) for i in range(0, len(cases), _RANGE)]
        _job = (cases, live, perspectives, keep_traces, score_scales)
        warm_up()  # the forked workers share the tables instead of each building them
        try:  # frozen: the children's collector leaves the inherited heap uncopied
            with frozen_heap(), multiprocessing.get_context("fork").Pool(workers) as pool:
                for part in pool.imap(_score_range, ranges):
                    scored.extend(part)
                    if on_done is not None:
                        on_done(len(part))
        finally:
            _job = None
    else:
        for case in cases:
            scored.append(
                score_case(case, live.get(case.case_id), perspectives, keep_traces, score_scales)
            )
            if on_done is not None:
                on_done(1)
    traces = {result.case_id: trace for result, trace in scored if trace is not None}
    return [result for result, _ in scored], traces
