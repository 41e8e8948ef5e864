"""The two synthetic tasks of the Mamba paper (2312.00752, section 4.1), small, generated from a seed.

Selective copying. A stretch of ``length`` positions holds ``n_memorize`` data tokens at random places, the rest
is the noise token. Then come ``n_memorize`` copy markers; at the i-th marker the model must output the i-th data
token. Where the data sits changes from instance to instance, so a fixed (time-invariant) filter cannot pick it
out: the model has to *select* by content.

    tokens   N N 5 N N N 3 N 7 N ... N  > > >      (N noise, > copy marker)
    targets  . . . . . . . . . . ... .  5 3 7      (only the marker positions are scored)

Induction heads. Random tokens, in which the trigger token appears once, followed by some token ``v``; the
sequence ends with the trigger again and the model must output ``v`` (associative recall of one pair). A model
that learns the rule rather than the length answers at any length.

    tokens   4 9 1 T 6 2 8 ... 3 T        target at the last position: 6

Token ids: selective copying uses 0 = noise, 1 = copy marker, 2 .. 2 + n_values - 1 = data. Induction heads uses
0 = trigger, 1 .. n_values = ordinary tokens. Every generator returns int64 arrays; ``mask`` marks scored positions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NOISE, MARKER, FIRST_VALUE = 0, 1, 2
TRIGGER = 0

# The tasks the shipped Mamba checkpoints are trained and evaluated on, and the Mamba page shows (not settings).
COPY_TASK = {"length": 64, "n_memorize": 8, "n_values": 8}
INDUCTION_TASK = {"length": 64, "n_values": 16}


@dataclass(frozen=True)
class Batch:
    tokens: np.ndarray  # (b, l) input ids
    targets: np.ndarray  # (b, l) the right output where mask is True, else 0
    mask: np.ndarray  # (b, l) bool: positions that are scored


def selective_copy_vocab(n_values: int) -> int:
    return FIRST_VALUE + n_values


def selective_copy(
    rng: np.random.Generator, batch: int, length: int = 64, n_memorize: int = 8, n_values: int = 8
) -> Batch:
    """``batch`` instances of length ``length + n_memorize`` (see the module docstring)."""
    if n_memorize > length:
        raise ValueError("cannot place more data tokens than there are positions")
    values = rng.integers(FIRST_VALUE, FIRST_VALUE + n_values, size=(batch, n_memorize))
    # n_memorize distinct sorted positions per row: argsort of random keys is a random permutation.
    places = np.sort(np.argsort(rng.random((batch, length)), axis=1)[:, :n_memorize], axis=1)
    content = np.full((batch, length), NOISE, dtype=np.int64)
    np.put_along_axis(content, places, values, axis=1)
    tokens = np.concatenate([content, np.full((batch, n_memorize), MARKER, dtype=np.int64)], axis=1)
    targets = np.concatenate([np.zeros((batch, length), dtype=np.int64), values], axis=1)
    mask = np.zeros_like(tokens, dtype=bool)
    mask[:, length:] = True
    return Batch(tokens, targets, mask)


def induction_vocab(n_values: int) -> int:
    return 1 + n_values


def induction(rng: np.random.Generator, batch: int, length: int = 64, n_values: int = 16) -> Batch:
    """``batch`` instances of ``length`` tokens; the pair (trigger, v) sits anywhere in the first l - 2 positions."""
    if length < 4:
        raise ValueError("an induction instance needs at least 4 positions")
    tokens = rng.integers(1, 1 + n_values, size=(batch, length))
    where = rng.integers(0, length - 2, size=batch)  # the first trigger; its answer follows it at where + 1
    rows = np.arange(batch)
    tokens[rows, where] = TRIGGER
    tokens[:, -1] = TRIGGER
    targets = np.zeros_like(tokens)
    targets[:, -1] = tokens[rows, where + 1]
    mask = np.zeros_like(tokens, dtype=bool)
    mask[:, -1] = True
    return Batch(tokens.astype(np.int64), targets.astype(np.int64), mask)


def copy_batch(rng: np.random.Generator, batch: int, length: int | None = None) -> Batch:
    """Selective copying as the shipped checkpoints learnt it (``COPY_TASK``), at another ``length`` if given."""
    task = dict(COPY_TASK, **({"length": length} if length else {}))
    return selective_copy(rng, batch, **task)


def induction_batch(rng: np.random.Generator, batch: int, length: int | None = None) -> Batch:
    """Induction heads as the shipped checkpoint learnt it (``INDUCTION_TASK``), at another ``length`` if given."""
    return induction(rng, batch, length or INDUCTION_TASK["length"], INDUCTION_TASK["n_values"])
