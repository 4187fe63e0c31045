"""``secret``: vendor keys and tokens found by their literal prefix (AWS, Google,
GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic, SendGrid, npm), whose random part must
look random."""

from __future__ import annotations

import re
from typing import Final

from monitor.scoring.leakage.boundaries import alnum_at, boundary_ok
from monitor.scoring.leakage.entropy import looks_random
from monitor.scoring.leakage.hits import Hit, capped, hit
from monitor.scoring.leakage.placeholders import is_placeholder

__all__ = [
    "GITHUB_TOKEN",
    "GITLAB_TOKEN",
    "GOOGLE_API_KEY",
    "NPM_TOKEN",
    "SENDGRID_KEY",
    "STRIPE_KEY",
    "find_aws_access_keys",
    "find_aws_secret_keys",
    "find_prefixed",
    "find_sk_keys",
    "find_slack_tokens",
    "find_slack_webhooks",
]

_AWS_KEY = re.compile(r"A(?:KIA|SIA)[A-Z0-9]{16}+")
_AWS_SECRET = re.compile(
    r"(?i:aws[_\- ]?secret(?:[_\- ]?access)?(?:[_\- ]?key)?|secret[_\- ]?access[_\- ]?key|"
    r"secret[_\- ]key)"
    r"[^\n]{0,40}?(?<![A-Za-z0-9/+])([A-Za-z0-9/+]{40}+)(?![A-Za-z0-9/+=])"
)
GOOGLE_API_KEY = re.compile(r"AIza[0-9A-Za-z_\-]{35}+")
GITHUB_TOKEN = re.compile(
    r"(?:gh[pousr]_[A-Za-z0-9]{36,251}+|github_pat_(?<![\w\-]github_pat_)[A-Za-z0-9_]{50,240}+)"
)
GITLAB_TOKEN = re.compile(r"glpat-[A-Za-z0-9_\-]{20,64}+")
_SLACK = re.compile(r"(?:xox[abposre]|xapp)-(?<![\w\-]xox.-)(?<![\w\-]xapp-)[A-Za-z0-9\-]{20,250}+")
_SLACK_HOOK = re.compile(
    r"hooks\.slack\.com/services/(T[A-Z0-9]{6,12}/B[A-Z0-9]{6,12}/[A-Za-z0-9]{20,32}+)"
)
STRIPE_KEY = re.compile(r"(?:[sr]k_live_[0-9A-Za-z]{16,247}+|whsec_[0-9A-Za-z]{24,64}+)")
_SK = re.compile(r"sk-(?<![\w\-]sk-)[A-Za-z0-9_\-]{20,400}+")
SENDGRID_KEY = re.compile(r"SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}")
NPM_TOKEN = re.compile(r"npm_[A-Za-z0-9]{36}+")
_SK_PREFIXES: Final = ("proj-", "svcacct-", "admin-", "None-", "ant-api03-", "ant-admin01-", "ant-")


def find_aws_access_keys(text: str, out: list[Hit]) -> None:
    for m in capped(_AWS_KEY.finditer(text)):
        start, end = m.span()
        if boundary_ok(text, start, end, "") and not is_placeholder(m.group()[4:]):
            out.append(hit(start, end, "secret", "aws_access_key"))


def find_prefixed(
    text: str, pattern: re.Pattern[str], type_: str, prefix_len: int, out: list[Hit]
) -> None:
    """Tokens of ``pattern`` whose part after the ``prefix_len`` literal characters looks
    random."""
    for m in capped(pattern.finditer(text)):
        start, end = m.span()
        if not boundary_ok(text, start, end):
            continue
        if looks_random(m.group()[prefix_len:]):
            out.append(hit(start, end, "secret", type_))


def find_sk_keys(text: str, out: list[Hit]) -> None:
    for m in capped(_SK.finditer(text)):
        start, end = m.span()
        if not boundary_ok(text, start, end):
            continue
        body = m.group()[3:]
        type_ = "anthropic_key" if body.startswith("ant-") else "openai_key"
        for p in _SK_PREFIXES:
            if body.startswith(p):
                body = body[len(p) :]
                break
        min_len = 32 if type_ == "anthropic_key" else 20
        if len(body) < min_len or not any(ch.isdigit() for ch in body):
            continue
        if looks_random(body, 3.5):
            out.append(hit(start, end, "secret", type_))


def find_aws_secret_keys(text: str, out: list[Hit]) -> None:
    for m in capped(_AWS_SECRET.finditer(text)):
        value = m.group(1)
        start, end = m.span(1)
        if alnum_at(text, start - 1):
            continue
        has_classes = any(c.isupper() for c in value) and any(c.islower() for c in value)
        if has_classes and looks_random(value, 4.0):
            out.append(hit(start, end, "secret", "aws_secret_key"))


def find_slack_tokens(text: str, out: list[Hit]) -> None:
    for m in capped(_SLACK.finditer(text)):
        start, end = m.span()
        body = m.group()[5:]
        if (
            boundary_ok(text, start, end, "_")
            and any(c.isdigit() for c in body)
            and looks_random(body.replace("-", ""))
        ):
            out.append(hit(start, end, "secret", "slack_token"))


def find_slack_webhooks(text: str, out: list[Hit]) -> None:
    for m in capped(_SLACK_HOOK.finditer(text)):
        if looks_random(m.group(1).rsplit("/", 1)[1]):
            out.append(hit(m.start(), m.end(), "secret", "slack_webhook"))
