"""Failover on the real broker (issue 11): two workers in one group under live traffic.

The scenarios themselves live in :mod:`bench.failover_scenarios` (``python -m
bench.failover_probe`` runs the same ones and prints the numbers); here they are asserted:
every window the produced events fall into is published exactly once with the count of
distinct events produced into it, across a SIGKILL of the leader and a rejoin, and across
a 45 s broker freeze; a SIGTERMed worker leaves the group at once; a duplicate is counted
once after its partition moved to another worker.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.failover_scenarios import (
    FailoverReport,
    broker_freeze,
    dedupe_across_move,
    leader_kill,
    sigterm_takeover,
)
from monitor.config import Settings

pytestmark = [pytest.mark.broker, pytest.mark.timeout(300)]


def takeover_limit_s(settings: Settings) -> float:
    """Below the session timeout (6 s here): only a worker that sends LeaveGroup lets the
    survivor take over that soon; a crash-like stop waits for the session to expire and
    then for the rebalance (9-17 s). A join takes half the session timeout on the embedded
    broker, so a graceful takeover is about 3-4 s."""
    return settings.session_timeout_s


def assert_windows_exact(report: FailoverReport) -> None:
    problems = [
        w.describe() for w in report.windows.values() if w.lost or w.duplicated or w.mismatched
    ]
    assert not problems, "\n".join([report.describe(), "", *problems])


@pytest.mark.slow
def test_leader_sigkill_and_rejoin_publish_every_window_once_with_exact_counts(
    stream_settings: Settings, tmp_path: Path
) -> None:
    report = leader_kill(stream_settings, tmp_path)
    print(report.describe())
    assert any("killed leader" in n for n in report.notes), report.describe()
    assert report.events > 10_000 and report.duplicates_sent > 200
    assert_windows_exact(report)
    ab, alerts = report.ab, report.alerts
    assert ab is not None and alerts is not None
    assert len(ab.expected_cumulative) > 15, "too few A/B windows to test anything"
    assert ab.n_lost == 0 and ab.n_duplicated == 0, (
        f"A/B results lost {ab.lost}, published more than once {ab.duplicated}"
    )
    assert alerts.degraded_alerts, (
        "no degradation or critical alert for the degraded period that spans the kill\n"
        + report.describe()
    )
    assert not alerts.duplicated, (
        f"firing alerts published more than once per (fingerprint, window start): "
        f"{alerts.duplicated}"
    )


@pytest.mark.slow
def test_broker_frozen_45_s_under_default_settings_leaves_no_window_short(
    tmp_path: Path,
) -> None:
    report = broker_freeze(tmp_path, freeze_s=45.0)
    print(report.describe())
    assert report.events > 15_000
    assert report.late_events == 0, (
        f"{report.late_events} events counted late: the backlog after the outage was not "
        f"late, the group had not consumed it yet\n" + report.describe()
    )
    assert_windows_exact(report)


@pytest.mark.slow
def test_sigterm_leaves_the_group_so_the_survivor_takes_over_at_once(
    stream_settings: Settings, tmp_path: Path
) -> None:
    report = sigterm_takeover(stream_settings, tmp_path)
    print(report.describe())
    assert report.takeover_s is not None
    limit = takeover_limit_s(stream_settings)
    assert report.takeover_s < limit, (
        f"the survivor owned every partition {report.takeover_s} s after the SIGTERM "
        f"(limit {limit} s): no LeaveGroup, a crash-like session timeout; "
        + "; ".join(report.notes)
    )


def test_a_duplicate_is_counted_once_after_its_partition_moved(
    stream_settings: Settings, tmp_path: Path
) -> None:
    n = 200
    report = dedupe_across_move(stream_settings, tmp_path, n=n)
    print(report.describe())
    [tumbling] = report.windows.values()
    assert not tumbling.lost, report.describe()
    assert report.duplicates_counted_twice == 0, (
        f"{report.duplicates_counted_twice} of {n} second copies counted again after "
        f"their partition moved: {tumbling.describe()}"
    )
    assert report.late_events == 0, report.describe()
    assert report.duplicates_reported is not None and report.duplicates_reported >= n, (
        f"the duplicates counter (/healthz windows.duplicates) rose by "
        f"{report.duplicates_reported}, not by the {n} second copies"
    )
    assert_windows_exact(report)
