"""``secret`` / ``private_key``: PEM blocks (PGP included), PuTTY key files and JWKs with
a private member; public keys and elided documentation bodies are not matched."""

from __future__ import annotations

import re

from monitor.scoring.leakage.hits import Hit, capped, hit
from monitor.scoring.leakage.placeholders import is_placeholder

__all__ = ["find_jwks", "find_pem_keys", "find_putty_keys"]

_PEM_BEGIN = re.compile(
    r"-----BEGIN (?:(?:RSA|DSA|EC|OPENSSH|ENCRYPTED|PGP|SSH2 ENCRYPTED) )?"
    r"PRIVATE KEY(?: BLOCK)?-----"
)
_PEM_HEADERS = re.compile(
    r"(?:(?:\\[nr]|\s)*+[A-Za-z][A-Za-z0-9\-]{0,30}:[ \t][^\r\n\\]{0,200}+){0,6}"
)
_PEM_BODY = re.compile(r"(?:[A-Za-z0-9+/=]|\\[nr]|\s)*+")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]{0,40}-----")


def find_pem_keys(text: str, out: list[Hit]) -> None:
    for m in capped(_PEM_BEGIN.finditer(text)):
        pos = m.end()
        headers = _PEM_HEADERS.match(text, pos)
        if headers:
            pos = headers.end()
        body = _PEM_BODY.match(text, pos)
        body_end = body.end() if body else pos
        b64 = "".join(text[pos:body_end].replace("\\n", " ").replace("\\r", " ").split())
        if len(b64) < 64 or _placeholder_body(b64):
            continue
        end = body_end
        tail = _PEM_END.match(text, body_end)
        if tail:
            end = tail.end()
        else:
            while end > pos and (text[end - 1].isspace() or text[end - 1] == "\\"):
                end -= 1
        out.append(hit(m.start(), end, "secret", "private_key"))


_PUTTY = re.compile(r"PuTTY-User-Key-File-[0-9]:")
_PUTTY_PRIVATE = re.compile(r"Private-Lines:[ \t]*[0-9]{1,4}[ \t]*\r?\n")
_PUTTY_MAC = re.compile(r"[ \t\r\n]*Private-(?:MAC|Hash):[ \t]*[0-9a-fA-F]{0,128}+")


def find_putty_keys(text: str, out: list[Hit]) -> None:
    """PuTTY ``.ppk`` files: the private lines are the key."""
    for m in capped(_PUTTY.finditer(text)):
        private = _PUTTY_PRIVATE.search(text, m.end(), m.end() + 8192)
        if not private:
            continue
        body = _PEM_BODY.match(text, private.end())
        body_end = body.end() if body else private.end()
        b64 = "".join(text[private.end() : body_end].split())
        if len(b64) < 64 or _placeholder_body(b64):
            continue
        mac = _PUTTY_MAC.match(text, body_end)
        end = mac.end() if mac and "Private-" in mac.group() else body_end
        while end > m.start() and text[end - 1].isspace():
            end -= 1
        out.append(hit(m.start(), end, "secret", "private_key"))


def _placeholder_body(b64: str) -> bool:
    return "EXAMPLE" in b64.upper() or len(set(b64)) < 16


_JWK_MEMBER = re.compile(r"\"([dk])\"[ \t\r\n]{0,8}:[ \t\r\n]{0,8}\"([A-Za-z0-9_\-]{16,16384}+)\"")
_JWK_KTY = re.compile(r"\"kty\"[ \t\r\n]{0,8}:[ \t\r\n]{0,8}\"(RSA|EC|OKP|oct)\"")


def find_jwks(text: str, out: list[Hit]) -> None:
    for m in capped(_JWK_MEMBER.finditer(text)):
        s, e = m.span()
        lb = text.rfind("{", max(0, s - 4096), s)
        if lb < 0 or text.find("}", lb, s) >= 0:
            continue
        rb = text.find("}", e, e + 16384)
        if rb < 0:
            continue
        kty = _JWK_KTY.search(text, lb, rb)
        if not kty or (m.group(1) == "k") != (kty.group(1) == "oct"):
            continue
        if is_placeholder(m.group(2)):
            continue
        out.append(hit(lb, rb + 1, "secret", "private_key"))
