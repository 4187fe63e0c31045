"""Documentation examples that are not leaks: placeholder and masked values, placeholder
passwords, reserved and template domains, and the words that mark a nearby example."""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "PLACEHOLDER_PASSWORDS",
    "doc_cue_near",
    "is_placeholder",
    "password_placeholder",
    "reserved_domain",
    "reserved_host",
]

_PLACEHOLDER_WORDS: Final = (
    "example", "xxxx", "****", "...", "…", "your", "placeholder", "changeme", "change_me",
    "change-me", "dummy", "redacted", "<", ">", "${", "{{", "}}", "%(", "•••", "####",
    "insert", "replace", "sample", "notreal", "not_real", "not-real", "fake",
)  # fmt: skip
_REPEAT4 = re.compile(r"(.)\1\1\1")
_ASCENDING6 = re.compile(
    "|".join(
        s[i : i + 6]
        for s in ("0123456789", "abcdefghijklmnopqrstuvwxyz")
        for i in range(len(s) - 5)
    )
)


def is_placeholder(value: str) -> bool:
    """Whether a secret-shaped value is a documentation placeholder, a masked value or
    not random at all: it contains a placeholder word (``example``, ``xxxx``, ``your``,
    ``...``), a character repeated four times, six ascending characters, fewer than 6
    distinct characters, or (from 12 characters) mostly repeated 3-character pieces.

    >>> [is_placeholder(v) for v in ("YOUR_API_KEY", "sk-...xxxx", "AKIAIOSFODNN7EXAMPLE",
    ...  "aaaa1234", "abcdef123", "pass=pass=pass=pass=", "q8Rz2LmT4vXw")]
    [True, True, True, True, True, True, False]
    """
    low = value.lower()
    if any(w in low for w in _PLACEHOLDER_WORDS) or len(set(low)) < 6:
        return True
    if _REPEAT4.search(low) or _ASCENDING6.search(low):
        return True
    head = low[:258]
    n = len(head) - 2
    return n >= 10 and len(set(zip(head, head[1:], head[2:], strict=False))) < 0.6 * n


PLACEHOLDER_PASSWORDS: Final = frozenset(
    """password pass passwd pwd pw secret changeme changeit mypassword yourpassword
    password123 password1 passw0rd p@ssw0rd p@ssword pa55word letmein qwerty admin root
    toor test test123 testing default guest user username 12345678 123456 1234 none null
    example sample dummy token apikey api_key key secretpassword s3cr3t""".split()
)


def password_placeholder(user: str, password: str) -> bool:
    """Whether a ``user:password`` pair is a documentation example: a short, common or
    templated password, a masked one, or the user name again."""
    low = password.lower()
    if len(password) < 3 or low in PLACEHOLDER_PASSWORDS or low == user.lower():
        return True
    if password[0] in "$%{<[(" or set(password) <= set("*x•.#X-_"):
        return True
    return any(w in low for w in _PLACEHOLDER_WORDS)


_DOC_CUE = re.compile(r"(?i)\b(?:test(?:ing)?|sandbox|examples?|e\.g\.|sample|dummy|fake|demo)\b")


def doc_cue_near(text: str, start: int, end: int, width: int = 60) -> bool:
    """Whether a test/sandbox/example word is within ``width`` characters of the span."""
    return _DOC_CUE.search(text, max(0, start - width), min(len(text), end + width)) is not None


_TEMPLATE_DOMAIN_LABELS: Final = frozenset(
    "domain mydomain somedomain company mycompany somecompany email website host server "
    "provider mailserver".split()
)
_RESERVED_TLDS: Final = ("test", "invalid", "example", "localhost")


def reserved_host(host: str) -> bool:
    """RFC 2606/6761 reserved names: ``example.*``, ``*.example``, ``*.test``..."""
    labels = host.lower().rstrip(".").split(".")
    return labels[-1] in _RESERVED_TLDS or "example" in labels


def reserved_domain(domain: str) -> bool:
    """A reserved host, ``localhost``, or a template domain of documentation."""
    if reserved_host(domain):
        return True
    labels = domain.lower().split(".")
    if "localhost" in labels or any(label.startswith("your") for label in labels):
        return True
    return len(labels) >= 2 and labels[-2] in _TEMPLATE_DOMAIN_LABELS
