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

The stream worker also checks event time against its own clock (``now_ms``): an event
outside ``[now_ms - max_age_ms, now_ms + max_ahead_ms]`` is a dead letter, so it can never
move a window's watermark. Offline callers leave ``now_ms`` out and get no such check.

>>> late = process(b'{"schema_version": "1", "event_id": "e1", "timestamp_ms": 5,'
...                b' "query": {"text": "refund policy"}}', now_ms=10_000, max_age_ms=1_000)
>>> late.reason, late.field
('timestamp_out_of_range', 'timestamp_ms')
"""

from __future__ import annotations

import math
import re
import time
import types
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Union, get_args, get_origin

import orjson
from pydantic import BaseModel, ValidationError

from monitor.errors import EventError
from monitor.events.construct import construct
from monitor.events.rag_event import RagEvent
from monitor.events.scored_event import SCORER_VERSION, ScoredEvent
from monitor.scoring.families import FAMILIES, ScoringInput
from monitor.scoring.score_scale import UNDECLARED, ScoreScales

__all__ = [
    "ANY_PART",
    "DEFAULT_MAX_EVENT_BYTES",
    "check_event_time",
    "decode_event",
    "field_shape",
    "process",
    "score_event",
    "score_lines",
]

DEFAULT_MAX_EVENT_BYTES = 1_048_576

_JSON_ERRORS = frozenset({"json_invalid", "json_type"})
_BOUND_ERRORS = frozenset({"greater_than_equal", "less_than_equal"})
ANY_PART = "*"
"""What a list index or a free-form dictionary key becomes in a dead letter's field."""


def _strip_optional(annotation: Any) -> Any:
    origin = get_origin(annotation)
    if origin is Union or origin is types.UnionType:
        present = [a for a in get_args(annotation) if a is not type(None)]
        return present[0] if len(present) == 1 else Any
    return annotation


def field_shape(loc: tuple[int | str, ...], model: type[BaseModel] = RagEvent) -> str | None:
    """The dotted path of an error location with only schema field names in it: list
    indices and keys of free-form dictionaries (or of unknown fields) become ``*``, so a
    dead letter never quotes a key taken from the payload.

    >>> field_shape(("chunks", 3, "score"))
    'chunks.*.score'
    >>> field_shape(("labels", "relevant_chunks", "sk-SECRET"))
    'labels.relevant_chunks.*'
    >>> field_shape(("latency_ms", "total")), field_shape(())
    ('latency_ms.total', None)
    """
    parts: list[str] = []
    node: Any = model
    for part in loc:
        node = _strip_optional(node)
        if isinstance(node, type) and issubclass(node, BaseModel) and part in node.model_fields:
            parts.append(str(part))
            node = node.model_fields[str(part)].annotation
            continue
        parts.append(ANY_PART)
        args = get_args(node)
        node = args[-1] if get_origin(node) in (list, dict) and args else Any
    return ".".join(parts) or None


def _error_from_validation(exc: ValidationError) -> EventError:
    errors = exc.errors(include_url=False, include_input=False)
    first = errors[0]
    kind = first["type"]
    field = field_shape(first["loc"])
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    detail = f"{first['msg']}{more}"
    if kind in _JSON_ERRORS:
        return EventError("decode", "invalid_json", None, detail)
    if kind == "model_type" and field is None:
        return EventError("validate", "not_an_object", None, "the event is not a JSON object")
    if kind == "missing":
        return EventError("validate", "missing_field", field, detail)
    if field == "timestamp_ms" and kind in _BOUND_ERRORS:
        return EventError("validate", "timestamp_out_of_range", field, detail)
    if field == "schema_version":
        return EventError(
            "validate", "unsupported_schema_version", field, "only schema_version '1' is read"
        )
    if kind.endswith(("_type", "_parsing")):
        return EventError("validate", "invalid_type", field, detail)
    return EventError("validate", "invalid_value", field, detail)


def check_event_time(
    timestamp_ms: int,
    *,
    now_ms: int | None = None,
    max_age_ms: int | None = None,
    max_ahead_ms: int | None = None,
) -> None:
    """Raise ``EventError`` (``timestamp_out_of_range``) when ``timestamp_ms`` is more than
    ``max_age_ms`` before or ``max_ahead_ms`` after ``now_ms``; no check without ``now_ms``.

    >>> check_event_time(5_000, now_ms=1_000, max_ahead_ms=1_000)
    Traceback (most recent call last):
    monitor.errors.EventError: validate/timestamp_out_of_range at timestamp_ms: \
the event time is more than 1000 ms ahead of the consumer's clock
    >>> check_event_time(5_000)  # offline: no clock, no check
    """
    if now_ms is None:
        return
    if max_ahead_ms is not None and timestamp_ms > now_ms + max_ahead_ms:
        detail = f"the event time is more than {max_ahead_ms} ms ahead of the consumer's clock"
        raise EventError("validate", "timestamp_out_of_range", "timestamp_ms", detail)
    if max_age_ms is not None and timestamp_ms < now_ms - max_age_ms:
        detail = f"the event time is more than {max_age_ms} ms behind the consumer's clock"
        raise EventError("validate", "timestamp_out_of_range", "timestamp_ms", detail)


