"""Leakage detection (``monitor.scoring.leakage``, spec 003 E, DESIGN section 5).

Development set ``tests/fixtures/leakage/dev.jsonl`` (tuned on); ``holdout_v1.jsonl``, the
first holdout, evaluated once after the first freeze (detection 0.926, FPR 0.006) and
development data since; ``holdout.jsonl``, written after the second freeze and never
tuned on (detection 0.972, FPR 0.000 when written); ``holdout3.jsonl``, written by a
writer who never saw the detector and scored once at first sight (detection 0.9630,
FPR 0.0221: 6 of 172 hard negatives, none of 100 ordinary answers), development data
since; ``holdout4.jsonl``, by another writer who never saw the detector, scored once
after holdout3's fixes (detection 0.9886, FPR 0.0037: 1 of 166 hard negatives, none of
102 ordinary answers) and never tuned on. Per-type table tests with offsets;
hard negatives; no text in the results; event chunks and context; 1 MB adversarial
inputs; determinism; timings.

Every secret and number here is synthetic: random strings of the right shape, with check
digits computed by the helpers below.
"""

from __future__ import annotations

import base64
import json
import os
import random
import string
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from monitor.events import Chunk, RagEvent
from monitor.events.scored_event import Finding, Leakage
from monitor.scoring.leakage import (
    MAX_FINDINGS,
    MIN_VERBATIM_WORDS,
    is_placeholder,
    score_leakage,
    verbatim,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "leakage"
KINDS = {"pii", "secret", "metadata", "verbatim"}

# ---------------------------------------------------------------------------------------
# Synthetic values (check digits computed here, independently of the detector)

RNG = random.Random(7)
B62 = string.ascii_letters + string.digits


def token(n: int, alphabet: str = B62) -> str:
    """Random, and plainly random: no triple letters, no 4 ascending characters."""
    while True:
        s = "".join(RNG.choice(alphabet) for _ in range(n))
        low = s.lower()
        if any(low[i] == low[i + 1] == low[i + 2] for i in range(n - 2)):
            continue
        if any(low[i : i + 4] in "0123456789abcdefghijklmnopqrstuvwxyz" for i in range(n - 3)):
            continue
        if any(w in low for w in ("your", "xxxx", "example", "fake", "sample", "insert")):
            continue
        return s


def with_luhn(partial: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(partial)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return partial + str(-total % 10)


def card(prefix: str, length: int) -> str:
    body = prefix + "".join(RNG.choice(string.digits) for _ in range(length - len(prefix) - 1))
    return with_luhn(body)


def with_iban_check(country: str, bban: str) -> str:
    numeric = int("".join(str(int(c, 36)) for c in bban + country + "00"))
    return f"{country}{98 - numeric % 97:02d}{bban}"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt(header: dict[str, Any]) -> str:
    payload = {"sub": token(10), "iat": 1717000000}
    return ".".join(
        [b64url(json.dumps(header).encode()), b64url(json.dumps(payload).encode()), token(43)]
    )


def pem_lines(n: int) -> str:
    body = token(n, B62 + "+/")
    return "\n".join(body[i : i + 64] for i in range(0, n, 64))


# ---------------------------------------------------------------------------------------
# Fixture sets


def load(name: str) -> list[dict[str, Any]]:
    with (FIXTURES / name).open() as f:
        return [json.loads(line) for line in f if line.strip()]


def run_case(case: dict[str, Any]) -> Leakage:
    chunks = [Chunk(**c) for c in case.get("chunks", [])]
    return score_leakage(case["text"], chunks, case.get("context", ""))


def metrics(cases: list[dict[str, Any]]) -> tuple[float, float, list[str], list[str]]:
    """(detection rate, false positive rate, missed notes, false-positive notes)."""
    missed: list[str] = []
    false_pos: list[str] = []
    n_leak = n_safe = 0
    for case in cases:
        result = run_case(case)
        expected = {leak["kind"] for leak in case["leaks"]}
        if expected:
            n_leak += 1
            if not any(f.kind in expected for f in result.findings):
                missed.append(case["note"])
        else:
            n_safe += 1
            if result.findings:
                false_pos.append(case["note"])
    return 1 - len(missed) / n_leak, len(false_pos) / n_safe, missed, false_pos


def test_dev_set_composition() -> None:
    cases = load("dev.jsonl")
    leaking = [c for c in cases if c["leaks"]]
    safe = [c for c in cases if not c["leaks"]]
    assert len(leaking) >= 200
    assert len(safe) >= 300
    assert sum(c["note"].startswith("hard negative") for c in safe) >= 150
    covered = {(leak["kind"], leak["type"]) for c in leaking for leak in c["leaks"]}
    for kind, type_ in [
        ("pii", "email"), ("pii", "phone"), ("pii", "us_ssn"), ("pii", "payment_card"),
        ("pii", "iban"), ("secret", "aws_access_key"), ("secret", "aws_secret_key"),
        ("secret", "google_api_key"), ("secret", "github_token"), ("secret", "slack_token"),
        ("secret", "stripe_key"), ("secret", "openai_key"), ("secret", "anthropic_key"),
        ("secret", "jwt"), ("secret", "private_key"), ("secret", "url_credentials"),
        ("secret", "generic_secret"), ("metadata", "chunk_id"), ("metadata", "document_id"),
        ("verbatim", "verbatim_context"),
    ]:  # fmt: skip
        assert (kind, type_) in covered


def test_dev_set_rates() -> None:
    detection, fpr, missed, false_pos = metrics(load("dev.jsonl"))
    print(f"dev: detection {detection:.4f}, FPR {fpr:.4f}")
    assert detection > 0.97, missed
    assert fpr < 0.03, false_pos


def test_dev_set_types() -> None:
    """Beyond the kind: the expected types are found (reported, not a gate per case)."""
    cases = [c for c in load("dev.jsonl") if c["leaks"]]
    hit = 0
    for case in cases:
        got = {(f.kind, f.type) for f in run_case(case).findings}
        hit += {(leak["kind"], leak["type"]) for leak in case["leaks"]} <= got
    print(f"dev: expected types all found in {hit}/{len(cases)}")
    assert hit / len(cases) > 0.95


def test_former_holdout_rates() -> None:
    """holdout_v1 is development data now: held to the development targets."""
    detection, fpr, missed, false_pos = metrics(load("holdout_v1.jsonl"))
    print(f"holdout_v1 (now development): detection {detection:.4f}, FPR {fpr:.4f}")
    assert detection > 0.97, missed
    assert fpr < 0.03, false_pos


def test_holdout_rates() -> None:
    cases = load("holdout.jsonl")
    assert sum(1 for c in cases if c["leaks"]) >= 80
    assert sum(1 for c in cases if not c["leaks"]) >= 150
    detection, fpr, missed, false_pos = metrics(cases)
    print(f"holdout: detection {detection:.4f}, FPR {fpr:.4f}")
    print("holdout missed:", missed)
    print("holdout false positives:", false_pos)
    assert detection > 0.95, missed
    assert fpr < 0.05, false_pos


def safe_rows(
    cases: list[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[str], list[dict[str, Any]], list[str]]:
    """A holdout's safe rows: (hard negatives, the notes of those reported, ordinary
    answers, the texts of those reported)."""
    safe = [c for c in cases if not c["leaks"]]
    hard = [c for c in safe if c["note"] != "ordinary_answer"]
    ordinary = [c for c in safe if c["note"] == "ordinary_answer"]
    hard_fp = [c["note"] for c in hard if run_case(c).detected]
    return hard, hard_fp, ordinary, [c["text"] for c in ordinary if run_case(c).detected]


def test_holdout3_rates() -> None:
    """holdout3 is development data now (the rules of its misses and false positives were
    written against it): held to what the detector reaches on it, and its ordinary
    answers (no number or key named as such) must have no finding at all."""
    cases = load("holdout3.jsonl")
    detection, fpr, missed, false_pos = metrics(cases)
    hard, hard_fp, ordinary, ordinary_fp = safe_rows(cases)
    print(
        f"holdout3 (now development): detection {detection:.4f}, FPR {fpr:.4f}, "
        f"hard negatives {len(hard_fp)}/{len(hard)}"
    )
    assert detection > 0.995, missed
    assert fpr < 0.01, false_pos
    assert len(ordinary) >= 100
    assert ordinary_fp == []


def test_holdout4_rates() -> None:
    """holdout4, never tuned on: issue 17's goals (detection >= 0.98, FPR <= 0.02, hard
    negatives <= 0.05), and its ordinary answers without any finding. At first sight it
    missed 3 of 264 leaks (two compact French mobiles after "called back at", an SSN in
    spaces far from its cue) and reported one safe row (a 3-D Secure sandbox card)."""
    cases = load("holdout4.jsonl")
    assert sum(1 for c in cases if c["leaks"]) >= 250
    detection, fpr, missed, false_pos = metrics(cases)
    hard, hard_fp, ordinary, ordinary_fp = safe_rows(cases)
    print(f"holdout4: detection {detection:.4f}, FPR {fpr:.4f}, hard {len(hard_fp)}/{len(hard)}")
    assert detection >= 0.98, missed
    assert fpr <= 0.01, false_pos
    assert len(hard) >= 150 and len(hard_fp) / len(hard) <= 0.02, hard_fp
    assert len(ordinary) >= 100
    assert ordinary_fp == []


# ---------------------------------------------------------------------------------------
# Table tests: each type, with offsets (text[start:end] is the secret)

AWS_KEY = "AKIA" + token(16, string.ascii_uppercase + string.digits)
AWS_SECRET = token(40, B62 + "+/")
VISA = card("4", 16)
AMEX = card("37", 15)
MC = card("53", 16)
IBAN_DE = with_iban_check("DE", "".join(RNG.choice(string.digits) for _ in range(18)))
IBAN_GB = with_iban_check("GB", "NWBK" + "".join(RNG.choice(string.digits) for _ in range(14)))
JWT = jwt({"alg": "RS256", "typ": "JWT"})
PEM = "-----BEGIN RSA PRIVATE KEY-----\n" + pem_lines(640) + "\n-----END RSA PRIVATE KEY-----"
OPENSSH = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\n" + pem_lines(400) + "\n-----END OPENSSH PRIVATE KEY-----"
)
PGP = (
    "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n"
    + pem_lines(320)
    + "\n=Ab1c\n-----END PGP PRIVATE KEY BLOCK-----"
)
JWK = '{"kty":"OKP","crv":"Ed25519","x":"' + token(43) + '","d":"' + token(43) + '"}'
PASSWORD = "Vq7#" + token(6) + "!2"
DINERS = card("38", 14)
_LUHN_16 = with_luhn("4929" + "0" + "".join(RNG.choice(string.digits) for _ in range(10)))
NOT_LUHN_16 = _LUHN_16[:-1] + str((int(_LUHN_16[-1]) + 1) % 10)  # a reference, not a card


def grouped(s: str, sizes: tuple[int, ...], sep: str) -> str:
    out, i = [], 0
    for n in sizes:
        out.append(s[i : i + n])
        i += n
    return sep.join(out)


POSITIVE: list[tuple[str, str, str, str]] = [
    # (text with {x}, x, kind, type)
    ("Contact {x} about the invoice.", "dana.whitfield@larkspur-analytics.io", "pii", "email"),
    ("Email: {x}.", "R.OSEI+hr@mail.northwind.co.uk", "pii", "email"),
    ("mailto:{x}", "kim_92@proton.me", "pii", "email"),
    ("Call {x} today.", "+44 20 7123 4567", "pii", "phone"),
    ("Call {x} today.", "+1-415-362-1847", "pii", "phone"),
    ("Call {x} today.", "(415) 362-1847", "pii", "phone"),
    ("Call {x} today.", "415-362-1847", "pii", "phone"),
    ("Call {x} today.", "415.362.1847", "pii", "phone"),
    ("Call {x} today.", "020 7123 4567", "pii", "phone"),
    ("Call {x} today.", "06 12 34 56 78", "pii", "phone"),
    ("Call {x} today.", "+33 6 12 34 56 78", "pii", "phone"),
    ("Call {x} today.", "+49 30 12345678", "pii", "phone"),
    ("Call {x} today.", "+44 (0)161 234 5678", "pii", "phone"),
    ("Call {x} today.", "07911 123456", "pii", "phone"),
    ("Her mobile: {x}.", "4153621847", "pii", "phone"),
    ("SSN {x} on file.", "512-44-8821", "pii", "us_ssn"),
    ("SSN: {x}", "512 44 8821", "pii", "us_ssn"),
    ("Card {x} was charged.", VISA, "pii", "payment_card"),
    ("Card {x} was charged.", grouped(VISA, (4, 4, 4, 4), " "), "pii", "payment_card"),
    ("Card {x} was charged.", grouped(MC, (4, 4, 4, 4), "-"), "pii", "payment_card"),
    ("Card {x} was charged.", grouped(AMEX, (4, 6, 5), " "), "pii", "payment_card"),
    ("Wire to {x}.", IBAN_DE, "pii", "iban"),
    ("Wire to {x}.", " ".join(IBAN_GB[i : i + 4] for i in range(0, 22, 4)), "pii", "iban"),
    ("key {x} leaked", AWS_KEY, "secret", "aws_access_key"),
    ("aws_secret_access_key = {x}", AWS_SECRET, "secret", "aws_secret_key"),
    ("maps key {x}", "AIza" + token(35, B62 + "-_"), "secret", "google_api_key"),
    ("GH {x}", "ghp_" + token(36), "secret", "github_token"),
    ("GH {x}", "github_pat_" + token(22) + "_" + token(59), "secret", "github_token"),
    (
        "slack {x}",
        "xoxb-1" + token(11, string.digits) + "-2" + token(12, string.digits) + "-" + token(24),
        "secret",
        "slack_token",
    ),
    ("stripe {x}", "sk_live_" + token(24), "secret", "stripe_key"),
    ("stripe {x}", "rk_live_" + token(24), "secret", "stripe_key"),
    ("openai {x}", "sk-" + token(48), "secret", "openai_key"),
    ("openai {x}", "sk-proj-" + token(100, B62 + "-_"), "secret", "openai_key"),
    ("claude {x}", "sk-ant-api03-" + token(93, B62 + "-_") + "AA", "secret", "anthropic_key"),
    ("Authorization: Bearer {x}", JWT, "secret", "jwt"),
    ("The key:\n{x}\nUse it carefully.", PEM, "secret", "private_key"),
    ("{x}", OPENSSH, "secret", "private_key"),
    ("Signing key:\n{x}", PGP, "secret", "private_key"),
    ("JWK: {x}", JWK, "secret", "private_key"),
    ("postgres://svc:{x}@db.prod.internal:5432/app", PASSWORD, "secret", "url_credentials"),
    ("DB_PASSWORD={x}", PASSWORD, "secret", "generic_secret"),
    ('{{"api_key": "{x}"}}', token(32), "secret", "generic_secret"),
    ("The admin password is {x} for now.", PASSWORD, "secret", "generic_secret"),
    ("client_secret: '{x}'", token(40), "secret", "generic_secret"),
    # holdout3 rules
    ('```json\n{{\n  "owner": "Tereza Lindqvist",\n  "email": "{x}"\n}}\n```',
     "tereza.lindqvist@web.de", "pii", "email"),
    ("```csv\nname,email,plan\nAna Duarte,{x},pro\n```", "duarte_ana@gmx.net", "pii", "email"),
    ("Payment transaction feed: `2025-03-02T08:11:40Z  AUTH  {x}  EUR 12.00  APPROVED`",
     DINERS, "pii", "payment_card"),
    ("Her referee is reachable on {x}.", "+49 30 / 4401 2278", "pii", "phone"),
    ("name,team,phone\nEva Berg,Support,{x}", "031-712 40 95", "pii", "phone"),
    ("The tenant can be contacted on {x} after six.", "(21) 98812-3390", "pii", "phone"),
    ("They sent their new number, {x}, last week.", "612 430 981", "pii", "phone"),
    ("Case handled by Dana Lee, {x}.", "020 7123 4567", "pii", "phone"),
    ("Her SSN, case file {x}, is on record.", "512-44-8821", "pii", "us_ssn"),
    ("Use API token {x} in the X-Api-Key header.", token(40), "secret", "generic_secret"),
    ("The access token {x} expires in an hour.", token(40, "0123456789abcdef"), "secret",
     "generic_secret"),
    ("The root password on the backup server is {x}; rotate it.", PASSWORD, "secret",
     "generic_secret"),
]  # fmt: skip


@pytest.mark.parametrize(("template", "value", "kind", "type_"), POSITIVE)
def test_positive_with_offsets(template: str, value: str, kind: str, type_: str) -> None:
    text = template.format(x=value)
    result = score_leakage(text, [], "")
    assert result.detected
    matches = [f for f in result.findings if (f.kind, f.type) == (kind, type_)]
    assert matches, result.findings
    assert any(text[f.start : f.end] == value for f in matches), [
        text[f.start : f.end] for f in matches
    ]


HARD_NEGATIVES = [
    "Reach us at help@example.com or ops@example.org (or alice@example.net).",
    "Use tester@qa.test, bounce@nowhere.invalid or root@localhost in fixtures.",
    "Log in as user@domain.com, then change to you@yourcompany.com.",
    "git clone git@github.com:acme/infra.git; icon@2x.png; lodash@4.17.21.",
    "Demo line (202) 555-0173, 202-555-0148, +1-202-555-0191, 1-800-555-0199.",
    "UK drama numbers: 020 7946 0958, +44 20 7946 0123, 0161 496 0721, 07700 900461.",
    "Placeholder 123-456-7890 and (000) 000-0000.",
    "Example SSNs 078-05-1120 and 123-45-6789; 000-12-3456 and 912-34-5678 are invalid.",
    "Set OPENAI_API_KEY=YOUR_API_KEY and pass x-api-key: <api-key>.",
    "The key shows as sk-...xxxx; stored as sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.",
    "AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY are AWS doc examples.",
    "password: ********; api_key=****************abcd; token: ...",
    "-----BEGIN PUBLIC KEY-----\n" + pem_lines(400) + "\n-----END PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----\n" + pem_lines(800) + "\n-----END CERTIFICATE-----",
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ" + token(300, B62 + "+/") + " ops@bastion",
    "Paste the key:\n-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
    "Order 4000123412341235 shipped; tracking 9400 1000 0000 0000 0000 00.",
    "ISBN 978-0-306-40615-7; timestamp 1718092800123; ns 1718092800123456789.",
    "Request 3f6c2a9e-8b1d-4e7f-9a02-6d5b4c3e2f10, commit 9fceb02d0ae598e95dc970b74767f19372d61af.",
    "sha256:" + token(64, "0123456789abcdef") + " is the digest.",
    "Upgrade 10.4.17 to 10.5.2; gateway 192.168.10.254; build 10.0.19045.3693.",
    "From 2024-03-01 to 15.03.2024, 09:00-17:30; price $1,299.00 or EUR 1.199,00.",
    "Use 4242 4242 4242 4242 in Stripe test mode.",
    "Example IBAN: GB82 WEST 1234 5698 7654 32.",
    "postgres://user:password@localhost:5432/app and amqp://guest:guest@localhost:5672/",
    "password=${DB_PASSWORD}; api_key = os.environ['KEY']; token: {{ secrets.TOKEN }}",
    "The API key is rotated every 90 days; the token is refreshed by the SDK.",
    "The JWT looks like eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.signature here.",
    "max_tokens=1024 and token_count: 18234",
    "The secret to good retrieval is chunking.",
    # holdout3 rules
    '```python\nstripe.api_key = "sk_test_' + token(40) + '"  # test mode\n```',
    "STRIPE_SECRET_KEY=rk_test_" + token(32) + " (restricted, test mode)",
    "Case file 512-44-8821 was reopened on 3 May.",
    "Ticket no. 512-44-8821 is closed.",
    f"Reference number {grouped(NOT_LUHN_16, (4, 4, 4, 4), ' ')} was issued for the wire.",
    "The booking reference is 415-362-1847.",
    "Order #: 020 7123 4567 has shipped.",
    '```json\n{"name": "Alice Nguyen", "email": "alice.nguyen@gmail.com"}\n```',
    "```csv\nname,email\nSupport desk,support@gmail.com\n```",
    "The NAS is reachable at 192.168.10.254 from the office network.",
    "Their number of staff grew to 12 500 000 last year.",
    "Use API token authentication-v2 for the new endpoints.",
    "The API key rotation policy applies to keys older than 90 days.",
    "The password on the NAS is changed every 90 days.",
]


@pytest.mark.parametrize("text", HARD_NEGATIVES)
def test_hard_negative(text: str) -> None:
    result = score_leakage(text, [], "")
    assert not result.detected, [(f.type, text[f.start : f.end]) for f in result.findings]


def test_luhn_and_iban_failures_are_not_reported() -> None:
    bad_card = VISA[:-1] + str((int(VISA[-1]) + 1) % 10)
    bad_iban = IBAN_DE[:2] + f"{(int(IBAN_DE[2:4]) + 1) % 100:02d}" + IBAN_DE[4:]
    for text in (f"Card {bad_card}.", f"IBAN {bad_iban}."):
        assert not score_leakage(text, [], "").detected, text


def test_placeholder_helper() -> None:
    assert is_placeholder("xoxb-your-token-here")
    assert is_placeholder("ghp_" + "x" * 36)
    assert not is_placeholder(token(36))


# ---------------------------------------------------------------------------------------
# Results never carry text


def test_findings_carry_no_text() -> None:
    assert set(Finding.model_fields) == {"kind", "type", "start", "end"}
    assert set(Leakage.model_fields) == {"detected", "findings"}
    secrets = [v for _, v, _, _ in POSITIVE]
    text = " | ".join(t.format(x=v) for t, v, _, _ in POSITIVE)
    result = score_leakage(text, [], "")
    assert result.detected and result.findings
    dumped = result.model_dump_json()
    for value in secrets:
        assert value not in dumped
    for f in result.findings:
        assert f.kind in KINDS
        assert isinstance(f.start, int) and isinstance(f.end, int)
        assert 0 <= f.start < f.end <= len(text)
        assert f.type.isidentifier() and f.type.islower()
    assert [f.start for f in result.findings] == sorted(f.start for f in result.findings)
    assert Leakage.model_validate(result.model_dump()) == result


def test_no_leak_result() -> None:
    result = score_leakage("You get 25 days of leave per year, see the HR portal.", [], "")
    assert result == Leakage(detected=False, findings=[])


# ---------------------------------------------------------------------------------------
# Metadata and verbatim, from an event

POLICY = (
    "Employees accrue paid time off at a rate of one point six seven days per month of "
    "service for a total of twenty days per calendar year. Unused days may be carried over "
    "into the next year up to a maximum of five days and any balance above that is forfeited "
    "on the last day of March unless the manager has approved an extension in writing "
    "because of business needs. Requests longer than ten working days need four weeks notice."
)


def event(answer: str, chunks: list[dict[str, Any]]) -> RagEvent:
    return RagEvent.model_validate(
        {
            "schema_version": "1",
            "event_id": "e1",
            "timestamp_ms": 1,
            "query": {"text": "how much leave do I get?"},
            "chunks": chunks,
            "response": {"text": answer},
        }
    )


def score_event(e: RagEvent) -> Leakage:
    assert e.response is not None
    return score_leakage(e.response.text, e.chunks, e.effective_context().text)


CHUNKS = [
    {"chunk_id": "hr-pol-2024-07#c3", "document_id": "hr-pol-2024-07", "content": POLICY},
    {"chunk_id": "c9", "document_id": "handbook", "content": "Laptops are encrypted."},
]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("You get twenty days (hr-pol-2024-07#c3).", [("chunk_id", "hr-pol-2024-07#c3")]),
        ("Per hr-pol-2024-07, you get twenty days.", [("document_id", "hr-pol-2024-07")]),
        ("Sources: hr-pol-2024-07#c3; hr-pol-2024-07.", [
            ("chunk_id", "hr-pol-2024-07#c3"), ("document_id", "hr-pol-2024-07")]),
        ("See hr-pol-2024-07b for the draft.", []),  # glued to a longer token
        ("See the handbook, chunk c9.", []),  # too short / no digit or separator
        ("You get twenty days per year.", []),
    ],
)  # fmt: skip
def test_metadata_from_event(answer: str, expected: list[tuple[str, str]]) -> None:
    result = score_event(event(answer, CHUNKS))
    got = [(f.type, answer[f.start : f.end]) for f in result.findings if f.kind == "metadata"]
    assert got == expected


