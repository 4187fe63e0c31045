"""Standard Webhooks signing: the headers verify with the ``standardwebhooks`` library (what
receivers use), tampering and replays fail, secrets are checked, message ids are stable."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time

import pytest
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError
from test_payloads import make_alert

from monitor.alerts.signing import (
    check_secret,
    message_id,
    new_secret,
    signed_headers,
    verify,
)

BODY = b'{"fingerprint":"abc","status":"firing"}'
SECRET = new_secret()


def test_the_signature_is_the_standard_one() -> None:
    """v1 = base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}")), computed by hand here."""
    t = int(time.time())
    headers = signed_headers(BODY, SECRET, "msg_1", t)
    key = base64.b64decode(SECRET.removeprefix("whsec_"))
    mac = hmac.new(key, b"msg_1." + str(t).encode() + b"." + BODY, hashlib.sha256).digest()
    assert headers == {
        "webhook-id": "msg_1",
        "webhook-timestamp": str(t),
        "webhook-signature": "v1," + base64.b64encode(mac).decode(),
    }
    assert Webhook(SECRET).verify(BODY, headers) == {"fingerprint": "abc", "status": "firing"}
    assert verify(BODY, headers, SECRET)


@pytest.mark.parametrize(
    "change",
    [
        {"body": BODY + b" "},
        {"webhook-id": "msg_2"},
        {"webhook-timestamp": "1"},
        {"secret": new_secret()},
        {"webhook-signature": "v1,AAAA"},
        {"webhook-signature": "garbage"},
    ],
)
def test_tampering_fails(change: dict[str, str]) -> None:
    headers = signed_headers(BODY, SECRET, "msg_1", int(time.time()))
    body = change.pop("body", BODY)  # type: ignore[arg-type]
    secret = change.pop("secret", SECRET)
    headers |= change
    assert not verify(body if isinstance(body, bytes) else body.encode(), headers, secret)


@pytest.mark.parametrize("skew_s", [-3600, 3600])
def test_a_stale_or_future_timestamp_fails(skew_s: int) -> None:
    headers = signed_headers(BODY, SECRET, "msg_1", int(time.time()) + skew_s)
    with pytest.raises(WebhookVerificationError):
        Webhook(SECRET).verify(BODY, headers)
    assert not verify(BODY, headers, SECRET)


def test_secrets_are_standard_webhooks_secrets() -> None:
    assert check_secret(SECRET) == SECRET
    raw = base64.b64encode(b"k" * 24).decode()
    assert check_secret(raw) == raw  # the whsec_ prefix is optional
    for bad in ("s3cret", "whsec_" + base64.b64encode(b"short").decode(), "whsec_***"):
        with pytest.raises(ValueError) as caught:
            check_secret(bad)
        assert bad not in str(caught.value)
    assert new_secret() != new_secret()


def test_message_ids_identify_one_notification() -> None:
    firing = make_alert()
    assert message_id(firing) == message_id(make_alert())
    others = [
        make_alert(status="resolved", ends_at_ms=1_700_000_120_000),
        make_alert(fingerprint="other"),
        make_alert(starts_at_ms=1),
    ]
    ids = {message_id(a) for a in others} | {message_id(firing)}
    assert len(ids) == 4
    assert all(i.startswith("msg_") and len(i) == 36 for i in ids)
