"""Label values (``monitor.windows.labels``): validated, optionally hashed, capped."""

from __future__ import annotations

import hashlib
import hmac

import orjson
import pytest

from monitor.config import Settings, load_settings, masked
from monitor.errors import ConfigError
from monitor.pipeline import process
from monitor.windows.labels import (
    INVALID,
    NONE,
    OTHER,
    LabelCap,
    LabelPolicy,
    label_hash,
)

KEY = b"0123456789abcdef"
BIG = "v" * 250_000


@pytest.mark.parametrize(
    "raw",
    [
        BIG,
        "x" * 65,
        "acme corp",
        'a"b',
        "a}b",
        "line\nbreak",
        "tab\t",
        "müller",
        "\u202etxt",
        "a\x00b",
        "hmac:0123456789abcdef",  # looks like a hash: no event can pose as one
    ],
)
def test_unsafe_or_long_values_become_invalid(raw: str) -> None:
    assert LabelPolicy().export(raw) == INVALID
    assert LabelPolicy(hash_key=KEY).export(raw) == INVALID
    assert LabelCap(20).value("variant", raw) == INVALID


@pytest.mark.parametrize(
    "raw", ["acme", "support-bot", "reranker_v2.1", "team/app", "a@b", "a+b", "x:y", "x" * 64]
)
def test_safe_values_of_up_to_64_characters_pass(raw: str) -> None:
    assert LabelPolicy().export(raw) == raw


def test_the_length_limit_is_a_setting() -> None:
    policy = LabelPolicy.from_settings(Settings(label_max_chars=8))
    assert policy.export("12345678") == "12345678"
    assert policy.export("123456789") == INVALID


def test_invalid_values_do_not_take_a_place_under_the_cap() -> None:
    cap = LabelCap(2)
    values = [cap.value("tenant", v) for v in (BIG, "x y", "acme", "globex", "initech")]
    assert values == [INVALID, INVALID, "acme", "globex", OTHER]


@pytest.mark.parametrize("raw", ["other", "unknown", "all"])
def test_raw_values_naming_a_reserved_value_are_other(raw: str) -> None:
    assert LabelCap(20).value("variant", raw) == OTHER


def test_hash_is_a_truncated_keyed_hmac_sha256_with_a_prefix() -> None:
    expected = hmac.new(KEY, b"acme", hashlib.sha256).hexdigest()[:16]
    assert label_hash(KEY, "acme") == f"hmac:{expected}"
    policy = LabelPolicy.from_settings(Settings(label_hash_key=KEY.decode()))
    assert policy.hashing
    assert policy.export("acme") == f"hmac:{expected}"
    assert label_hash(b"another key 1234", "acme") != policy.export("acme")
    # reserved values are never hashed
    assert [policy.export(v) for v in (None, "", "none", "other")] == [NONE, NONE, NONE, OTHER]


def test_an_exported_value_is_not_hashed_twice_by_the_metrics_cap() -> None:
    policy = LabelPolicy(hash_key=KEY)
    feed = LabelCap(20, policy)
    metrics = LabelCap(20, policy, inputs="exported")
    hashed = feed.value("variant", "treatment")
    assert hashed.startswith("hmac:")
    assert metrics.value("variant", hashed) == hashed
    # a raw value handed to the metrics cap by mistake is still hashed, an unsafe one invalid
    assert metrics.value("tenant", "acme") == policy.export("acme")
    assert metrics.value("tenant", BIG) == INVALID


def test_the_hash_key_is_masked_and_must_not_be_short() -> None:
    secret = "a-label-hash-key-0123"
    assert secret not in str(masked(Settings(label_hash_key=secret)))
    with pytest.raises(ConfigError, match="MONITOR_LABEL_HASH_KEY"):
        load_settings(label_hash_key="short")


def _scored(**labels: str) -> bytes:
    event = {"schema_version": "1", "event_id": "e1", "timestamp_ms": 5, "query": {"text": "q"}}
    return orjson.dumps({**event, **labels})


def test_the_scored_event_labels_are_exported_and_missing_ones_stay_null() -> None:
    raw = process(_scored(tenant=BIG, variant="treatment", experiment="exp-1"))
    assert not isinstance(raw, Exception)
    plain = LabelPolicy().scored(raw)
    assert (plain.tenant, plain.variant, plain.experiment, plain.application) == (
        INVALID,
        "treatment",
        "exp-1",
        None,
    )
    hashed = LabelPolicy(hash_key=KEY).scored(raw)
    assert hashed.variant == label_hash(KEY, "treatment")
    assert hashed.experiment == label_hash(KEY, "exp-1")
    assert hashed.tenant == INVALID and hashed.application is None
    body = hashed.model_dump_json()
    assert "treatment" not in body and "exp-1" not in body and BIG[:100] not in body
    # nothing to change: the same object back
    ok = process(_scored(variant="control"))
    assert not isinstance(ok, Exception)
    assert LabelPolicy().scored(ok) is ok