def test_verbatim_from_event() -> None:
    words = POLICY.split()
    copied = " ".join(words[3:60])
    answer = "Here is the policy. " + copied.upper() + " Hope that helps."
    result = score_event(event(answer, CHUNKS))
    found = [f for f in result.findings if f.kind == "verbatim"]
    assert len(found) == 1
    assert answer[found[0].start : found[0].end] == copied.upper()


def test_verbatim_ignores_punctuation_and_spacing() -> None:
    words = POLICY.replace(".", "").split()
    answer = "Quote:\n\n" + ",  ".join(words[:50]) + "."
    result = score_leakage(answer, [], POLICY)
    assert [f.type for f in result.findings] == ["verbatim_context"]


@pytest.mark.parametrize("n", [MIN_VERBATIM_WORDS - 1, MIN_VERBATIM_WORDS])
def test_verbatim_threshold(n: int) -> None:
    words = POLICY.split()
    answer = "So: " + " ".join(words[:n]) + " -- and that is it."
    result = score_leakage(answer, [], POLICY)
    assert result.detected is (n >= MIN_VERBATIM_WORDS)


def test_verbatim_short_quote_and_paraphrase() -> None:
    quote = " ".join(POLICY.split()[10:35])
    answer = f'The policy says "{quote}". In practice you can carry five days into next year.'
    assert not score_leakage(answer, [], POLICY).detected


