"""Score the injection detector on the holdout (never trained or calibrated on) and print
the numbers per category.

    python -m bench.injection_model.evaluate [--split holdout|train] [--seed 17] [--patterns-only]
        [--file holdout12.jsonl]

Queries go through ``score_injection``, chunks through ``score_indirect`` (one chunk per
call, no cache). For each mode: ROC AUC (rank statistic, ties averaged), AUC on texts of
at most 300 characters, TPR at 1 % FPR (attacks scoring strictly above the benign score
that 1 % of benign texts may exceed), and at the shipped ``block`` threshold the share
of attacks blocked and of benign texts blocked; then the same per attack category and
the block rate per benign category.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence

from bench.injection_model.data import load_rows
from monitor.events import Chunk
from monitor.scoring.injection import BLOCK_THRESHOLD, score_indirect, score_injection

__all__ = ["auc", "evaluate", "main", "scored", "tpr_at_fpr"]

Row = dict[str, object]


def auc(pos: Sequence[float], neg: Sequence[float]) -> float:
    """Mann-Whitney U / (n_pos * n_neg), ties counted half."""
    if not pos or not neg:
        return math.nan
    values = sorted([(v, 1) for v in pos] + [(v, 0) for v in neg])
    rank_sum = 0.0
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1][0] == values[i][0]:
            j += 1
        rank = (i + j) / 2 + 1
        rank_sum += rank * sum(label for _, label in values[i : j + 1])
        i = j + 1
    n_pos, n_neg = len(pos), len(neg)
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def tpr_at_fpr(pos: Sequence[float], neg: Sequence[float], fpr: float) -> float:
    """Share of ``pos`` strictly above the benign score that ``fpr`` of ``neg`` may exceed."""
    if not pos or not neg:
        return math.nan
    ordered = sorted(neg, reverse=True)
    threshold = ordered[min(math.floor(fpr * len(ordered)), len(ordered) - 1)]
    return sum(v > threshold for v in pos) / len(pos)


def scored(rows: Sequence[Row], patterns_only: bool = False) -> list[float]:
    """The detector's score of each row (``patterns_only``: the pattern evidence alone,
    the detector before the learned model)."""
    if patterns_only:
        from bench.injection_model.train import pattern_scores

        return pattern_scores(rows)
    out = []
    for r in rows:
        text = str(r["text"])
        if r["mode"] == "query":
            out.append(score_injection(text).score)
        else:
            out.append(score_indirect([Chunk(content=text)], cache=False).score)
    return out


def evaluate(rows: Sequence[Row], patterns_only: bool = False) -> dict[str, dict[str, float]]:
    """Metrics by mode and by category (``mode``, ``mode/<category>``)."""
    scores = scored(rows, patterns_only)
    out: dict[str, dict[str, float]] = {}
    for mode in ("query", "chunk"):
        sel = [(r, s) for r, s in zip(rows, scores, strict=True) if r["mode"] == mode]
        pos = [s for r, s in sel if r["label"] == 1]
        neg = [s for r, s in sel if r["label"] == 0]
        short_pos = [s for r, s in sel if r["label"] == 1 and len(str(r["text"])) <= 300]
        short_neg = [s for r, s in sel if r["label"] == 0 and len(str(r["text"])) <= 300]
        out[mode] = {
            "attacks": len(pos),
            "benign": len(neg),
            "auc": auc(pos, neg),
            "auc_short": auc(short_pos, short_neg),
            "tpr_at_1pct_fpr": tpr_at_fpr(pos, neg, 0.01),
            "tpr_at_5pct_fpr": tpr_at_fpr(pos, neg, 0.05),
            "blocked_attacks": sum(s >= BLOCK_THRESHOLD for s in pos) / max(len(pos), 1),
            "blocked_benign": sum(s >= BLOCK_THRESHOLD for s in neg) / max(len(neg), 1),
        }
        for cat in sorted({str(r["category"]) for r, _ in sel}):
            cs = [s for r, s in sel if r["category"] == cat]
            label = next(r["label"] for r, _ in sel if r["category"] == cat)
            entry: dict[str, float] = {"n": len(cs)}
            entry["blocked"] = sum(s >= BLOCK_THRESHOLD for s in cs) / len(cs)
            if label == 1:
                entry["auc"] = auc(cs, neg)
                entry["tpr_at_1pct_fpr"] = tpr_at_fpr(cs, neg, 0.01)
            out[f"{mode}/{cat}"] = entry
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="holdout", choices=("holdout", "train"))
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--patterns-only", action="store_true", help="the pattern score alone")
    parser.add_argument(
        "--file", default=None, help="only the rows of one fixture file (e.g. holdout12.jsonl)"
    )
    args = parser.parse_args(argv)
    rows = [r for r in load_rows(args.seed) if r["split"] == args.split]
    if args.file is not None:
        rows = [r for r in rows if str(r["family"]).startswith(f"fx:{args.file}")]
        if not rows:
            parser.error(f"no {args.split} rows from {args.file}")
    for key, entry in evaluate(rows, args.patterns_only).items():
        cells = " ".join(
            f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in entry.items()
        )
        print(f"{key:40s} {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
