"""``call_target``: ask the live RAG service every case's question (``ragmon eval --target``).

Each case is POSTed to the config's ``url`` as its rendered ``request_template``, with the
config's ``headers``; the JSON reply becomes the case's ``RagEvent``
(:func:`~monitor.evaluation.target.reply_event.event_from_reply`) in a
:class:`~monitor.evaluation.target.target_result.TargetResult`. At most ``concurrency``
requests are in flight (a semaphore held for each attempt, not during a backoff).

* Connection errors (connect, read, a dropped connection), timeouts (``timeout_s`` per
  attempt), 408, 429 and 5xx are retried up to ``max_retries`` times, after the server's
  ``Retry-After`` / ``retry-after-ms`` (at most :data:`RETRY_AFTER_MAX_S`) or else a
  full-jitter exponential backoff (:class:`monitor.retry.RetryPolicy`).
* Any other status that is not 2xx is an ``error`` at once (``HTTP 400``), as is a reply
  that is not JSON or does not fit the event's fields; ``timeout`` when every attempt
  timed out; ``empty`` for an answer with no text that is neither abstained nor blocked.

Results come back in case order; ``on_done`` is called as each case finishes (a progress
bar). A case's failure never stops the others: only an exception from ``on_done`` (or a
cancellation) does. Messages and logs show the URL's origin only (``scheme://host:port``),
never its path or query, and never a header value.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import httpx

from monitor.alerts.sender import quiet_httpx_logs
from monitor.evaluation.datasets.case import EvalCase
from monitor.evaluation.target.reply_event import event_from_reply
from monitor.evaluation.target.request_template import render_request
from monitor.evaluation.target.response_map import ReplyError
from monitor.evaluation.target.target_config import TargetConfig
from monitor.evaluation.target.target_result import TargetResult, answer_status
from monitor.retry import RetryPolicy, retry_after_s

__all__ = ["RETRY_AFTER_MAX_S", "call_target", "wall_clock_ms"]

log = logging.getLogger(__name__)

RETRY_AFTER_MAX_S = 60.0
"""The longest ``Retry-After`` honoured: a server asking for more gets retried sooner."""

_RETRY_STATUSES = frozenset({408, 429})


def wall_clock_ms() -> int:
    """Milliseconds since the epoch (the events' ``timestamp_ms``)."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class _Answer:
    """A 2xx response."""

    response: httpx.Response
    sent_ms: int
    elapsed_ms: float


@dataclass(frozen=True)
class _Failure:
    """An attempt that did not answer: ``kind`` is ``timeout``, ``connection``, ``status``
    (``status`` set) or ``request`` (a request httpx could not make: not retried)."""

    kind: str
    description: str
    status: int | None = None
    retry_after_s: float | None = None

    @property
    def retryable(self) -> bool:
        if self.kind == "status":
            return self.status in _RETRY_STATUSES or (self.status or 0) >= 500
        return self.kind in ("timeout", "connection")


def _plural(n: int) -> str:
    return f"{n} attempt" + ("" if n == 1 else "s")


class _Caller:
    def __init__(
        self,
        config: TargetConfig,
        http: httpx.AsyncClient,
        clock_ms: Callable[[], int],
    ) -> None:
        self.config = config
        self.http = http
        self.clock_ms = clock_ms
        self.semaphore = asyncio.Semaphore(config.concurrency)
        self.rng = random.Random()
        self.policy = RetryPolicy(
            config.backoff_base_s,
            config.backoff_max_s,
            retry_after_max_s=RETRY_AFTER_MAX_S,
            max_retries=config.max_retries,
        )
        headers = httpx.Headers({"Content-Type": "application/json", "User-Agent": "ragmon"})
        headers.update(config.headers)
        self.headers = headers

    async def attempt(self, body: bytes) -> _Answer | _Failure:
        config = self.config
        async with self.semaphore:
            sent_ms = self.clock_ms()
            started_s = time.monotonic()
            try:
                async with asyncio.timeout(config.timeout_s):
                    response = await self.http.post(
                        config.url, content=body, headers=self.headers, timeout=config.timeout_s
                    )
            except (TimeoutError, httpx.TimeoutException):
                return _Failure("timeout", f"timed out ({config.timeout_s:g} s)")
            except (httpx.NetworkError, httpx.RemoteProtocolError) as exc:
                return _Failure("connection", f"connection failed ({type(exc).__name__})")
            except httpx.HTTPError as exc:
                return _Failure("request", f"request failed ({type(exc).__name__})")
            elapsed_ms = (time.monotonic() - started_s) * 1000.0
        status = response.status_code
        if 200 <= status < 300:
            return _Answer(response, sent_ms, elapsed_ms)
        wait_s = retry_after_s(response.headers, time.time())
        return _Failure("status", f"HTTP {status}", status, wait_s)

    def delay_s(self, retry: int, failure: _Failure) -> float:
        return self.policy.delay_s(retry, failure.retry_after_s, self.rng)

    async def call(self, case: EvalCase) -> TargetResult:
        config = self.config
        body = json.dumps(render_request(config.request_template, case), ensure_ascii=False)
        started_s = time.monotonic()
        failures: list[_Failure] = []
        while True:
            outcome = await self.attempt(body.encode())
            if isinstance(outcome, _Answer):
                return self._result(case, outcome, len(failures) + 1, started_s)
            failures.append(outcome)
            if not outcome.retryable or self.policy.gives_up(len(failures)):
                break
            delay_s = self.delay_s(len(failures), outcome)
            log.info(
                "target %s: case %s: %s; retry %d of %d in %.2f s",
                config.origin,
                case.case_id,
                outcome.description,
                len(failures),
                config.max_retries,
                delay_s,
            )
            await asyncio.sleep(delay_s)
        attempts = len(failures)
        last = failures[-1]
        if all(f.kind == "timeout" for f in failures):
            each = " each" if attempts > 1 else ""
            error = f"timed out after {_plural(attempts)} ({config.timeout_s:g} s{each})"
            return self._failed(case, "timeout", error, attempts, started_s)
        error = last.description
        if attempts > 1:
            error += f" after {_plural(attempts)}"
        return self._failed(case, "error", error, attempts, started_s)

    def _failed(
        self,
        case: EvalCase,
        status: Literal["error", "timeout"],
        error: str,
        attempts: int,
        started_s: float,
    ) -> TargetResult:
        elapsed_ms = (time.monotonic() - started_s) * 1000.0
        message = self.config.mask(" ".join(error.split()))
        log.info("target %s: case %s: %s", self.config.origin, case.case_id, message)
        return TargetResult(case.case_id, None, status, message, elapsed_ms, attempts)

    def _result(
        self, case: EvalCase, answer: _Answer, attempts: int, started_s: float
    ) -> TargetResult:
        status = answer.response.status_code
        try:
            reply = answer.response.json()
        except ValueError:  # JSONDecodeError, or bytes that are not text
            error = f"reply is not JSON (HTTP {status})"
            return self._failed(case, "error", error, attempts, started_s)
        try:
            event = event_from_reply(
                case,
                reply,
                self.config.response_map,
                timestamp_ms=answer.sent_ms,
                elapsed_ms=answer.elapsed_ms,
            )
        except ReplyError as exc:
            return self._failed(case, "error", str(exc), attempts, started_s)
        return TargetResult(
            case.case_id, event, answer_status(event), None, answer.elapsed_ms, attempts
        )


async def call_target(
    cases: Sequence[EvalCase],
    config: TargetConfig,
    *,
    http: httpx.AsyncClient | None = None,
    on_done: Callable[[TargetResult], None] | None = None,
    clock_ms: Callable[[], int] = wall_clock_ms,
) -> list[TargetResult]:
    """One :class:`TargetResult` per case, in case order (see the module docstring).

    ``http`` is the caller's client (and the caller's to close); without one, a client is
    made for the call and closed at the end. ``clock_ms`` gives the events' ``timestamp_ms``
    (read when each request is sent).
    """
    quiet_httpx_logs()
    own = http is None
    client = (
        http
        if http is not None
        else httpx.AsyncClient(
            timeout=config.timeout_s,
            limits=httpx.Limits(
                max_connections=config.concurrency, max_keepalive_connections=config.concurrency
            ),
        )
    )
    caller = _Caller(config, client, clock_ms)

    async def one(case: EvalCase) -> TargetResult:
        result = await caller.call(case)
        if on_done is not None:
            on_done(result)
        return result

    tasks = [asyncio.create_task(one(case)) for case in cases]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    finally:
        if own:
            await client.aclose()
