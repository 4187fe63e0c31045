"""judge_all against the chat server: verdict records, skip-what-is-done, crash recovery."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from chat_server import ChatServer
from polling import sigkill_when, wait_until

from monitor.evaluation.judge.case import JudgeCase, case_hash
from monitor.evaluation.judge.client import JudgeClient
from monitor.evaluation.judge.errors import JudgeError
from monitor.evaluation.judge.progress import ProgressStore
from monitor.evaluation.judge.rubrics import (
    FAITHFULNESS_COMPLETENESS,
    GROUNDEDNESS_CORRECTNESS,
    Rubric,
)
from monitor.evaluation.judge.runner import OnError, judge_all
from monitor.evaluation.judge.verdict import Verdict

REPO = Path(__file__).resolve().parents[3]


def make_cases(n: int, markers: dict[int, str] | None = None) -> list[JudgeCase]:
    """``n`` cases; ``markers`` puts a chat-server marker into some answers."""
    return [
        JudgeCase(
            case_id=f"q{i}",
            question=f"Question {i}?",
            context=(f"Fact {i}.",),
            answer=f"Answer {i}. {(markers or {}).get(i, '')}".strip(),
        )
        for i in range(n)
    ]


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer() as running:
        yield running


def run_judge(
    url: str,
    cases: Sequence[JudgeCase],
    store: ProgressStore | None,
    *,
    model: str = "judge-a",
    rubric: Rubric = FAITHFULNESS_COMPLETENESS,
    on_error: OnError = "raise",
    concurrency: int = 4,
    on_verdict: Callable[[Verdict], None] | None = None,
) -> list[Verdict]:
    async def run() -> list[Verdict]:
        async with JudgeClient(url, model, max_retries=0) as client:
            return await judge_all(
                cases,
                client,
                rubric,
                store,
                concurrency=concurrency,
                on_error=on_error,
                on_verdict=on_verdict,
            )

    return asyncio.run(run())


def test_verdicts_keep_the_judge_and_its_full_input(server: ChatServer, tmp_path: Path) -> None:
    cases = make_cases(4, {1: "UNSUPPORTED"})
    with ProgressStore(tmp_path / "p.jsonl") as store:
        verdicts = run_judge(server.url, cases, store, rubric=GROUNDEDNESS_CORRECTNESS)
    assert [v.case_id for v in verdicts] == ["q0", "q1", "q2", "q3"]
    sent = {r.first_user_message: r.body for r in server.requests()}
    for case, v in zip(cases, verdicts, strict=True):
        assert v.key == case_hash(case, "groundedness_correctness", "judge-a", "gc.v1")
        assert (v.rubric, v.model, v.prompt_version) == (
            "groundedness_correctness",
            "judge-a",
            "gc.v1",
        )
        assert v.prompt_sha256 == GROUNDEDNESS_CORRECTNESS.prompt_sha256
        assert v.judge_input.case == case
        request = sent[v.judge_input.request["messages"][1]["content"]]
        assert v.judge_input.request == request  # exactly what was sent
        assert v.judge_input.request["temperature"] == 0
        assert v.prompt_tokens > 0 and v.completion_tokens > 0 and v.requests == 1
        assert v.served_model == "judge-a" and v.system_fingerprint == "fp_chat_server"
    assert verdicts[1].scores["groundedness"] == 1 and not verdicts[1].passed
    assert verdicts[1].output["unsupported_claims"]
    assert ProgressStore(tmp_path / "p.jsonl").get(verdicts[1].key) == verdicts[1]


def test_a_rerun_makes_no_calls_and_a_new_judge_judges_again(
    server: ChatServer, tmp_path: Path
) -> None:
    cases = make_cases(6)
    new: list[Verdict] = []
    with ProgressStore(tmp_path / "p.jsonl") as store:
        first = run_judge(server.url, cases, store, on_verdict=new.append)
    assert server.calls() == 6 and len(new) == 6
    with ProgressStore(tmp_path / "p.jsonl") as store:
        again = run_judge(server.url, list(reversed(cases)), store, on_verdict=new.append)
        assert again == list(reversed(first))
        assert server.calls() == 6 and len(new) == 6
        run_judge(server.url, cases, store, model="judge-b")  # another model: other keys
        assert server.calls(model="judge-b") == 6 and len(store) == 12


def test_identical_cases_are_judged_once(server: ChatServer) -> None:
    [case] = make_cases(1)
    verdicts = run_judge(server.url, [case, case, case], None)
    assert len(verdicts) == 3 and server.calls() == 1


def test_a_failure_stops_the_run_but_keeps_what_was_judged(
    server: ChatServer, tmp_path: Path
) -> None:
    cases = make_cases(5)

    def reject_after_q1(verdict: Verdict) -> None:
        if verdict.case_id == "q1":
            server.fail_next(1, 400)  # the next request, q2's, is rejected

    with ProgressStore(tmp_path / "p.jsonl") as store, pytest.raises(JudgeError) as caught:
        run_judge(server.url, cases, store, concurrency=1, on_verdict=reject_after_q1)
    assert caught.value.reason == "rejected"
    with ProgressStore(tmp_path / "p.jsonl") as store:
        assert {v.case_id for v in store.verdicts()} == {"q0", "q1"}
        verdicts = run_judge(server.url, cases, store, concurrency=1)
    assert len(verdicts) == 5 and server.calls() == 2 + 1 + 3


def test_skipped_failures_are_left_out_and_tried_again(server: ChatServer, tmp_path: Path) -> None:
    cases = make_cases(5)
    server.invalid_next(2)  # the first case gets two bad replies: invalid_output
    with ProgressStore(tmp_path / "p.jsonl") as store:
        verdicts = run_judge(server.url, cases, store, on_error="skip", concurrency=1)
    assert [v.case_id for v in verdicts] == ["q1", "q2", "q3", "q4"]
    with ProgressStore(tmp_path / "p.jsonl") as store:
        verdicts = run_judge(server.url, cases, store, concurrency=1)
    assert len(verdicts) == 5
    assert server.calls_mentioning("Question 0?") == 3  # two bad replies, then one good
    assert all(server.calls_mentioning(f"Question {i}?") == 1 for i in range(1, 5))


def assert_resumed_without_repeats(
    server: ChatServer, cases: list[JudgeCase], done: set[str], verdicts: list[Verdict]
) -> None:
    assert [v.case_id for v in verdicts] == [c.case_id for c in cases]
    for case in cases:
        calls = server.calls_mentioning(case.question)
        if case.case_id in done:
            assert calls == 1, case.case_id
        else:  # judged in the re-run; sent before too if it was in flight at the crash
            assert calls in (1, 2), case.case_id


CHILD = """
import asyncio, json, sys
from monitor.evaluation.judge.case import JudgeCase
from monitor.evaluation.judge.client import JudgeClient
from monitor.evaluation.judge.progress import ProgressStore
from monitor.evaluation.judge.rubrics import FAITHFULNESS_COMPLETENESS
from monitor.evaluation.judge.runner import judge_all

