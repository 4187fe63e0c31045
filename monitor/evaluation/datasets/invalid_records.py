"""``InvalidRecords``: what a loader does with an invalid record (``skip_invalid``).

By default the first invalid record raises, so a run never starts on a half-valid
dataset; with ``skip_invalid=True`` every invalid record is kept in ``skipped`` and the
loader goes on with the rest.

>>> from monitor.evaluation.datasets.dataset_error import DatasetError
>>> lenient = InvalidRecords(skip_invalid=True)
>>> lenient.add(DatasetError("f.jsonl", 2, "query", "missing"))
>>> [str(e) for e in lenient.skipped]
['f.jsonl:2: field query: missing']
>>> InvalidRecords(skip_invalid=False).add(DatasetError("f.jsonl", 2, None, "bad"))
Traceback (most recent call last):
...
monitor.evaluation.datasets.dataset_error.DatasetError: f.jsonl:2: bad
"""

from __future__ import annotations

from monitor.evaluation.datasets.dataset_error import DatasetError

__all__ = ["InvalidRecords"]


class InvalidRecords:
    """Raises the first error (``skip_invalid=False``) or collects them all."""

    def __init__(self, *, skip_invalid: bool) -> None:
        self.skip_invalid = skip_invalid
        self.skipped: list[DatasetError] = []

    def add(self, error: DatasetError) -> None:
        if not self.skip_invalid:
            raise error
        self.skipped.append(error)

    def require_cases(self, file: str, count: int) -> None:
        """Raise when nothing valid is left: a run over no case measures nothing."""
        if count == 0:
            skipped = f" ({len(self.skipped)} invalid records skipped)" if self.skipped else ""
            raise DatasetError(file, None, None, f"the dataset has no valid case{skipped}")
