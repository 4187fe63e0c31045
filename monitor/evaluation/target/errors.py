"""The one error the target package raises on purpose: a target config that cannot be used.

The message is one line, ``FILE:LINE: field FIELD: reason`` (``LINE`` and ``field FIELD``
are left out when unknown), like a dataset error, so an editor or a CI log can jump to it.
``field`` is the dotted path of the offending value in the file. A header's value is never
part of it (a header is named, its value is not quoted).

>>> err = TargetConfigError("target.json", 4, "request_template.q", "unknown placeholder")
>>> str(err)
'target.json:4: field request_template.q: unknown placeholder'
>>> str(TargetConfigError("target.json", None, None, "cannot read: No such file"))
'target.json: cannot read: No such file'
>>> isinstance(err, MonitorError), err.line, err.field
(True, 4, 'request_template.q')
"""

from __future__ import annotations

from typing import Any

from monitor.errors import MonitorError

__all__ = ["TargetConfigError"]


class TargetConfigError(MonitorError):
    """A target config file (or the ``--target`` URL) that cannot be used.

    ``file`` is the path as given (``--target`` for the URL itself), ``line`` the 1-based
    line of the offending value when known, ``field`` its dotted path in the file and
    ``reason`` a human sentence.
    """

    def __init__(self, file: str, line: int | None, field: str | None, reason: str) -> None:
        reason = " ".join(reason.split())
        where = file if line is None else f"{file}:{line}"
        what = reason if field is None else f"field {field}: {reason}"
        super().__init__(f"{where}: {what}")
        self.file = file
        self.line = line
        self.field = field
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.file, self.line, self.field, self.reason))
