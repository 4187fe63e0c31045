"""The error hierarchy (drawn in :mod:`monitor`)."""

from __future__ import annotations

from typing import Any

__all__ = ["BrokerError", "ConfigError", "EventError", "FileError", "MonitorError"]


class MonitorError(Exception):
    """Base class of every error ragmon raises on purpose."""


class ConfigError(MonitorError):
    """Settings that cannot be parsed, or that contradict each other."""


class EventError(MonitorError):
    """An input message that cannot become a ``RagEvent``.

    ``stage`` is ``decode`` or ``validate`` (``score`` when a scorer failed),
    ``reason`` is a short snake_case code (low cardinality: safe as a metric
    label), ``field`` the dotted path of the offending field when known, and
    ``detail`` a human sentence that never quotes the payload.
    """

    def __init__(self, stage: str, reason: str, field: str | None, detail: str) -> None:
        super().__init__(f"{stage}/{reason}" + (f" at {field}" if field else "") + f": {detail}")
        self.stage = stage
        self.reason = reason
        self.field = field
        self.detail = detail


class FileError(MonitorError):
    """A file given to a command (a dataset, a target or gate configuration, a report)
    that cannot be used, as one line: ``FILE:LINE: field FIELD: reason`` (``LINE`` and
    ``field FIELD`` are left out when unknown), so an editor or a CI log can jump to it.

    ``line`` is 1-based; ``field`` the dotted path of the offending value; ``reason`` a
    human sentence (folded onto one line) that never quotes a secret.

    >>> str(FileError("cases.jsonl", 3, "user_roles", "input should be\t a list"))
    'cases.jsonl:3: field user_roles: input should be a list'
    >>> str(FileError("gate.json", None, None, "cannot read the file"))
    'gate.json: cannot read the file'
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
        """Picklable (subclasses may add keyword-only attributes, kept in ``__dict__``)."""
        return (type(self), (self.file, self.line, self.field, self.reason), self.__dict__)


class BrokerError(MonitorError):
    """A Kafka broker (the embedded one, or the configured one) could not be started or
    reached."""
