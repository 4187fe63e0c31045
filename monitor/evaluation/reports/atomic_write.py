"""``write_atomic``: write a whole file or nothing, so a reader (or a crash) never sees
half a report.

The bytes go to a temporary file in the target's directory (created with the usual
``0o666 & ~umask`` mode), are flushed and fsynced, and the file is renamed over the
target with :func:`os.replace` (atomic on POSIX and on Windows within one volume).

>>> import tempfile
>>> target = Path(tempfile.mkdtemp()) / "report.md"
>>> write_atomic(target, "# hello\\n") == target, target.read_text()
(True, '# hello\\n')
>>> sorted(p.name for p in target.parent.iterdir())  # no temporary file left behind
['report.md']
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

__all__ = ["write_atomic"]


def write_atomic(path: Path, data: str | bytes) -> Path:
    """Replace ``path`` with ``data`` (``str`` is written as UTF-8) atomically; returns
    ``path``. The parent directory must exist."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path
