"""Alert rules, pure: fingerprints, the perspective diagnosis, the alert state machine and
the grouping of conditions into incidents.

>>> fingerprint("degradation", "quality.overall", (None, None, None)) == fingerprint(
...     "degradation", "quality.overall", (None, None, None))
True
"""

from __future__ import annotations

from monitor.alerts.rules.alert_book import AlertBook, alert_labels
from monitor.alerts.rules.diagnosis import ADVICE, PERSPECTIVES, diagnose, perspective_of
from monitor.alerts.rules.fingerprint import canonical, fingerprint
from monitor.alerts.rules.incidents import IncidentBook, cause_of, explaining_series

__all__ = [
    "ADVICE",
    "PERSPECTIVES",
    "AlertBook",
    "IncidentBook",
    "alert_labels",
    "canonical",
    "cause_of",
    "diagnose",
    "explaining_series",
    "fingerprint",
    "perspective_of",
]
