"""Every family's scores on a fixed set of events, against the scores recorded in
``tests/fixtures/scoring/golden_scores.jsonl.gz``: the guard for speed work on the scorers
(issue 13), which must not change a value.

The events: every event of the fixtures under ``tests/fixtures`` and 600 generated ones
(300 of the demo generator, 150 real-text events of 2 KB with reuse, 150 of 8 KB without).
The recorded scores were checked against the scorers as they were before issue 13's
changes (commit caec963): the same on 3,048 events, except the fields issues 14 and 17
changed on purpose (short answers counted as claims, the score-scale ``warning``; the
injection scores once the learned model joined the patterns).

Write the file again (after a deliberate change of a score) with
``python -m tests.scoring.test_golden_scores --write``.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import orjson

from bench.realtext import RealTextEvents
from monitor.demo.traffic import TrafficGenerator
from monitor.errors import EventError
from monitor.pipeline import process
from monitor.scoring.chunk_cache import chunk_cache, configure_chunk_cache

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOLDEN = FIXTURES / "scoring" / "golden_scores.jsonl.gz"


def _events() -> list[bytes]:
    lines = [
        line.strip()
        for path in sorted(FIXTURES.rglob("*.jsonl"))
        for line in path.read_bytes().splitlines()
        if line.strip().startswith(b"{") and b'"schema_version"' in line
    ]
    gen = TrafficGenerator(seed=21, malformed_rate=0.0)
    lines += [orjson.dumps(gen.event()) for _ in range(300)]
    lines += RealTextEvents(seed=31, size_kb=2, reuse=True).messages(150)
    lines += RealTextEvents(seed=32, size_kb=8, reuse=False).messages(150)
    return lines


def _scores(lines: list[bytes]) -> list[bytes]:
    out = []
    for line in lines:
        result = process(line)
        if isinstance(result, EventError):  # the fixtures' bad events: their reason
            out.append(orjson.dumps({"error": str(result)}))
            continue
        scored = result.model_dump(mode="json", exclude={"scoring_us"})
        out.append(orjson.dumps(scored, option=orjson.OPT_SORT_KEYS))
    return out


def test_scores_match_the_recorded_ones() -> None:
    expected = gzip.decompress(GOLDEN.read_bytes()).splitlines()
    lines = _events()
    assert len(lines) == len(expected) > 600
    before = chunk_cache()
    try:
        for budget in (before.budget_bytes, 0):  # with the chunk cache and without
            configure_chunk_cache(budget)
            got = _scores(lines)
            mismatched = [i for i, (g, e) in enumerate(zip(got, expected, strict=True)) if g != e]
            assert not mismatched, f"{len(mismatched)} events differ, first line {mismatched[0]}"
    finally:
        configure_chunk_cache(before.budget_bytes)


if __name__ == "__main__":  # pragma: no cover - a maintenance tool
    if sys.argv[1:] == ["--write"]:
        GOLDEN.write_bytes(gzip.compress(b"\n".join(_scores(_events())) + b"\n", mtime=0))
