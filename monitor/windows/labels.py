"""Label values (variant, tenant, application, experiment): what may leave the worker.

Two steps, both pure:

- :class:`LabelPolicy` turns one raw value from an event into the value that may leave
  the worker (windows, partials, A/B results, alerts, ``/metrics`` and the scored event's
  label fields). A value longer than ``max_chars`` (default 64), or with a character
  outside ``[A-Za-z0-9._:/@+-]`` (ASCII letters, digits and ``. _ : / @ + -``: no spaces,
  quotes, control or non-ASCII characters), becomes ``invalid``. With a ``hash_key`` every
  other value is replaced by ``hmac:`` and the first 16 hex digits of
  HMAC-SHA256(key, value), so raw tenant or variant names never leave the worker; an
  operator who knows the key computes the same digest to find a series
  (:func:`label_hash`). A raw value that already looks like a hash is ``invalid`` too (no
  event can pose as another series).
- :class:`LabelCap` caps the cardinality (DESIGN section 9): the first ``max_values``
  distinct values of a label are kept, every later one becomes ``other``.

Reserved values, never hashed and never counted against the cap: ``none`` (the event has
no value), ``other`` (over the cap), ``invalid`` (failed validation) and ``unknown`` (dead
letters, which have no labels at all; counted only in the overall roll-up). A raw value
naming ``other``, ``unknown`` or ``all`` (the metrics' roll-up) becomes ``other``.

>>> cap = LabelCap(max_values=2)
>>> [cap.value("tenant", v) for v in ("acme", "globex", "initech", "acme", None)]
['acme', 'globex', 'other', 'acme', 'none']
>>> cap.value("tenant", "x" * 65), cap.value("tenant", "acme corp"), cap.value("tenant", "a\\n")
('invalid', 'invalid', 'invalid')
>>> hashed = LabelPolicy(hash_key=b"k" * 16)
>>> hashed.export("acme"), hashed.export(None), hashed.export("x" * 250_000)
('hmac:686b5228eaa8e85b', 'none', 'invalid')
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from monitor.config import Settings
    from monitor.events.scored_event import ScoredEvent

__all__ = [
    "ALL",
    "DEFAULT_MAX_CHARS",
    "HASH_PREFIX",
    "INVALID",
    "LABEL_FIELDS",
    "NONE",
    "OTHER",
    "RESERVED",
    "UNKNOWN",
    "LabelCap",
    "LabelPolicy",
    "label_hash",
]

NONE = "none"
OTHER = "other"
UNKNOWN = "unknown"
INVALID = "invalid"
ALL = "all"
"""Reserved: it named the metrics' roll-up over every variant until issue 16 (that
aggregate is PromQL's now); a variant called ``all`` would still read as one."""
RESERVED = frozenset({NONE, OTHER, UNKNOWN, INVALID, ALL})
DEFAULT_MAX_CHARS = 64
HASH_PREFIX = "hmac:"
_HASH_HEX = 16
LABEL_FIELDS = ("variant", "tenant", "application", "experiment")
"""The event (and scored event) fields that are labels."""

_SAFE = re.compile(r"[A-Za-z0-9._:/@+\-]+")
_HASHED = re.compile(re.escape(HASH_PREFIX) + f"[0-9a-f]{{{_HASH_HEX}}}")
_CACHE_MAX = 4096


def label_hash(key: bytes, value: str) -> str:
    """``hmac:`` + the first 16 hex digits of HMAC-SHA256(key, UTF-8 value).

    >>> label_hash(b"k" * 16, "acme")
    'hmac:686b5228eaa8e85b'
    """
    digest = hmac.new(key, value.encode("utf-8"), hashlib.sha256).hexdigest()
    return HASH_PREFIX + digest[:_HASH_HEX]


class LabelPolicy:
    """Validates (and, with a key, hashes) one label value at a time; no cardinality cap.

    >>> p = LabelPolicy(max_chars=8)
    >>> [p.export(v) for v in ("a/b@c+d", "123456789", "", "other", "hmac:0123456789abcdef")]
    ['a/b@c+d', 'invalid', 'none', 'other', 'invalid']
    >>> p.check("hmac:0123456789abcdef"), p.check("x y")
    ('hmac:0123456789abcdef', 'invalid')
    """

    def __init__(self, max_chars: int = DEFAULT_MAX_CHARS, hash_key: bytes | None = None) -> None:
        if max_chars < 1:
            raise ValueError("max_chars must be at least 1")
        self.max_chars = max_chars
        self._key = hash_key or None
        self._hashed: dict[str, str] = {}

    @classmethod
    def from_settings(cls, settings: Settings) -> LabelPolicy:
        key = settings.label_hash_key
        return cls(
            max_chars=settings.label_max_chars,
            hash_key=None if key is None else key.get_secret_value().encode("utf-8"),
        )

    @property
    def hashing(self) -> bool:
        return self._key is not None

    def export(self, raw: str | None) -> str:
        """The value ``raw`` (straight from an event) may leave the worker as."""
        if raw is None or raw == "":
            return NONE
        if raw in RESERVED:
            return raw
        if len(raw) > self.max_chars or not _SAFE.fullmatch(raw) or _HASHED.fullmatch(raw):
            return INVALID
        if self._key is None:
            return raw
        hashed = self._hashed.get(raw)
        if hashed is None:
            if len(self._hashed) >= _CACHE_MAX:
                self._hashed.clear()
            hashed = self._hashed[raw] = label_hash(self._key, raw)
        return hashed

    def check(self, value: str | None) -> str:
        """Like :meth:`export`, for a value that may already have been exported (a window's
        or an A/B result's label): reserved values and hashes pass unchanged."""
        if value is not None and (value in RESERVED or _HASHED.fullmatch(value)):
            return value
        return self.export(value)

    def scored(self, event: ScoredEvent) -> ScoredEvent:
        """``event`` with its label fields exported (a missing label stays null); the same
        object when nothing changes."""
        updates: dict[str, str] = {}
        for name in LABEL_FIELDS:
            raw = getattr(event, name)
            if raw:
                value = self.export(raw)
                if value != raw:
                    updates[name] = value
        return event.model_copy(update=updates) if updates else event


class LabelCap:
    """Maps label values to validated, capped ones, per label name.

    ``inputs="raw"`` (the window feed) exports raw event values through ``policy``;
    ``inputs="exported"`` (the metrics) takes values that already left a policy (a closed
    window's labels) and only re-checks them, so a hash is not hashed twice.
    """

    def __init__(
        self,
        max_values: int,
        policy: LabelPolicy | None = None,
        *,
        inputs: Literal["raw", "exported"] = "raw",
    ) -> None:
        if max_values < 1:
            raise ValueError("max_values must be at least 1")
        self.max_values = max_values
        self.policy = policy or LabelPolicy()
        self._clean = self.policy.export if inputs == "raw" else self.policy.check
        self._seen: dict[str, dict[str, str]] = {}

    def value(self, label: str, raw: str | None) -> str:
        value = self._clean(raw)
        if value in (NONE, INVALID):
            return value
        seen = self._seen.setdefault(label, {})
        known = seen.get(value)
        if known is not None:
            return known
        mapped = value if len(seen) < self.max_values and value not in RESERVED else OTHER
        if mapped != OTHER or len(seen) < 10 * self.max_values:
            seen[value] = mapped  # remember some overflow values too, boundedly
        return mapped
