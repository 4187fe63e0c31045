"""``pii`` / ``email``: addresses outside documentation domains, git remotes and URLs."""

from __future__ import annotations

import re
from typing import Final

from monitor.scoring.leakage.hits import Hit, capped, hit
from monitor.scoring.leakage.placeholders import reserved_domain

__all__ = ["find_emails"]

_EMAIL_CH = r"A-Za-z0-9._%+\-"
_EMAIL = re.compile(
    rf"[{_EMAIL_CH}](?<![{_EMAIL_CH}][{_EMAIL_CH}])[{_EMAIL_CH}]{{0,63}}+@"
    r"[A-Za-z0-9\-]{1,63}+(?:\.[A-Za-z0-9\-]{1,63}+){1,8}+"
)
_FILE_EXTENSIONS: Final = frozenset(
    "png jpg jpeg gif svg webp bmp ico pdf txt js ts css html htm json xml yaml yml zip gz "
    "tar tgz csv log".split()
)


def _in_url_userinfo(text: str, start: int) -> bool:
    """Whether ``text[start:]`` follows ``scheme://`` (and maybe ``user:``) directly."""
    head = text[max(0, start - 260) : start]
    i = head.rfind("://")
    if i < 0:
        return False
    userinfo = head[i + 3 :]
    return not any(ch.isspace() or ch in "/@" for ch in userinfo)


def find_emails(text: str, out: list[Hit]) -> None:
    for m in capped(_EMAIL.finditer(text)):
        start, end = m.span()
        at = text.index("@", start, end)
        while start < at and text[start] == ".":
            start += 1
        local, domain = text[start:at], text[at + 1 : end]
        if not local or local.endswith(".") or ".." in local:
            continue
        labels = domain.split(".")
        tld = labels[-1]
        if not (2 <= len(tld) <= 24 and tld.isalpha()) or tld.lower() in _FILE_EXTENSIONS:
            continue
        if any(not label or label[0] == "-" or label[-1] == "-" for label in labels):
            continue
        if reserved_domain(domain) or local.lower() == "git":
            continue
        if _in_url_userinfo(text, start):
            continue
        out.append(hit(start, end, "pii", "email"))
