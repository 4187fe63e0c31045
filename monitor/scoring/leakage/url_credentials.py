"""``secret`` / ``url_credentials``: the password of ``scheme://user:password@host``."""

from __future__ import annotations

import re
from typing import Final

from monitor.scoring.leakage.hits import Hit, capped, hit
from monitor.scoring.leakage.placeholders import password_placeholder, reserved_host

__all__ = ["SCHEME_CHARS", "find_url_credentials"]

_URL_CRED = re.compile(r"://([^\s:/@?#\[\]\"'<>]{0,128}+):([^\s/@?\"'<>]{1,256}+)@")
_HOST = re.compile(r"[A-Za-z0-9\[][A-Za-z0-9.\-\[\]:]{0,253}+")
#: The characters of a URL scheme (RFC 3986).
SCHEME_CHARS: Final = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-"


def find_url_credentials(text: str, out: list[Hit]) -> None:
    for m in capped(_URL_CRED.finditer(text)):
        seg = text[max(0, m.start() - 24) : m.start()]
        scheme = seg[len(seg.rstrip(SCHEME_CHARS)) :]
        if len(scheme) < 2 or not scheme[0].isalpha():
            continue
        host = _HOST.match(text, m.end())
        if not host or reserved_host(host.group().split(":")[0]):
            continue
        user, password = m.group(1), m.group(2)
        if password_placeholder(user, password):
            continue
        out.append(hit(m.start(2), m.end(2), "secret", "url_credentials"))
