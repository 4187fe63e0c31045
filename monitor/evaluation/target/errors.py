"""The one error the target package raises on purpose: a target config that cannot be used.

A :class:`~monitor.errors.FileError`: one line, ``FILE:LINE: field FIELD: reason``, like
a dataset error. ``field`` is the dotted path of the offending value in the file. A
header's value is never part of it (a header is named, its value is not quoted).

>>> err = TargetConfigError("target.json", 4, "request_template.q", "unknown placeholder")
>>> str(err)
'target.json:4: field request_template.q: unknown placeholder'
>>> str(TargetConfigError("target.json", None, None, "cannot read: No such file"))
'target.json: cannot read: No such file'
>>> isinstance(err, FileError), err.line, err.field
(True, 4, 'request_template.q')
"""

from __future__ import annotations

from monitor.errors import FileError

__all__ = ["TargetConfigError"]


class TargetConfigError(FileError):
    """A target config file (or the ``--target`` URL) that cannot be used. ``file`` is the
    path as given (``--target`` for the URL itself)."""
