"""Synthetic tasks with known answers, generated from a seed (numpy ``Generator``)."""

from __future__ import annotations

import numpy as np


def lag_copy(rng: np.random.Generator, batch: int, length: int, vocab: int, lag: int) -> np.ndarray:
    """Random tokens (batch, length); the task is to predict x[t - lag] at position t (t >= lag)."""
    return rng.integers(0, vocab, size=(batch, length), dtype=np.int64)
