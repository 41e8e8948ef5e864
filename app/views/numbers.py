"""Numbers behind a figure as downloadable bytes."""

from __future__ import annotations

import csv
import io

import numpy as np
import orjson


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
    return orjson.dumps(obj, default=_fallback,
                        option=orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS)
