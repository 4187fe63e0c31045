"""The ``RagEvent`` of a case from the live service's JSON reply.

``event_id`` is the case id, ``timestamp_ms`` when the request was sent, ``query`` the
case's (text, type, roles); the other fields are what the reply gives under the
``response_map`` (:func:`~monitor.evaluation.target.response_map.mapped_fields`).
``latency_ms.total`` is the measured round trip when the reply does not say. ``labels`` are
not set: the caller attaches the case's. A value that does not validate as its ``RagEvent``
field is a :class:`~monitor.evaluation.target.response_map.ReplyError` naming the field
(and the reply path it was read from), never quoting the value.

>>> case = EvalCase(case_id="q1", query="Vacation days?", origin="cases.jsonl:1")
>>> reply = {"answer": "25 days.", "sources": ["hr-001"]}
>>> event = event_from_reply(case, reply, {"response.text": "answer",
...     "response.citations": "sources"}, timestamp_ms=1700000000000, elapsed_ms=41.5)
>>> event.event_id, event.response.text, event.response.citations[0].document_id
('q1', '25 days.', 'hr-001')
>>> event.latency_ms.total, event.labels is None
(41.5, True)
>>> try:
...     event_from_reply(case, {"answer": 25}, {"response.text": "answer"},
...                      timestamp_ms=0, elapsed_ms=1.0)
... except ReplyError as exc:
...     print(exc)
reply field response.text (from answer): Input should be a valid string
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from monitor.evaluation.datasets.case import EvalCase
from monitor.evaluation.target.response_map import ReplyError, mapped_fields
from monitor.events.rag_event import RagEvent

__all__ = ["event_from_reply"]


def _source(field: str, response_map: Mapping[str, str]) -> str:
    """`` (from PATH)``: the reply path that ``field`` (or its parent) was read from."""
    for event_path in sorted(response_map, key=len, reverse=True):
        if field == event_path or field.startswith(event_path + "."):
            return f" (from {response_map[event_path]})"
    return ""


def event_from_reply(
    case: EvalCase,
    reply: Any,
    response_map: Mapping[str, str],
    *,
    timestamp_ms: int,
    elapsed_ms: float,
) -> RagEvent:
    """See the module docstring."""
    fields = mapped_fields(reply, response_map)
    latency = fields.get("latency_ms")
    if latency is None:
        fields["latency_ms"] = {"total": elapsed_ms}
    elif isinstance(latency, Mapping) and latency.get("total") is None:
        fields["latency_ms"] = {**latency, "total": elapsed_ms}
    data = {
        **fields,
        "schema_version": "1",
        "event_id": case.case_id,
        "timestamp_ms": timestamp_ms,
        "query": {"text": case.query, "type": case.query_type, "user_roles": case.user_roles},
    }
    try:
        return RagEvent.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
        first = errors[0]
        field = ".".join(str(part) for part in first["loc"]) or "the reply"
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        reason = first["msg"].removeprefix("Value error, ")
        raise ReplyError(f"{field}{_source(field, response_map)}", f"{reason}{more}") from None
