"""An OpenAI-compatible chat-completions client for the judge, on httpx.

:meth:`JudgeClient.complete` POSTs ``{base_url}/chat/completions`` (OpenAI, vLLM, Ollama
and llama.cpp servers all speak it: ``base_url`` is e.g. ``http://127.0.0.1:11434/v1``)
with the messages, the model, ``temperature`` 0 and, unless ``json_mode=False`` (for
servers that reject it), ``response_format={"type": "json_object"}``. The reply's content
must be a JSON object that validates against the pydantic model passed in
(:func:`~monitor.evaluation.judge.json_reply.json_object` tolerates fences and reasoning
blocks around it).

* Transport trouble (connect error, timeout, a dropped connection) and the statuses 408,
  429 and 5xx are retried up to ``max_retries`` times, after a full-jitter exponential
  backoff (:class:`monitor.retry.RetryPolicy`) or, when the server says so,
  after its ``Retry-After`` / ``retry-after-ms`` (at most ``retry_after_max_s``). Then
  :class:`~monitor.evaluation.judge.errors.JudgeError` ``retries_exhausted``.
* Any other status is a ``JudgeError`` ``rejected`` at once (a wrong key, an unknown
  model, a ``response_format`` the server does not know).
* A reply that is not the JSON asked for gets one corrective message (the reply and what
  is wrong with it); a second bad reply is a ``JudgeError`` ``invalid_output``.
* Every HTTP attempt takes a token from the rate limit (``rate_limit_per_s``) first.
* :attr:`JudgeClient.usage` counts requests, completions, retries, repairs, failures,
  tokens and cost (:class:`~monitor.evaluation.judge.usage.JudgeUsage`).

The API key goes into the ``Authorization`` header and nowhere else: not in the repr
(``'**********'``), not in logs, not in errors (an error page quoting it is masked), not in
:meth:`JudgeClient.request_body`, which is what verdicts store as the judge input.

>>> client = JudgeClient("http://127.0.0.1:8000/v1/", "qwen2.5-14b", SecretStr("sk-x"))
>>> client
JudgeClient(base_url='http://127.0.0.1:8000/v1', model='qwen2.5-14b', api_key='**********')
>>> client.endpoint
'http://127.0.0.1:8000/v1/chat/completions'
>>> body = client.request_body([{"role": "user", "content": "Reply in JSON."}])
>>> (body["temperature"], body["response_format"], "sk-x" in str(body))
(0, {'type': 'json_object'}, False)
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Generic, TypeVar
from urllib.parse import urlsplit, urlunsplit

import httpx
from pydantic import BaseModel, SecretStr, ValidationError

from monitor.alerts.sender import quiet_httpx_logs
from monitor.config import MASK
from monitor.evaluation.judge.errors import JudgeError
from monitor.evaluation.judge.json_reply import json_object
from monitor.evaluation.judge.rate_limit import TokenBucket
from monitor.evaluation.judge.usage import JudgeUsage, cost_usd
from monitor.retry import RetryPolicy, retry_after_s

__all__ = ["CORRECTION", "ChatMessage", "JudgeClient", "JudgeReply"]

log = logging.getLogger(__name__)

ChatMessage = Mapping[str, str]
"""``{"role": "system" | "user" | "assistant", "content": "..."}``."""

CORRECTION = (
    "Your previous reply could not be used: {problem}. Reply again with only the JSON "
    "object described in the instructions, with every required field and no other text."
)
_EXCERPT_CHARS = 200
_RETRY_STATUSES = frozenset({408, 429})

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class JudgeReply(Generic[T]):
    """One judgement: the validated ``value`` and what it took.

    ``content`` is the reply text that validated; ``requests`` the HTTP attempts
    (retries and the corrective round included); tokens and ``cost_usd`` add up every
    completion received for it; ``served_model`` and ``system_fingerprint`` are what the
    server said it ran (a pinned version, for drift control), when it says.
    """

    value: T
    content: str
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    requests: int
    repaired: bool
    latency_s: float
    served_model: str | None = None
    system_fingerprint: str | None = None


@dataclass(frozen=True)
class _Completion:
    content: str
    prompt_tokens: int | None
    completion_tokens: int | None
    served_model: str | None
    system_fingerprint: str | None


@dataclass(frozen=True)
class _Retry:
    reason: str
    status: int | None = None
    retry_after_s: float | None = None


def _masked_url(url: str) -> str:
    """``url`` without credentials in its userinfo part."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=f"{MASK}@{parts.netloc.rsplit('@', 1)[1]}"))


