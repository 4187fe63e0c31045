"""call_target against the RAG stub on loopback: mapping, retries, timeouts, concurrency."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import httpx
import pytest
from rag_stub import RagStub

from monitor.evaluation.datasets.case import EvalCase
from monitor.evaluation.target.client import call_target
from monitor.evaluation.target.target_config import TargetConfig
from monitor.evaluation.target.target_result import TargetResult

SECRET = "sk-live-0123456789abcdef"

QUESTIONS = [
    "How many vacation days do I get?",
    "How long is parental leave?",
    "How do I reset my password?",
    "Do I need the VPN for internal tools?",
    "When must I submit expense reports?",
]


def make_cases(questions: Sequence[str] = QUESTIONS) -> list[EvalCase]:
    return [
        EvalCase(
            case_id=f"q{i}",
            query=question,
            origin=f"cases.jsonl:{i + 1}",
            query_type="policy",
            user_roles=["employee"],
        )
        for i, question in enumerate(questions)
    ]


def config_for(stub: RagStub, path: str = "/query", **overrides: Any) -> TargetConfig:
    settings: dict[str, Any] = {"backoff_base_s": 0.01, "backoff_max_s": 0.05, **overrides}
    return TargetConfig(url=stub.url + path, **settings)


def run(
    cases: Sequence[EvalCase],
    config: TargetConfig,
    on_done: Callable[[TargetResult], None] | None = None,
    **kwargs: Any,
) -> list[TargetResult]:
    return asyncio.run(call_target(cases, config, on_done=on_done, **kwargs))


@pytest.fixture
def stub() -> Iterator[RagStub]:
    with RagStub() as running:
        yield running


def test_the_default_mapping_builds_valid_events(stub: RagStub) -> None:
    cases = make_cases()
    done: list[str] = []
    results = run(
        cases,
        config_for(stub),
        on_done=lambda r: done.append(r.case_id),
        clock_ms=lambda: 1_700_000_000_000,
    )
    assert [r.case_id for r in results] == [c.case_id for c in cases]
    assert sorted(done) == sorted(c.case_id for c in cases)
    for case, result in zip(cases, results, strict=True):
        assert (result.status, result.error, result.attempts) == ("ok", None, 1)
        event = result.event
        assert event is not None
        assert (event.event_id, event.timestamp_ms) == (case.case_id, 1_700_000_000_000)
        assert (event.query.text, event.query.type) == (case.query, "policy")
        assert event.query.user_roles == ["employee"]
        assert event.labels is None
        top = event.chunks[0]
        assert top.chunk_id is not None and top.document_id is not None
        assert top.chunk_id.startswith(top.document_id + "-c")
        assert event.response is not None and event.response.text.startswith("According to")
        assert event.response.citations[0].chunk_id == top.chunk_id
        latency = event.latency_ms
        assert latency.retrieve is not None and latency.generate is not None
        assert latency.total == latency.retrieve + latency.generate
        assert result.elapsed_ms > 0
        # the caller attaches the labels and the event: a valid EvalCase
        labelled = case.model_copy(update={"event": event})
        assert labelled.labelled_event() is not None
        EvalCase.model_validate(labelled.model_dump())
    [first] = [r for r in stub.requests() if r.case_id == "q0"]
    assert first.path == "/query"
    assert first.body == {
        "query": QUESTIONS[0],
        "case_id": "q0",
        "user_roles": ["employee"],
        "query_type": "policy",
    }
    assert first.headers["content-type"] == "application/json"


def test_a_custom_template_and_response_map(stub: RagStub) -> None:
    config = config_for(
        stub,
        "/v2/ask",
        request_template={"question": "{{query}}", "id": "{{case_id}}", "note": "eval {{case_id}}"},
        response_map={
            "response.text": "data.0.answer",
            "response.citations": "data.0.sources",
            "response.abstained": "abstained?",
            "chunks": "data.0.passages",
            "latency_ms.total": "timing.total_ms",
        },
    )
    cases = make_cases(QUESTIONS[:2])
    results = run(cases, config)
    assert [r.status for r in results] == ["ok", "ok"]
    event = results[0].event
    assert event is not None and event.response is not None
    assert event.response.text.startswith("According to hr-001")
    assert [c.document_id for c in event.response.citations] == ["hr-001"]
    assert event.chunks[0].chunk_id == "hr-001-c1"
    assert event.latency_ms.total is not None and event.latency_ms.retrieve is None
    request = stub.requests()[0]
    assert set(request.body) == {"question", "id", "note"}
    assert request.body["note"] == f"eval {request.body['id']}"


def test_the_measured_latency_fills_a_missing_total(stub: RagStub) -> None:
    config = config_for(
        stub,
        "/v2/ask",
        response_map={"response.text": "data.0.answer"},
        request_template={"question": "{{query}}"},
    )
    [result] = run(make_cases(QUESTIONS[:1]), config)
    assert result.event is not None and result.event.latency_ms.total == result.elapsed_ms
    assert result.event.chunks == []


def test_a_missing_reply_field_or_a_bad_value_is_an_error(stub: RagStub) -> None:
    cases = make_cases(QUESTIONS[:1])
    missing = config_for(stub, "/v2/ask", response_map={"response.text": "data.0.reply"})
    [result] = run(cases, missing)
    assert (result.status, result.event) == ("error", None)
    assert result.error == "reply field response.text: no data.0.reply in the reply"
    wrong = config_for(stub, "/v2/ask", response_map={"response.text": "timing.total_ms"})
    [result] = run(cases, wrong)
    assert result.error == (
        "reply field response.text (from timing.total_ms): Input should be a valid string"
    )
    # a reply that is not RagEvent-shaped under the identity mapping
    [result] = run(cases, config_for(stub, "/v2/ask"))
    assert result.status == "error" and "response_map" in (result.error or "")


def test_5xx_is_retried_until_it_succeeds(stub: RagStub) -> None:
    stub.fail_next(2)
    [result] = run(make_cases(QUESTIONS[:1]), config_for(stub))
    assert (result.status, result.attempts, result.error) == ("ok", 3, None)
    assert [r.status for r in stub.requests()] == [500, 500, 200]
    assert result.event is not None and result.event.response is not None


def test_elapsed_ms_is_the_answering_attempts(stub: RagStub) -> None:
    stub.fail_next(2, 502, retry_after="0.25")
    started = time.monotonic()
    [result] = run(make_cases(QUESTIONS[:1]), config_for(stub))
    assert time.monotonic() - started >= 0.5
    assert result.status == "ok" and result.elapsed_ms < 250
    assert result.event is not None and result.event.latency_ms.total != result.elapsed_ms


def test_retries_run_out(stub: RagStub) -> None:
    stub.fail_next(10, 503)
    [result] = run(make_cases(QUESTIONS[:1]), config_for(stub, max_retries=2))
    assert (result.status, result.attempts, result.event) == ("error", 3, None)
    assert result.error == "HTTP 503 after 3 attempts"
    assert stub.calls() == 3


def test_429_waits_as_long_as_retry_after_says(stub: RagStub) -> None:
    stub.fail_next(1, 429, retry_after="0.3")
    [result] = run(make_cases(QUESTIONS[:1]), config_for(stub))
    first, second = stub.requests()
    assert (first.status, second.status, result.status) == (429, 200, "ok")
    assert second.received_monotonic - first.received_monotonic >= 0.28


def test_a_400_is_not_retried(stub: RagStub) -> None:
    stub.fail_next(1, 400)
    [result] = run(make_cases(QUESTIONS[:1]), config_for(stub))
    assert (result.status, result.attempts, result.error) == ("error", 1, "HTTP 400")
    assert stub.calls() == 1


def test_timeouts(stub: RagStub) -> None:
    stub.slow(2.0, marker="vacation")
    cases = make_cases(QUESTIONS[:2])
    started = time.monotonic()
    results = run(cases, config_for(stub, timeout_s=0.2, max_retries=1))
    assert time.monotonic() - started < 1.5
    slow, fast = results
    assert (slow.status, slow.event, slow.attempts) == ("timeout", None, 2)
    assert slow.error == "timed out after 2 attempts (0.2 s each)"
    assert slow.elapsed_ms >= 400
    assert fast.status == "ok"


def test_concurrency_is_bounded(stub: RagStub) -> None:
    stub.slow(0.05)
    questions = [QUESTIONS[i % len(QUESTIONS)] for i in range(20)]
    cases = make_cases(questions)
    started = time.monotonic()
    results = run(cases, config_for(stub, concurrency=4))
    elapsed = time.monotonic() - started
    assert [r.status for r in results] == ["ok"] * 20
    assert 2 <= stub.max_concurrent <= 4
    assert elapsed >= 5 * 0.05  # 20 cases, 4 at a time
    assert sorted(stub.calls(c.case_id) for c in cases) == [1] * 20


def test_an_empty_answer_is_empty_unless_abstained(stub: RagStub) -> None:
    stub.empty_for("vacation")
    stub.abstain_for("parental")
    results = run(make_cases(QUESTIONS[:3]), config_for(stub))
    empty, abstained, fine = results
    assert (empty.status, empty.error) == ("empty", None)
    assert empty.event is not None and empty.event.response is not None
    assert empty.event.response.text == "" and empty.event.chunks
    assert abstained.status == "ok"
    assert abstained.event is not None and abstained.event.response is not None
    assert abstained.event.response.abstained is True and abstained.event.response.text == ""
    assert fine.status == "ok"


def test_results_keep_case_order_whatever_finishes_first(stub: RagStub) -> None:
    stub.slow(0.3, marker="vacation")
    stub.fail_for("password", 404)
    cases = make_cases()
    finished: list[str] = []
    results = run(cases, config_for(stub), on_done=lambda r: finished.append(r.case_id))
    assert [r.case_id for r in results] == ["q0", "q1", "q2", "q3", "q4"]
    assert [r.status for r in results] == ["ok", "ok", "error", "ok", "ok"]
    assert finished[-1] == "q0"


def test_headers_are_sent_but_never_shown(stub: RagStub, caplog: pytest.LogCaptureFixture) -> None:
    stub.fail_next(1, 500)
    stub.fail_for("password", 401)
    stub.slow(1.0, marker="VPN")
    config = config_for(
        stub,
        "/query?api_key=" + SECRET,
        headers={"Authorization": f"Bearer {SECRET}", "X-Tenant": "acme"},
        timeout_s=0.2,
        max_retries=1,
    )
    assert SECRET not in repr(config)
    with caplog.at_level(logging.DEBUG, logger="monitor"):
        results = run(make_cases(), config)
    assert {r.headers["authorization"] for r in stub.requests()} == {f"Bearer {SECRET}"}
    assert {r.headers["x-tenant"] for r in stub.requests()} == {"acme"}
    errors = [r.error for r in results if r.error]
    assert len(errors) == 2  # the 401 and the timeout
    assert "retry" in caplog.text
    for text in [*errors, caplog.text]:
        assert SECRET not in text and "api_key" not in text and "/query" not in text


def test_a_reply_that_is_not_json_is_an_error(stub: RagStub) -> None:
    stub.not_json_next(1)
    [result] = run(make_cases(QUESTIONS[:1]), config_for(stub))
    assert (result.status, result.event, result.attempts) == ("error", None, 1)
    assert result.error == "reply is not JSON (HTTP 200)"


def test_connection_refused_is_retried_then_an_error() -> None:
    with RagStub() as gone:
        url = gone.url
    config = TargetConfig(url=url + "/query", max_retries=1, backoff_base_s=0.0)
    [result] = run(make_cases(QUESTIONS[:1]), config)
    assert (result.status, result.attempts) == ("error", 2)
    assert result.error == "connection failed (ConnectError) after 2 attempts"


def test_a_client_passed_in_is_used_and_left_open(stub: RagStub) -> None:
    async def main() -> tuple[list[TargetResult], bool]:
        async with httpx.AsyncClient() as http:
            results = await call_target(make_cases(QUESTIONS[:2]), config_for(stub), http=http)
            return results, http.is_closed

    results, closed = asyncio.run(main())
    assert [r.status for r in results] == ["ok", "ok"] and not closed
