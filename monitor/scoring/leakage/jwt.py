"""``secret`` / ``jwt``: compact JOSE tokens, JWS ``header.payload.signature`` (a detached
payload, ``header..signature``, included) and JWE ``header.key.iv.ciphertext.tag``,
whose header decodes to a JOSE header.

The header is base64url JSON with an ``alg`` member (and ``enc`` for a JWE). It starts
``eyJ`` when serialised compactly (``{"``), ``eyA``/``ew`` when the JSON has a space or a
line break after the brace, so every token starting ``ey`` or ``ew`` is decoded.

>>> out: list = []
>>> find_jwts("t=eyJhbGciOiJIUzI1NiJ9..c2lnbmF0dXJlX3Zh", out); len(out)
1
"""

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
    r"e[yw](?<![\w\-.]e[yw])[A-Za-z0-9_\-]{8,4000}+"
    r"(?:\.[A-Za-z0-9_\-]{0,20000}+){2,4}+"
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
            continue  # a sixth segment: no compact JOSE token
        parts = m.group().split(".")
        if len(parts) in (4, 6) and not parts[-1]:  # the full stop ending a sentence
            parts.pop()
            end -= 1
        if len(parts) not in (3, 5):
            continue
        decoded = _b64url_json(parts[0])
        if not (isinstance(decoded, dict) and isinstance(decoded.get("alg"), str)):
            continue
        signature = parts[-1]
        if len(parts) == 5:  # JWE: encrypted, but the key to someone's session all the same
            if not isinstance(decoded.get("enc"), str) or len(parts[3]) < 8:
                continue
            if is_placeholder(parts[3]):
                continue
        elif not parts[1] and len(signature) < 16:
            continue  # a detached payload needs a real signature
        if "signature" in signature.lower() or (signature and is_placeholder(signature)):
            continue
        if not signature and decoded.get("alg") != "none":
            continue
        out.append(hit(start, end, "secret", "jwt"))
