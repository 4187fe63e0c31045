"""Verdicts to metrics: spec 001's pass rates and low-faithfulness analysis, spec 004's
unsupported claims."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from chat_server import ChatServer
from test_eval_judge_runner import make_cases, run_judge

from monitor.evaluation.judge.aggregate import aggregate
from monitor.evaluation.judge.rubrics import GROUNDEDNESS_CORRECTNESS

MARKERS = {0: "UNSUPPORTED", 1: "UNSUPPORTED", 2: "INCOMPLETE", 3: "CONTROVERSIAL"}


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer(harsh_models={"harsh"}) as running:
        yield running


def test_faithfulness_completeness_metrics(server: ChatServer) -> None:
    verdicts = run_judge(server.url, make_cases(10, MARKERS), None, model="harsh")
    metrics = aggregate(verdicts)
    assert (metrics["rubric"], metrics["model"], metrics["prompt_version"]) == (
        "faithfulness_completeness",
        "harsh",
        "fc.v1",
    )
    assert metrics["n"] == 10
    assert metrics["overall_pass_rate"] == pytest.approx(0.6)
    assert metrics["pass_rate"] == {"faithfulness": 0.7, "completeness": 0.9}
    assert metrics["failures"] == {"faithfulness": {"1": 1, "2": 2}, "completeness": {"2": 1}}
    faithfulness = [v.scores["faithfulness"] for v in verdicts]
    assert metrics["mean"]["faithfulness"] == pytest.approx(sum(faithfulness) / 10)
    low = metrics["low_faithfulness"]
    assert low["counts"] == {"completely_false": 1, "mostly_false": 2, "mixed": 0}
    assert low["completeness_failures"] == 1
    assert [c["case_id"] for c in low["cases"]] == ["q0", "q1", "q3"]
    assert all(c["analysis"] for c in low["cases"])
    assert metrics["prompt_tokens"] == sum(v.prompt_tokens for v in verdicts) > 0


def test_groundedness_correctness_metrics(server: ChatServer) -> None:
    verdicts = run_judge(server.url, make_cases(8, MARKERS), None, rubric=GROUNDEDNESS_CORRECTNESS)
    metrics = aggregate(verdicts)
    assert metrics["unsupported_claims"] == {"total": 2, "cases_with_any": 2, "rate": 0.25}
    assert metrics["pass_rate"]["groundedness"] == pytest.approx(6 / 8)
    assert "low_faithfulness" not in metrics


def test_one_judge_per_aggregate(server: ChatServer) -> None:
    cases = make_cases(2)
    mixed = run_judge(server.url, cases, None) + run_judge(server.url, cases, None, model="b")
    with pytest.raises(ValueError, match="2 judges"):
        aggregate(mixed)
    assert aggregate([]) == {"n": 0}
