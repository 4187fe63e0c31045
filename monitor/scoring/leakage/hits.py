"""Findings under construction: ``(start, end, priority, kind, type)`` tuples, the
priority that decides overlaps, and the cap on the candidates any detector examines."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import islice
from typing import Final, Literal

__all__ = ["MAX_CANDIDATES", "PRIORITY", "Hit", "Kind", "capped", "hit"]

Kind = Literal["pii", "secret", "metadata", "verbatim"]

#: Each detector examines at most this many candidates (the earliest), which bounds the
#: Python-level work on adversarial inputs; the regular expressions themselves are linear.
MAX_CANDIDATES: Final = 4096

#: ``(start, end, priority, kind, type)``: a ``[start, end)`` range of the response text.
Hit = tuple[int, int, int, Kind, str]

#: Among overlapping pii and secret findings the one of higher priority is kept.
PRIORITY: Final[dict[str, int]] = {
    "private_key": 100,
    "jwt": 95,
    "aws_access_key": 90,
    "aws_secret_key": 90,
    "google_api_key": 90,
    "github_token": 90,
    "gitlab_token": 90,
    "slack_token": 90,
    "slack_webhook": 90,
    "stripe_key": 90,
    "openai_key": 90,
    "anthropic_key": 90,
    "sendgrid_key": 90,
    "npm_token": 90,
    "url_credentials": 80,
    "iban": 70,
    "payment_card": 70,
    "us_ssn": 60,
    "email": 50,
    "phone": 40,
    "generic_secret": 10,
}


def hit(start: int, end: int, kind: Kind, type_: str) -> Hit:
    """A finding of ``type_`` over ``[start, end)``, with its priority."""
    return (start, end, PRIORITY.get(type_, 0), kind, type_)


def capped(matches: Iterator[re.Match[str]]) -> Iterator[re.Match[str]]:
    """The first :data:`MAX_CANDIDATES` matches."""
    return islice(matches, MAX_CANDIDATES)
