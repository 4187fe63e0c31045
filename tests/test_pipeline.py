"""``monitor.pipeline``: decode, dead-letter reasons, scoring and ``score_lines``."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monitor.errors import EventError
from monitor.events import Chunk, RagEvent, ScoredEvent
from monitor.pipeline import decode_event, process, score_event, score_lines
from monitor.scoring.composite import score_quality
from monitor.scoring.crag import classify

MAX = 4096


def event(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "schema_version": "1",
        "event_id": "e1",
        "timestamp_ms": 1_795_353_600_000,
        "query": {"text": "What is the vacation policy?"},
        "chunks": [
            {
                "chunk_id": "c1",
                "document_id": "hr",
                "content": "Employees get 15 vacation days per year.",
                "score": 0.82,
                "rerank_score": 0.91,
                "metadata": {"section_title": "Leave"},
            },
            {"chunk_id": "c2", "document_id": "it", "content": "Laptops renew.", "score": 0.5},
        ],
    }
    base.update(overrides)
    return base


def raw(obj: Any) -> bytes:
    return json.dumps(obj).encode()


def dead_letter(payload: bytes | None, **kwargs: Any) -> EventError:
    result = process(payload, max_bytes=kwargs.pop("max_bytes", MAX))
    assert isinstance(result, EventError), result
    with pytest.raises(EventError) as info:
        decode_event(payload, max_bytes=MAX)
    assert (info.value.stage, info.value.reason, info.value.field) == (
        result.stage,
        result.reason,
        result.field,
    )
    return result


# --------------------------------------------------------------------- dead-letter reasons


def _without(obj: dict[str, Any], *path: str) -> dict[str, Any]:
    obj = json.loads(json.dumps(obj))
    target = obj
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return obj


@pytest.mark.parametrize(
    ("payload", "stage", "reason", "field"),
    [
        (b"not json", "decode", "invalid_json", None),
        (raw(event())[:-7], "decode", "invalid_json", None),  # truncated
        (b"", "decode", "empty_payload", None),
        (b"\xff\xfe{}", "decode", "invalid_json", None),
        (b"[1, 2]", "validate", "not_an_object", None),
        (b'"a string"', "validate", "not_an_object", None),
        (b"null", "validate", "not_an_object", None),
        (raw(_without(event(), "query", "text")), "validate", "missing_field", "query.text"),
        (raw(_without(event(), "query")), "validate", "missing_field", "query"),
        (raw(_without(event(), "event_id")), "validate", "missing_field", "event_id"),
        (raw(_without(event(), "timestamp_ms")), "validate", "missing_field", "timestamp_ms"),
        (raw(event(timestamp_ms="soon")), "validate", "invalid_type", "timestamp_ms"),
        (raw(event(chunks="c1, c2")), "validate", "invalid_type", "chunks"),
        (raw(event(query={"text": None})), "validate", "invalid_type", "query.text"),
        (
            raw(event(schema_version="2")),
            "validate",
            "unsupported_schema_version",
            "schema_version",
        ),
        (raw(event(schema_version=1)), "validate", "unsupported_schema_version", "schema_version"),
        (raw(event(event_id="")), "validate", "invalid_value", "event_id"),
    ],
)
def test_dead_letter_reasons(payload: bytes, stage: str, reason: str, field: str | None) -> None:
    err = dead_letter(payload)
    assert (err.stage, err.reason, err.field) == (stage, reason, field)
    assert err.detail


def test_oversized_payload() -> None:
    payload = raw(event(padding="x" * MAX))
    err = dead_letter(payload)
    assert (err.stage, err.reason, err.field) == ("decode", "oversized", None)
    # exactly max_bytes is accepted
    exact = raw(event())
    assert isinstance(process(exact, max_bytes=len(exact)), ScoredEvent)
    assert process(exact, max_bytes=len(exact) - 1).reason == "oversized"  # type: ignore[union-attr]


def test_none_payload() -> None:
    err = dead_letter(None)
    assert (err.stage, err.reason, err.field) == ("decode", "empty_payload", None)


@pytest.mark.parametrize("bad", [b"NaN", b"Infinity", b"-Infinity", b'"NaN"', b"1e999"])
def test_non_finite_chunk_score_is_rejected(bad: bytes) -> None:
    payload = raw(event(chunks=[{"content": "x", "score": 0.5}])).replace(b"0.5", bad)
    err = dead_letter(payload)
    assert (err.stage, err.field) == ("validate", "chunks.*.score")
    # a JSON string is a type error under strict types; a non-finite number a bad value
    assert err.reason == ("invalid_type" if bad.startswith(b'"') else "invalid_value")


def test_error_detail_never_quotes_the_payload() -> None:
    secret = "sk-live-SECRET-42"
    payloads = [
        raw(event(timestamp_ms=secret)),
        raw(event(schema_version=secret)),
        raw(event(chunks=secret)),
        raw(event(query={"text": [secret]})),
        secret.encode(),
        raw(event(event_id=secret))[:-3],
    ]
    for payload in payloads:
        err = dead_letter(payload)
        assert secret not in str(err)
        assert secret not in err.detail


# --------------------------------------------------------------------- accepted events


def test_unknown_fields_are_kept_and_ignored() -> None:
    extra = event(
        future_field={"nested": [1, 2]},
        query={"text": "What is the vacation policy?", "lang": "en"},
    )
    extra["chunks"][0]["embedding_model"] = "e5"
    decoded = decode_event(raw(extra))
    assert decoded.model_extra == {"future_field": {"nested": [1, 2]}}
    assert decoded.query.model_extra == {"lang": "en"}
    assert decoded.chunks[0].model_extra == {"embedding_model": "e5"}
    with_extra = process(raw(extra))
    plain = process(raw(event()))
    assert isinstance(with_extra, ScoredEvent)
    assert isinstance(plain, ScoredEvent)
    assert with_extra.quality == plain.quality
    assert with_extra.crag == plain.crag
    assert "future_field" not in with_extra.model_dump_json()


def test_absent_context_is_derived_from_chunks() -> None:
    decoded = decode_event(raw(event()))
    assert decoded.context is None
    ctx = decoded.effective_context()
    assert ctx.text == "Employees get 15 vacation days per year.\n\nLaptops renew."
    assert ctx.token_count == 9  # 7 + 2 whitespace tokens
    scored = score_event(decoded)
    direct = score_quality(decoded.query.text, decoded.chunks, ctx.text, 9)
    assert scored.quality == direct


def test_given_context_is_used() -> None:
    decoded = decode_event(raw(event(context={"text": "Nothing relevant.", "token_count": 3})))
    scored = score_event(decoded)
    direct = score_quality(decoded.query.text, decoded.chunks, "Nothing relevant.", 3)
    assert scored.quality == direct


def test_scored_event_quality_equals_score_quality_directly() -> None:
    payload = event(
        tenant="acme",
        variant="treatment",
        context={"text": "Employees get 15 vacation days per year.", "token_count": 7},
        response={"text": "15 days.", "citations": [{"document_id": "hr"}], "confidence": 0.8},
        latency_ms={"retrieve": 120, "total": 1080},
    )
    scored = process(raw(payload))
    assert isinstance(scored, ScoredEvent)
    chunks = [Chunk.model_validate(c) for c in payload["chunks"]]
    direct = score_quality(
        "What is the vacation policy?", chunks, "Employees get 15 vacation days per year.", 7
    )
    assert scored.quality == direct
    assert scored.crag == classify(direct.overall, "What is the vacation policy?")
    assert (scored.event_id, scored.timestamp_ms) == ("e1", 1_795_353_600_000)
    assert (scored.tenant, scored.variant, scored.outcome) == ("acme", "treatment", "success")
    assert scored.latency_ms == {"retrieve": 120.0, "total": 1080.0}
    assert scored.scoring_us >= 0
    # the published JSON validates against the model
    assert ScoredEvent.model_validate_json(scored.model_dump_json()) == scored


def test_decode_returns_a_rag_event() -> None:
    assert isinstance(decode_event(raw(event())), RagEvent)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_process_never_raises(payload: bytes) -> None:
    result = process(payload, max_bytes=MAX)
    assert isinstance(result, ScoredEvent | EventError)


# --------------------------------------------------------------------- score_lines


def test_score_lines_one_output_per_line_in_order() -> None:
    lines = [
        raw(event(event_id="a")) + b"\n",
        b"not json\n",
        raw(event(event_id="b")) + b"\r\n",
        b"\n",
        raw(_without(event(), "event_id")) + b"\n",
        raw(event(event_id="c")),  # last line without newline
    ]
    out = list(score_lines(lines, max_bytes=MAX))
    assert [ok for _, ok in out] == [True, False, True, False, False, True]
    docs = [orjson.loads(line) for line, _ in out]
    assert [d.get("event_id") for d in docs if "event_id" in d] == ["a", "b", "c"]
    errors = [d for d in docs if "error" in d]
    assert [e["line"] for e in errors] == [2, 4, 5]
    for e in errors:
        assert set(e) == {"line", "error"}
        assert isinstance(e["error"], str)
    assert errors[0]["error"].startswith("decode/invalid_json: ")
    assert errors[1]["error"].startswith("decode/empty_line")
    assert errors[2]["error"].startswith("validate/missing_field at event_id: ")
    for line, _ in out:
        assert b"\n" not in line


def test_score_lines_is_lazy() -> None:
    pulled = 0

    def forever() -> Iterator[bytes]:
        nonlocal pulled
        for i in itertools.count():
            pulled += 1
            yield raw(event(event_id=f"e{i}")) + b"\n" if i % 2 == 0 else b"{\n"

    first = list(itertools.islice(score_lines(forever(), max_bytes=MAX), 3))
    assert [ok for _, ok in first] == [True, False, True]
    assert orjson.loads(first[1][0])["line"] == 2
    assert [orjson.loads(first[i][0])["event_id"] for i in (0, 2)] == ["e0", "e2"]
    assert pulled == 3


def test_score_lines_oversized_line() -> None:
    ((line, ok),) = score_lines([raw(event(padding="x" * MAX))], max_bytes=MAX)
    assert not ok
    assert orjson.loads(line)["error"].startswith("decode/oversized")


# --------------------------------------------------------------------- latency stages


def test_latency_stages_are_copied_as_floats() -> None:
    payload = raw(event(latency_ms={"retrieve": 120, "total": 1080, "rerank": 7, "note": "x"}))
    scored = process(payload)
    assert isinstance(scored, ScoredEvent)
    # declared stages and numeric unknown stages; non-numbers are left out
    assert scored.latency_ms == {"retrieve": 120.0, "total": 1080.0, "rerank": 7.0}


@pytest.mark.parametrize("value", [b"NaN", b"Infinity", b"1e999"])
def test_non_finite_unknown_latency_stage_keeps_the_scored_event_valid(value: bytes) -> None:
    payload = raw(event(latency_ms={"total": 5, "rerank": 1}))
    payload = payload.replace(b'"rerank": 1', b'"rerank": ' + value)
    scored = process(payload)
    assert isinstance(scored, ScoredEvent)
    ScoredEvent.model_validate_json(scored.model_dump_json())


def test_huge_unknown_latency_stage_does_not_dead_letter() -> None:
    payload = raw(event(latency_ms={"total": 5, "rerank": 10**400}))
    assert isinstance(process(payload), ScoredEvent)


def test_strict_types_reject_coercions() -> None:
    for value in (True, "17", 17.5):
        err = dead_letter(raw(event(timestamp_ms=value)))
        assert (err.reason, err.field) == ("invalid_type", "timestamp_ms"), value


def test_scores_too_large_to_score_are_dead_lettered_not_published_as_null() -> None:
    chunks = [{"content": "x", "score": 1e308}, {"content": "y", "score": 1e308}]
    err = process(raw(event(chunks=chunks)))
    assert isinstance(err, EventError)
    assert (err.stage, err.reason) == ("score", "non_finite_score")


# --------------------------------------------------------------------- poison messages (issue 11)

NOW_MS = 1_795_353_600_000
DAY_MS = 86_400_000
CLOCK = {"now_ms": NOW_MS, "max_age_ms": 7 * DAY_MS, "max_ahead_ms": 3_600_000}


def test_empty_value_is_empty_payload_not_invalid_json() -> None:
    for payload in (b"", None):
        err = dead_letter(payload)
        assert (err.stage, err.reason, err.field) == ("decode", "empty_payload", None)


@pytest.mark.parametrize("timestamp_ms", [2**64, 2**63, -(2**63) - 1, 10**30])
def test_timestamp_beyond_int64_is_rejected_by_the_model(timestamp_ms: int) -> None:
    err = dead_letter(raw(event(timestamp_ms=timestamp_ms)))
    assert (err.stage, err.reason, err.field) == (
        "validate",
        "timestamp_out_of_range",
        "timestamp_ms",
    )
    assert str(timestamp_ms) not in str(err)


def test_int64_bounds_are_accepted_offline() -> None:
    for timestamp_ms in (2**63 - 1, -(2**63), 0):
        assert isinstance(process(raw(event(timestamp_ms=timestamp_ms))), ScoredEvent)


@pytest.mark.parametrize(
    "offset_ms",
    [10 * 365 * DAY_MS, 3_600_001, -7 * DAY_MS - 1, -10 * 365 * DAY_MS],
)
def test_event_time_outside_the_clock_range_is_dead_lettered(offset_ms: int) -> None:
    payload = raw(event(timestamp_ms=NOW_MS + offset_ms))
    err = process(payload, **CLOCK)
    assert isinstance(err, EventError)
    assert (err.stage, err.reason, err.field) == (
        "validate",
        "timestamp_out_of_range",
        "timestamp_ms",
    )
    assert str(NOW_MS + offset_ms) not in str(err)
    with pytest.raises(EventError):
        decode_event(payload, **CLOCK)
    # offline (no clock) the same event is scored
    assert isinstance(process(payload), ScoredEvent)


@pytest.mark.parametrize("offset_ms", [0, 3_600_000, -7 * DAY_MS, -DAY_MS, 59_000])
def test_event_time_inside_the_clock_range_is_scored(offset_ms: int) -> None:
    assert isinstance(process(raw(event(timestamp_ms=NOW_MS + offset_ms)), **CLOCK), ScoredEvent)


def test_invalid_event_is_reported_before_its_time() -> None:
    """A malformed event keeps its own reason even when its time is out of range too."""
    err = process(raw(event(timestamp_ms=1, event_id="")), **CLOCK)
    assert isinstance(err, EventError)
    assert err.reason == "invalid_value"


ATTACKER_KEY = "sk-live-SECRET-key"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"labels": {"relevant_chunks": {ATTACKER_KEY: "high"}}}, "labels.relevant_chunks.*"),
        ({"labels": {"relevant_docs": {ATTACKER_KEY: None}}}, "labels.relevant_docs.*"),
        ({"chunks": [{"content": "x"}, {"content": "y", "score": "high"}]}, "chunks.*.score"),
        ({"latency_ms": {"total": "slow"}}, "latency_ms.total"),
        ({"labels": {"gold_facts": [{"fact": 1}]}}, "labels.gold_facts.*.fact"),
        ({"response": {"citations": [{"chunk_id": 1}]}}, "response.citations.*.chunk_id"),
        ({"query": {"text": "q", "user_roles": [ATTACKER_KEY, 3]}}, "query.user_roles.*"),
    ],
)
def test_error_field_names_the_path_shape_not_payload_keys(
    overrides: dict[str, Any], field: str
) -> None:
    err = dead_letter(raw(event(**overrides)))
    assert err.field == field
    assert ATTACKER_KEY not in str(err)
    assert "high" not in err.detail and "slow" not in err.detail
