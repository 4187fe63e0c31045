"""``load_dataset``: format detection and the ``skip_invalid`` switch for every format."""

from __future__ import annotations

from pathlib import Path

import pytest

from monitor.evaluation.datasets import DatasetError, detect_format, load_dataset

EVALS = Path(__file__).resolve().parents[2] / "fixtures" / "evals"


@pytest.mark.parametrize(
    ("name", "fmt", "count"),
    [
        ("fixtures003", "fixtures_dir", 12),
        ("eval_dataset.json", "eval_dataset", 6),
        ("recorded_events.jsonl", "recorded_events", 12),
    ],
)
def test_each_format_is_detected_and_loaded(name: str, fmt: str, count: int) -> None:
    assert detect_format(EVALS / name) == fmt
    ds = load_dataset(EVALS / name)
    assert (ds.format, len(ds.cases), ds.skipped) == (fmt, count, [])
    assert load_dataset(str(EVALS / name)).cases == ds.cases  # a str path works too


@pytest.mark.parametrize(
    ("name", "first_line", "skipped", "loaded"),
    [
        ("fixtures003_broken", 3, 6, 8),
        ("eval_dataset_broken.json", 29, 2, 4),
        ("recorded_events_broken.jsonl", 2, 5, 7),
    ],
)
def test_first_invalid_record_raises_unless_skipped(
    name: str, first_line: int, skipped: int, loaded: int
) -> None:
    with pytest.raises(DatasetError) as info:
        load_dataset(EVALS / name)
    assert info.value.line == first_line
    ds = load_dataset(EVALS / name, skip_invalid=True)
    assert (len(ds.skipped), len(ds.cases)) == (skipped, loaded)
    assert str(ds.skipped[0]) == str(info.value)


def test_suffix_is_case_insensitive_and_ndjson_is_recorded_events() -> None:
    assert detect_format("a/B.JSON") == "eval_dataset"
    assert detect_format("a/b.ndjson") == "recorded_events"


def test_unknown_format_and_missing_path(tmp_path: Path) -> None:
    (tmp_path / "cases.csv").write_text("case_id,query\n")
    with pytest.raises(DatasetError, match="unknown dataset format"):
        load_dataset(tmp_path / "cases.csv")
    with pytest.raises(DatasetError) as info:
        load_dataset(tmp_path / "nope.jsonl")
    assert str(info.value) == f"{tmp_path / 'nope.jsonl'}: no such file or directory"


def test_a_directory_named_like_a_file_is_a_fixtures_directory(tmp_path: Path) -> None:
    odd = tmp_path / "set.json"
    odd.mkdir()
    (odd / "cases.jsonl").write_text('{"case_id": "a", "query": "q?"}\n')
    ds = load_dataset(odd)
    assert (ds.format, [c.case_id for c in ds.cases]) == ("fixtures_dir", ["a"])
