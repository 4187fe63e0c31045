"""A small deterministic RAG service on loopback, for tests of ``ragmon eval --target``.

``POST /query`` with ``{"query": ..., "case_id": ...}`` answers a ``RagEvent``-shaped
reply: up to three chunks of a tiny built-in corpus (:data:`CORPUS`) ranked by keyword
overlap with the query (chunk ids like ``hr-001-c1``, document ids like ``hr-001``), an
answer built from the top chunk with a citation to it, and ``latency_ms`` with
``retrieve``, ``generate`` and ``total``. A query that matches nothing is abstained.
``POST /v2/ask`` with ``{"question": ..., "id": ...}`` answers the same in another shape,
for ``response_map`` tests: ``{"data": [{"answer", "sources": [document ids],
"passages": [chunks]}], "abstained": bool, "timing": {"total_ms": ...}}``.

Failure modes, switchable at any time from any thread: ``fail_next(n, status,
retry_after=...)``, ``fail_for(marker, status)`` (every query containing ``marker``),
``not_json_next(n)`` (a 200 whose body is HTML), ``slow(delay_s, marker=None)`` (every
request, or those whose query contains ``marker``), ``empty_for(marker)`` (an empty answer
text) and ``abstain_for(marker)`` (an empty, abstained answer). Every request is recorded
(``requests()``, ``calls(case_id=...)``), and ``max_concurrent`` is the most requests seen
in flight at once.

>>> import json, urllib.request
>>> with RagStub() as stub:
...     body = {"query": "How many vacation days do I get?", "case_id": "q1"}
...     request = urllib.request.Request(stub.url + "/query", data=json.dumps(body).encode())
...     reply = json.load(urllib.request.urlopen(request))
...     ([c["chunk_id"] for c in reply["chunks"]], reply["response"]["citations"],
...      stub.calls(case_id="q1"))
(['hr-001-c1', 'hr-001-c2', 'it-001-c2'], [{'document_id': 'hr-001', 'chunk_id': 'hr-001-c1'}], 1)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from loopback_http import Answer, LoopbackHttpService, RecordedRequest

__all__ = ["CORPUS", "RagStub", "StubRequest", "retrieve"]

CORPUS: dict[str, tuple[str, ...]] = {
    "hr-001": (
        "Full-time employees get 25 vacation days per year.",
        "Unused vacation days carry over, up to 5 days, into the next year.",
    ),
    "hr-002": (
        "Parents get 16 weeks of paid parental leave.",
        "Parental leave can start up to 4 weeks before the due date.",
    ),
    "it-001": (
        "Reset your password at the self-service portal.",
        "Passwords expire every 90 days and need at least 12 characters.",
    ),
    "it-002": (
        "Connect to the VPN with the corporate client before using internal tools.",
        "The VPN client is installed on every company laptop.",
    ),
    "fin-001": (
        "Submit expense reports within 30 days of the purchase.",
        "Meals on business trips are reimbursed up to 50 euros per day.",
    ),
}
"""Document id -> its chunks' contents (chunk ``i`` is ``{document id}-c{i}``)."""

_STOP = frozenset(
    "a an and are at before by can do does for get how i in is it many much my of on "
    "or per the to up what when where which who why with you your".split()
)
_WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> set[str]:
    return {w.rstrip("s") for w in _WORD.findall(text.lower()) if w not in _STOP}


def retrieve(query: str, k: int = 3) -> list[dict[str, Any]]:
    """The ``k`` best chunks for ``query`` (keyword overlap > 0, ties in corpus order).

    >>> [c["chunk_id"] for c in retrieve("reset my password")]
    ['it-001-c1', 'it-001-c2']
    """
    wanted = _words(query)
    scored = []
    for document_id, contents in CORPUS.items():
        for index, content in enumerate(contents, start=1):
            overlap = len(wanted & _words(content))
            if overlap:
                score = round(overlap / max(len(wanted), 1), 4)
                scored.append((score, f"{document_id}-c{index}", document_id, content))
    scored.sort(key=lambda item: -item[0])  # stable: ties keep corpus order
    return [
        {"chunk_id": chunk_id, "document_id": document_id, "content": content, "score": score}
        for score, chunk_id, document_id, content in scored[:k]
    ]


@dataclass(frozen=True)
class StubRequest(RecordedRequest):
    """One request as it arrived (``path`` without the query string, ``headers`` names
    lower case) and the status it got."""

    @property
    def case_id(self) -> str | None:
        value = self.body.get("case_id", self.body.get("id"))
        return value if isinstance(value, str) else None

    @property
    def query(self) -> str:
        value = self.body.get("query", self.body.get("question", ""))
        return value if isinstance(value, str) else ""