def decode_event(
    payload: bytes | None,
    *,
    max_bytes: int = DEFAULT_MAX_EVENT_BYTES,
    now_ms: int | None = None,
    max_age_ms: int | None = None,
    max_ahead_ms: int | None = None,
) -> RagEvent:
    """Validate one message value as a ``RagEvent`` v1, or raise ``EventError``.

    With ``now_ms`` (the consumer's clock) the event time is checked as well, see
    :func:`check_event_time`.
    """
    if not payload:
        raise EventError("decode", "empty_payload", None, "the message has no value")
    if len(payload) > max_bytes:
        raise EventError(
            "decode", "oversized", None, f"{len(payload)} bytes exceeds the {max_bytes} limit"
        )
    try:
        event = RagEvent.model_validate_json(payload)
    except ValidationError as exc:
        raise _error_from_validation(exc) from None
    check_event_time(
        event.timestamp_ms, now_ms=now_ms, max_age_ms=max_age_ms, max_ahead_ms=max_ahead_ms
    )
    return event


_STAGE_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
MAX_LATENCY_STAGES = 32


def _latency_stages(event: RagEvent) -> dict[str, float]:
    """The event's numeric, finite latency stages (unknown stages included), as long as
    their names look like stage names (at most 64 of ``[A-Za-z0-9_.-]``) and there are at
    most ``MAX_LATENCY_STAGES`` of them: a payload key is not copied out as it is.

    >>> ev = RagEvent.model_validate({"schema_version": "1", "event_id": "e",
    ...     "timestamp_ms": 0, "query": {"text": "q"},
    ...     "latency_ms": {"total": 12, "rerank": 3, "a b": 1, "x" * 65: 2}})
    >>> _latency_stages(ev)
    {'total': 12.0, 'rerank': 3.0}
    """
    stages: dict[str, float] = {}
    for name, value in event.latency_ms:
        if len(stages) >= MAX_LATENCY_STAGES or not _STAGE_NAME.fullmatch(name):
            continue
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
    score_scales: ScoreScales = UNDECLARED,
) -> ScoredEvent:
    """Run every scorer family over one event. ``scoring_us`` is the time this took;
    ``score_scales`` are the chunk score scales of an event that declares none."""
    started = clock_ns()
    inp = ScoringInput.of(event, include_query_text=include_query_text, score_scales=score_scales)
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
    now_ms: int | None = None,
    max_age_ms: int | None = None,
    max_ahead_ms: int | None = None,
    score_scales: ScoreScales = UNDECLARED,
) -> ScoredEvent | EventError:
    """Decode and score; bad input (or a scorer failure) comes back as an ``EventError``.

    ``now_ms``, ``max_age_ms`` and ``max_ahead_ms`` bound the event time (see
    :func:`check_event_time`); without ``now_ms`` any int64 event time is accepted.
    """
    try:
        event = decode_event(
            payload,
            max_bytes=max_bytes,
            now_ms=now_ms,
            max_age_ms=max_age_ms,
            max_ahead_ms=max_ahead_ms,
        )
    except EventError as exc:
        return exc
    try:
        scored = score_event(
            event, include_query_text=include_query_text, score_scales=score_scales
        )
    except Exception as exc:  # a scorer bug must not stop the stream: dead-letter it
        return EventError("score", "scorer_error", None, type(exc).__name__)
    if not math.isfinite(scored.quality.overall):
        return EventError("score", "non_finite_score", "chunks", "chunk scores too large to score")
    return scored


def score_lines(
    lines: Iterable[bytes],
    *,
    max_bytes: int = DEFAULT_MAX_EVENT_BYTES,
    score_scales: ScoreScales = UNDECLARED,
    first: int = 1,
) -> Iterator[tuple[bytes, bool]]:
    """``ragmon score``'s core: one output line per input line, lazily, in order.

    Yields ``(json_bytes, ok)``; a bad line yields ``{"line": N, "error": "..."}``
    (``first``: the number of the first line).

    >>> out = list(score_lines([b"not json\\n", b"\\n"]))
    >>> out[0][1], out[0][0][:40]
    (False, b'{"line":1,"error":"decode/invalid_json: ')
    >>> out[1][0]
    b'{"line":2,"error":"decode/empty_line: the line is empty"}'
    """
    for number, line in enumerate(lines, start=first):
        body = line.rstrip(b"\r\n")
        result = (
            process(body, max_bytes=max_bytes, score_scales=score_scales)
            if body.strip()
            else EventError("decode", "empty_line", None, "the line is empty")
        )
        if isinstance(result, EventError):
            yield orjson.dumps({"line": number, "error": str(result)}), False
        else:
            yield result.model_dump_json().encode(), True
