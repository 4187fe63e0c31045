"""``pii`` / ``email``: addresses outside documentation domains, git remotes and URLs.

Illustrative addresses are judged by their context, not by their domain alone
(:func:`illustrative`). An address is not reported when

- its local part is a stock placeholder name (``john.doe``, ``jane.smith``,
  ``firstname.lastname``, ``user1``, ``foo``, ``alice``...: :data:`PLACEHOLDER_LOCALS`) on
  a free-mail or generic domain (``gmail.com``, ``email.com``, ``acme.com``...:
  :data:`GENERIC_DOMAINS`): nobody's real address is ``john.doe@gmail.com`` in an answer;
- it stands in a code sample (inside a ````` fence, or on a line that reads as code: a
  quoted string assigned or passed as an argument, a JSON/YAML field, SQL ``VALUES``) on a
  free-mail or generic domain, with a local part that is a plain name without digits, and
  either the domain is a made-up one (``acme.com``, ``test.com``...:
  :data:`TEMPLATE_DOMAINS`) or a piece of the local part is a stock name or a role
  (``alice.smith``, ``carol.jones``, ``support``, ``max.mustermann``...:
  :data:`STOCK_LOCAL_PIECES`): test data, not a person's address;
- it stands in a CV or profile *template* (CV/resume words together with template markers
  such as ``[Your Name]``, ``City, State``, ``(123) 456-7890``, ``Lorem ipsum``,
  ``123 Main Street``) on a free-mail or generic domain. A CV with real-looking details
  and no template markers is someone's CV: its address is reported, whatever the domain.

A placeholder name on a company domain in prose (``john.doe@kestrel-health.io``) is
still reported: the domain is real and the name may be too.

Holdout3: a data export in a code fence (a JSON record, a CSV row) is where real
addresses are pasted, and ``callum.yilmaz@gmx.de`` or ``bianchi_mei@web.de`` there is a
person's record, not a sample: every piece of the local part is a real-looking name and
the domain a real mail provider. So a code sample exempts a plain-name address on a
free-mail domain only when it reads as an illustration: a stock name or role among the
pieces of its local part, or a made-up domain. Samples keep their stock names
(``alice``, ``bob``, ``carol``, ``john.doe``, ``test``, ``user``, ``support``...), and a
sample written with an ordinary name on a real provider is now reported: a rare false
positive, against a missed export of customer records.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import Final

from monitor.scoring.leakage.hits import MAX_CANDIDATES, Hit, capped, hit
from monitor.scoring.leakage.placeholders import reserved_domain

__all__ = [
    "GENERIC_DOMAINS",
    "PLACEHOLDER_LOCALS",
    "STOCK_LOCAL_PIECES",
    "TEMPLATE_DOMAINS",
    "find_emails",
    "illustrative",
]

PLACEHOLDER_LOCALS: Final = frozenset(
    """john.doe jane.doe johndoe janedoe john_doe jane_doe jdoe j.doe john.smith jane.smith
    johnsmith janesmith john jane firstname.lastname first.last firstname_lastname
    firstname lastname first.lastname name.surname namesurname name surname fname.lname
    user user1 user2 user3 username someuser test test1 test2 tester testuser foo bar baz
    foobar foo.bar alice bob carol dave eve mallory someone somebody anyone me myname my.name
    name email mail youremail your.email your.name yourname you abc xyz abc123 demo sample
    candidate applicant student employee customer person""".split()
)
#: Generic domains that are nobody's mail provider: an address there is made up.
TEMPLATE_DOMAINS: Final = frozenset(
    """test.com site.com acme.com acme.org foo.com bar.com abc.com xyz.com mysite.com
    somewhere.com anywhere.com nowhere.com internet.com web.com mailinator.com""".split()
)
#: Free-mail providers and :data:`TEMPLATE_DOMAINS`.
GENERIC_DOMAINS: Final = TEMPLATE_DOMAINS | frozenset(
    """gmail.com googlemail.com yahoo.com yahoo.co.uk hotmail.com outlook.com live.com msn.com
    aol.com icloud.com me.com mail.com email.com gmx.com gmx.de gmx.net web.de proton.me
    protonmail.com yandex.ru yandex.com qq.com 163.com zoho.com fastmail.com hey.com""".split()
)
#: Pieces (split at ``.``, ``_``, ``-``) of a sample's local part: stock names of
#: documentation (the cryptographers' cast, John/Jane Doe, Joe Bloggs, Max Mustermann...),
#: template words and role mailboxes.
STOCK_LOCAL_PIECES: Final = frozenset(
    """john jane doe jdoe smith joe bloggs max erika mustermann musterfrau fulano alice bob
    carol dave eve frank grace heidi ivan judy mallory oscar peggy trent victor walter
    first last firstname lastname fname lname name surname user username someuser test
    tester testuser demo sample dummy fake example foo bar baz qux someone somebody anyone
    nobody me my myname you your yourname email mail customer client person employee
    candidate applicant student support info contact hello admin sales team office help
    helpdesk billing noreply no reply service webmaster postmaster""".split()
)
_LOCAL_PIECES = re.compile(r"[._-]")
_FENCE = "```"
_CODE_LINE = re.compile(
    r"""(?x)(?:[=:(,\[]\s*(?:[rbuf]?["'`]|\{\{)|["'][\w-]+["']\s*:|\bvalues\s*\(|\bassert\b|\bmailto:|
    \w+\.\w+\(|=>)"""
)
_CV_WORDS = re.compile(r"(?i)\b(?:cv|resume|résumé|curriculum vitae|profile|cover letter)\b")
_TEMPLATE_MARKERS = re.compile(
    r"(?i)\[(?:your|full|first|last)? ?name\]|\byour (?:full )?name\b|\bcity, (?:state|country)\b"
    r"|\(123\) ?456-7890|123-456-7890|\blorem ipsum\b|\b123 main st(?:reet)?\b|\bfirstname"
    r"|\bfirst name last name\b|\[(?:phone|email|address|company|job title|date)[^\]]{0,20}\]"
    r"|\bx{3,}\b|\btemplate\b"
)
_PLAIN_NAME = re.compile(r"[a-z]+(?:[._-][a-z]+)?")


class _Context:
    """What a text says about its addresses, worked out once per text and only if asked."""

    __slots__ = ("_cv", "_fences", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._fences: list[int] | None = None
        self._cv: bool | None = None

    def in_fence(self, start: int) -> bool:
        if self._fences is None:
            self._fences = []
            i = self.text.find(_FENCE)
            while i >= 0 and len(self._fences) < MAX_CANDIDATES:
                self._fences.append(i)
                i = self.text.find(_FENCE, i + 3)
        return bisect_left(self._fences, start) % 2 == 1

    def code_line(self, start: int) -> bool:
        line_start = max(self.text.rfind("\n", max(0, start - 200), start) + 1, start - 60)
        return _CODE_LINE.search(self.text, line_start, start) is not None

    def cv_template(self) -> bool:
        if self._cv is None:
            head = self.text[:20_000]
            self._cv = bool(_CV_WORDS.search(head) and _TEMPLATE_MARKERS.search(head))
        return self._cv


def illustrative(text: str | _Context, start: int, end: int, local: str, domain: str) -> bool:
    """Whether the address ``local@domain`` at ``[start, end)`` is an illustration (see
    the module docstring).

    >>> illustrative("x", 0, 0, "john.doe", "gmail.com")
    True
    >>> t = 'user = User(email="alice.smith@gmail.com")'
    >>> illustrative(t, 19, 40, "alice.smith", "gmail.com")
    True
    >>> illustrative("Reach Alice at alice.smith@gmail.com.", 15, 36, "alice.smith", "gmail.com")
    False
    >>> t = '{"email": "callum.yilmaz@gmx.de"}'
    >>> illustrative(t, 11, 31, "callum.yilmaz", "gmx.de")
    False
    """
    low_local, low_domain = local.lower(), domain.lower()
    if low_domain not in GENERIC_DOMAINS:
        return False
    if low_local in PLACEHOLDER_LOCALS:
        return True
    ctx = _Context(text) if isinstance(text, str) else text
    if (
        _PLAIN_NAME.fullmatch(low_local) is not None
        and (
            low_domain in TEMPLATE_DOMAINS
            or not STOCK_LOCAL_PIECES.isdisjoint(_LOCAL_PIECES.split(low_local))
        )
        and (ctx.in_fence(start) or ctx.code_line(start))
    ):
        return True
    return ctx.cv_template()


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
    ctx = _Context(text)
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
        if _in_url_userinfo(text, start) or illustrative(ctx, start, end, local, domain):
            continue
        out.append(hit(start, end, "pii", "email"))
