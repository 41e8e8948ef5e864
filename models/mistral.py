"""Mistral-style decoder: the LLaMA block (RMSNorm, SwiGLU, RoPE, GQA) with sliding-window attention and a rolling
buffer KV cache.

Paper: Mistral 7B, Jiang et al. 2023 (2310.06825), built on the LLaMA recipe (2302.13971, models/llama.py) and
grouped-query attention (2305.13245); sliding-window attention after Child et al. 2019 and Beltagy et al. 2020.

    x₀ = E[tokens]                              (positions live in the q·k rotation, RoPE)
    xᵢ₊₁ = xᵢ + Attn(RMSNorm(xᵢ)) ;  xᵢ₊₁ = xᵢ₊₁ + SwiGLU(RMSNorm(xᵢ₊₁))       (as models/llama.py)
    Sliding-window attention (SWA): the hidden state hᵢᵏ at position i of layer k attends to h_{i−W..i}^{k−1}
          — here the mask M is a band: a query at position p sees the keys p − W + 1 .. p (W keys, itself
          included), M = sliding_window_mask(T, W, S); the rest of the row gets weight exactly 0.
    Receptive field: one layer moves information at most W − 1 positions forward, so after k layers hᵢᵏ can
          depend on inputs as far back as i − k·(W − 1) (the paper rounds it to k × W; 32 layers × 4096 ≈ 131k
          tokens of "theoretical attention span"). ``influence`` measures it: ∂‖x_{l+1}[p]‖ / ∂x₀[j] is exactly 0
          for j < p − (l + 1)(W − 1).
    Rolling buffer cache: a fixed cache of W slots per layer; the keys/values of position i go to slot i mod W,
          overwriting position i − W, which no later query can see. Memory stays W rows however long the
          sequence (8× smaller than a full cache at 32k tokens in the paper).
    Pre-fill and chunking: a long prompt is fed in chunks of W; each chunk's queries attend to the cached
          positions of the window before it and to the chunk itself (causally), with the band mask (``prefill``).
    logits = RMSNorm_f(x_L) · Eᵀ                (tied to the token embedding, as models/llama.py)

Glossary (shape letters): B batch, T positions (queries), S keys (T plus the cached ones the window still sees),
C model width, H query heads, G key/value heads, D head width (C / H), V vocabulary, L layers, W window.

Probes: ``embedded`` (B, T, C) the residual stream before block 0; ``blocks.{i}.attn.pattern`` (B, H, T, S) with its
band of non-zero weights; ``blocks.{i}.resid`` (B, T, C) after block i; and the attention's own ``q``, ``k``, ``v``,
``scores``, ``context`` as in models/layers/attention.py.

Where ours departs from Mistral 7B: the sizes (C 192, 4 layers, 4 query / 2 key-value heads, a 2,048-id BPE; the
paper: C 4,096, 32 layers, 32 / 8 heads, 32k ids), and so the window: W = 32 over a training context of 256 (the
paper: W = 4096 over 8,192 tokens), a reach of 4 × 32 = 128 tokens by the paper's count k × W, 4 × 31 = 124 exactly
with our band (the paper's ≈131k). The block is
models/llama.py's, unchanged; no biases; the output shares the token embedding (Mistral 7B unties them); and no
fused kernel or multi-sequence batching tricks of the paper's serving code.

The checkpoint ``mistral`` is trained by models/recipes/mistral.py on the same text, tokenizer and step-time
budget as ``llama``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from models import sampling
from models.layers import (  # cache_bytes: what a page and bench/ measure the caches with
    KVCache,
    RollingKVCache,
    RotaryDecoder,
    cache_bytes,  # noqa: F401
    sliding_window_mask,
)
from models.llama import Block  # the LLaMA block fits exactly: the window lives only in the mask it is given
from models.probe import Probe, name_probes


@dataclass
class Config:
    vocab: int = 2048  # the byte-level BPE of the gpt checkpoint
    dim: int = 192
    n_heads: int = 4  # query heads, D = dim / n_heads
    n_kv_heads: int = 2  # key/value heads shared by n_heads / n_kv_heads query heads each (GQA)
    n_layers: int = 4
    hidden: int = 512  # SwiGLU width, as llama
    max_len: int = 256  # training context: 8 windows, so most positions train with a full window behind them
    window: int = 32  # W: keys p − W + 1 .. p; the reach after L layers is L·(W − 1)
    rope_base: float = 10000.0


PRESETS = {
    "tiny": Config(vocab=300, dim=32, n_heads=4, n_kv_heads=2, n_layers=2, hidden=64, max_len=37, window=5),
    "shipped": Config(),
}

PROBES = ("embedded", "blocks.*.attn.pattern", "blocks.*.resid")  # what a page reads (and export carries)

Cache = RollingKVCache | KVCache


def window_mask(T: int, window: int, cache: Cache | None = None, device=None) -> torch.Tensor:
    """(T, S) band for T new queries after what ``cache`` holds: S counts the keys the cache hands back (a rolling
    buffer: at most W − 1 earlier positions; a full cache: all of them), then the T new ones."""
    if cache is None:
        past = 0
    elif isinstance(cache, RollingKVCache):
        past = min(len(cache), window - 1)
    else:
        past = len(cache)
    return sliding_window_mask(T, window, past + T, device=device)


class Mistral(RotaryDecoder):
    def __init__(self, c: Config):
        super().__init__(c, Block, rope_dim=c.dim // c.n_heads)  # LLaMA's top level (models/layers/decoder.py)
        self.embedded = Probe()
        name_probes(self)

    def forward(self, tokens: torch.Tensor, cache: list[Cache] | None = None) -> torch.Tensor:
        """tokens (B, T) -> logits (B, T, V).

        Args:
            cache: one RollingKVCache (or KVCache) per block; ``tokens`` continue the cached sequence (positions
                start after it). Any length: the band never needs more than W keys per query.
        """
        return self.unembed(self.hidden_states(self.embedded(self.embed(tokens)), cache)[-1])

    def hidden_states(
        self, x: torch.Tensor, cache: list[Cache] | None = None, upto: int | None = None
    ) -> list[torch.Tensor]:
        """Run the blocks on embeddings x₀ (B, T, C): the residual stream after each block, L × (B, T, C); with
        ``upto``, only the first ``upto`` blocks."""
        T = x.shape[1]
        past = len(cache[0]) if cache else 0
        rope = self.rope(torch.arange(past, past + T, device=x.device))  # cos, sin: (T, D/2)
        mask = window_mask(T, self.config.window, cache[0] if cache else None, device=x.device)  # (T, S)
        out = []
        for i, block in enumerate(self.blocks[:upto]):
            x = block(x, mask, rope, cache[i] if cache else None)
            out.append(x)
        return out

    def unembed(self, x: torch.Tensor) -> torch.Tensor:
        """Final RMSNorm, then the tied output projection: (..., C) -> (..., V)."""
        return self.norm(x) @ self.embed.weight.T

    def new_cache(self, rolling: bool = True) -> list[Cache]:
        """One cache per block: the rolling buffer of W slots, or (``rolling=False``) a full cache that grows."""
        return [RollingKVCache(self.config.window) if rolling else KVCache() for _ in self.blocks]


def build(config: dict) -> Mistral:
    return Mistral(Config(**config))


def narrower_window(window: int):
    """An override for the scores probes (``blocks.{i}.attn.scores``, (B, H, T, S), S = T: a forward from position 0
    without a cache): keys ``window`` or more positions back get the masked value, so the layer attends over a band
    of ``window`` keys however wide it was trained (``window`` ≥ the trained W: the plain forward exactly)."""

    def narrowed(x: torch.Tensor, name: str) -> torch.Tensor:
        T, S = x.shape[-2:]
        return x.masked_fill(~sliding_window_mask(T, window, S, device=x.device), torch.finfo(x.dtype).min)

    return narrowed


# ---- inference helpers ----------------------------------------------------------------------------------------------


@torch.no_grad()  # not inference_mode: the caches it returns stay writable outside it
def prefill(model: Mistral, ids: list[int], chunk: int) -> tuple[torch.Tensor, list[RollingKVCache], list[np.ndarray]]:
    """Feed a prompt in chunks of ``chunk`` ids into fresh rolling caches (the paper uses chunks of W).

    Returns:
        the logits of the last position (V,), the caches, and the boolean mask (T_chunk, S) each chunk used.
    """
    if chunk < 1 or not ids:
        raise ValueError("prefill needs a chunk of at least 1 and a non-empty prompt")
    device = model.embed.weight.device
    caches, masks = model.new_cache(rolling=True), []
    logits = None
    for start in range(0, len(ids), chunk):
        part = ids[start : start + chunk]
        masks.append(window_mask(len(part), model.config.window, caches[0]).numpy())
        logits = model(torch.tensor([part], dtype=torch.long, device=device), caches)[0, -1]
    return logits, caches, masks


@torch.no_grad()  # not inference_mode: the caches it returns stay writable outside it
def generate(
    model: Mistral,
    prompt: list[int],
    n: int,
    *,
    rolling: bool = True,
    temperature: float = 0.0,
    seed: int = 0,
    on_step: Callable[[int, list], None] | None = None,
) -> list[int]:
    """``n`` new ids after ``prompt``, decoded one row at a time with the cache (temperature 0: greedy).

    The prompt is pre-filled in chunks of W. ``on_step(id, caches)`` is called after each new id has entered the
    caches (so a rolling buffer shows the slot it took).
    """
    if not prompt:
        raise ValueError("generate needs a prompt of at least one id")
    rng = np.random.default_rng(seed)
    device = model.embed.weight.device
    caches = model.new_cache(rolling=rolling)
    W = model.config.window
    logits = None
    for start in range(0, len(prompt), W):
        logits = model(torch.tensor([prompt[start : start + W]], dtype=torch.long, device=device), caches)[0, -1]
    out: list[int] = []
    for _ in range(n):
        x = logits.double().cpu().numpy()
        if temperature <= 0:
            nxt = sampling.greedy(x)
        else:
            nxt = sampling.sample(sampling.filtered(x, temperature=temperature), rng)
        out.append(nxt)
        logits = model(torch.tensor([[nxt]], dtype=torch.long, device=device), caches)[0, -1]
        if on_step is not None:
            on_step(nxt, caches)
    return out


def influence(model: Mistral, tokens: torch.Tensor, position: int, layers=None) -> np.ndarray:
    """(L, T): for each layer l and input position j, ‖∂‖x_{l+1}[p]‖ / ∂x₀[j]‖ — how strongly the embedding at j
    (the ``embedded`` tensor x₀) moves the size of the residual stream after block l at p = ``position``. Exactly 0
    for j > p (causality) and for j < p − (l + 1)(W − 1) (the reach of l + 1 windows); one backward pass per layer.
    ``layers`` (ascending): only those rows, (len(layers), T) — a large model's backward passes cost seconds each.
    Any model with ``embed`` and ``hidden_states(embeddings, upto=n)`` (models/gemma.py too: its local and global
    layers); the blocks after the last layer asked for do not run.
    """
    tokens = torch.as_tensor(tokens).reshape(1, -1)
    T, L = tokens.shape[1], model.config.n_layers
    layers = list(range(L)) if layers is None else list(layers)
    if not 0 <= position < T:
        raise ValueError(f"position {position} is outside 0..{T - 1}")
    with torch.no_grad():
        x0 = model.embed(tokens[:, : position + 1].to(model.embed.weight.device))  # later positions cannot matter
    x0.requires_grad_(True)
    states = model.hidden_states(x0, upto=max(layers) + 1)  # (max(layers) + 1) × (1, p + 1, C)
    out = np.zeros((len(layers), T), dtype=np.float32)
    for row, i in enumerate(layers):
        (grad,) = torch.autograd.grad(states[i][0, position].norm(), x0, retain_graph=row < len(layers) - 1)
        out[row, : position + 1] = grad[0].norm(dim=-1).cpu().numpy()  # (p + 1,)
    return out
