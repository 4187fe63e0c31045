"""Label values with a cap: the first ``max_values`` distinct values of a label are kept,
every later one becomes ``other`` (DESIGN section 9: cardinality is capped).

Events without a value get ``none``; dead letters, which have no labels at all, are
counted under ``unknown`` (and only in the overall roll-up).

>>> cap = LabelCap(max_values=2)
>>> [cap.value("tenant", v) for v in ("acme", "globex", "initech", "acme", None)]
['acme', 'globex', 'other', 'acme', 'none']
"""

from __future__ import annotations

__all__ = ["NONE", "OTHER", "UNKNOWN", "LabelCap"]

NONE = "none"
OTHER = "other"
UNKNOWN = "unknown"


class LabelCap:
    """Maps raw label values to capped ones, per label name."""

    def __init__(self, max_values: int) -> None:
        if max_values < 1:
            raise ValueError("max_values must be at least 1")
        self.max_values = max_values
        self._seen: dict[str, dict[str, str]] = {}

    def value(self, label: str, raw: str | None) -> str:
        if raw is None or raw == "":
            return NONE
        seen = self._seen.setdefault(label, {})
        known = seen.get(raw)
        if known is not None:
            return known
        mapped = raw if len(seen) < self.max_values and raw not in (OTHER, UNKNOWN) else OTHER
        if mapped != OTHER or len(seen) < 10 * self.max_values:
            seen[raw] = mapped  # remember some overflow values too, boundedly
        return mapped
