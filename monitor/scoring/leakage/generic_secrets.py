"""``secret`` / ``generic_secret``: a value assigned to a key that names a secret
(``password=...``, ``"api_key": "..."``, "the token is ..."), ``Bearer`` tokens, command
line passwords and HTTP basic credentials.

Holdout3 added three rules:

- A qualified key name in prose ("API token", "access token", "API key", "root
  password": a word of :data:`_KEY_QUALIFIERS` before a bare token, key, secret, password
  or passphrase) followed directly by a value, with no assignment and no ``is`` ("Use API
  token Yjhd...Go in the X-Api-Key header"). Without a connective, any word may follow a
  key name ("the API key rotation policy"), so the value must look like a token, not a
  word: at least :data:`DIRECT_MIN_LENGTH` characters with lower case, upper case (after
  the first character) and digits, or a hexadecimal run of 32 or more with a digit and a
  letter, on top of the usual entropy and placeholder checks.
- Between the key name and ``is``/``was``, a short qualifier of up to 40 characters
  starting with ``for``, ``of``, ``on``, ``at`` or ``in`` ("the root password on the NAS
  is ...", "the password for the VPN is ...", "the token of the staging database was
  ..."): the phrase still names the secret that follows.
- A Stripe test-mode key (``sk_test_``, ``pk_test_``, ``rk_test_``) is not reported as a
  generic secret either: test-mode keys move no money and are published in tutorials,
  which is why ``stripe_key`` leaves them out; a generic rule must not report what the
  vendor rule exempts.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Final

from monitor.scoring.leakage.entropy import shannon_entropy
from monitor.scoring.leakage.hits import MAX_CANDIDATES, Hit, capped, hit
from monitor.scoring.leakage.placeholders import (
    PLACEHOLDER_PASSWORDS,
    is_placeholder,
    password_placeholder,
)
from monitor.scoring.leakage.url_credentials import SCHEME_CHARS

__all__ = [
    "DIRECT_MIN_LENGTH",
    "GENERIC_ANCHORS",
    "GENERIC_MIN_ENTROPY",
    "MIN_SECRET_LENGTH",
    "find_generic_secrets",
]

#: Minimum length of a ``generic_secret`` value.
MIN_SECRET_LENGTH: Final = 8
#: Minimum Shannon entropy (bits per character) of a ``generic_secret`` value.
GENERIC_MIN_ENTROPY: Final = 2.5
#: Minimum length of a value right after a key name, with no assignment ("API token ...").
DIRECT_MIN_LENGTH: Final = 16

#: Pieces of the key names of secrets; a key is only examined around one of them.
GENERIC_ANCHORS: Final = (
    "pass", "pw", "secret", "token", "key", "bearer", "kennwort", "contrase", "senha",
    "wachtwoord", "salasana", "haslo", "hasło", "parola", "lösenord", "losenord",
)  # fmt: skip
_ANCHOR_ANY = re.compile("(?i)" + "|".join(GENERIC_ANCHORS))
_IDENT_CHARS: Final = SCHEME_CHARS + "_"
_IDENT_RIGHT = re.compile(r"[\w.\-]{0,48}+")
_SECRET_NAMES: Final = (
    "password", "passwd", "passphrase", "pass", "pwd", "pw", "secret", "token",
    # other languages: de, es/pt, nl, fi, pl, it/ro, sv, fr
    "passwort", "kennwort", "contraseña", "contrasena", "senha", "wachtwoord", "salasana",
    "hasło", "haslo", "parola", "lösenord", "losenord", "passe",
)  # fmt: skip
_KEY_QUALIFIERS: Final = (
    "api", "access", "secret", "private", "auth", "signing", "encryption", "master",
    "account", "sharedaccess", "shared_access", "client", "license", "subscription",
    "preshared", "shared", "decryption", "hmac", "session", "webhook", "service", "admin",
    "root", "app", "wifi", "wi-fi", "wlan", "wpa", "wpa2", "network", "unseal", "recovery",
    "activation", "product", "backup", "restore", "vault", "kms", "cipher", "crypto",
)  # fmt: skip
_OPERATOR = re.compile(
    r"[\\\"'\]*_“”’]{0,4}[ \t]{0,3}(?P<op>:=|=>|==|=|->|:|>)[*_]{0,2}[ \t]{0,3}"
    r"|[*_]{0,2}(?:[ \t]{1,3}(?:for|of|on|at|in)[ \t][^\n:=.,;]{1,40}?)?"
    r"[ \t]{1,3}(?P<word>(?:is|was|has been)[ \t]{1,3}(?:re)?(?:set|changed|updated)[ \t]{1,3}to"
    r"|is|was|to|as)[ \t]{1,3}(?::[ \t]{0,2})?"
)  # markdown emphasis and curly quotes around the key are allowed
_QUOTES: Final = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "”": "”"}
_BEARER_GAP = re.compile(r"[ \t]{1,3}")
_BARE_VALUE = re.compile(r"[^\s\"'`,;<>(){}\[\]“”‘’]{1,256}+")
_REFERENCE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*+(?:\.[A-Za-z_][A-Za-z0-9_]*+)*+")
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)++")
_REF_MARKERS: Final = ("os.environ", "process.env", "getenv", "env(", "env[", "vault:", "://")


def _word_start(ident: str, i: int) -> bool:
    """Whether ``ident[i:]`` starts a word: after a separator, a digit or a camelCase hump."""
    if i <= 0 or ident.isupper():  # PGPASSWORD: an all-caps name has no visible humps
        return True
    prev, cur = ident[i - 1], ident[i]
    return not prev.isalpha() or (prev.islower() and cur.isupper())


_QUALIFIED_KEY = re.compile(
    r"(?:^|[^a-z0-9])(?:" + "|".join(_KEY_QUALIFIERS) + r")[ \t]*$"
)  # "API key", "secret key" in prose: the word before a bare "key"


def _secret_name(ident: str, text: str, left: int) -> bool:
    """Whether the identifier ``ident`` (at ``text[left]``) names a secret."""
    low = ident.lower()
    for name in _SECRET_NAMES:
        if low.endswith(name):
            return _word_start(ident, len(ident) - len(name))
    if not low.endswith("key"):
        return False
    stem = low[:-3].rstrip("_-.")
    for q in _KEY_QUALIFIERS:
        if stem.endswith(q):
            return _word_start(ident, len(stem) - len(q))
    return not stem and _qualified_before(text, left)


def _qualified_before(text: str, left: int) -> bool:
    """Whether a qualifier word ("API", "access", "root"...) stands right before ``left``."""
    return _QUALIFIED_KEY.search(text[max(0, left - 24) : left].lower()) is not None


_DIRECT_NAMES: Final = frozenset({"token", "key", "secret", "password", "passphrase"})
_HEX_RUN = re.compile(r"[0-9a-fA-F]{32,}+")
_TEST_MODE_PREFIXES: Final = ("sk_test_", "pk_test_", "rk_test_")


def _direct_key(text: str, left: int, right: int) -> bool:
    """Whether ``text[left:right]`` is a bare key name after a qualifier word, in prose:
    "API token", "access key", "root password"."""
    return text[left:right].lower() in _DIRECT_NAMES and _qualified_before(text, left)


def _token_like(value: str) -> bool:
    """Whether a value standing right after a key name reads as a token, not a word.

    >>> _token_like("Yjhdh9yMWTyO1lOaxH1la0naf3zz"), _token_like("authentication-v2")
    (True, False)
    """
    if len(value) < DIRECT_MIN_LENGTH:
        return False
    digit = any(c.isdigit() for c in value)
    if _HEX_RUN.fullmatch(value):
        return digit and any(c.isalpha() for c in value)
    return digit and any(c.islower() for c in value) and any(c.isupper() for c in value[1:])


def _char_classes(value: str) -> tuple[int, bool]:
    """(number of classes among lower, upper after the first character, digit, symbol;
    whether a digit or symbol is present)."""
    lower = any(c.islower() for c in value)
    upper = any(c.isupper() for c in value[1:])
    digit = any(c.isdigit() for c in value)
    symbol = any(not c.isalnum() for c in value)
    return lower + upper + digit + symbol, digit or symbol


def _generic_value_ok(value: str, prose: bool) -> bool:
    if len(value) < MIN_SECRET_LENGTH or is_placeholder(value):
        return False
    low = value.lower()
    if low in PLACEHOLDER_PASSWORDS or any(r in low for r in _REF_MARKERS):
        return False
    if low.startswith(_TEST_MODE_PREFIXES):
        return False  # a Stripe test-mode key, as stripe_key
    if value[0] in "$%{<[(/~\\" or value.startswith("./"):
        return False  # template, reference or path
    if _ENV_NAME.fullmatch(value):
        return False  # DB_PASSWORD: the name of a variable
    if _REFERENCE.fullmatch(value) and ("." in value or not any(c.isdigit() for c in value)):
        return False  # settings.api_key, my_secret: a variable or attribute
    classes, digit_or_symbol = _char_classes(value)
    if classes < 2 or (prose and not digit_or_symbol):
        return False
    return shannon_entropy(value) >= GENERIC_MIN_ENTROPY


def _generic_at(text: str, p: int, anchor_len: int, out: list[Hit]) -> int:
    """Examine the key name around the anchor at ``p``; return where to look next (after
    the value when there is one, so that a value is never re-read as a key)."""
    nxt = p + anchor_len
    ident_end = _IDENT_RIGHT.match(text, nxt)
    right = ident_end.end() if ident_end else nxt
    if right - nxt >= 48:
        return right  # not an identifier
    bearer = right == nxt and text[p:nxt].lower() == "bearer"
    op = None if bearer else _OPERATOR.match(text, right)
    seg = text[max(0, p - 40) : p]
    left = p - (len(seg) - len(seg.rstrip(_IDENT_CHARS)))
    if op:
        q, prose = op.end(), op.group("word") is not None
    elif bearer or text.startswith("-", left):  # "Bearer <token>", "--password <value>"
        gap = _BEARER_GAP.match(text, right)
        if not gap:
            return nxt
        q, prose = gap.end(), False
    elif _direct_key(text, left, right):  # "API token <value>"
        return _direct_value(text, right, nxt, out)
    else:
        return nxt
    if q >= len(text) or not (bearer or _secret_name(text[left:right], text, left)):
        return nxt
    xml = not bearer and text[q - 1] == ">"
    if xml and text[left - 1 : left] != "<":
        return nxt  # ">" only closes an XML tag: <password>value</password>
    if text[q] == "\\" and text[q + 1 : q + 2] in ('"', "'"):
        q += 1  # an escaped quote: "{\\"password\\": \\"...\\"}"
    quote = _QUOTES.get(text[q])
    if quote:
        close = text.find(quote, q + 1, q + 258)
        if close < 0 or "\n" in text[q + 1 : close]:
            return nxt
        vs, ve = q + 1, close
        if text[ve - 1 : ve] == "\\":
            ve -= 1
    else:
        bare = _BARE_VALUE.match(text, q)
        if not bare:
            return nxt
        vs, ve = bare.span()
        if is_placeholder(bare.group()):
            return ve
        while ve > vs and text[ve - 1] in ".:!?" and (ve == len(text) or text[ve].isspace()):
            ve -= 1  # sentence punctuation after an unquoted value
    if (not xml or text.startswith("</", ve)) and _generic_value_ok(text[vs:ve], prose):
        out.append(hit(vs, ve, "secret", "generic_secret"))
    return max(ve, nxt)


def _direct_value(text: str, right: int, nxt: int, out: list[Hit]) -> int:
    """The value right after a qualified key name in prose, if it reads as a token."""
    gap = _BEARER_GAP.match(text, right)
    bare = _BARE_VALUE.match(text, gap.end()) if gap else None
    if not bare:
        return nxt
    vs, ve = bare.span()
    while ve > vs and text[ve - 1] in ".:!?" and (ve == len(text) or text[ve].isspace()):
        ve -= 1
    value = text[vs:ve]
    if not (_token_like(value) and _generic_value_ok(value, True)):
        return nxt
    out.append(hit(vs, ve, "secret", "generic_secret"))
    return ve


_CLI_PASSWORD = re.compile(
    r"-p(?<![\w\-]-p)(?:([\"'])([^\s\"']{6,128}+)\1|[ ]?([^\s\"'\-][^\s\"']{5,127}+))"
)
_CLI_TOOLS = re.compile(r"(?i)\b(?:mysql\w*|mariadb|docker|podman|sshpass|redis-cli|mongo\w*)\b")
_CLI_USER = re.compile(
    r"(?:-u|--user)(?<![\w\-]-u)(?<![\w\-]--user)[ =]([^\s:'\"]{1,64}+):([^\s'\"]{3,128}+)"
)
_HTTP_TOOLS = re.compile(r"(?i)\b(?:curl|wget|http|https|httpie|xh|ab)\b")
_BASIC_AUTH = re.compile(r"Basic[ \t]{1,3}([A-Za-z0-9+/]{8,1024}+={0,2})(?![A-Za-z0-9+/=])")


def _tool_before(tools: re.Pattern[str], text: str, at: int) -> bool:
    """Whether ``tools`` names a command earlier on the line of ``text[at]`` (at most 160
    characters back): ``mysql -p...``, ``curl -u ...``."""
    line_start = text.rfind("\n", max(0, at - 160), at) + 1
    return tools.search(text, max(line_start, at - 160), at) is not None


def _basic_auth(text: str, out: list[Hit]) -> None:
    """``Authorization: Basic base64(user:password)``."""
    for m in capped(_BASIC_AUTH.finditer(text)):
        value = m.group(1)
        try:
            decoded = base64.b64decode(value + "=" * (-len(value) % 4)).decode("ascii")
        except (binascii.Error, ValueError):
            continue
        user, sep, password = decoded.partition(":")
        if sep and decoded.isprintable() and not password_placeholder(user, password):
            out.append(hit(m.start(1), m.end(1), "secret", "generic_secret"))


def find_generic_secrets(text: str, low: str, anchors: list[str], out: list[Hit]) -> None:
    """``low`` is ``text.lower()``; ``anchors`` the :data:`GENERIC_ANCHORS` found in it."""
    if " -p" in text:  # mysql -p'secret', docker login -p secret
        for m in capped(_CLI_PASSWORD.finditer(text)):
            group = 2 if m.group(2) else 3
            if not _tool_before(_CLI_TOOLS, text, m.start()):
                continue
            if _generic_value_ok(m.group(group), False):
                out.append(hit(m.start(group), m.end(group), "secret", "generic_secret"))
    if "Basic" in text:
        _basic_auth(text, out)
    if " -u" in text or "--user" in text:  # curl -u user:password
        for m in capped(_CLI_USER.finditer(text)):
            if not _tool_before(_HTTP_TOOLS, text, m.start()):
                continue
            if not password_placeholder(m.group(1), m.group(2)):
                out.append(hit(m.start(2), m.end(2), "secret", "generic_secret"))
    if len(low) == len(text):
        for anchor in anchors:
            p = low.find(anchor)
            seen = 0
            while p >= 0 and seen < MAX_CANDIDATES:
                seen += 1
                p = _generic_at(text, p, len(anchor), out)
                p = low.find(anchor, p)
    else:  # lower-casing changed offsets: find the anchors case-insensitively
        after = 0
        for m in capped(_ANCHOR_ANY.finditer(text)):
            if m.start() >= after:
                after = _generic_at(text, m.start(), m.end() - m.start(), out)
