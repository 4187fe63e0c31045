"""How long a server asked us to wait: ``retry-after-ms`` (OpenAI's, milliseconds), else
``Retry-After`` (seconds, or an HTTP date); ``None`` when neither is usable.

>>> retry_after_s({"Retry-After": "2"}, now_s=0.0)
2.0
>>> retry_after_s({"retry-after-ms": "250", "retry-after": "1"}, now_s=0.0)
0.25
>>> retry_after_s({"Retry-After": "Thu, 01 Jan 1970 00:00:30 GMT"}, now_s=10.0)
20.0
>>> retry_after_s({"Retry-After": "soon"}, now_s=0.0) is None
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from monitor.alerts.sender import http_date_delay_s

__all__ = ["retry_after_s"]


def _seconds(value: str) -> float | None:
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def retry_after_s(headers: Mapping[str, str], now_s: float) -> float | None:
    """See the module docstring; header names are matched case-insensitively."""
    lowered = {name.lower(): value.strip() for name, value in headers.items()}
    if "retry-after-ms" in lowered:
        ms = _seconds(lowered["retry-after-ms"])
        if ms is not None:
            return ms / 1000.0
    value = lowered.get("retry-after")
    if value is None:
        return None
    seconds = _seconds(value)
    if seconds is not None:
        return seconds
    return http_date_delay_s(value, now_s)
