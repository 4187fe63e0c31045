"""score_cases: forked workers give exactly the sequential results, in case order."""

from __future__ import annotations

from pathlib import Path

import pytest

from monitor.evaluation.datasets import PERSPECTIVES, load_dataset
from monitor.evaluation.runner import scoring
from monitor.evaluation.runner.frozen_heap import frozen_heap

RECORDED = Path(__file__).resolve().parents[2] / "fixtures/evals/recorded_events.jsonl"


def test_forked_workers_match_the_sequential_run(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = load_dataset(RECORDED).cases * 3  # 36 cases, ranges of 5
    sequential, seq_traces = scoring.score_cases(cases, {}, PERSPECTIVES, True, workers=1)
    monkeypatch.setattr(scoring, "PARALLEL_MIN_CASES", 1)
    monkeypatch.setattr(scoring, "_RANGE", 5)
    done: list[int] = []
    with frozen_heap():  # nested inside the pool's own freeze: left alone
        forked, traces = scoring.score_cases(
            cases, {}, PERSPECTIVES, True, workers=2, on_done=done.append
        )
    assert sum(done) == len(cases) and max(done) == 5
    assert [r.model_dump() for r in forked] == [r.model_dump() for r in sequential]
    assert traces.keys() == seq_traces.keys() and traces
