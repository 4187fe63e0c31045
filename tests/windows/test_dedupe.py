"""Event ids seen lately: a redelivered event counts once, also when its partition has
moved to another worker (the ids travel in the partials)."""

from __future__ import annotations

from monitor.windows.dedupe import SeenEvents, event_digest
from monitor.windows.labels import LabelCap
from monitor.windows.partial import Partial, PartialBuilder, SourceRange

SERIES = ("control", "acme", "bot", "none")
VALUES = {"quality.overall": 0.5, "pipeline.dead_letter": 0.0}


def test_a_second_copy_scored_by_another_worker_counts_once() -> None:
    first_worker = PartialBuilder(60_000, LabelCap(20), SeenEvents())
    assert first_worker.add_event("e1", 61_000, SERIES, VALUES)
    written = first_worker.build([SourceRange("events", 2, 0, 0)]).to_json()

    # the partition moves: the next worker's stage has read the first worker's partial
    seen = SeenEvents()
    for pane, digests in Partial.from_json(written).seen.items():
        seen.add_digests(pane, digests)
    next_worker = PartialBuilder(60_000, LabelCap(20), seen)
    assert not next_worker.add_event("e1", 61_000, SERIES, VALUES)
    assert next_worker.add_event("e2", 61_000, SERIES, VALUES)
    partial = next_worker.build([SourceRange("events", 2, 1, 2)])
    assert partial.duplicates == 1
    assert partial.panes[(60_000, *SERIES)]["quality.overall"].count == 1
    assert partial.seen == {60_000: [event_digest("e2")]}


def test_partials_written_before_ids_travelled_still_read() -> None:
    b = PartialBuilder(60_000, LabelCap(20), SeenEvents())
    b.add_event("e1", 1_000, SERIES, VALUES)
    data = b.build([SourceRange("events", 0, 0, 0)])
    legacy = data.to_json().replace(
        b'"seen":[[0,[' + str(event_digest("e1")).encode() + b"]]],", b""
    )
    assert b'"seen"' not in legacy
    assert Partial.from_json(legacy).seen == {}


def test_digests_fit_a_signed_64_bit_integer() -> None:
    assert all(0 <= event_digest(f"event-{i}") < 2**63 for i in range(1000))


def test_forgotten_panes_accept_an_id_again() -> None:
    seen = SeenEvents()
    seen.add_digests(0, [event_digest("e1")])
    seen.add_digests(60_000, [event_digest("e2")])
    seen.forget_before(60_000)
    assert len(seen) == 1
    assert seen.add("e1", 0)
    assert not seen.add("e2", 60_000)
