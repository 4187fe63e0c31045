"""Event bytes in, a ``ScoredEvent`` or a dead-letter error out. Pure.

:func:`decode_event` turns one Kafka message value into a validated ``RagEvent`` or raises
:class:`~monitor.errors.EventError` with the stage, reason code and field that an
operator needs; :func:`score_event` runs every scorer; :func:`process` does both and never
raises for bad input. The stream worker, ``ragmon score`` and the offline evaluation all
call these, so one definition of every metric serves them all.

>>> r = process(b'{"schema_version": "1", "event_id": "e1", "timestamp_ms": 5,'
...             b' "query": {"text": "refund policy"}}', max_bytes=1024)
>>> r.event_id, r.quality.overall, r.crag.classification, r.outcome
('e1', 0.0, 'incorrect', 'no_results')
>>> err = process(b'{"schema_version": "1", "event_id": "e1"}', max_bytes=1024)
>>> err.stage, err.reason, err.field
('validate', 'missing_field', 'timestamp_ms')
>>> process(b"x" * 2000, max_bytes=1024).reason
'oversized'
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import orjson
from pydantic import ValidationError

from monitor.errors import EventError
from monitor.events.construct import construct
from monitor.events.rag_event import RagEvent
from monitor.events.scored_event import SCORER_VERSION, ScoredEvent
from monitor.scoring.families import FAMILIES, ScoringInput

__all__ = ["DEFAULT_MAX_EVENT_BYTES", "decode_event", "process", "score_event", "score_lines"]

DEFAULT_MAX_EVENT_BYTES = 1_048_576

_JSON_ERRORS = frozenset({"json_invalid", "json_type"})


def _error_from_validation(exc: ValidationError) -> EventError:
    errors = exc.errors(include_url=False, include_input=False)
    first = errors[0]
    kind = first["type"]
    field = ".".join(str(part) for part in first["loc"]) or None
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    detail = f"{first['msg']}{more}"
    if kind in _JSON_ERRORS:
        return EventError("decode", "invalid_json", None, detail)
    if kind == "model_type" and field is None:
        return EventError("validate", "not_an_object", None, "the event is not a JSON object")
    if kind == "missing":
        return EventError("validate", "missing_field", field, detail)
    if field == "schema_version":
        return EventError(
            "validate", "unsupported_schema_version", field, "only schema_version '1' is read"
        )
    if kind.endswith(("_type", "_parsing")):
        return EventError("validate", "invalid_type", field, detail)
    return EventError("validate", "invalid_value", field, detail)


def decode_event(payload: bytes | None, *, max_bytes: int = DEFAULT_MAX_EVENT_BYTES) -> RagEvent:
    """Validate one message value as a ``RagEvent`` v1, or raise ``EventError``."""
    if payload is None:
        raise EventError("decode", "empty_payload", None, "the message has no value")
    if len(payload) > max_bytes:
        raise EventError(
            "decode", "oversized", None, f"{len(payload)} bytes exceeds the {max_bytes} limit"
        )
    try:
        return RagEvent.model_validate_json(payload)
    except ValidationError as exc:
        raise _error_from_validation(exc) from None


def _latency_stages(event: RagEvent) -> dict[str, float]:
    """The event's numeric, finite latency stages (unknown stages included)."""
    stages = {}
    for name, value in event.latency_ms:
        if isinstance(value, int | float) and not isinstance(value, bool):
            try:
                seconds = float(value)
            except OverflowError:
                continue
            if math.isfinite(seconds):
                stages[name] = seconds
    return stages


def score_event(
    event: RagEvent,
    *,
    clock_ns: Callable[[], int] = time.perf_counter_ns,
    include_query_text: bool = False,
) -> ScoredEvent:
    """Run every scorer family over one event. ``scoring_us`` is the time this took."""
    started = clock_ns()
    inp = ScoringInput.of(event, include_query_text=include_query_text)
    sections: dict[str, Any] = {}
    for family in FAMILIES.values():
        sections.update(family(inp))
    return construct(
        ScoredEvent,
        event_id=event.event_id,
        timestamp_ms=event.timestamp_ms,
        tenant=event.tenant,
        application=event.application,
        experiment=event.experiment,
        variant=event.variant,
        scorer_version=SCORER_VERSION,
        latency_ms=_latency_stages(event),
        **sections,
        scoring_us=(clock_ns() - started) // 1000,
    )


def process(
    payload: bytes | None,
    *,
    max_bytes: int = DEFAULT_MAX_EVENT_BYTES,
    include_query_text: bool = False,
) -> ScoredEvent | EventError:
    """Decode and score; bad input (or a scorer failure) comes back as an ``EventError``."""
    try:
        event = decode_event(payload, max_bytes=max_bytes)
    except EventError as exc:
        return exc
    try:
        scored = score_event(event, include_query_text=include_query_text)
    except Exception as exc:  # a scorer bug must not stop the stream: dead-letter it
        return EventError("score", "scorer_error", None, type(exc).__name__)
    if not math.isfinite(scored.quality.overall):
        return EventError("score", "non_finite_score", "chunks", "chunk scores too large to score")
    return scored


def score_lines(
    lines: Iterable[bytes], *, max_bytes: int = DEFAULT_MAX_EVENT_BYTES
) -> Iterator[tuple[bytes, bool]]:
    """``ragmon score``'s core: one output line per input line, lazily, in order.

    Yields ``(json_bytes, ok)``; a bad line yields ``{"line": N, "error": "..."}``.

    >>> out = list(score_lines([b"not json\\n", b"\\n"]))
    >>> out[0][1], out[0][0][:40]
    (False, b'{"line":1,"error":"decode/invalid_json: ')
    >>> out[1][0]
    b'{"line":2,"error":"decode/empty_line: the line is empty"}'
    """
    for number, line in enumerate(lines, start=1):
        body = line.rstrip(b"\r\n")
        result = (
            process(body, max_bytes=max_bytes)
            if body.strip()
            else EventError("decode", "empty_line", None, "the line is empty")
        )
        if isinstance(result, EventError):
            yield orjson.dumps({"line": number, "error": str(result)}), False
        else:
            yield result.model_dump_json().encode(), True
