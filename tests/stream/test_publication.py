"""Closed windows held by a worker that does not lead, and what a new leader skips."""

from __future__ import annotations

from monitor.stream.publication import (
    PendingPublications,
    Publication,
    Record,
    alert_ident,
    summary_record,
)
from monitor.stream.published import Published, _ident


def publication(kind: str, start_ms: int, end_ms: int, alerts: int = 0) -> Publication:
    records = [
        Record("alerts", b"f", b"{}", alert_ident(f"f{i}", "firing", start_ms))
        for i in range(alerts)
    ]
    return Publication(
        kind, start_ms, end_ms, records, summary_record("windows", kind, start_ms, b"{}")
    )


def test_pending_keeps_the_horizon_of_event_time_oldest_first() -> None:
    pending = PendingPublications(horizon_ms=180_000)
    for end in range(60_000, 600_001, 60_000):
        pending.add(publication("tumbling", end - 60_000, end))
    ends = [p.end_ms for p in pending.take()]
    assert ends == [420_000, 480_000, 540_000, 600_000]
    assert len(pending) == 0


def test_a_window_whose_summary_is_published_is_skipped_whole() -> None:
    published = Published(upto_ms={"tumbling": 120_000})
    assert published.has_window(publication("tumbling", 60_000, 120_000))
    assert not published.has_window(publication("tumbling", 120_000, 180_000))
    assert not published.has_window(publication("hopping", 0, 120_000))


def test_records_of_a_half_written_window_are_recognised_by_ident() -> None:
    message = {"fingerprint": "f0", "status": "firing", "window": {"start_ms": 120_000}}
    published = Published(idents={_ident("alerts", message) or ""})
    half = publication("tumbling", 120_000, 180_000, alerts=2)
    assert [published.has(r) for r in half.records] == [True, False, False]
    published.add(half)
    assert published.has_window(half)


def test_idents_of_published_messages_match_the_rendered_ones() -> None:
    window = {"kind": "hopping", "start_ms": 0, "end_ms": 180_000}
    ab = {"experiment": "x", "span": {"scope": "hopping", "start_ms": 0, "end_ms": 180_000}}
    assert _ident("windows", window) == summary_record("w", "hopping", 0, b"").ident
    assert _ident("ab", ab) == "ab:x:hopping:0:180000"
    assert _ident("alerts", {"fingerprint": "f"}) is None
