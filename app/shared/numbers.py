"""Numpy helpers several pages share (softmax, entropy), and the numbers behind a figure as downloadable bytes."""

from __future__ import annotations

import csv
import io

import numpy as np
import orjson


def log_softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """log softmax along ``axis``, in float64, stable for large logits."""
    x = np.asarray(x, dtype=np.float64)
    z = x - x.max(axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis, keepdims=True))


def softmax(x: np.ndarray, axis: int = -1, *, allowed: np.ndarray | None = None) -> np.ndarray:
    """softmax along ``axis``, in float64; where ``allowed`` (bool, broadcastable) is False the weight is exactly 0
    (an attention mask: True = may attend)."""
    x = np.asarray(x, dtype=np.float64)
    if allowed is not None:
        x = np.where(allowed, x, -np.inf)
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def entropy_bits(p: np.ndarray) -> float:
    """Entropy of one distribution, in bits (zero probabilities add nothing)."""
    p = np.asarray(p, dtype=np.float64)
    p = p[p > 0]
    return float(-(p * np.log2(p)).sum())


def to_csv(array: np.ndarray, row_labels=None, col_labels=None) -> bytes:
    """A 1-D or 2-D array as CSV, with optional row and column labels."""
    a = np.atleast_2d(np.asarray(array))
    if a.ndim != 2:
        raise ValueError("to_csv takes a 1-D or 2-D array")
    buf = io.StringIO()
    w = csv.writer(buf)
    if col_labels is not None:
        w.writerow(([""] if row_labels is not None else []) + [str(c) for c in col_labels])
    for i, row in enumerate(a.tolist()):
        w.writerow(([str(row_labels[i])] if row_labels is not None else []) + row)
    return buf.getvalue().encode()


def _fallback(obj):
    # orjson serialises C-contiguous arrays natively; slices and transposes come here.
    if isinstance(obj, np.ndarray | np.generic):
        return obj.tolist()
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def to_json(obj) -> bytes:
    """Any mix of dicts, lists, numbers and numpy arrays (contiguous or not) as indented JSON."""
    return orjson.dumps(
        obj, default=_fallback, option=orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS
    )


def smooth(values: np.ndarray, width: int) -> np.ndarray:
    """Running mean over ``width`` positions (shorter at the start), so one text's per-token losses read as a curve."""
    c = np.cumsum(np.insert(np.asarray(values, dtype=float), 0, 0.0))
    i = np.arange(1, len(values) + 1)
    lo = np.maximum(0, i - width)
    return (c[i] - c[lo]) / (i - lo)
