"""The ``X-Monitor-Signature`` header: round trip, tampering, replay window."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from monitor.alerts.signing import sign, verify

BODY = b'{"fingerprint":"abc","status":"firing"}'
T = 1_700_000_000


def test_round_trip_and_format() -> None:
    header = sign(BODY, "s3cret", T)
    t, v1 = header.split(",")
    assert t == f"t={T}"
    expected = hmac.new(b"s3cret", f"{T}.".encode() + BODY, hashlib.sha256).hexdigest()
    assert v1 == f"v1={expected}"
    assert verify(BODY, header, "s3cret", now_s=T)


@pytest.mark.parametrize(
    "body, secret",
    [(BODY + b" ", "s3cret"), (BODY.replace(b"firing", b"resolved"), "s3cret"), (BODY, "other")],
)
def test_tampered_body_or_wrong_secret_fails(body: bytes, secret: str) -> None:
    assert not verify(body, sign(BODY, "s3cret", T), secret, now_s=T)


def test_timestamp_is_bound_into_the_mac() -> None:
    forged = sign(BODY, "s3cret", T).replace(f"t={T}", f"t={T + 1000}")
    assert not verify(BODY, forged, "s3cret", now_s=T + 1000)


@pytest.mark.parametrize("skew_s, ok", [(0, True), (300, True), (-300, True), (301, False)])
def test_tolerance_both_ways(skew_s: int, ok: bool) -> None:
    header = sign(BODY, "s3cret", T)
    assert verify(BODY, header, "s3cret", now_s=T + skew_s) is ok
    assert verify(BODY, header, "s3cret", now_s=T - skew_s) is ok


def test_custom_tolerance() -> None:
    header = sign(BODY, "s3cret", T)
    assert not verify(BODY, header, "s3cret", now_s=T + 10, tolerance_s=5)


def test_any_of_several_v1_matches_for_secret_rotation() -> None:
    old = sign(BODY, "old", T).split(",")[1]
    header = sign(BODY, "new", T) + "," + old
    assert verify(BODY, header, "old", now_s=T)
    assert verify(BODY, header, "new", now_s=T)


@pytest.mark.parametrize(
    "header",
    ["", "t=,v1=00", f"t={T}", "v1=00", f"t=abc,v1={'0' * 64}", f"t={T};v1=00", "t=-5,v1=00"],
)
def test_malformed_headers_are_invalid(header: str) -> None:
    assert not verify(BODY, header, "s3cret", now_s=T)
