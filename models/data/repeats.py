"""Token sequences in which copying pays: text windows with a piece of themselves written again, and random merged
ids shown twice (the induction test's shape). What makes an induction head worth learning — for the gpt recipe's
second stage, the dynamics model's recorded run and the induction page's live training."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import torch

from models import metrics


def with_repeats(
    batches: Iterator[torch.Tensor],
    rng: np.random.Generator,
    vocab: int,
    fraction: float,
    longest: int = 64,
    random: float = 0.5,
) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """In ``fraction`` of the windows, repeat one segment (8–``longest`` tokens): with probability ``random`` random
    merged ids, the second copy after a random gap (none, half the time) and more copies back to back to the window's
    end; otherwise a piece of the window itself, written twice with a random gap. Only a model that looks back and
    copies predicts the repeats.

    Yields (chunk (B, T + 1), keep (B, T)): ``keep`` is False for the targets nothing can predict — the first copy of
    a random segment and the first token of its second copy — so the model is not taught that random ids are likely.
    """
    for chunk in batches:
        chunk = chunk.clone()
        keep = torch.ones(chunk.shape[0], chunk.shape[1] - 1, dtype=torch.bool)
        n = chunk.shape[1]
        for row in np.flatnonzero(rng.random(chunk.shape[0]) < fraction):
            length = int(rng.integers(8, min(longest, n // 2 - 1) + 1))
            start = int(rng.integers(0, n - 2 * length))
            gap = int(rng.integers(0, n - 2 * length - start + 1))
            if rng.random() >= random:
                seg = chunk[row, start : start + length].clone()
                copies = [start, start + length + gap]
            else:
                gap = gap if rng.random() < 0.5 else 0
                second = start + length + gap
                seg = torch.from_numpy(rng.integers(257, vocab, size=length))
                copies = [start, *range(second, n - length + 1, length)]  # then again and again, to the end
                keep[row, max(start - 1, 0) : start + length - 1] = False  # targets chunk[start : start + length]
                keep[row, second - 1] = False
            for at in copies:
                chunk[row, at : at + length] = seg
        yield chunk, keep


def repeated_random(
    rng: np.random.Generator,
    vocab: int,
    batch: int,
    shortest: int = 2,
    longest: int = 60,
    prefix: bool = True,
    prefix_from: int = 0,
    prefix_max: int = 0,
    text: np.ndarray | None = None,
) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """Endless batches like the induction test, with their own random ids: <|endoftext|>, a random prefix of M ids,
    L random ids, the same L ids again. L is drawn per batch, skewed short (median ≈ shortest + (longest − shortest)
    / 4): in a short sequence the token to copy is one of few candidates, so attention finds it often and the
    gradient that builds the induction circuit is strong. The prefix (M up to L) puts more tokens in the context than
    the segment holds, so "any token seen before" is a worse guess than "the token that followed this one".

    ``prefix_from``: the first that many batches have no prefix (a curriculum: copying is learnt first where the
    copies sit at fixed places, then the prefix takes that crutch away).

    ``prefix_max`` > 0: M up to that many instead of up to L. ``text``: the prefix is a window of this token stream
    (its targets count too) instead of random ids, so the copies sit inside text, as a repeat would in a play.

    Yields (chunk (batch, 1 + M + 2L), keep (batch, M + 2L)): only the second copy's targets after its first count.
    """
    for i in itertools.count():
        length = shortest + int((longest - shortest) * rng.random() ** 2)
        m = int(rng.integers(0, (prefix_max or length) + 1)) if prefix and i >= prefix_from else 0
        chunk = torch.from_numpy(metrics.shown_twice(rng, vocab, batch, length, m))
        keep = torch.zeros(batch, m + 2 * length, dtype=torch.bool)
        if text is not None and m:
            starts = rng.integers(0, len(text) - m, size=batch)
            chunk[:, 1 : 1 + m] = torch.from_numpy(np.stack([text[s : s + m] for s in starts]))
            keep[:, :m] = True  # the text's own next tokens
        keep[:, m + length + 1 :] = True  # target j predicts chunk[j + 1]; the second copy starts at 1 + M + L
        yield chunk, keep
