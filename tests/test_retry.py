"""The one retry policy (monitor/retry.py). The three clients that use it are tested on
real loopback servers: tests/alerts/test_sender.py and tests/stream/test_alert_delivery.py
(alert delivery), tests/evaluation/target (the live target), tests/evaluation/judge."""

from __future__ import annotations

import random
from email.utils import formatdate

import pytest

from monitor.retry import RetryPolicy, http_date_delay_s, retry_after_s


def test_backoff_is_full_jitter_capped_exponential() -> None:
    policy = RetryPolicy(base_s=0.5, max_s=3.0)
    rng = random.Random(1)
    for retry, cap in [(1, 0.5), (2, 1.0), (3, 2.0), (4, 3.0), (50, 3.0), (10_000, 3.0)]:
        draws = [policy.backoff_s(retry, rng) for _ in range(2000)]
        assert all(0.0 <= d <= cap for d in draws)
        assert max(draws) > 0.9 * cap and min(draws) < 0.1 * cap  # spread over [0, cap]


def test_retry_after_replaces_the_backoff_up_to_its_cap() -> None:
    policy = RetryPolicy(base_s=10.0, max_s=10.0, retry_after_max_s=5.0)
    rng = random.Random(2)
    assert policy.delay_s(1, 0.25, rng) == 0.25  # shorter than any backoff draw could be
    assert policy.delay_s(1, 3600.0, rng) == 5.0
    assert policy.delay_s(1, -1.0, rng) == 0.0
    assert 0.0 <= policy.delay_s(1, None, rng) <= 10.0


def test_with_a_backoff_floor_retry_after_only_lengthens_the_wait() -> None:
    policy = RetryPolicy(base_s=1.0, max_s=1.0, retry_after_max_s=60.0, backoff_floor=True)
    rng = random.Random(3)
    zero = [policy.delay_s(1, 0.0, rng) for _ in range(200)]
    assert all(0.0 <= d <= 1.0 for d in zero) and max(zero) > 0.5  # not 0: no spinning
    assert policy.delay_s(1, 30.0, rng) == 30.0
    assert policy.delay_s(1, 600.0, rng) == 60.0


@pytest.mark.parametrize(
    ("max_retries", "gives_up_at"), [(0, 1), (1, 2), (4, 5)]
)  # fmt: skip
def test_gives_up_after_max_retries(max_retries: int, gives_up_at: int) -> None:
    policy = RetryPolicy(max_retries=max_retries)
    assert next(r for r in range(1, 10) if policy.gives_up(r)) == gives_up_at
    assert not RetryPolicy(max_retries=None).gives_up(10**9)  # alert delivery: never


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "7"}, 7.0),
        ({"retry-after": " 1.5 "}, 1.5),
        ({"RETRY-AFTER-MS": "250"}, 0.25),
        ({"retry-after-ms": "junk", "Retry-After": "2"}, 2.0),  # falls back
        ({"Retry-After": "soon"}, None),
        ({"Retry-After": "-3"}, None),
        ({"Retry-After": "inf"}, None),
        ({"Retry-After": "nan"}, None),
        ({}, None),
    ],
)
def test_retry_after_headers(headers: dict[str, str], expected: float | None) -> None:
    assert retry_after_s(headers, now_s=0.0) == expected


def test_retry_after_as_an_http_date() -> None:
    now_s = 1_700_000_000.0
    assert retry_after_s({"Retry-After": formatdate(now_s + 30, usegmt=True)}, now_s) == 30.0
    assert retry_after_s({"Retry-After": formatdate(now_s - 30, usegmt=True)}, now_s) == 0.0
    assert http_date_delay_s("Mon, 13 Nov 2023 22:13:20", now_s) is None  # no time zone
    assert http_date_delay_s("not a date", now_s) is None
