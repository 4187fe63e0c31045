"""The error hierarchy (drawn in :mod:`monitor`)."""

from __future__ import annotations

__all__ = ["BrokerError", "ConfigError", "EventError", "MonitorError"]


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


class BrokerError(MonitorError):
    """A Kafka broker (the embedded one, or the configured one) could not be started or
    reached."""
