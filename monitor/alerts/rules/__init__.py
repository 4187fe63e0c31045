"""Alert rules, pure: fingerprints, the perspective diagnosis and the alert state machine.

>>> fingerprint("degradation", "quality.overall", (None, None, None)) == fingerprint(
...     "degradation", "quality.overall", (None, None, None))
True
"""

from __future__ import annotations

from monitor.alerts.rules.alert_book import AlertBook, alert_labels
from monitor.alerts.rules.diagnosis import ADVICE, PERSPECTIVES, diagnose, perspective_of
from monitor.alerts.rules.fingerprint import canonical, fingerprint

__all__ = [
    "ADVICE",
    "PERSPECTIVES",
    "AlertBook",
    "alert_labels",
    "canonical",
    "diagnose",
    "fingerprint",
    "perspective_of",
]
