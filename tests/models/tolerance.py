"""One rule for comparing float32 results across backends and CPUs: the tolerance follows the values' own scale."""

from __future__ import annotations

import numpy as np


def assert_close(got, ref, tol: float, *, rtol: float | None = None, err_msg: str = "") -> None:
    """|got − ref| ≤ tol × scale + rtol × |ref| everywhere, where scale is the reference's largest magnitude (at
    least 1) and rtol defaults to tol: float32 errors grow with the largest values in play, not with each element."""
    got, ref = (np.asarray(x.detach() if hasattr(x, "detach") else x) for x in (got, ref))  # numpy or torch
    scale = max(1.0, float(np.abs(ref).max())) if ref.size else 1.0
    np.testing.assert_allclose(got, ref, atol=tol * scale, rtol=tol if rtol is None else rtol, err_msg=err_msg)
