"""JudgeClient against a real chat-completions server on loopback (tests/chat_server.py)."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from chat_server import ChatServer
from pydantic import SecretStr

from monitor.config import MASK
from monitor.evaluation.judge.case import JudgeCase
from monitor.evaluation.judge.client import JudgeClient, JudgeReply
from monitor.evaluation.judge.errors import JudgeError
from monitor.evaluation.judge.rubrics import FAITHFULNESS_COMPLETENESS, FaithfulnessCompleteness
from monitor.stream.broker import free_port

KEY = "sk-test-0123456789abcdef"
CASE = JudgeCase(
    case_id="q1",
    question="Which course teaches Python?",
    context=["CS101 teaches Python from scratch."],
    answer="CS101 [1], because it teaches Python.",
)
MESSAGES = FAITHFULNESS_COMPLETENESS.messages(CASE)


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer() as running:
        yield running


def client_for(url: str, **options: Any) -> JudgeClient:
    defaults: dict[str, Any] = {
        "api_key": SecretStr(KEY),
        "backoff_base_s": 0.01,
        "backoff_max_s": 0.05,
        "timeout_s": 5.0,
        "rng": random.Random(1),
    }
    return JudgeClient(url, options.pop("model", "judge-a"), **{**defaults, **options})


def judge(client: JudgeClient, times: int = 1) -> list[JudgeReply[FaithfulnessCompleteness]]:
    async def run() -> list[JudgeReply[FaithfulnessCompleteness]]:
        async with client:
            return [await client.complete(MESSAGES, FaithfulnessCompleteness) for _ in range(times)]

    return asyncio.run(run())


def judge_error(client: JudgeClient) -> JudgeError:
    with pytest.raises(JudgeError) as caught:
        judge(client)
    return caught.value


def test_a_completion_is_requested_at_temperature_0_in_json_mode(server: ChatServer) -> None:
    client = client_for(server.url)
    [reply] = judge(client)
    [request] = server.requests()
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.headers["content-type"] == "application/json"
    assert request.body["model"] == "judge-a"
    assert request.body["temperature"] == 0
    assert request.body["response_format"] == {"type": "json_object"}
    assert request.body["messages"] == MESSAGES
    assert [m["role"] for m in request.body["messages"]] == ["system", "user"]
    assert reply.value.scores()["faithfulness"] in (4, 5) and reply.value.passed
    assert (reply.requests, reply.repaired) == (1, False)
    assert (reply.served_model, reply.system_fingerprint) == ("judge-a", "fp_chat_server")
    assert client.request_body(MESSAGES) == request.body


def test_usage_and_cost_are_accounted(server: ChatServer) -> None:
    client = client_for(server.url, price_per_1k_input_usd=1.0, price_per_1k_output_usd=3.0)
    replies = judge(client, times=3)
    prompt_words = sum(len(m["content"].split()) for m in MESSAGES)
    completion_words = sum(len(r.content.split()) for r in replies)
    usage = client.usage
    assert (usage.requests, usage.calls, usage.retries, usage.repairs) == (3, 3, 0, 0)
    assert usage.prompt_tokens == 3 * prompt_words
    assert usage.completion_tokens == completion_words
    expected = (3 * prompt_words * 1.0 + completion_words * 3.0) / 1000
    assert usage.cost_usd == pytest.approx(expected)
    assert sum(r.cost_usd for r in replies) == pytest.approx(expected)
    assert replies[0].prompt_tokens == prompt_words
    assert usage.as_dict()["cost_usd"] == pytest.approx(expected)


def test_5xx_is_retried_with_backoff(server: ChatServer) -> None:
    server.fail_next(2, 500)
    client = client_for(server.url)
    [reply] = judge(client)
    assert [r.status for r in server.requests()] == [500, 500, 200]
    assert reply.requests == 3 and reply.value.passed
    assert (client.usage.requests, client.usage.calls, client.usage.retries) == (3, 1, 2)


def test_429_waits_as_long_as_retry_after_says(server: ChatServer) -> None:
    server.fail_next(1, 429, retry_after="1")
    client = client_for(server.url)  # its own backoff would be at most 0.05 s
    judge(client)
    first, second = server.requests()
    assert (first.status, second.status) == (429, 200)
    assert second.received_monotonic - first.received_monotonic >= 0.95
    assert client.usage.retries == 1


def test_retry_after_is_capped(server: ChatServer) -> None:
    server.fail_next(1, 503, retry_after="3600")
    started = time.monotonic()
    judge(client_for(server.url, retry_after_max_s=0.1))
    assert time.monotonic() - started < 2


def test_retries_run_out(server: ChatServer) -> None:
    server.fail_next(10, 503)
    client = client_for(server.url, max_retries=2)
    error = judge_error(client)
    assert (error.reason, error.status) == ("retries_exhausted", 503)
    assert server.calls() == 3
    assert (client.usage.requests, client.usage.calls, client.usage.failures) == (3, 0, 1)


def test_timeouts_are_retried(server: ChatServer) -> None:
    server.slow(0.5)
    error = judge_error(client_for(server.url, timeout_s=0.15, max_retries=1))
    assert error.reason == "retries_exhausted" and "timeout" in error.detail
    assert server.calls() == 2


def test_connection_refused_is_retried() -> None:
    client = client_for(f"http://127.0.0.1:{free_port()}/v1", max_retries=2)
    error = judge_error(client)
    assert error.reason == "retries_exhausted" and "connect" in error.detail
    assert client.usage.requests == 3


def test_a_client_error_is_not_retried_and_never_quotes_the_key(server: ChatServer) -> None:
    server.fail_next(1, 401, message=f"Incorrect API key provided: {KEY}.")
    error = judge_error(client_for(server.url))
    assert (error.reason, error.status) == ("rejected", 401)
    assert server.calls() == 1
    assert KEY not in str(error) and MASK in str(error)


def test_an_invalid_reply_gets_one_corrective_message(server: ChatServer) -> None:
    server.invalid_next(1)
    client = client_for(server.url)
    [reply] = judge(client)
    assert reply.repaired and reply.requests == 2 and reply.value.passed
    first, second = server.requests()
    messages = second.body["messages"]
    assert messages[:2] == MESSAGES
    assert messages[2] == {"role": "assistant", "content": "The answer looks fine to me!"}
    assert messages[3]["role"] == "user" and "no JSON object" in messages[3]["content"]
    assert (client.usage.calls, client.usage.repairs) == (2, 1)
    words = sum(len(m["content"].split()) for r in (first, second) for m in r.body["messages"])
    assert reply.prompt_tokens == words == client.usage.prompt_tokens


def test_a_reply_off_the_schema_is_corrected_with_what_is_wrong(server: ChatServer) -> None:
    server.invalid_next(1, content='{"faithfulness": {"score": 9, "reasoning": "x"}}')
    [reply] = judge(client_for(server.url))
    assert reply.repaired
    correction = server.requests()[1].body["messages"][3]["content"]
    assert "faithfulness.score" in correction and "completeness" in correction


def test_invalid_twice_is_a_judge_error(server: ChatServer) -> None:
    server.invalid_next(2)
    client = client_for(server.url)
    error = judge_error(client)
    assert error.reason == "invalid_output"
    assert server.calls() == 2
    assert (client.usage.repairs, client.usage.failures) == (1, 1)


def test_json_mode_can_be_switched_off_for_servers_that_reject_it(server: ChatServer) -> None:
    server.reject_json_mode()
    error = judge_error(client_for(server.url))
    assert (error.reason, error.status) == ("rejected", 400)
    [reply] = judge(client_for(server.url, json_mode=False))
    assert reply.value.passed
    assert "response_format" not in server.requests()[-1].body


def test_the_rate_limit_spaces_requests(server: ChatServer) -> None:
    client = client_for(server.url, rate_limit_per_s=20.0)

    async def run() -> None:
        async with client:
            await asyncio.gather(
                *(client.complete(MESSAGES, FaithfulnessCompleteness) for _ in range(6))
            )

    asyncio.run(run())
    arrivals = sorted(r.received_monotonic for r in server.requests())
    assert len(arrivals) == 6
    # burst 1: 5 gaps of 50 ms (without the limit all six arrive within a few ms); the
    # margin absorbs a slow first connection on a loaded machine, which once shortened
    # the span seen by the server below 220 ms
    assert arrivals[-1] - arrivals[0] >= 5 / 20 - 0.1


def test_a_2xx_that_is_not_a_chat_completion_is_malformed() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"result": "ok"})

    async def run() -> JudgeError:
        async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
            client = client_for("http://judge.test/v1", http=http)
            with pytest.raises(JudgeError) as caught:
                await client.complete(MESSAGES, FaithfulnessCompleteness)
            return caught.value

    assert asyncio.run(run()).reason == "malformed_response"


def test_the_key_is_never_in_logs_reprs_or_errors(
    server: ChatServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    client = client_for(server.url, api_key=KEY)  # a plain str is wrapped in SecretStr
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.DEBUG)
    try:
        server.fail_next(1, 500)
        server.invalid_next(1)
        judge(client)
        server.fail_next(1, 403, message=f"key {KEY} is not allowed")
        error = judge_error(client_for(server.url, api_key=KEY))
    finally:
        for name in ("httpx", "httpcore"):
            logging.getLogger(name).setLevel(logging.WARNING)
    assert "retry 1 of 4" in caplog.text  # the retry was logged
    assert KEY not in caplog.text
    assert KEY not in repr(client) and KEY not in str(client) and MASK in repr(client)
    assert KEY not in str(error) and KEY not in repr(error)
    assert KEY not in json.dumps(client.request_body(MESSAGES))
    assert KEY not in repr(vars(client))
    assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in server.requests())


def test_repr_masks_credentials_in_the_base_url() -> None:
    client = JudgeClient("https://user:pw@judge.example/v1", "m", None)
    assert repr(client) == (
        f"JudgeClient(base_url='https://{MASK}@judge.example/v1', model='m', api_key=None)"
    )


@pytest.mark.parametrize("url", ["ftp://judge/v1", "judge:8000/v1"])
def test_a_base_url_must_be_http(url: str) -> None:
    with pytest.raises(ValueError, match="http"):
        JudgeClient(url, "m")
