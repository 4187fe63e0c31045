"""``Readiness``: /healthz says not ready, with a reason, when batches keep failing or the
windows stop closing (a fake clock)."""

from __future__ import annotations

from monitor.stream.health import Readiness


def readiness() -> Readiness:
    return Readiness(max_failed_batches=3, window_stall_s=60.0, max_ahead_ms=3_600_000)


def test_batches_that_keep_failing_make_the_worker_not_ready_until_one_succeeds() -> None:
    r = readiness()
    ok = {"scored": 0, "watermark_ms": None, "now_ms": 0}
    assert r.check(failed_batches=2, now_s=1.0, **ok) is None
    problem = r.check(failed_batches=3, now_s=2.0, **ok)
    assert problem is not None and problem[0] == "batches_failing"
    assert r.check(failed_batches=9, now_s=3.0, windows=False, **ok) is not None
    assert r.check(failed_batches=0, now_s=4.0, **ok) is None


def test_a_watermark_that_stops_while_events_are_scored_is_a_stall() -> None:
    r = readiness()
    t = 1_000.0
    assert r.check(failed_batches=0, scored=100, watermark_ms=5, now_s=t, now_ms=0) is None
    # quiet: nothing scored, the watermark may rest
    assert r.check(failed_batches=0, scored=100, watermark_ms=5, now_s=t + 600, now_ms=0) is None
    # scoring goes on, the watermark does not move: stalled after window_stall_s
    assert r.check(failed_batches=0, scored=200, watermark_ms=5, now_s=t + 601, now_ms=0) == (
        "windows_stalled",
        "events were scored but the window watermark has not moved for 601 s",
    )
    # it moves again: ready
    assert r.check(failed_batches=0, scored=300, watermark_ms=6, now_s=t + 602, now_ms=0) is None
    assert r.check(failed_batches=0, scored=400, watermark_ms=6, now_s=t + 650, now_ms=0) is None


def test_a_watermark_ahead_of_the_clock_is_not_ready() -> None:
    r = readiness()
    ten_years_ms = 10 * 365 * 86_400_000
    now_ms = 1_795_353_600_000
    problem = r.check(
        failed_batches=0, scored=1, watermark_ms=now_ms + ten_years_ms, now_s=0.0, now_ms=now_ms
    )
    assert problem is not None and problem[0] == "watermark_ahead"
    on_time = r.check(failed_batches=0, scored=1, watermark_ms=now_ms, now_s=0.0, now_ms=now_ms)
    assert on_time is None


def test_a_score_only_worker_checks_only_its_batches() -> None:
    r = readiness()
    for now_s in (0.0, 1_000.0):
        assert (
            r.check(
                failed_batches=0,
                scored=int(now_s),
                watermark_ms=None,
                now_s=now_s,
                now_ms=0,
                windows=False,
            )
            is None
        )
