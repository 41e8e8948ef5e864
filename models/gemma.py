"""Gemma 3's decoder: local sliding-window layers interleaved with global ones, for real checkpoints (Gemma 3 270M).

Paper: Gemma 3 Technical Report, Gemma Team 2025 (2503.19786): the LLaMA-style decoder of Gemma and Gemma 2
(RMSNorm, GeGLU, RoPE, GQA, tied embeddings), where five local layers (sliding-window attention) alternate with one
global layer, the local window is short (the report: 1,024 tokens), and QK-norm replaces Gemma 2's soft-capping of
the scores.

    x₀ = E[tokens] · √C                                     (the embedding scaled by the width's square root)
    xᵢ' = xᵢ + RMSNorm_post(Attn(RMSNorm_pre(xᵢ)))           (a norm before and after each sub-block: "sandwich")
    xᵢ₊₁ = xᵢ' + RMSNorm_post'(GeGLU(RMSNorm_pre'(xᵢ')))
    GeGLU(x) = W₂ (GELU_tanh(W₁ x) ⊙ W₃ x)
    Attn: per head, q ← RMSNorm_q(q), k ← RMSNorm_k(k) (QK-norm, width D), then RoPE, then
          softmax(q kᵀ · s + M) v with s = query_pre_attn_scalar^(−½) (1/√256 in the 270M model, whose D is 256)
    M: a local layer's band (keys p − W + 1 .. p, as models/mistral.py), a global layer's causal mask
    RoPE: base 10,000 in the local layers, 1,000,000 in the global ones
    logits = RMSNorm_f(x_L) · Eᵀ                             (tied)

Gemma's RMSNorm scales by (1 + g), with g stored; ours scales by g, so a conversion stores 1 + g
(models/pretrained/gemma.py). Gemma's head width D is set apart from C / H (270M: C 640, H 4, D 256).

Glossary (shape letters): B batch, T positions, S keys, C width, H query heads, G key/value heads, D head width,
V vocabulary, L layers, W the local window.

Probes, named as models/llama.py's (so models/interventions.py serves both): ``embedded`` (B, T, C) the scaled
embedding, ``blocks.{i}.attn.{q,k,v,scores,pattern,context}``, ``blocks.{i}.mlp.act``,
``blocks.{i}.{attn_out,mlp_out}`` (B, T, C) what each sub-block writes into the stream (after its post-norm),
``blocks.{i}.resid``.

No checkpoint of ours is trained with it: it is the class real Gemma 3 text checkpoints convert into. Left out: the
final logit soft-cap and the score soft-cap (Gemma 2's; Gemma 3's configs set neither, and a conversion refuses
one), scaled RoPE on the global layers (Gemma 3's long-context variants), and images (the 4B+ models' encoder).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch
from torch import nn

from models.layers import (
    KVCache,
    MultiHeadAttention,
    RMSNorm,
    RollingKVCache,
    RotaryEmbedding,
    SwiGLU,
    causal_mask,
)
from models.mistral import window_mask
from models.probe import Probe, name_probes


@dataclass
class Config:  # Gemma 3 270M's sizes; a conversion sets every field from the checkpoint's config.json
    vocab: int = 262144
    dim: int = 640
    n_heads: int = 4
    n_kv_heads: int = 1
    head_dim: int = 256
    n_layers: int = 18
    hidden: int = 2048
    max_len: int = 32768
    window: int = 512  # W of the local layers
    local: list[bool] = field(default_factory=lambda: [(i + 1) % 6 != 0 for i in range(18)])  # per layer
    rope_base: float = 1_000_000.0  # the global layers'
    rope_local_base: float = 10_000.0
    query_scale: float = 256.0  # query_pre_attn_scalar: scores are q·k / √query_scale
    norm_eps: float = 1e-6


PRESETS = {
    "tiny": Config(
        vocab=300,
        dim=32,
        n_heads=4,
        n_kv_heads=2,
        head_dim=16,
        n_layers=3,
        hidden=64,
        max_len=64,
        window=5,
        local=[True, True, False],
        query_scale=16.0,
    ),
}

PROBES = ("embedded", "blocks.*.attn.pattern", "blocks.*.resid")

Cache = RollingKVCache | KVCache


class Block(nn.Module):
    """x + post(Attn(pre(x))), then x + post'(GeGLU(pre'(x))): Gemma's norms on both sides of each sub-block."""

    def __init__(self, c: Config):
        super().__init__()
        eps = c.norm_eps
        self.attn_norm, self.attn_post_norm = RMSNorm(c.dim, eps), RMSNorm(c.dim, eps)
        self.ffn_norm, self.ffn_post_norm = RMSNorm(c.dim, eps), RMSNorm(c.dim, eps)
        self.attn = MultiHeadAttention(
            c.dim,
            c.n_heads,
            n_kv_heads=c.n_kv_heads,
            bias=False,
            head_dim=c.head_dim,
            qk_norm_eps=eps,
            scale=1 / math.sqrt(c.query_scale),
        )
        self.mlp = SwiGLU(c.dim, c.hidden, activation="gelu_tanh")
        self.attn_out, self.mlp_out, self.resid = Probe(), Probe(), Probe()

    def forward(
        self, x: torch.Tensor, mask: torch.Tensor, rope: tuple[torch.Tensor, torch.Tensor], cache: Cache | None = None
    ) -> torch.Tensor:
        x = x + self.attn_out(self.attn_post_norm(self.attn(self.attn_norm(x), mask=mask, rope=rope, cache=cache)))
        return self.resid(x + self.mlp_out(self.ffn_post_norm(self.mlp(self.ffn_norm(x)))))


