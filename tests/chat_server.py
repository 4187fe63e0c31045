"""A real OpenAI-compatible chat-completions server on loopback, for tests of the judge.

``POST /v1/chat/completions`` answers with a deterministic JSON verdict derived from the
request: the rubric from the system prompt (``groundedness`` in it: groundedness and
correctness 0-5 with claims; else faithfulness and completeness 1-5), the scores from
markers in the first user message (the rendered case):

* ``UNSUPPORTED``: faithfulness 2 (with a failure analysis) / groundedness 1 with an
  unsupported claim;
* ``INCOMPLETE``: completeness 2 / correctness 2;
* ``CONTROVERSIAL``: a harsh judge (a model in ``harsh_models``, or a system prompt
  containing ``STRICT``) gives faithfulness 1 / groundedness 1, any other judge 5;
* otherwise 4 or 5, from a hash of the message (so it differs between cases but never
  between calls).

``usage`` counts words (prompt: every message; completion: the reply). Failure modes,
switchable at any time from any thread: ``fail_next(n, status, retry_after=...)``,
``invalid_next(n, content=...)`` (a 200 whose content is not the JSON asked for),
``slow(delay_s)``, ``reject_json_mode()`` (400 when ``response_format`` is sent, as some
servers do), ``hold_after(n)`` (answer ``n`` more requests, then hold every later one
until ``release()``; ``held`` counts them; a held request is recorded once released).
Every request is recorded (``requests()``, ``calls(model=...)``, ``calls_mentioning(text)``).

>>> import json, urllib.request
>>> with ChatServer() as server:
...     body = {"model": "judge-a", "temperature": 0, "messages": [
...         {"role": "system", "content": "Judge faithfulness and completeness."},
...         {"role": "user", "content": "<answer>Paris. UNSUPPORTED</answer>"}]}
...     request = urllib.request.Request(server.url + "/chat/completions",
...                                      data=json.dumps(body).encode())
...     reply = json.load(urllib.request.urlopen(request))
...     verdict = json.loads(reply["choices"][0]["message"]["content"])
...     (verdict["faithfulness"]["score"], reply["usage"]["prompt_tokens"],
...      server.calls(model="judge-a"))
(2, 6, 1)
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from loopback_http import Answer, LoopbackHttpService, RecordedRequest, json_error

__all__ = ["ChatRequest", "ChatServer", "verdict_for"]

COMPLETIONS_PATH = "/v1/chat/completions"


@dataclass(frozen=True)
class ChatRequest(RecordedRequest):
    """One request as it arrived (``headers`` names lower case) and the status it got."""

    @property
    def model(self) -> str:
        return str(self.body.get("model", ""))

    @property
    def first_user_message(self) -> str:
        for message in self.body.get("messages", []):
            if message.get("role") == "user":
                return str(message.get("content", ""))
        return ""


def _first(messages: Iterable[dict[str, Any]], role: str) -> str:
    for message in messages:
        if message.get("role") == role:
            return str(message.get("content", ""))
    return ""


def verdict_for(
    model: str, messages: list[dict[str, Any]], harsh_models: set[str]
) -> dict[str, Any]:
    """The deterministic verdict the server answers (see the module docstring)."""
    system, user = _first(messages, "system"), _first(messages, "user")
    harsh = model in harsh_models or "STRICT" in system
    base = 4 + hashlib.sha256(user.encode()).digest()[0] % 2
    if "groundedness" in system.lower():
        groundedness = correctness = base
        unsupported: list[str] = []
        if "UNSUPPORTED" in user:
            groundedness, unsupported = 1, ["a claim the context does not hold"]
        if "CONTROVERSIAL" in user:
            groundedness = 1 if harsh else 5
        if "INCOMPLETE" in user:
            correctness = 2
        return {
            "groundedness": groundedness,
            "supported_claims": ["a claim the context holds"],
            "unsupported_claims": unsupported,
            "correctness": correctness,
            "reasoning": "deterministic test verdict",
        }
    faithfulness = completeness = base
    if "UNSUPPORTED" in user:
        faithfulness = 2
    if "CONTROVERSIAL" in user:
        faithfulness = 1 if harsh else 5
    if "INCOMPLETE" in user:
        completeness = 2
    return {
        "faithfulness": {"score": faithfulness, "reasoning": "deterministic"},
        "completeness": {"score": completeness, "reasoning": "deterministic"},
        "failure_analysis": "invented claims" if faithfulness < 4 else None,
    }


def _words(text: str) -> int:
    return len(text.split())


class ChatServer(LoopbackHttpService):
    """See the module docstring. ``url`` is the base URL a client is configured with."""

    routes = frozenset({COMPLETIONS_PATH})
    request_class = ChatRequest

    def __init__(self, port: int = 0, *, harsh_models: Iterable[str] = ()) -> None:
        super().__init__(port)
        self.harsh_models = set(harsh_models)
        self._fail: list[tuple[int, dict[str, str], str]] = []
        self._invalid: list[str] = []
        self._delay_s = 0.0
        self._reject_json_mode = False
        self._hold_budget: int | None = None
        self._held = 0
        self._released = threading.Event()

    def _before_stop(self) -> None:
        self._released.set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # behaviour
    def fail_next(
        self,
        n: int,
        status: int = 500,
        *,
        retry_after: str | None = None,
        message: str | None = None,
    ) -> None:
        """Answer the next ``n`` requests with ``status`` (and ``Retry-After``, and an
        OpenAI-style error ``message``, when given)."""
        headers = {"Retry-After": retry_after} if retry_after is not None else {}
        with self._lock:
            self._fail.extend([(status, headers, message or f"simulated {status}")] * n)

    def invalid_next(self, n: int, content: str = "The answer looks fine to me!") -> None:
        with self._lock:
            self._invalid.extend([content] * n)

    def slow(self, delay_s: float) -> None:
        with self._lock:
            self._delay_s = delay_s

    def reject_json_mode(self, on: bool = True) -> None:
        with self._lock:
            self._reject_json_mode = on

    def hold_after(self, n: int) -> None:
        """Answer ``n`` more requests, then hold every later one until :meth:`release`."""
        with self._lock:
            self._released.clear()
            self._hold_budget = n

    def release(self) -> None:
        with self._lock:
            self._hold_budget = None
            self._released.set()

    @property
    def held(self) -> int:
        """How many requests have been held by :meth:`hold_after` so far."""
        with self._lock:
            return self._held

    # what arrived
    def requests(self) -> list[ChatRequest]:
        with self._lock:
            return list(self._requests)

    def calls(self, model: str | None = None) -> int:
        return sum(1 for r in self.requests() if model is None or r.model == model)

    def calls_mentioning(self, text: str) -> int:
        """Requests whose first user message (the rendered case) contains ``text``."""
        return sum(1 for r in self.requests() if text in r.first_user_message)

    def wait_for(self, n: int, timeout_s: float = 10.0) -> list[ChatRequest]:
        deadline = time.monotonic() + timeout_s
        while len(got := self.requests()) < n:
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(got)} of {n} requests arrived within {timeout_s} s")
            time.sleep(0.01)
        return got

    # called by the handler threads
    def _answer(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> Answer:
        with self._lock:
            hold = self._hold_budget == 0
            if self._hold_budget:
                self._hold_budget -= 1
            self._held += hold
        if hold:
            self._released.wait()
        with self._lock:
            delay_s = self._delay_s
            if self._fail:
                status, extra, message = self._fail.pop(0)
                self._recorded(path, headers, body, status)
                return replace(json_error(status, message, extra), delay_s=delay_s)
            if self._reject_json_mode and "response_format" in body:
                self._recorded(path, headers, body, 400)
                error = {"message": "response_format is not supported", "type": "invalid_request"}
                return Answer(400, json.dumps({"error": error}).encode(), delay_s=delay_s)
            content = self._invalid.pop(0) if self._invalid else None
            self._recorded(path, headers, body, 200)
        model = str(body.get("model", ""))
        messages = [m for m in body.get("messages", []) if isinstance(m, dict)]
        if content is None:
            content = json.dumps(verdict_for(model, messages, self.harsh_models))
        prompt_tokens = sum(_words(str(m.get("content", ""))) for m in messages)
        reply = {
            "id": f"chatcmpl-{len(self._requests)}",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "system_fingerprint": "fp_chat_server",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": _words(content),
                "total_tokens": prompt_tokens + _words(content),
            },
        }
        return Answer(200, json.dumps(reply).encode(), delay_s=delay_s)
