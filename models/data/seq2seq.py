"""Sequence-to-sequence tasks with a known source–target alignment: reversal of short lowercase strings.

The task: read ``x_0 … x_{n-1}`` (letters a–z and the space), write it backwards. Output token ``i`` copies source
token ``n - 1 - i``, so the correct alignment is the anti-diagonal: a learner can check a cross-attention map by eye,
and the metrics can check it by argmax.

    "attention" -> "noitnetta"

Token ids: 0 ``<pad>``, 1 ``<bos>`` (starts the decoder input), 2 ``<eos>`` (ends the source and the output),
then the alphabet. Everything is generated from a numpy ``Generator``: the same seed gives the same batches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PAD, BOS, EOS = 0, 1, 2
SPECIALS = ("<pad>", "<bos>", "<eos>")
ALPHABET = "abcdefghijklmnopqrstuvwxyz "
VOCAB = len(SPECIALS) + len(ALPHABET)
_ID = {ch: i + len(SPECIALS) for i, ch in enumerate(ALPHABET)}

# The shipped checkpoint's task: the lengths seen in training, and the longer ones it is tested on (1.25×).
TRAIN_LENGTHS = (1, 16)
LONG_LENGTHS = (17, 20)
# Its training batches start the source and the target positions at random rows 0..POSITION_SHIFT of the sinusoidal
# table (independently), so the model cannot tie "where to look" to absolute positions; it has to use relative ones,
# which is what lets it handle lengths it never saw. At inference both start at row 0, as in the paper.
POSITION_SHIFT = 8


class UnknownSymbolError(ValueError):
    """The text holds characters outside ``ALPHABET``; ``symbols`` lists them, in order of first appearance."""

    def __init__(self, symbols: list[str]):
        super().__init__(f"unknown symbols: {''.join(symbols)!r}")
        self.symbols = symbols


def encode(text: str) -> list[int]:
    """Characters -> ids (no specials added). Raises ``UnknownSymbolError`` for characters outside ``ALPHABET``."""
    unknown = list(dict.fromkeys(ch for ch in text if ch not in _ID))
    if unknown:
        raise UnknownSymbolError(unknown)
    return [_ID[ch] for ch in text]


def token_text(i: int) -> str:
    """One id as text: a character, or the name of a special token."""
    return SPECIALS[i] if i < len(SPECIALS) else ALPHABET[i - len(SPECIALS)]


def decode(ids) -> str:
    """Ids -> text, stopping at the first ``<eos>`` and skipping ``<pad>``/``<bos>``."""
    out = []
    for i in ids:
        i = int(i)
        if i == EOS:
            break
        if i >= len(SPECIALS):
            out.append(ALPHABET[i - len(SPECIALS)])
    return "".join(out)


def source_ids(text: str) -> np.ndarray:
    """The encoder input of one string: (1, n + 1) ids ending in ``<eos>``."""
    return np.array([encode(text) + [EOS]], dtype=np.int64)


def reverse_alignment(n: int) -> np.ndarray:
    """(n,) the source position each of the n output symbols copies: n-1, n-2, …, 0."""
    return np.arange(n - 1, -1, -1)


@dataclass(frozen=True)
class Batch:
    """A padded batch of reversal examples. Shapes: B examples, S = max n + 1, T = max n + 1."""

    src: np.ndarray  # (B, S) x_0 … x_{n-1} <eos> <pad>…
    tgt_in: np.ndarray  # (B, T) <bos> y_0 … y_{n-1} <pad>…   (decoder input, teacher forcing)
    tgt_out: np.ndarray  # (B, T) y_0 … y_{n-1} <eos> <pad>…   (what each decoder position must predict)
    lengths: np.ndarray  # (B,) n, the number of symbols


def reversal(rng: np.random.Generator, batch: int, min_len: int, max_len: int) -> Batch:
    """``batch`` random strings of lengths uniform in [min_len, max_len], with their reversals."""
    lengths = rng.integers(min_len, max_len + 1, size=batch)
    width = int(lengths.max()) + 1
    src = np.full((batch, width), PAD, dtype=np.int64)
    tgt_in = np.full((batch, width), PAD, dtype=np.int64)
    tgt_out = np.full((batch, width), PAD, dtype=np.int64)
    symbols = rng.integers(len(SPECIALS), VOCAB, size=(batch, width - 1))
    for b, n in enumerate(lengths):
        x = symbols[b, :n]
        y = x[::-1]
        src[b, :n], src[b, n] = x, EOS
        tgt_in[b, 0], tgt_in[b, 1 : n + 1] = BOS, y
        tgt_out[b, :n], tgt_out[b, n] = y, EOS
    return Batch(src, tgt_in, tgt_out, lengths)
