"""``TargetResult``: what asking the live service about one case gave.

``status`` is ``ok`` (an event), ``empty`` (an event whose answer text is empty or white
space although the answer is neither abstained nor blocked by a guardrail: a service
that answered nothing), ``error`` (no event: a status that is not retried, retries spent,
a reply that is not JSON or does not fit the ``RagEvent`` fields) or ``timeout`` (no event:
every attempt timed out). ``error`` is one line and never holds a header value or the
URL's path or query. ``elapsed_ms`` is the wall time of the attempt that answered, or
(on failure) of all the attempts, backoff included; ``attempts`` counts the HTTP requests.

>>> from monitor.events.rag_event import Query, Response
>>> event = RagEvent(schema_version="1", event_id="q1", timestamp_ms=0,
...                  query=Query(text="Vacation days?"), response=Response(text=" "))
>>> answer_status(event)
'empty'
>>> answer_status(event.model_copy(update={"response": Response(abstained=True)}))
'ok'
>>> answer_status(event.model_copy(update={"response": Response(
...     policy_flags=["guardrail_blocked"])}))
'ok'
>>> TargetResult("q1", None, "timeout", "timed out after 3 attempts (30 s each)", 90012.5, 3).ok
False
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from monitor.events.rag_event import RagEvent

__all__ = ["GUARDRAIL_BLOCKED", "TargetResult", "TargetStatus", "answer_status"]

TargetStatus = Literal["ok", "error", "timeout", "empty"]

GUARDRAIL_BLOCKED = "guardrail_blocked"
"""The policy flag of an answer a guardrail blocked: an empty text is then expected."""


@dataclass(frozen=True)
class TargetResult:
    """See the module docstring. ``event`` is set when ``status`` is ``ok`` or ``empty``
    (without ``labels``: the caller attaches the case's)."""

    case_id: str
    event: RagEvent | None
    status: TargetStatus
    error: str | None
    elapsed_ms: float
    attempts: int

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def answer_status(event: RagEvent) -> Literal["ok", "empty"]:
    """``empty`` when the answer text is blank and the answer is neither abstained nor
    flagged ``guardrail_blocked``; else ``ok``."""
    response = event.response
    if response is None:
        return "empty"
    if response.text.strip() or response.abstained or GUARDRAIL_BLOCKED in response.policy_flags:
        return "ok"
    return "empty"
