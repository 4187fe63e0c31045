"""``pii`` / ``us_ssn``: ``AAA-GG-SSSS`` with a valid area, group and serial."""

from __future__ import annotations

import re

from monitor.scoring.leakage.boundaries import alnum_at
from monitor.scoring.leakage.digits import NUMBER_END, NUMBER_START, Span
from monitor.scoring.leakage.hits import Hit, hit

__all__ = ["SSN", "SSN_CUE", "add_ssn", "ssn_valid"]

SSN = re.compile(rf"{NUMBER_START}([0-9]{{3}})([ \-])([0-9]{{2}})\2([0-9]{{4}}){NUMBER_END}")
SSN_CUE = re.compile(
    r"(?i)\b(?:ssn|social security(?: number| no\.?)?|soc\.? ?sec|ss#|tin)\b[^0-9\n]{0,24}$"
)


def ssn_valid(area: str, group: str, serial: str) -> bool:
    if area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000":
        return False
    return f"{area}{group}{serial}" not in ("078051120", "219099999", "123456789")


def add_ssn(text: str, m: re.Match[str], out: list[Hit], claimed: list[Span]) -> None:
    start, end = m.span()
    if alnum_at(text, end) or alnum_at(text, start - 1):
        return
    if m.group(2) == " " and not SSN_CUE.search(text, max(0, start - 40), start):
        return
    if ssn_valid(m.group(1), m.group(3), m.group(4)):
        out.append(hit(start, end, "pii", "us_ssn"))
    else:
        claimed.append((start, end))  # SSN-shaped: not a phone either
