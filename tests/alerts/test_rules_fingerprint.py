"""Fingerprints are stable across processes and hash seeds, and distinguish series."""

from __future__ import annotations

import json
import subprocess
import sys

from monitor.alerts.rules.fingerprint import canonical, fingerprint

CASES = [
    ("degradation", "quality.overall", (None, None, None)),
    ("critical_quality", "quality.overall", ("treatment", None, None)),
    ("rate:safety.leakage.detected", "safety.leakage.detected", ("c", "tenant-é", "app")),
]


def test_shape_and_canonical_json() -> None:
    fp = fingerprint(*CASES[0])
    assert len(fp) == 16 and int(fp, 16) >= 0
    assert json.loads(canonical(*CASES[1])) == {
        "rule": "critical_quality",
        "metric": "quality.overall",
        "labels": {"variant": "treatment", "tenant": None, "application": None},
    }


def test_every_part_changes_the_fingerprint() -> None:
    base = ("degradation", "quality.overall", ("a", None, None))
    variants = [
        ("critical_quality", "quality.overall", ("a", None, None)),
        ("degradation", "quality.retrieval_confidence", ("a", None, None)),
        ("degradation", "quality.overall", (None, "a", None)),
        ("degradation", "quality.overall", (None, None, "a")),
        ("degradation", "quality.overall", (None, None, None)),
    ]
    fps = {fingerprint(*base), *(fingerprint(*v) for v in variants)}
    assert len(fps) == 1 + len(variants)


def test_identical_in_a_subprocess_with_another_hash_seed() -> None:
    code = (
        "import json, sys\n"
        "from monitor.alerts.rules.fingerprint import fingerprint\n"
        "cases = json.loads(sys.argv[1])\n"
        "print(json.dumps([fingerprint(r, m, tuple(k)) for r, m, k in cases]))\n"
    )
    here = [fingerprint(*case) for case in CASES]
    for seed in ("0", "12345"):
        proc = subprocess.run(
            [sys.executable, "-c", code, json.dumps(CASES)],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
        )
        assert json.loads(proc.stdout) == here
