"""The CLI runs its commands with the scoring thresholds and puts the previous ones back."""

from __future__ import annotations

import gc

import pytest

from monitor import cli
from monitor.gc_policy import GC_THRESHOLDS


def test_a_command_runs_with_the_thresholds_and_restores_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[int, int, int]] = []
    monkeypatch.setattr(cli, "_run", lambda args: seen.append(gc.get_threshold()) or 0)
    before = gc.get_threshold()
    assert cli.main(["config"]) == 0
    assert seen == [GC_THRESHOLDS] and gc.get_threshold() == before
