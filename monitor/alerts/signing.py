"""Standard Webhooks signing of generic webhook deliveries (https://www.standardwebhooks.com).

Every signed delivery carries three headers, made by the ``standardwebhooks`` package:

* ``webhook-id``: the message id, the same for every delivery of one alert notification
  (:func:`message_id`: the alert's fingerprint, status, start and window end), so a
  receiver deduplicates the at-least-once redeliveries on it;
* ``webhook-timestamp``: unix seconds of this attempt;
* ``webhook-signature``: ``v1,<base64 HMAC-SHA256>`` over ``"{id}.{timestamp}.{body}"``.

The secret is a Standard Webhooks secret: ``whsec_`` followed by the base64 of 24 to 64
random bytes (:func:`new_secret` makes one), the form receivers' libraries take. A receiver
verifies with its language's library, e.g. in Python
``standardwebhooks.Webhook(secret).verify(body, headers)``, which also refuses a
timestamp more than 5 minutes from its clock (replays).

>>> secret = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
>>> headers = signed_headers(b'{"status":"firing"}', secret, "msg_1", timestamp_s=1_700_000_000)
>>> sorted(headers), headers["webhook-signature"].startswith("v1,")
(['webhook-id', 'webhook-signature', 'webhook-timestamp'], True)
>>> check_secret("not base64!")
Traceback (most recent call last):
...
ValueError: the webhook secret is not base64 (whsec_ followed by base64 of 24 to 64 bytes)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime

from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from monitor.alerts.alert import Alert

__all__ = [
    "SECRET_PREFIX",
    "WEBHOOK_ID",
    "WEBHOOK_SIGNATURE",
    "WEBHOOK_TIMESTAMP",
    "check_secret",
    "message_id",
    "new_secret",
    "signed_headers",
    "verify",
]

WEBHOOK_ID = "webhook-id"
WEBHOOK_TIMESTAMP = "webhook-timestamp"
WEBHOOK_SIGNATURE = "webhook-signature"
SECRET_PREFIX = "whsec_"
_MIN_KEY_BYTES, _MAX_KEY_BYTES = 24, 64


def check_secret(secret: str) -> str:
    """``secret`` when it is a usable Standard Webhooks secret, else ``ValueError`` (one
    line, without the secret)."""
    raw = secret.removeprefix(SECRET_PREFIX)
    try:
        key = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(
            "the webhook secret is not base64 (whsec_ followed by base64 of 24 to 64 bytes)"
        ) from None
    if not _MIN_KEY_BYTES <= len(key) <= _MAX_KEY_BYTES:
        raise ValueError(
            f"the webhook secret decodes to {len(key)} bytes; Standard Webhooks wants "
            f"{_MIN_KEY_BYTES} to {_MAX_KEY_BYTES}"
        )
    return secret


def new_secret() -> str:
    """A fresh random secret, ``whsec_`` + base64 of 32 bytes.

    >>> check_secret(new_secret()).startswith("whsec_")
    True
    """
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def message_id(alert: Alert) -> str:
    """The ``webhook-id`` of an alert notification: the same for every (re)delivery of it,
    different for its resolved message and for a later re-notification (another window).

    >>> from monitor.alerts.alert import AlertLabels, AlertWindow, Diagnosis
    >>> a = Alert(fingerprint="f1", status="firing", type="threshold", severity="critical",
    ...     rule="r", message="m", metric="quality.overall", current_value=0.3, threshold=0.4,
    ...     labels=AlertLabels(), window=AlertWindow(start_ms=0, end_ms=60_000),
    ...     starts_at_ms=60_000, diagnosis=Diagnosis(perspective="retrieval",
    ...     failing=["retrieval"], advice="x"))
    >>> message_id(a) == message_id(a.model_copy()), message_id(a) == message_id(
    ...     a.model_copy(update={"status": "resolved"}))
    (True, False)
    """
    identity = f"{alert.fingerprint}|{alert.status}|{alert.starts_at_ms}|{alert.window.end_ms}"
    return "msg_" + hashlib.sha256(identity.encode()).hexdigest()[:32]


def signed_headers(body: bytes, secret: str, msg_id: str, timestamp_s: int) -> dict[str, str]:
    """The three Standard Webhooks headers for ``body`` (UTF-8 JSON) sent at ``timestamp_s``."""
    at = datetime.fromtimestamp(timestamp_s, tz=UTC)
    signature = Webhook(check_secret(secret)).sign(msg_id, at, body.decode("utf-8"))
    return {WEBHOOK_ID: msg_id, WEBHOOK_TIMESTAMP: str(timestamp_s), WEBHOOK_SIGNATURE: signature}


def verify(body: bytes, headers: Mapping[str, str], secret: str) -> bool:
    """Whether ``headers`` sign ``body`` with ``secret`` (the library's check, its 5-minute
    tolerance against the wall clock included); never raises for a bad delivery."""
    try:
        Webhook(secret).verify(body, dict(headers), json_parse=False)
    except (WebhookVerificationError, ValueError, binascii.Error, UnicodeDecodeError):
        return False
    return True
