"""The alert fingerprint: one stable id per rule, metric and series.

It is the first 16 hex digits of the SHA-256 of a canonical JSON of the rule, the metric and
the labels, so it is the same in every process, on every machine and for every hash seed:
a re-notification, and the ``resolved`` message, carry the fingerprint of the ``firing``
one, and endpoints deduplicate on it.

>>> fingerprint("critical_quality", "quality.overall", ("treatment", None, None))
'5a0543b534bc5fa7'
>>> fingerprint("critical_quality", "quality.overall", (None, None, None)) != fingerprint(
...     "critical_quality", "quality.overall", ("treatment", None, None))
True
"""

from __future__ import annotations

import hashlib
import json

from monitor.drift.stats import SeriesKey, key_labels

__all__ = ["canonical", "fingerprint"]


def canonical(rule: str, metric: str, key: SeriesKey) -> str:
    """The canonical JSON the fingerprint is computed from (sorted keys, no spaces)."""
    payload = {"rule": rule, "metric": metric, "labels": key_labels(key)}
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def fingerprint(rule: str, metric: str, key: SeriesKey) -> str:
    """16 hex digits identifying ``(rule, metric, key)``."""
    return hashlib.sha256(canonical(rule, metric, key).encode("ascii")).hexdigest()[:16]
