"""The ``X-Monitor-Signature`` header of generic webhook deliveries (Stripe-style).

The header is ``t=<unix seconds>,v1=<hex HMAC-SHA256>``, where the MAC covers
``f"{t}."`` followed by the exact request body. Binding the timestamp into the MAC lets a
receiver refuse replays: :func:`verify` accepts a signature only within ``tolerance_s`` of
its own clock. Several ``v1`` entries are accepted (any one may match), so a receiver can
check against a rotated secret.

>>> header = sign(b'{"status":"firing"}', "s3cret", timestamp_s=1_700_000_000)
>>> header.startswith("t=1700000000,v1=")
True
>>> verify(b'{"status":"firing"}', header, "s3cret", now_s=1_700_000_100)
True
>>> verify(b'{"status":"resolved"}', header, "s3cret", now_s=1_700_000_100)  # tampered body
False
>>> verify(b'{"status":"firing"}', header, "s3cret", now_s=1_700_000_301)  # too old
False
"""

from __future__ import annotations

import hashlib
import hmac

__all__ = ["SIGNATURE_HEADER", "sign", "verify"]

SIGNATURE_HEADER = "X-Monitor-Signature"


def _mac(body: bytes, secret: str, timestamp_s: int) -> str:
    signed = f"{timestamp_s}.".encode() + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def sign(body: bytes, secret: str, timestamp_s: int) -> str:
    """The header value signing ``body`` at ``timestamp_s`` (unix seconds)."""
    return f"t={timestamp_s},v1={_mac(body, secret, timestamp_s)}"


def verify(body: bytes, header: str, secret: str, now_s: float, tolerance_s: float = 300) -> bool:
    """Whether ``header`` signs ``body`` with ``secret`` within ``tolerance_s`` of ``now_s``.

    Malformed headers are simply not valid; the comparison is constant-time.

    >>> verify(b"{}", "garbage", "s3cret", now_s=0)
    False
    """
    timestamp_s: int | None = None
    candidates: list[str] = []
    for part in header.split(","):
        key, sep, value = part.strip().partition("=")
        if not sep:
            return False
        if key == "t":
            if not value.isascii() or not value.isdigit():
                return False
            timestamp_s = int(value)
        elif key == "v1":
            candidates.append(value)
    if timestamp_s is None or not candidates or abs(now_s - timestamp_s) > tolerance_s:
        return False
    expected = _mac(body, secret, timestamp_s).encode()
    matched = False
    for candidate in candidates:  # no early exit: time does not depend on which one matched
        matched |= hmac.compare_digest(expected, candidate.encode("utf-8", "replace"))
    return matched