class Gemma(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        if len(c.local) != c.n_layers:
            raise ValueError(f"{len(c.local)} local/global flags for {c.n_layers} layers")
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.dim)
        self.rope_global = RotaryEmbedding(c.head_dim, c.rope_base)
        self.rope_local = RotaryEmbedding(c.head_dim, c.rope_local_base)
        self.blocks = nn.ModuleList(Block(c) for _ in range(c.n_layers))
        self.norm = RMSNorm(c.dim, c.norm_eps)
        self.embedded = Probe()
        name_probes(self)

    def windows(self) -> list[int | None]:
        """Each layer's window W (None: a global layer, which sees every earlier position)."""
        return [self.config.window if local else None for local in self.config.local]

    def forward(self, tokens: torch.Tensor, cache: list[Cache] | None = None) -> torch.Tensor:
        """tokens (B, T) -> logits (B, T, V); ``cache`` (``new_cache``): ``tokens`` continue the cached sequence."""
        return self.unembed(self.trunk(tokens, cache))

    def trunk(self, tokens: torch.Tensor, cache: list[Cache] | None = None) -> torch.Tensor:
        """The residual stream after the last block, before the final norm: (B, T) -> (B, T, C)."""
        return self.hidden_states(self.embed(tokens), cache)[-1]

    def hidden_states(
        self, emb: torch.Tensor, cache: list[Cache] | None = None, upto: int | None = None
    ) -> list[torch.Tensor]:
        """The blocks run on the looked-up embeddings E[tokens] (B, T, C), scaled here by √C: the residual stream
        after each block, L × (B, T, C); with ``upto``, only the first ``upto`` blocks (as
        ``models.mistral.Mistral.hidden_states``, so ``mistral.influence`` measures a Gemma's reach too)."""
        T, device = emb.shape[1], emb.device
        past = len(cache[0]) if cache else 0  # positions seen (a rolling cache counts them too)
        where = torch.arange(past, past + T, device=device)
        ropes = {True: self.rope_local(where), False: self.rope_global(where)}
        x = self.embedded(emb * torch.tensor(math.sqrt(self.config.dim), dtype=emb.dtype))
        out = []
        for i, (block, window) in enumerate(zip(self.blocks[:upto], self.windows())):
            layer_cache = cache[i] if cache else None
            x = block(x, self.mask(T, past, window, layer_cache, device), ropes[window is not None], layer_cache)
            out.append(x)
        return out

    @staticmethod
    def mask(T: int, past: int, window: int | None, cache: Cache | None, device) -> torch.Tensor:
        """(T, S) for ``T`` new queries after ``past`` positions: a band of ``window`` keys (a rolling cache hands
        back at most W − 1 earlier ones), or causal over all of them."""
        if window is None:
            return causal_mask(T, past + T, device=device)
        return window_mask(T, window, cache, device=device)  # Mistral's band, after what the cache hands back

    def unembed(self, x: torch.Tensor) -> torch.Tensor:
        """The final RMSNorm, then the tied output projection Eᵀ: (..., C) -> (..., V)."""
        return self.norm(x) @ self.embed.weight.T

    def new_cache(self, rolling: bool = True) -> list[Cache]:
        """A rolling buffer of W slots for each local layer, a growing cache for each global one; ``rolling=False``:
        a growing cache for every layer (what a model without the buffer keeps: ``models.mistral.generate``)."""
        return [RollingKVCache(w) if w and rolling else KVCache() for w in self.windows()]


def build(config: dict) -> Gemma:
    return Gemma(Config(**config))
