"""``load_dataset``: any dataset path, its format told by what it is.

- a directory: a spec 003 fixtures directory (:mod:`.fixtures_dir`);
- a ``.json`` file: a spec 002 ``EvalDataset`` (:mod:`.eval_dataset`);
- a ``.jsonl`` (or ``.ndjson``) file: recorded ``RagEvent`` lines with labels
  (:mod:`.recorded_events`).

By default the first invalid record raises :class:`.DatasetError` (the run must not start
on a half-valid dataset). With ``skip_invalid=True`` each invalid record (a line, or a
002 query) is left out and reported in ``LoadedDataset.skipped``, and the rest load.
Errors about the file as a whole (missing, unreadable, not JSON, no valid case at all)
are raised either way.

>>> detect_format("."), detect_format("evals/run.json")
('fixtures_dir', 'eval_dataset')
>>> detect_format("evals/events.jsonl")
'recorded_events'
>>> detect_format("evals/notes.txt")
Traceback (most recent call last):
...
monitor.evaluation.datasets.dataset_error.DatasetError: evals/notes.txt: unknown dataset format: expected a fixtures directory, a .json EvalDataset or a .jsonl of recorded events
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from monitor.evaluation.datasets.dataset_error import DatasetError
from monitor.evaluation.datasets.eval_dataset import load_eval_dataset
from monitor.evaluation.datasets.fixtures_dir import load_fixtures_dir
from monitor.evaluation.datasets.loaded_dataset import DatasetFormat, LoadedDataset
from monitor.evaluation.datasets.recorded_events import load_recorded_events

__all__ = ["LOADERS", "detect_format", "load_dataset"]

LOADERS: dict[DatasetFormat, Callable[..., LoadedDataset]] = {
    "fixtures_dir": load_fixtures_dir,
    "eval_dataset": load_eval_dataset,
    "recorded_events": load_recorded_events,
}

_SUFFIXES: dict[str, DatasetFormat] = {
    ".json": "eval_dataset",
    ".jsonl": "recorded_events",
    ".ndjson": "recorded_events",
}


def detect_format(path: str | Path) -> DatasetFormat:
    """The format of the dataset at ``path``: a directory, else by the file's suffix."""
    source = Path(path)
    if source.is_dir():
        return "fixtures_dir"
    found = _SUFFIXES.get(source.suffix.lower())
    if found is None:
        raise DatasetError(
            str(path),
            None,
            None,
            "unknown dataset format: expected a fixtures directory, a .json EvalDataset "
            "or a .jsonl of recorded events",
        )
    return found


def load_dataset(path: str | Path, *, skip_invalid: bool = False) -> LoadedDataset:
    """Load the dataset at ``path`` in the format :func:`detect_format` finds."""
    if not Path(path).exists():
        raise DatasetError(str(path), None, None, "no such file or directory")
    return LOADERS[detect_format(path)](path, skip_invalid=skip_invalid)
