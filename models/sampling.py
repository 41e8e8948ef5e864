"""Turning next-token logits into a choice: temperature, top-k, top-p (nucleus), greedy, seeded sampling.

Pure numpy functions on one distribution (a 1-D array over the vocabulary), so the page can show each step:

    probs = softmax(logits / temperature)          temperature → 0 approaches greedy (all mass on the argmax)
    top-k:  keep the k most likely ids             (Fan et al. 2018)
    top-p:  keep the smallest set of most likely ids whose mass is ≥ p, the "nucleus" (Holtzman et al. 2019)
    renormalise what is kept, then draw one id with a seeded generator

Ties at the cut-off are broken by id (the lower id wins), so every filter is deterministic.
"""

from __future__ import annotations

import numpy as np


def softmax(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """Probabilities of ``logits / temperature``; temperature 0 puts all mass on the argmax (greedy)."""
    x = np.asarray(logits, dtype=np.float64)
    if temperature <= 0:
        out = np.zeros_like(x)
        out[int(np.argmax(x))] = 1.0
        return out
    z = x / temperature
    z = np.exp(z - z.max())
    return z / z.sum()


def _order(probs: np.ndarray) -> np.ndarray:
    """Ids from most to least likely; equal probabilities keep id order (stable sort)."""
    return np.argsort(-probs, kind="stable")


def _likeliest_holding(probs: np.ndarray, p: float, first: int = 64) -> np.ndarray:
    """The start of ``_order(probs)`` that holds a mass of at least ``p``, or the whole order: what ``top_p_mask``
    needs, without sorting a whole vocabulary at every decoding step when the nucleus is small. The candidates are
    every id at least as likely as the ``first``-th likeliest (ties included), in ``_order``'s order; if their mass
    reaches ``p``, no id after them can join the nucleus, and the prefix sums over them are the same numbers."""
    if probs.size <= first:
        return _order(probs)
    threshold = np.partition(probs, probs.size - first)[probs.size - first]
    candidates = np.flatnonzero(probs >= threshold)  # ascending ids, so a stable sort keeps ties in id order
    ordered = candidates[np.argsort(-probs[candidates], kind="stable")]
    if np.cumsum(probs[ordered])[-1] - probs[ordered[-1]] >= p:  # even the last candidate's mass before it is ≥ p
        return ordered
    return _order(probs)


def top_k_mask(probs: np.ndarray, k: int) -> np.ndarray:
    """Boolean mask of the k most likely ids (k ≤ 0 or k ≥ vocabulary keeps all)."""
    keep = np.ones(probs.shape, dtype=bool)
    if 0 < k < probs.size:
        keep[:] = False
        keep[_order(probs)[:k]] = True
    return keep


def top_p_mask(probs: np.ndarray, p: float) -> np.ndarray:
    """Boolean mask of the nucleus: the smallest set of most likely ids whose total mass is ≥ p (p ≥ 1 keeps all)."""
    if p >= 1.0:
        return np.ones(probs.shape, dtype=bool)
    order = _likeliest_holding(probs, p)
    mass_before = np.cumsum(probs[order]) - probs[order]  # mass of the ids ranked above each one
    keep = np.zeros(probs.shape, dtype=bool)
    keep[order[mass_before < p]] = True  # an id joins while the set above it still falls short of p
    keep[order[0]] = True
    return keep


def filtered(logits: np.ndarray, *, temperature: float = 1.0, top_k: int = 0, top_p: float = 1.0) -> np.ndarray:
    """The distribution sampling draws from: temperature, then top-k, then top-p, renormalised."""
    probs = softmax(logits, temperature)
    keep = top_k_mask(probs, top_k)
    kept = np.where(keep, probs, 0.0)
    keep &= top_p_mask(kept / kept.sum(), top_p)
    out = np.where(keep, probs, 0.0)
    return out / out.sum()


def sample(probs: np.ndarray, rng: np.random.Generator) -> int:
    """One id drawn from ``probs`` (inverse CDF on one uniform number, so a seed fixes the whole sequence)."""
    cdf = np.cumsum(probs)
    return int(min(np.searchsorted(cdf, rng.random() * cdf[-1], side="right"), probs.size - 1))


def greedy(logits: np.ndarray) -> int:
    return int(np.argmax(logits))
