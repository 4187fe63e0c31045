"""Public key material, which is published by design: nothing inside it is a leak.

A certificate is sent to every client that connects; a public key is meant to be shared.
Their base64 bodies and their text dumps (``openssl x509 -text``) are full of things that
look like secrets or numbers (random base64 runs, long hex serials, colon-separated
modulus bytes, dates, the subject's contact address), so pii and secret findings inside
them are dropped (:func:`public_spans`):

- PEM blocks ``-----BEGIN CERTIFICATE-----`` (also ``TRUSTED CERTIFICATE``,
  ``X509 CRL``, ``CERTIFICATE REQUEST``, ``PUBLIC KEY``, ``RSA PUBLIC KEY``,
  ``PGP PUBLIC KEY BLOCK``) to their END line;
- a certificate's text dump: from a ``Certificate:`` line, the indented lines after it.

Private keys are never exempt: a ``PRIVATE KEY`` block is not public material.

>>> pem = "-----BEGIN CERTIFICATE-----\\nMIIB...\\n-----END CERTIFICATE-----"
>>> public_spans("x " + pem) == [(2, 2 + len(pem))]
True
"""

from __future__ import annotations

import re

from monitor.scoring.leakage.digits import Span

__all__ = ["public_spans"]

_PUBLIC_PEM = re.compile(
    r"-----BEGIN (?P<label>(?:TRUSTED )?CERTIFICATE|X509 CRL|(?:NEW )?CERTIFICATE REQUEST"
    r"|PUBLIC KEY|RSA PUBLIC KEY|PGP PUBLIC KEY BLOCK)-----"
)
_DUMP_START = re.compile(r"(?m)^[ \t]*Certificate:[ \t]*$")


def public_spans(text: str) -> list[Span]:
    """The spans of public key material in ``text`` (see the module docstring)."""
    spans: list[Span] = []
    if "-----BEGIN " in text:
        for m in _PUBLIC_PEM.finditer(text):
            end_line = f"-----END {m.group('label')}-----"
            end = text.find(end_line, m.end())
            end = len(text) if end < 0 else end + len(end_line)
            spans.append((m.start(), end))
    if "Certificate:" in text:
        for m in _DUMP_START.finditer(text):
            pos = m.end()
            while pos < len(text):
                nl = text.find("\n", pos + 1)
                line_end = len(text) if nl < 0 else nl
                line = text[pos + 1 : line_end]
                if line and not line[0].isspace():
                    break
                pos = line_end
                if nl < 0:
                    break
            spans.append((m.start(), pos))
    return spans
