"""Aligning models with different tokenizers on the characters of one text: pure numpy, no Streamlit, no torch.

A tokenizer reports, for each token, the characters it covers (``offsets``: ``(start, end)``, end exclusive). A
byte-level BPE splits a multi-byte character (``é``, ``你``, an emoji) into several tokens that all report the same
character, and a token may cover a character another token also covers (SmolLM2: ``ĠðŁĺ`` (9, 11), then ``Ģ`` (10,
11)). Each token's loss is spread evenly over the characters it covers, so the per-character bits add up to the
text's total and two models' curves can be drawn on the same axis, whatever their tokens.
"""

from __future__ import annotations

import math

import numpy as np

LN2 = math.log(2)


def char_bits(offsets, token_nats, n_chars: int) -> np.ndarray:
    """Bits charged to each character of a text of ``n_chars`` characters: token i's loss (``token_nats[i]``,
    nats) divided evenly among the characters ``offsets[i]`` covers, in bits. A token that covers no character (an
    empty span) charges the character at its start, or the last one. ``sum(result) == sum(token_nats) / ln 2``."""
    bits = np.zeros(n_chars)
    if n_chars == 0:
        return bits
    for (start, end), nats in zip(offsets, token_nats, strict=True):
        start, end = min(max(int(start), 0), n_chars), min(max(int(end), 0), n_chars)
        if end <= start:
            bits[min(start, n_chars - 1)] += nats / LN2
        else:
            bits[start:end] += nats / LN2 / (end - start)
    return bits


def token_at(offsets, position: int) -> int:
    """The index of the token a character position falls in: the first token whose span holds it; for a position
    no span holds, the last token that starts at or before it (0 when none does)."""
    for i, (start, end) in enumerate(offsets):
        if start <= position < end:
            return i
    before = [i for i, (start, _) in enumerate(offsets) if start <= position]
    return before[-1] if before else 0


def bits_per_char(offsets, token_nats, n_chars: int) -> float:
    """The whole text's bits per character: every token's loss over the characters of the text."""
    return float(np.sum(token_nats) / LN2 / max(n_chars, 1))


def rolling_mean(values: np.ndarray, width: int) -> np.ndarray:
    """The mean of each value and the ``width − 1`` before it (fewer at the start): a curve that can be read."""
    values = np.asarray(values, dtype=float)
    if width <= 1 or len(values) == 0:
        return values.copy()
    sums = np.cumsum(np.concatenate([[0.0], values]))
    idx = np.arange(1, len(values) + 1)
    lo = np.maximum(idx - width, 0)
    return (sums[idx] - sums[lo]) / (idx - lo)
