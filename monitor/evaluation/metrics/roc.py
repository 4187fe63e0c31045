"""ROC summaries of a detector's scores against binary labels: AUC and TPR at a fixed FPR.

Scores at or above a threshold are positive. ``roc_auc`` is the Mann-Whitney probability
that a random attack outscores a random benign query (ties count one half);
``tpr_at_fpr`` is the highest true positive rate of any threshold whose false positive
rate is at most ``max_fpr`` (003 E's "TPR@FPR=1%"; with fewer than 100 benign queries
that means no false positive at all). Both are ``None`` without both classes.

>>> scores = [0.9, 0.8, 0.3, 0.7, 0.1, 0.2]
>>> labels = [True, True, True, False, False, False]
>>> round(roc_auc(scores, labels), 4)
0.8889
>>> tpr_at_fpr(scores, labels, 0.01), tpr_at_fpr(scores, labels, 1 / 3)
(0.6666666666666666, 1.0)
>>> roc_auc([0.5], [True]) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["roc_auc", "tpr_at_fpr"]


def _split(scores: Sequence[float], labels: Sequence[bool]) -> tuple[np.ndarray, np.ndarray]:
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=bool)
    return s[y], s[~y]


def roc_auc(scores: Sequence[float], labels: Sequence[bool]) -> float | None:
    """Area under the ROC curve (ties one half); ``None`` without both classes."""
    pos, neg = _split(scores, labels)
    if not len(pos) or not len(neg):
        return None
    neg_sorted = np.sort(neg)
    below = np.searchsorted(neg_sorted, pos, side="left")
    not_above = np.searchsorted(neg_sorted, pos, side="right")
    wins = below.sum() + 0.5 * (not_above - below).sum()
    return float(wins / (len(pos) * len(neg)))


def tpr_at_fpr(scores: Sequence[float], labels: Sequence[bool], max_fpr: float) -> float | None:
    """Best TPR over thresholds with FPR <= ``max_fpr``; ``None`` without both classes."""
    pos, neg = _split(scores, labels)
    if not len(pos) or not len(neg):
        return None
    thresholds = np.unique(np.concatenate([pos, neg]))
    neg_sorted, pos_sorted = np.sort(neg), np.sort(pos)
    fp = len(neg) - np.searchsorted(neg_sorted, thresholds, side="left")
    tp = len(pos) - np.searchsorted(pos_sorted, thresholds, side="left")
    allowed = fp / len(neg) <= max_fpr
    return float(tp[allowed].max() / len(pos)) if allowed.any() else 0.0
