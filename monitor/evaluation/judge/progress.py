"""The progress file of a judge run: one JSON line per judged case, appended and fsynced
as soon as the case is judged, so a run that crashes loses at most the cases in flight and
a re-run skips (and does not pay for) everything before.

Each line is ``{"key": <case hash>, "verdict": {...}}`` (the key from
:func:`~monitor.evaluation.judge.case.case_hash`, the
:class:`~monitor.evaluation.judge.verdict.Verdict` as JSON); a key recorded twice keeps
its last verdict. On load, a last line without its newline (a crash mid-write) is kept if
it parses, else cut off the file; a broken line elsewhere is skipped and counted in
``skipped_lines`` (its case is judged again). One process writes a store at a time.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "progress.jsonl"
>>> _ = path.write_text('{"key": "k1", "verdict": {"not": "a verdict"}}\\n{"key": "k2", "ver')
>>> with ProgressStore(path) as store:
...     (len(store), store.done("k2"), store.skipped_lines)
(0, False, 1)
>>> path.read_text().endswith("}\\n")  # the torn line is gone, appends start clean
True
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import IO

from pydantic import ValidationError

from monitor.evaluation.judge.verdict import Verdict

__all__ = ["ProgressStore"]

log = logging.getLogger(__name__)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class ProgressStore:
    """See the module docstring. ``path``'s directory is created on the first record."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.skipped_lines = 0
        self._verdicts: dict[str, Verdict] = {}
        self._file: IO[bytes] | None = None
        self._load()

    # reading
    def _parse(self, line: bytes) -> Verdict | None:
        try:
            entry = json.loads(line)
            verdict = Verdict.model_validate(entry["verdict"])
        except (ValueError, TypeError, KeyError, ValidationError):
            return None
        if not isinstance(entry.get("key"), str) or entry["key"] != verdict.key:
            return None
        return verdict

    def _load(self) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        complete_end = data.rfind(b"\n") + 1  # 0 when there is no complete line
        for line in data[:complete_end].splitlines():
            if not line.strip():
                continue
            verdict = self._parse(line)
            if verdict is None:
                self.skipped_lines += 1
                continue
            self._verdicts[verdict.key] = verdict
        tail = data[complete_end:]
        if not tail.strip():
            return
        verdict = self._parse(tail)
        with self.path.open("r+b") as file:
            if verdict is not None:
                self._verdicts[verdict.key] = verdict
                file.seek(0, os.SEEK_END)
                file.write(b"\n")
            else:
                file.truncate(complete_end)
            file.flush()
            os.fsync(file.fileno())
        log.warning(
            "progress %s: the last line was torn (a crash mid-write); %s",
            self.path,
            "it parsed and is kept" if verdict is not None else "it is dropped",
        )

    def done(self, key: str) -> bool:
        return key in self._verdicts

    def get(self, key: str) -> Verdict | None:
        return self._verdicts.get(key)

    def __len__(self) -> int:
        return len(self._verdicts)

    def __contains__(self, key: object) -> bool:
        return key in self._verdicts

    def keys(self) -> list[str]:
        return list(self._verdicts)

    def verdicts(self) -> Iterator[Verdict]:
        return iter(list(self._verdicts.values()))

    def stats(self, total: int) -> dict[str, float | int]:
        """Spec 001's progress statistics for a test set of ``total`` cases (assuming the
        store holds only this set's keys)."""
        completed = min(len(self), total)
        return {
            "total": total,
            "completed": completed,
            "pending": total - completed,
            "completion_pct": 100.0 * completed / total if total else 100.0,
        }

    # writing
    def record(self, key: str, verdict: Verdict) -> None:
        """Append ``verdict`` under ``key`` and make it durable (flush and fsync) before
        returning."""
        if key != verdict.key:
            raise ValueError(f"the verdict's key {verdict.key[:12]}... is not {key[:12]}...")
        line = json.dumps(
            {"key": key, "verdict": verdict.model_dump(mode="json")},
            ensure_ascii=False,
            separators=(",", ":"),
        )
        file = self._open()
        file.write(line.encode("utf-8") + b"\n")
        file.flush()
        os.fsync(file.fileno())
        self._verdicts[key] = verdict

    def _open(self) -> IO[bytes]:
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            created = not self.path.exists()
            self._file = self.path.open("ab")
            if created:
                _fsync_dir(self.path.parent)
        return self._file

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> ProgressStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
