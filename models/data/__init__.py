"""Data: corpora and synthetic tasks, deterministic given a seed. Nothing here reaches the network at run time."""

from collections.abc import Iterator, Sequence

import numpy as np
import torch


def windows(
    streams: np.ndarray | Sequence[np.ndarray], batch: int, length: int, rng: np.random.Generator
) -> Iterator[torch.Tensor]:
    """Endless batches (batch, length + 1) of random windows of token streams. With several streams (domains), row
    r comes from stream r mod their number, so every batch mixes them all. (One draw per row: for one stream the same
    numbers as a single draw of ``batch`` starts.)"""
    streams = [streams] if isinstance(streams, np.ndarray) else list(streams)
    while True:
        rows = []
        for r in range(batch):
            ids = streams[r % len(streams)]
            s = int(rng.integers(0, len(ids) - length - 1))
            rows.append(ids[s : s + length + 1])
        yield torch.from_numpy(np.stack(rows))
