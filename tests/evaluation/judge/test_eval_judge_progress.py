"""The progress store: durable appends, and loads that survive a crash mid-write."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from monitor.evaluation.judge.case import JudgeCase, case_hash
from monitor.evaluation.judge.progress import ProgressStore
from monitor.evaluation.judge.verdict import JudgeInput, Verdict


def make_verdict(i: int, faithfulness: int = 5) -> Verdict:
    case = JudgeCase(case_id=f"q{i}", question=f"Question {i}?", context=("c",), answer="a")
    return Verdict(
        key=case_hash(case, "faithfulness_completeness", "judge-a", "fc.v1"),
        case_id=case.case_id,
        rubric="faithfulness_completeness",
        prompt_version="fc.v1",
        prompt_sha256="0" * 64,
        model="judge-a",
        scores={"faithfulness": faithfulness, "completeness": 5},
        passed=faithfulness >= 4,
        output={"faithfulness": {"score": faithfulness, "reasoning": "r"}},
        judge_input=JudgeInput(case=case, request={"model": "judge-a", "messages": []}),
        judged_at=datetime(2026, 1, 1, tzinfo=UTC),
    )


def test_recorded_verdicts_come_back(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "progress.jsonl"
    verdicts = [make_verdict(i) for i in range(3)]
    with ProgressStore(path) as store:
        assert len(store) == 0 and not path.exists()
        for v in verdicts:
            store.record(v.key, v)
        assert store.done(verdicts[0].key) and store.get(verdicts[1].key) == verdicts[1]
    again = ProgressStore(path)
    assert [again.get(v.key) for v in verdicts] == verdicts
    assert len(path.read_text().splitlines()) == 3
    assert again.stats(total=4) == {
        "total": 4,
        "completed": 3,
        "pending": 1,
        "completion_pct": 75.0,
    }


def test_the_last_verdict_of_a_key_wins(tmp_path: Path) -> None:
    first, second = make_verdict(1, faithfulness=5), make_verdict(1, faithfulness=2)
    with ProgressStore(tmp_path / "p.jsonl") as store:
        store.record(first.key, first)
        store.record(second.key, second)
    assert ProgressStore(tmp_path / "p.jsonl").get(first.key) == second


def test_every_record_is_fsynced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real_fsync = os.fsync
    with ProgressStore(tmp_path / "p.jsonl") as store:
        store.record(make_verdict(0).key, make_verdict(0))

        def counting_fsync(fd: int) -> None:
            synced.append(fd)
            real_fsync(fd)

        monkeypatch.setattr(os, "fsync", counting_fsync)
        for i in range(1, 4):
            store.record(make_verdict(i).key, make_verdict(i))
            assert len(synced) == i  # before record returns


def test_a_torn_last_line_is_dropped_and_appends_stay_clean(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    kept, torn, later = make_verdict(1), make_verdict(2), make_verdict(3)
    with ProgressStore(path) as store:
        store.record(kept.key, kept)
        store.record(torn.key, torn)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 40])  # the crash cut the second line
    with ProgressStore(path) as store:
        assert store.done(kept.key) and not store.done(torn.key)
        assert store.skipped_lines == 0
        store.record(later.key, later)
    again = ProgressStore(path)
    assert again.keys() == [kept.key, later.key] and again.skipped_lines == 0


def test_a_torn_line_that_still_parses_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    v1, v2 = make_verdict(1), make_verdict(2)
    with ProgressStore(path) as store:
        store.record(v1.key, v1)
    path.write_bytes(path.read_bytes().rstrip(b"\n"))  # cut exactly before the newline
    with ProgressStore(path) as store:
        assert store.done(v1.key)
        store.record(v2.key, v2)
    assert ProgressStore(path).keys() == [v1.key, v2.key]


def test_broken_lines_elsewhere_are_skipped_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    v1, v2 = make_verdict(1), make_verdict(2)
    with ProgressStore(path) as store:
        store.record(v1.key, v1)
    with path.open("a") as file:
        file.write('{"key": "x", "verdict": {}}\n\nnot json\n')
        file.write(f'{{"key": "other", "verdict": {v2.model_dump_json()}}}\n')  # key mismatch
    store = ProgressStore(path)
    assert store.keys() == [v1.key] and store.skipped_lines == 3


def test_a_key_must_match_its_verdict(tmp_path: Path) -> None:
    with ProgressStore(tmp_path / "p.jsonl") as store, pytest.raises(ValueError, match="key"):
        store.record("0" * 64, make_verdict(1))