def _ragevent_reply(query: str, empty: bool, abstain: bool) -> dict[str, Any]:
    chunks = [] if abstain else retrieve(query)
    response: dict[str, Any]
    if abstain or not chunks:
        response = {"text": "", "citations": [], "abstained": True, "confidence": 0.0}
        if chunks == [] and not abstain:
            response["text"] = "I could not find this in the documents."
    else:
        top = chunks[0]
        response = {
            "text": "" if empty else f"According to {top['document_id']}: {top['content']}",
            "citations": [{"document_id": top["document_id"], "chunk_id": top["chunk_id"]}],
            "abstained": False,
            "confidence": top["score"],
        }
    retrieve_ms = 5.0 + len(chunks)
    generate_ms = 20.0 + len(response["text"].split())
    return {
        "chunks": chunks,
        "response": response,
        "latency_ms": {
            "retrieve": retrieve_ms,
            "generate": generate_ms,
            "total": retrieve_ms + generate_ms,
        },
    }


def _v2_reply(event: dict[str, Any]) -> dict[str, Any]:
    response = event["response"]
    return {
        "data": [
            {
                "answer": response["text"],
                "sources": [c["document_id"] for c in response["citations"]],
                "passages": event["chunks"],
            }
        ],
        "abstained": response["abstained"],
        "timing": {"total_ms": event["latency_ms"]["total"]},
    }


class RagStub(LoopbackHttpService):
    """See the module docstring. ``url`` is the base URL (``http://127.0.0.1:PORT``)."""

    routes = frozenset({"/query", "/v2/ask"})
    request_class = StubRequest

    def __init__(self, port: int = 0) -> None:
        super().__init__(port)
        self._fail: list[tuple[int, dict[str, str]]] = []
        self._fail_for: dict[str, int] = {}
        self._not_json = 0
        self._slow: tuple[float, str | None] = (0.0, None)
        self._empty_for: set[str] = set()
        self._abstain_for: set[str] = set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # behaviour
    def fail_next(self, n: int, status: int = 500, retry_after: str | None = None) -> None:
        """Answer the next ``n`` requests with ``status`` (and ``Retry-After`` when given)."""
        headers = {"Retry-After": retry_after} if retry_after is not None else {}
        with self._lock:
            self._fail.extend([(status, headers)] * n)

    def fail_for(self, marker: str, status: int = 500) -> None:
        """Answer ``status`` to every query containing ``marker``."""
        with self._lock:
            self._fail_for[marker] = status

    def not_json_next(self, n: int) -> None:
        """Answer the next ``n`` requests with a 200 whose body is HTML, not JSON."""
        with self._lock:
            self._not_json += n

    def slow(self, delay_s: float, marker: str | None = None) -> None:
        """Wait ``delay_s`` before answering (only queries containing ``marker``, if given)."""
        with self._lock:
            self._slow = (delay_s, marker)

    def empty_for(self, marker: str) -> None:
        with self._lock:
            self._empty_for.add(marker)

    def abstain_for(self, marker: str) -> None:
        with self._lock:
            self._abstain_for.add(marker)

    # what arrived
    def requests(self) -> list[StubRequest]:
        with self._lock:
            return list(self._requests)

    def calls(self, case_id: str | None = None) -> int:
        return sum(1 for r in self.requests() if case_id is None or r.case_id == case_id)

    def _answer(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> Answer:
        request = StubRequest(path, headers, body, 0, 0.0)
        query = request.query
        with self._lock:
            delay_s, marker = self._slow
            if marker is not None and marker not in query:
                delay_s = 0.0
            status, extra = 200, dict[str, str]()
            if self._fail:
                status, extra = self._fail.pop(0)
            else:
                status = next((s for m, s in self._fail_for.items() if m in query), 200)
            not_json = status == 200 and self._not_json > 0
            self._not_json -= not_json
            empty = any(m in query for m in self._empty_for)
            abstain = any(m in query for m in self._abstain_for)
            self._recorded(path, headers, body, status)
        if status != 200:
            payload = json.dumps({"error": f"simulated {status}"}).encode()
            return Answer(status, payload, headers=extra, delay_s=delay_s)
        if not_json:
            html = b"<html><body>Bad gateway</body></html>"
            return Answer(200, html, content_type="text/html", delay_s=delay_s)
        reply = _ragevent_reply(query, empty, abstain)
        if path == "/v2/ask":
            reply = _v2_reply(reply)
        return Answer(200, json.dumps(reply).encode(), delay_s=delay_s)