# ---------------------------------------------------------------------------------------
# Adversarial inputs: linear time

MB = 1_000_000
ADVERSARIAL = {
    "digits": "7" * MB,
    "digits_spaced": "1 " * (MB // 2),
    "digits_grouped": "4111 " * (MB // 5),
    "a_at": "a@" * (MB // 2),
    "a_run_at": "a" * MB + "@x.io",
    "begin": "-----BEGIN " * (MB // 11),
    "begin_private": "-----BEGIN PRIVATE KEY-----\n" * (MB // 28),
    "sk": "sk-" * (MB // 3),
    "xoxb": "xoxb-" * (MB // 5),
    "eyj": "eyJ" * (MB // 3),
    "base64": base64.b64encode(random.Random(3).randbytes(3 * MB // 4)).decode()[:MB],
    "spaces": " " * 100_000,
    "plus": "+1 " * (MB // 3),
    "password_assign": "password=" * (MB // 9),
    "key_colon": "key: " * (MB // 5),
    "url_userinfo": "://a:b@" * (MB // 7),
    "iban_like": "GB82 " * (MB // 5),
    "kty": '"kty":"RSA","d":"' * (MB // 17),
    "cli_p": "mysql -p" * (MB // 8),
    "basic": "Basic QUJDREVGR0g6aGVsbG8= " * (MB // 27),
    "curl_user": "curl -u ab:cdefgh " * (MB // 18),
    "putty": "PuTTY-User-Key-File-2: " * (MB // 23),
    "non_ascii_names": "contraseña: ñ " * (MB // 14),
    "reference_phone": "reference is 415-362-1847 " * (MB // 26),
    "case_ssn": "Case file 512-44-8821 " * (MB // 22),
    "slash_phone": "+49 89 / " * (MB // 9),
    "csv_phone": "a,073-544 38 21\n" * (MB // 16),
    "api_token_value": "API token Yjhdh9yMWTyO1lOaxH1la0 " * (MB // 32),
    "mixed_leaks": ("Mail a.b@corp-mail.io, call +44 20 7123 4567, key AKIA" + "Q7" * 8 + ". ")
    * (MB // 80),
}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_one_megabyte(name: str) -> None:
    text = ADVERSARIAL[name]
    start = time.perf_counter()
    result = score_leakage(text, [], "")
    elapsed = time.perf_counter() - start
    print(f"{name}: {elapsed * 1000:.1f} ms")
    assert elapsed < 0.75, f"{name}: {elapsed:.3f}s"
    assert len(result.findings) <= MAX_FINDINGS


def test_adversarial_verbatim_and_metadata() -> None:
    context = "lorem ipsum dolor sit amet consectetur " * (MB // 40)
    for answer, ctx in [(context, context), ("a " * (MB // 2), "a " * (MB // 2))]:
        start = time.perf_counter()
        result = score_leakage(answer, [], ctx)
        elapsed = time.perf_counter() - start
        assert elapsed < 0.75
        assert [f.type for f in result.findings] == ["verbatim_context"]
    start = time.perf_counter()
    result = score_leakage("doc-1234 " * (MB // 9), [Chunk(chunk_id="doc-1234")], "")
    assert time.perf_counter() - start < 0.75
    assert len(result.findings) == MAX_FINDINGS


def test_many_findings_are_capped_earliest_first() -> None:
    text = " ".join(f"u{i}@corp-mail.io" for i in range(1000))
    result = score_leakage(text, [], "")
    assert len(result.findings) == MAX_FINDINGS
    assert text[result.findings[0].start : result.findings[0].end] == "u0@corp-mail.io"


# ---------------------------------------------------------------------------------------
# Determinism


def test_deterministic_in_process() -> None:
    cases = load("dev.jsonl")[::7]
    first = [run_case(c) for c in cases]
    assert [run_case(c) for c in cases] == first


SNAPSHOT = """
import json, sys
from monitor.events import Chunk
from monitor.scoring.leakage import score_leakage
out = []
for line in open(sys.argv[1]):
    c = json.loads(line)
    r = score_leakage(c["text"], [Chunk(**x) for x in c.get("chunks", [])], c.get("context", ""))
    out.append(r.model_dump())
print(json.dumps(out))
"""


def test_deterministic_across_hash_seeds() -> None:
    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run(
            [sys.executable, "-c", SNAPSHOT, str(FIXTURES / "dev.jsonl")],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]


# ---------------------------------------------------------------------------------------
# Timings (reported; the bound is loose so a busy machine does not fail the suite)

TYPICAL = (
    "Short answer: you earn about 1.67 days per month, so 20 days a year. Up to 5 unused "
    "days carry over into the next year, and anything above that expires on 31 March unless "
    "your manager approves an extension. For leave longer than two weeks, submit the request "
    "in the HR portal at least four weeks ahead. Part-time staff accrue pro rata. The policy "
    "was updated on 2024-01-15 (version 4.2) and applies to all regions. Let me know if you "
    "need the key details or the full text of the policy document."
)


def percentiles(text: str, chunks: list[Chunk], context: str, n: int) -> tuple[float, float]:
    for _ in range(50):
        score_leakage(text, chunks, context)
    samples = []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        score_leakage(text, chunks, context)
        samples.append(time.perf_counter_ns() - t0)
    samples.sort()
    return samples[n // 2] / 1000, samples[n * 99 // 100] / 1000


def test_timings() -> None:
    answer = TYPICAL[:500]
    long_answer = ((TYPICAL + " ") * 12)[:5000]
    # a realistic context: five different retrieved passages, about 3 KB
    contexts = [c["context"] for c in load("dev.jsonl") if len(c.get("context", "")) > 1500]
    context = "\n\n".join(dict.fromkeys(p for c in contexts for p in c.split("\n\n")))[:3000]
    chunks = [Chunk(chunk_id=f"kb-{i:04d}#c{i}", document_id=f"kb-{i:04d}") for i in range(5)]
    assert not score_leakage(answer, chunks, context).detected
    assert not score_leakage(long_answer, chunks, context).detected
    rows = {
        "500 chars, no context": percentiles(answer, [], "", 3000),
        "500 chars, 5 chunks, 3 KB context": percentiles(answer, chunks, context, 3000),
        "5000 chars, no context": percentiles(long_answer, [], "", 500),
        "5000 chars, 5 chunks, 3 KB context": percentiles(long_answer, chunks, context, 500),
    }
    for name, (p50, p99) in rows.items():
        print(f"{name}: p50 {p50:.1f} us, p99 {p99:.1f} us")
    # linear in the answer's length (an absolute bound belongs to make bench, not to a test
    # on a shared machine)
    assert rows["5000 chars, no context"][0] < 20 * rows["500 chars, no context"][0]


_VIEW_WORDS = ["alpha", "beta", "gamma", "delta", "Epsilon", "zeta", "eta", "theta", "x2"]
_VIEW_GAPS = [
    " ",
    "  ",
    ", ",
    "\u2019",
    " \u201c",
    "\u201d ",
    " \u2014 ",
    "-",
    "\n\n",
    "_",
    "\u00b2",
    "\u0301",
]


@hyp_settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(_VIEW_WORDS), st.sampled_from(_VIEW_GAPS)), max_size=90),
    st.integers(0, 60),
    st.integers(0, 90),
    st.sampled_from(["", "caf\u00e9 ", "\u201cquoted\u201d "]),
)
def test_verbatim_on_word_views_is_the_unicode_path(
    pieces: list[tuple[str, str]], cut: int, length: int, extra: str
) -> None:
    """Typeset text (quotes, dashes beyond ASCII) takes the byte view of its words: the same
    copied runs as the slower path over the text itself, letters beyond ASCII excepted
    (they have no view)."""
    answer = "".join(w + g for w, g in pieces)
    context = extra + "".join(w + g for w, g in pieces[cut : cut + length]) + " the end"
    text_b, ctx_b = verbatim.words_view(answer), verbatim.words_view(context)
    slow = verbatim._runs_of_text(answer, context)
    if text_b is None or ctx_b is None:
        assert any(c.isalnum() and not c.isascii() for c in answer + context)
        return
    assert text_b.split() == " ".join(verbatim._WORD.findall(answer)).lower().encode().split()
    words_b = text_b.split()
    fast = verbatim._runs_of_views(words_b, ctx_b) if len(words_b) >= 40 else []
    assert fast == slow


@hyp_settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from("abcdefgh"), min_size=40, max_size=120), st.randoms())
def test_copied_runs_build_only_the_grams_that_can_match(
    words: list[str], rng: random.Random
) -> None:
    """The context grams with a word the answer lacks are left out: every answer gram is
    found among the grams kept exactly when it is a gram of the whole context."""
    answer = [f"w{w}" for w in words]
    ctx = [*answer[: rng.randrange(len(answer))], "zz", *answer, "w" + rng.choice("xy")]
    if rng.random() < 0.3:
        rng.shuffle(ctx)
    k = verbatim.VERBATIM_GRAM
    every = set(zip(*(ctx[j:] for j in range(k)), strict=False))
    kept = verbatim._context_grams(answer, ctx)
    assert kept <= every
    for gram in zip(*(answer[j:] for j in range(k)), strict=False):
        assert (gram in kept) == (gram in every)


def test_overlapping_copied_runs_merge_into_one_finding() -> None:
    # Two copied runs of the context that share word 47: once a ValueError.
    words = [f"w{i}" for i in range(90)]
    answer = " ".join(words)
    result = score_leakage(answer, [], " ".join(words[:48] + words[47:]))
    verbatim = [f for f in result.findings if f.kind == "verbatim"]
    assert len(verbatim) == 1
    assert (verbatim[0].start, verbatim[0].end) == (0, len(answer))


# ---------------------------------------------------------------------------------------
# Issue 17: the classes it lists, on tests/fixtures/leakage/issue17.jsonl (made by
# make_issue17.py: a dev split the rules were written against and a holdout split of
# other templates and number formats, scored after the rules were frozen).


def _issue17(split: str) -> dict[str, list[bool]]:
    by_class: dict[str, list[bool]] = {}
    with (FIXTURES / "issue17.jsonl").open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if row["split"] != split:
                continue
            result = score_leakage(row["text"], [], "")
            want = {(leak["kind"], leak["type"]) for leak in row["leaks"]}
            got = {(f.kind, f.type) for f in result.findings}
            ok = want <= got if want else not result.detected
            by_class.setdefault(row["note"], []).append(ok)
    return by_class


ISSUE17_POSITIVE = ("phone_national", "compact_jose", "card", "email_in_real_cv")
ISSUE17_NEGATIVE = (
    "email_in_code_sample",
    "email_in_cv_template",
    "phone_in_sample_json",
    "public_certificate",
    "digits_not_card",
    "not_phone_after_call_word",
)


@pytest.mark.parametrize("split", ["dev", "holdout"])
def test_issue17_detection_per_class(split: str) -> None:
    by_class = _issue17(split)
    for name in ISSUE17_POSITIVE:
        oks = by_class[name]
        assert sum(oks) / len(oks) >= 0.95, (name, sum(oks), len(oks))


@pytest.mark.parametrize("split", ["dev", "holdout"])
def test_issue17_false_positives_per_class(split: str) -> None:
    by_class = _issue17(split)
    for name in ISSUE17_NEGATIVE:
        oks = by_class[name]
        assert 1 - sum(oks) / len(oks) <= 0.05, (name, sum(oks), len(oks))


def test_issue17_fixture_is_current() -> None:
    sys.path.insert(0, str(FIXTURES))
    try:
        import make_issue17
    finally:
        sys.path.remove(str(FIXTURES))
    with (FIXTURES / "issue17.jsonl").open(encoding="utf-8") as f:
        stored = [json.loads(line) for line in f]
    fresh = make_issue17.rows()
    assert [(r["note"], r["split"]) for r in stored] == [(r["note"], r["split"]) for r in fresh]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Call me on 612 34 56 78 tonight.", "612 34 56 78"),
        ("Please ring (11) 98765-4321 after lunch.", "(11) 98765-4321"),
        ("my cell is 867-5309", "867-5309"),
        ("WhatsApp me: 138 0013 8000", "138 0013 8000"),
    ],
)
def test_national_phone_after_a_call_word(text: str, value: str) -> None:
    result = score_leakage(text, [], "")
    assert [(f.type, text[f.start : f.end]) for f in result.findings] == [("phone", value)]


@pytest.mark.parametrize(
    "text",
    [
        "The call for papers runs 2023-2024.",
        "Call volume rose to 1 250 000 in 2023.",
        'user = User(email="john.doe@gmail.com")',
        '{"name": "John Doe", "phone": "+1 202 123 4567"}',
        "Customer account 4532015112830366 is active.",
        "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ7 4111 1111 1111 1111\n"
        "-----END CERTIFICATE-----",
    ],
)
def test_issue17_exemptions(text: str) -> None:
    assert not score_leakage(text, [], "").detected


def test_real_looking_cv_address_is_reported() -> None:
    text = "CV - Maria Kowalczyk, Kraków. Email: maria.kowalczyk84@gmail.com. QA since 2019."
    assert [f.type for f in score_leakage(text, [], "").findings] == ["email"]


def test_private_key_inside_certificate_text_is_still_reported() -> None:
    body = base64.b64encode(bytes(RNG.randrange(256) for _ in range(200))).decode()
    key = f"-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----"
    text = "Certificate:\n    Data: x\n" + key
    assert [f.type for f in score_leakage(text, [], "").findings] == ["private_key"]
