"""The reliability spot-check: a second judge re-judges a seeded sample."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from chat_server import ChatServer
from test_eval_judge_runner import make_cases, run_judge

from monitor.evaluation.judge.client import JudgeClient
from monitor.evaluation.judge.progress import ProgressStore
from monitor.evaluation.judge.rubrics import (
    FAITHFULNESS_COMPLETENESS,
    GROUNDEDNESS_CORRECTNESS,
    Rubric,
)
from monitor.evaluation.judge.spot_check import ReliabilityReport, spot_check
from monitor.evaluation.judge.verdict import Verdict

CONTROVERSIAL = {1, 4, 6, 9}  # a harsh judge scores these 1, the lenient one 5
CASES = make_cases(10, {i: "CONTROVERSIAL" for i in CONTROVERSIAL})


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer(harsh_models={"judge-b"}) as running:
        yield running


@pytest.fixture
def first(server: ChatServer) -> list[Verdict]:
    return run_judge(server.url, CASES, None)


def check(
    url: str,
    verdicts: list[Verdict],
    *,
    model: str = "judge-b",
    rubric: Rubric = FAITHFULNESS_COMPLETENESS,
    fraction: float = 1.0,
    seed: int = 7,
    store: ProgressStore | None = None,
) -> ReliabilityReport:
    async def run() -> ReliabilityReport:
        async with JudgeClient(url, model, max_retries=0) as client:
            return await spot_check(
                verdicts,
                client,
                rubric,
                sample_fraction=fraction,
                seed=seed,
                min_n=1,
                max_n=None,
                store=store,
            )

    return asyncio.run(run())


def test_a_second_model_that_disagrees_on_some_cases(
    server: ChatServer, first: list[Verdict]
) -> None:
    report = check(server.url, first)
    assert (report.n, report.failed) == (10, 0)
    assert report.disagreement_rate == pytest.approx(0.4)
    assert {p.case_id for p in report.pairs if p.disagree} == {f"q{i}" for i in CONTROVERSIAL}
    assert server.calls(model="judge-b") == 10
    assert report.as_metrics() == {
        "disagreement_rate": pytest.approx(0.4),
        "spot_check_n": 10,
        "failed": 0,
        "seed": 7,
        "first": {"model": "judge-a", "prompt_version": "fc.v1"},
        "second": {"model": "judge-b", "prompt_version": "fc.v1"},
    }


def test_the_sample_is_seeded(server: ChatServer, first: list[Verdict]) -> None:
    report = check(server.url, first, fraction=0.5, seed=3)
    again = check(server.url, list(reversed(first)), fraction=0.5, seed=3)
    other = check(server.url, first, fraction=0.5, seed=4)
    assert report.n == 5 and report.pairs == again.pairs
    assert [p.case_id for p in other.pairs] != [p.case_id for p in report.pairs]
    disagreeing = sum(int(p.case_id[1:]) in CONTROVERSIAL for p in report.pairs)
    assert report.disagreement_rate == pytest.approx(disagreeing / 5)


def test_a_second_prompt_version_on_the_same_model(
    server: ChatServer, first: list[Verdict]
) -> None:
    strict = FAITHFULNESS_COMPLETENESS.variant(
        "fc.v1-strict",
        system_prompt=FAITHFULNESS_COMPLETENESS.system_prompt + "\nBe STRICT about support.",
    )
    report = check(server.url, first, model="judge-a", rubric=strict)
    assert report.disagreement_rate == pytest.approx(0.4)
    assert (report.second_model, report.second_prompt_version) == ("judge-a", "fc.v1-strict")
    assert server.calls(model="judge-b") == 0


def test_agreeing_judges(server: ChatServer) -> None:
    first = run_judge(server.url, make_cases(6), None, rubric=GROUNDEDNESS_CORRECTNESS)
    report = check(server.url, first, rubric=GROUNDEDNESS_CORRECTNESS)
    assert (report.n, report.disagreement_rate) == (6, 0.0)


def test_a_spot_check_resumes_from_its_store(
    server: ChatServer, first: list[Verdict], tmp_path: Path
) -> None:
    with ProgressStore(tmp_path / "spot.jsonl") as store:
        report = check(server.url, first, store=store)
    with ProgressStore(tmp_path / "spot.jsonl") as store:
        assert check(server.url, first, store=store).pairs == report.pairs
    assert server.calls(model="judge-b") == 10


def test_a_second_judge_that_fails_is_counted(server: ChatServer, first: list[Verdict]) -> None:
    server.fail_next(1, 400)  # one sampled case gets no verdict from judge-b
    report = check(server.url, first, fraction=0.3, seed=1)
    assert (report.n, report.failed) == (2, 1)


def test_misuse_is_refused(server: ChatServer, first: list[Verdict]) -> None:
    with pytest.raises(ValueError, match="must differ"):
        check(server.url, first, model="judge-a")
    with pytest.raises(ValueError, match="cannot be re-judged"):
        check(server.url, first, rubric=GROUNDEDNESS_CORRECTNESS)
    mixed = first + run_judge(server.url, CASES[:2], None, model="judge-c")
    with pytest.raises(ValueError, match="2 judges"):
        check(server.url, mixed)
    with pytest.raises(ValueError, match="no verdicts"):
        check(server.url, [])
    assert server.calls(model="judge-b") == 0
