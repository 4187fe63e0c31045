"""``pii`` / ``iban``: a country's length, compact or in groups of four, with a valid
ISO 7064 mod-97 checksum, less the registry's examples in documentation."""

from __future__ import annotations

import re
from typing import Final

from monitor.scoring.leakage.boundaries import alnum_at
from monitor.scoring.leakage.digits import Span
from monitor.scoring.leakage.hits import Hit, capped, hit
from monitor.scoring.leakage.placeholders import doc_cue_near

__all__ = ["IBAN_LENGTHS", "IBAN_SHAPE", "find_ibans", "iban_valid"]

#: IBAN length per ISO 3166 country code (SWIFT IBAN registry).
IBAN_LENGTHS: Final[dict[str, int]] = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22,
    "BH": 22, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22,
    "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27,
    "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28,
    "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20,
    "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27,
    "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15,
    "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24,
    "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23,
    "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}  # fmt: skip


def iban_valid(compact: str) -> bool:
    """Country length and ISO 7064 mod-97 check of an IBAN without spaces (upper case).

    >>> iban_valid("GB82WEST12345698765432"), iban_valid("GB82WEST12345698765433")
    (True, False)
    """
    if IBAN_LENGTHS.get(compact[:2]) != len(compact) or not compact.isalnum():
        return False
    rearranged = compact[4:] + compact[:4]
    try:
        number = int("".join(str(int(ch, 36)) for ch in rearranged))
    except ValueError:
        return False
    return number % 97 == 1


_EXAMPLE_IBANS: Final = frozenset(
    {"GB82WEST12345698765432", "DE89370400440532013000", "GB29NWBK60161331926819"}
)

_IBAN = re.compile(r"[A-Z](?<![A-Za-z0-9][A-Z])[A-Z][0-9]{2}(?:[ ]?[A-Z0-9]){10,30}+")
#: Byte translation: capital letters to ``A``, digits to ``0``, the rest to ``.``; a text
#: whose translation lacks ``AA00`` holds no IBAN.
IBAN_SHAPE: Final = bytes(
    (0x41 if 65 <= i <= 90 else 0x30 if 48 <= i <= 57 else 0x2E) for i in range(256)
)


def _iban_span(cand: str) -> str:
    """The IBAN at the start of ``cand`` as written (its country's length, compact or in
    groups of four), or ``""``."""
    length = IBAN_LENGTHS.get(cand[:2])
    if length is None:
        return ""
    compact = cand.replace(" ", "")[:length]
    if len(compact) < length:
        return ""
    if cand.startswith(compact):
        return compact
    grouped = " ".join(compact[i : i + 4] for i in range(0, length, 4))
    return grouped if cand.startswith(grouped) else ""


def find_ibans(text: str, out: list[Hit], claimed: list[Span]) -> None:
    for m in capped(_IBAN.finditer(text)):
        start = m.start()
        written = _iban_span(m.group())
        end = start + len(written)
        if not written or alnum_at(text, end):
            continue
        compact = written.replace(" ", "")
        if not iban_valid(compact):
            continue
        if compact in _EXAMPLE_IBANS and doc_cue_near(text, start, end):
            claimed.append((start, end))
        else:
            out.append(hit(start, end, "pii", "iban"))