def _problem(exc: ValueError) -> str:
    """What is wrong with a reply, in a line (never the reply itself)."""
    if isinstance(exc, ValidationError):
        errors = exc.errors(include_url=False, include_input=False)
        shown = [
            f"{'.'.join(str(p) for p in e['loc']) or 'the object'}: {e['msg']}" for e in errors
        ]
        more = f" (and {len(shown) - 5} more)" if len(shown) > 5 else ""
        return "; ".join(shown[:5]) + more
    return str(exc)


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class JudgeClient:
    """See the module docstring. Use it as ``async with JudgeClient(...) as client:`` (or
    call :meth:`aclose`); an ``http`` client passed in is the caller's to close."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: SecretStr | str | None = None,
        *,
        timeout_s: float = 120.0,
        max_retries: int = 4,
        rate_limit_per_s: float | None = None,
        rate_limit_burst: int = 1,
        price_per_1k_input_usd: float = 0.0,
        price_per_1k_output_usd: float = 0.0,
        json_mode: bool = True,
        max_tokens: int | None = None,
        seed: int | None = None,
        extra_body: Mapping[str, Any] | None = None,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 30.0,
        retry_after_max_s: float = 60.0,
        http: httpx.AsyncClient | None = None,
        rng: random.Random | None = None,
    ) -> None:
        scheme = urlsplit(base_url).scheme
        if scheme not in ("http", "https"):
            raise ValueError(f"the judge base URL must be http(s), got scheme {scheme!r}")
        if not model:
            raise ValueError("the judge model is empty")
        if timeout_s <= 0 or max_retries < 0:
            raise ValueError("timeout_s must be > 0 and max_retries >= 0")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self._api_key = SecretStr(api_key) if isinstance(api_key, str) else api_key
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.json_mode = json_mode
        self.max_tokens = max_tokens
        self.seed = seed
        self.extra_body = dict(extra_body or {})
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.retry_after_max_s = retry_after_max_s
        self.retry_policy = RetryPolicy(
            backoff_base_s, backoff_max_s, retry_after_max_s, max_retries=max_retries
        )
        self.usage = JudgeUsage(price_per_1k_input_usd, price_per_1k_output_usd)
        self._bucket = TokenBucket(rate_limit_per_s, rate_limit_burst) if rate_limit_per_s else None
        self._rng = rng or random.Random()
        self._own_http = http is None
        self._http = http if http is not None else httpx.AsyncClient(timeout=timeout_s)
        quiet_httpx_logs()

    def __repr__(self) -> str:
        key = None if self._api_key is None else MASK
        return (
            f"JudgeClient(base_url={_masked_url(self.base_url)!r}, model={self.model!r}, "
            f"api_key={key!r})"
        )

    __str__ = __repr__

    @property
    def endpoint(self) -> str:
        return f"{self.base_url}/chat/completions"

    # lifecycle
    async def aclose(self) -> None:
        if self._own_http:
            await self._http.aclose()

    async def __aenter__(self) -> JudgeClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    # the request
    def request_body(self, messages: Sequence[ChatMessage]) -> dict[str, Any]:
        """The JSON body POSTed for ``messages`` (no secret in it): the judge input."""
        body: dict[str, Any] = {
            **self.extra_body,
            "model": self.model,
            "messages": [dict(m) for m in messages],
            "temperature": 0,
        }
        if self.json_mode:
            body["response_format"] = {"type": "json_object"}
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if self.seed is not None:
            body["seed"] = self.seed
        return body

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "User-Agent": "ragmon"}
        if self._api_key is not None and self._api_key.get_secret_value():
            headers["Authorization"] = f"Bearer {self._api_key.get_secret_value()}"
        return headers

    def _mask(self, text: str) -> str:
        key = self._api_key.get_secret_value() if self._api_key is not None else ""
        return text.replace(key, MASK) if key else text

    async def complete(self, messages: Sequence[ChatMessage], schema: type[T]) -> JudgeReply[T]:
        """Ask for a JSON reply to ``messages`` and validate it as ``schema`` (see the module
        docstring for retries and the corrective round); ``JudgeError`` when it fails."""
        try:
            return await self._complete(messages, schema)
        except JudgeError:
            self.usage.failures += 1
            raise

    async def _complete(self, messages: Sequence[ChatMessage], schema: type[T]) -> JudgeReply[T]:
        started_s = time.monotonic()
        requests = prompt_tokens = completion_tokens = 0
        conversation = list(messages)
        for repairing in (False, True):
            completion, attempts = await self._post(conversation)
            requests += attempts
            prompt_tokens += completion.prompt_tokens or 0
            completion_tokens += completion.completion_tokens or 0
            try:
                value = schema.model_validate(json_object(completion.content))
            except ValueError as exc:  # pydantic's ValidationError is a ValueError
                problem = _problem(exc)
                if repairing:
                    raise JudgeError(
                        "invalid_output",
                        f"still not the JSON asked for after a correction: {problem}",
                    ) from None
                self.usage.repairs += 1
                log.info("judge %s: reply not usable (%s); asking once more", self.model, problem)
                conversation = [
                    *messages,
                    {"role": "assistant", "content": completion.content},
                    {"role": "user", "content": CORRECTION.format(problem=problem)},
                ]
                continue
            return JudgeReply(
                value=value,
                content=completion.content,
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens,
                cost_usd=cost_usd(
                    prompt_tokens,
                    completion_tokens,
                    self.usage.price_per_1k_input_usd,
                    self.usage.price_per_1k_output_usd,
                ),
                requests=requests,
                repaired=repairing,
                latency_s=time.monotonic() - started_s,
                served_model=completion.served_model,
                system_fingerprint=completion.system_fingerprint,
            )
        raise AssertionError("unreachable")  # pragma: no cover

    async def _post(self, messages: Sequence[ChatMessage]) -> tuple[_Completion, int]:
        """One completion and the attempts it took, retrying transport trouble, 408, 429
        and 5xx."""
        body = json.dumps(self.request_body(messages), ensure_ascii=False).encode()
        retry = 0
        while True:
            if self._bucket is not None:
                await self._bucket.acquire()
            self.usage.requests += 1
            outcome = await self._attempt(body)
            if isinstance(outcome, _Completion):
                self.usage.add_completion(outcome.prompt_tokens, outcome.completion_tokens)
                return outcome, retry + 1
            retry += 1
            if self.retry_policy.gives_up(retry):
                raise JudgeError(
                    "retries_exhausted",
                    f"{self.max_retries} retries spent, the last attempt: {outcome.reason}",
                    status=outcome.status,
                )
            self.usage.retries += 1
            delay_s = self.retry_policy.delay_s(retry, outcome.retry_after_s, self._rng)
            log.warning(
                "judge %s: %s; retry %d of %d in %.2f s",
                self.model,
                outcome.reason,
                retry,
                self.max_retries,
                delay_s,
            )
            await asyncio.sleep(delay_s)

    async def _attempt(self, body: bytes) -> _Completion | _Retry:
        try:
            async with asyncio.timeout(self.timeout_s):
                response = await self._http.post(
                    self.endpoint, content=body, headers=self._headers(), timeout=self.timeout_s
                )
        except (TimeoutError, httpx.TimeoutException):
            return _Retry("timeout")
        except httpx.ConnectError:
            return _Retry("connect")
        except (httpx.UnsupportedProtocol, httpx.InvalidURL):
            raise JudgeError("bad_url", "the judge base URL cannot be used") from None
        except httpx.TransportError as exc:
            return _Retry(f"network ({type(exc).__name__})")
        status = response.status_code
        if status in _RETRY_STATUSES or status >= 500:
            wait_s = retry_after_s(response.headers, time.time())
            return _Retry(f"HTTP {status}", status, wait_s)
        if not 200 <= status < 300:
            excerpt = self._mask(response.text[:_EXCERPT_CHARS])
            excerpt = "".join(c if c.isprintable() else " " for c in excerpt)
            raise JudgeError("rejected", f"HTTP {status} from the judge: {excerpt}", status=status)
        return self._completion(response)

    def _completion(self, response: httpx.Response) -> _Completion:
        try:
            data = response.json()
            message = data["choices"][0]["message"]
            content = message.get("content") or ""
            if not isinstance(content, str):
                raise TypeError("content is not text")
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
            raise JudgeError(
                "malformed_response",
                f"a {response.status_code} answer that is not a chat completion ({exc!r})",
                status=response.status_code,
            ) from None
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        served = data.get("model")
        fingerprint = data.get("system_fingerprint")
        return _Completion(
            content=content,
            prompt_tokens=_int_or_none(usage.get("prompt_tokens")),
            completion_tokens=_int_or_none(usage.get("completion_tokens")),
            served_model=served if isinstance(served, str) else None,
            system_fingerprint=fingerprint if isinstance(fingerprint, str) else None,
        )
