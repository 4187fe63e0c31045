"""``LoadedDataset``: the cases of one dataset file (or directory), and what was skipped.

>>> from monitor.evaluation.datasets.case import EvalCase
>>> ds = LoadedDataset("demo", "recorded_events",
...     [EvalCase(case_id="e1", query="q?", origin="demo.jsonl:1")])
>>> ds.name, ds.format, [c.case_id for c in ds.cases], ds.skipped
('demo', 'recorded_events', ['e1'], [])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from monitor.evaluation.datasets.case import EvalCase
from monitor.evaluation.datasets.dataset_error import DatasetError

__all__ = ["DatasetFormat", "LoadedDataset"]

DatasetFormat = Literal["fixtures_dir", "eval_dataset", "recorded_events"]
"""``fixtures_dir``: a 003 fixtures directory; ``eval_dataset``: a 002 ``EvalDataset``
JSON file; ``recorded_events``: ``RagEvent`` JSON lines with labels."""


@dataclass(frozen=True, slots=True)
class LoadedDataset:
    """``cases`` in file order (never empty: a loader raises instead); ``skipped`` the
    invalid records that ``skip_invalid=True`` left out, in the order they were found.
    ``description`` and ``version`` are the 002 file's (``None`` for other formats)."""

    name: str
    format: DatasetFormat
    cases: list[EvalCase]
    skipped: list[DatasetError] = field(default_factory=list)
    description: str | None = None
    version: str | None = None
