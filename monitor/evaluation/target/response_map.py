"""Where the fields of a ``RagEvent`` are in the live service's JSON reply.

A target config's ``response_map`` maps a ``RagEvent`` field path (:data:`EVENT_PATHS`:
``chunks``, ``context.text``, ``response.text``, ``response.citations``,
``response.abstained``, ``latency_ms.total``...) to a dotted path in the reply; a part of
digits indexes a list (``data.0.answer``). A reply path that ends in ``?`` is optional:
when the reply lacks it, the field is left out (without ``?`` that is an error). A
``null`` in the reply counts as absent. Two conveniences for common reply shapes: a list
of strings mapped to ``response.citations`` is a list of document ids, and one mapped to
``chunks`` a list of chunk contents.

The empty map (the default) is the identity: the reply is taken to be ``RagEvent``-shaped
and its ``chunks``, ``context``, ``response`` and ``latency_ms`` are used as they are; a
reply with neither ``response`` nor ``chunks`` is then an error.

>>> reply = {"data": [{"answer": "25 days.", "sources": ["hr-001"]}],
...          "timing": {"total_ms": 41}}
>>> mapped_fields(reply, {"response.text": "data.0.answer",
...                       "response.citations": "data.0.sources",
...                       "response.abstained": "abstained?",
...                       "latency_ms.total": "timing.total_ms"})
{'response': {'text': '25 days.', 'citations': [{'document_id': 'hr-001'}]}, 'latency_ms': {'total': 41}}
>>> mapped_fields({"response": {"text": "Hi"}, "event_id": "x"}, {})
{'response': {'text': 'Hi'}}
>>> try:
...     mapped_fields(reply, {"response.text": "data.1.answer"})
... except ReplyError as exc:
...     print(exc)
reply field response.text: no data.1.answer in the reply
>>> response_map_problem({"response.txt": "answer"})
(('response.txt',), 'not a RagEvent field path (did you mean response.text?)')
"""  # noqa: E501

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from monitor.events.rag_event import Context, LatencyMs, RagEvent, Response

__all__ = [
    "EVENT_PATHS",
    "IDENTITY_FIELDS",
    "RESERVED_FIELDS",
    "ReplyError",
    "mapped_fields",
    "reply_value",
    "response_map_problem",
]

RESERVED_FIELDS = frozenset({"schema_version", "event_id", "timestamp_ms", "query", "labels"})
"""``RagEvent`` fields the client fills itself (from the case and the clock), never from
the reply: ``labels`` are the case's, attached by the caller."""

IDENTITY_FIELDS = ("chunks", "context", "response", "latency_ms")
"""The fields taken as they are from a ``RagEvent``-shaped reply (the empty map)."""


_OBJECT_FIELDS: dict[str, type[BaseModel]] = {
    "context": Context,
    "response": Response,
    "latency_ms": LatencyMs,
}


def _event_paths() -> tuple[str, ...]:
    paths = [name for name in RagEvent.model_fields if name not in RESERVED_FIELDS]
    for name, model in _OBJECT_FIELDS.items():
        paths.extend(f"{name}.{sub}" for sub in model.model_fields)
    return tuple(sorted(paths))


EVENT_PATHS: tuple[str, ...] = _event_paths()
"""Every ``RagEvent`` path a ``response_map`` may fill: a top-level field that is not
reserved, or a declared field of ``context``, ``response`` or ``latency_ms``."""


class ReplyError(ValueError):
    """A reply that cannot become the event's fields. ``field`` is the ``RagEvent`` path
    at fault (``None`` for the reply as a whole); the message is one line and never quotes
    the reply."""

    def __init__(self, field: str | None, reason: str) -> None:
        super().__init__(f"reply field {field}: {reason}" if field else f"reply {reason}")
        self.field = field
        self.reason = reason


_ABSENT = object()


def reply_value(reply: Any, path: str) -> Any:
    """The value at dotted ``path`` in ``reply`` (``?`` suffix ignored), or ``None`` when
    it is absent or ``null``; ``KeyError`` naming the path when it is absent and not
    optional.

    >>> reply_value({"a": [{"b": 1}, {"b": 2}]}, "a.1.b"), reply_value({}, "a.b?")
    (2, None)
    """
    optional = path.endswith("?")
    value: Any = reply
    for part in path.removesuffix("?").split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            value = _ABSENT
            break
    if value is _ABSENT:
        if optional:
            return None
        raise KeyError(path)
    return value


def _coerced(event_path: str, value: Any) -> Any:
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        if event_path == "response.citations":
            return [{"document_id": item} for item in value]
        if event_path == "chunks":
            return [{"content": item} for item in value]
    return value


def mapped_fields(reply: Any, response_map: Mapping[str, str]) -> dict[str, Any]:
    """The ``RagEvent`` fields (nested, still to validate) that ``reply`` gives under
    ``response_map`` (see the module docstring); ``ReplyError`` when a path is missing."""
    if not response_map:
        if not isinstance(reply, Mapping) or not ("response" in reply or "chunks" in reply):
            raise ReplyError(
                None, "has neither response nor chunks: map its fields with response_map"
            )
        return {name: reply[name] for name in IDENTITY_FIELDS if reply.get(name) is not None}
    fields: dict[str, Any] = {}
    for event_path in sorted(response_map, key=lambda path: path.count(".")):
        reply_path = response_map[event_path]
        try:
            value = reply_value(reply, reply_path)
        except KeyError:
            raise ReplyError(event_path, f"no {reply_path} in the reply") from None
        if value is None:
            continue
        value = _coerced(event_path, value)
        head, _, tail = event_path.partition(".")
        if not tail:
            fields[head] = value
            continue
        parent = fields.get(head, {})
        if not isinstance(parent, Mapping):
            raise ReplyError(head, "not a JSON object")
        fields[head] = {**parent, tail: value}
    return fields


def response_map_problem(response_map: Any) -> tuple[tuple[str, ...], str] | None:
    """The first thing wrong with ``response_map`` (the key at fault, and why), or
    ``None`` when every key is an :data:`EVENT_PATHS` path and every value a reply path."""
    if not isinstance(response_map, Mapping):
        return (), "must be a JSON object"
    for event_path, reply_path in response_map.items():
        if not isinstance(event_path, str) or event_path not in EVENT_PATHS:
            head = str(event_path).partition(".")[0]
            if head in RESERVED_FIELDS:
                return (str(event_path),), f"{head} is filled by ragmon, not from the reply"
            close = difflib.get_close_matches(str(event_path), EVENT_PATHS, n=1)
            hint = f"did you mean {close[0]}?" if close else "known: " + ", ".join(EVENT_PATHS)
            return (str(event_path),), f"not a RagEvent field path ({hint})"
        if not isinstance(reply_path, str):
            return (event_path,), "must be a string (a dotted path in the reply)"
        parts = reply_path.removesuffix("?").split(".")
        if not all(parts):
            return (event_path,), "not a dotted path (an empty part)"
    return None
