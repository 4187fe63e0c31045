"""``secret`` / ``jwt``: ``header.payload.signature`` whose header is a JOSE header."""

from __future__ import annotations

import base64
import binascii
import json
import re

from monitor.scoring.leakage.boundaries import alnum_at, boundary_ok
from monitor.scoring.leakage.hits import Hit, capped, hit
from monitor.scoring.leakage.placeholders import is_placeholder

__all__ = ["find_jwts"]

_JWT = re.compile(
    r"eyJ(?<![\w\-.]eyJ)[A-Za-z0-9_\-]{8,4000}+\.[A-Za-z0-9_\-]{2,20000}+\.[A-Za-z0-9_\-]{0,2000}+"
)


def _b64url_json(segment: str) -> object:
    try:
        raw = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
        return json.loads(raw)
    except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError):
        return None


def find_jwts(text: str, out: list[Hit]) -> None:
    for m in capped(_JWT.finditer(text)):
        start, end = m.span()
        if not boundary_ok(text, start, end, "_-") or text[start - 1 : start] == ".":
            continue
        if text[end : end + 1] == "." and alnum_at(text, end + 1):
            continue  # a fourth segment: not a JWS compact token
        header, _payload, signature = m.group().split(".")
        decoded = _b64url_json(header)
        if not (isinstance(decoded, dict) and isinstance(decoded.get("alg"), str)):
            continue
        if "signature" in signature.lower() or (signature and is_placeholder(signature)):
            continue
        if not signature and decoded.get("alg") != "none":
            continue
        out.append(hit(start, end, "secret", "jwt"))