url, progress, cases_file = sys.argv[1:4]
cases = [JudgeCase.model_validate(c) for c in json.load(open(cases_file))]

async def main():
    async with JudgeClient(url, "judge-a", max_retries=0) as client:
        with ProgressStore(progress) as store:
            await judge_all(cases, client, FAITHFULNESS_COMPLETENESS, store, concurrency=1)

asyncio.run(main())
"""


def test_a_killed_run_resumes_without_repeated_calls(server: ChatServer, tmp_path: Path) -> None:
    cases = make_cases(10, {3: "UNSUPPORTED"})
    cases_file = tmp_path / "cases.json"
    cases_file.write_text(json.dumps([c.model_dump(mode="json") for c in cases]))
    progress = tmp_path / "progress.jsonl"
    server.hold_after(4)  # 4 cases are answered, the 5th request hangs: the crash comes then
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, server.url, str(progress), str(cases_file)],
        cwd=REPO,
        env=env,
        stderr=subprocess.PIPE,
    )
    sigkill_when(child, lambda: server.held == 1)
    server.release()
    with ProgressStore(progress) as store:
        done = {v.case_id for v in store.verdicts()}
        assert done == {"q0", "q1", "q2", "q3"}
        verdicts = run_judge(server.url, cases, store)
    assert_resumed_without_repeats(server, cases, done, verdicts)
    wait_until(lambda: server.calls() == 11)  # 10 cases, the one in flight twice
    assert len(ProgressStore(progress)) == 10
    assert not verdicts[3].passed and verdicts[3].output["failure_analysis"]


def test_a_cancelled_run_resumes_without_repeated_calls(server: ChatServer, tmp_path: Path) -> None:
    cases = make_cases(8)
    progress = tmp_path / "progress.jsonl"
    server.hold_after(5)

    async def cancelled() -> None:
        async with JudgeClient(server.url, "judge-a", max_retries=0) as client:
            with ProgressStore(progress) as store:
                task = asyncio.create_task(
                    judge_all(cases, client, FAITHFULNESS_COMPLETENESS, store, concurrency=2)
                )
                while server.held < 1:
                    await asyncio.sleep(0.01)
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task

    asyncio.run(cancelled())
    server.release()
    with ProgressStore(progress) as store:
        done = {v.case_id for v in store.verdicts()}
        assert 4 <= len(done) <= 5  # with 2 in flight, the 6th waits behind the held one
        verdicts = run_judge(server.url, cases, store)
    assert_resumed_without_repeats(server, cases, done, verdicts)


def test_iterations_aggregate(server: ChatServer, tmp_path: Path) -> None:
    from monitor.evaluation.judge.aggregate import aggregate, aggregate_iterations

    cases = make_cases(4, {0: "UNSUPPORTED"})
    per_iteration: list[dict[str, Any]] = []
    for iteration in (1, 2):
        with ProgressStore(tmp_path / f"iteration-{iteration}" / "progress.jsonl") as store:
            per_iteration.append(aggregate(run_judge(server.url, cases, store)))
    final = aggregate_iterations(per_iteration)
    assert server.calls() == 8 and final["iterations"] == 2
    assert final["metrics"]["overall_pass_rate"] == {"mean": 0.75, "min": 0.75, "max": 0.75}
