"""LLaMA-style decoder: RMSNorm, SwiGLU, rotary positions (RoPE) and grouped-query attention, no biases.

Papers:
- RoFormer, Su et al. 2021 (2104.09864): rotate each pair (2i, 2i+1) of q and k by m·θᵢ, θᵢ = base^(−2i/D), so that
  q_m·k_n depends on the positions only through m − n (models/layers/positions.py).
- LLaMA, Touvron et al. 2023 (2302.13971): pre-norm RMSNorm, SwiGLU feed-forward, RoPE, no biases; Llama 2
  (2307.09288) adds grouped-query attention (Ainslie et al. 2023, 2305.13245).
- Position interpolation, Chen et al. 2023 (2306.15595): read position m as m / s to fit s× longer inputs into the
  trained range of angles; NTK-aware scaling (bloc97, 2023) raises the base instead, slowing the slow pairs most.
- YaRN, Peng et al. 2023 (2309.00071): interpolate only the pairs too slow to have turned within the training
  context, keep the fast ones, and sharpen attention by a temperature (models/layers/positions.py).

    x₀ = E[tokens]                             (no position vector is added: positions live in the q·k rotation)
    xᵢ₊₁ = xᵢ + Attn(RMSNorm(xᵢ)) ;  xᵢ₊₁ = xᵢ₊₁ + SwiGLU(RMSNorm(xᵢ₊₁))
    RMSNorm(x) = x / √(mean(x²) + ε) · g
    SwiGLU(x) = W₂ (SiLU(W₁ x) ⊙ W₃ x)
    RoPE: (q₂ᵢ, q₂ᵢ₊₁) at position m ↦ rotated by the angle m·θᵢ, θᵢ = base^(−2i/D); the same for k, so
          ⟨R(m)q, R(n)k⟩ = ⟨q, R(n − m)k⟩
    GQA: query head h reads key/value head ⌊h / (H/G)⌋; H = G is multi-head, G = 1 multi-query attention
    Attn: softmax(q kᵀ / √D + M) v per head (M causal), heads concatenated, then W_o
    logits = RMSNorm_f(x_L) · Eᵀ               (output tied to the token embedding E, as in the GPT baseline;
                                               ``tied=False``: a matrix of its own, W_U, as LLaMA itself)
    PI: m ↦ m / s ;  NTK: base ↦ base · α^(D/(D−2))
    YaRN: θᵢ ↦ (1 − γᵢ)·θᵢ/s + γᵢ·θᵢ, γᵢ a ramp over the turns pair i makes in the training context;
          q·k multiplied by (0.1 ln s + 1)²

Glossary (shape letters): B batch, T positions (tokens), S keys (T plus cached ones), C model width,
H query heads, G key/value heads, D head width (C / H), V vocabulary, L layers.

Probes: ``embedded`` (B, T, C) the stream before block 0 (E[tokens]); ``blocks.{i}.attn.{q,k}`` (B, H, T, D) /
(B, G, S, D) *after* the rotation, ``blocks.{i}.attn.{v,scores,pattern,context}``, ``blocks.{i}.mlp.act``,
``blocks.{i}.{attn_out,mlp_out}`` (B, T, C) what attention and the MLP write into the stream, ``blocks.{i}.resid``
(the names GPT's, so models/interventions.py serves both).

Real checkpoints (models/pretrained/llama.py: SmolLM2, Qwen2.5, TinyLlama) need three options the shipped preset
leaves at the paper's defaults: ``norm_eps`` (their files say 1e-5; 1e-6 moves SmolLM2's logits by ~0.02),
``tied`` (TinyLlama has its own output matrix) and ``qkv_bias`` (Qwen2.5 adds biases to q, k and v).

The checkpoint ``llama`` is trained by models/recipes/llama.py, against a GPT-2-style baseline (models/gpt.py) on
equal step time.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from models.layers import KVCache, MultiHeadAttention, RMSNorm, RotaryDecoder, SwiGLU, apply_rope, causal_mask
from models.probe import Probe, name_probes

# The siblings of the ``llama`` checkpoint that differ only in how many key/value heads its 4 query heads share
# (GQA, 2305.13245): checkpoint name -> key/value heads (``llama`` itself: the shipped preset's).
SIBLING_KV_HEADS = {"llama-mha": 4, "llama-mqa": 1}
EXTRAPOLATE = 4  # forward accepts up to this many times the training context (RoPE has no table to run out of)


@dataclass
class Config:
    vocab: int = 2048  # the byte-level BPE of the gpt checkpoint
    dim: int = 192
    n_heads: int = 4  # query heads, D = dim / n_heads
    n_kv_heads: int = 2  # key/value heads shared by n_heads / n_kv_heads query heads each (GQA)
    n_layers: int = 4
    hidden: int = 512  # SwiGLU width, LLaMA's ⅔·4·dim: three matrices cost what GPT's two 4·dim ones do
    max_len: int = 128  # training context
    rope_base: float = 10000.0
    norm_eps: float = 1e-6  # ε of every RMSNorm
    tied: bool = True  # output matrix = the token embedding (False: a matrix of its own)
    qkv_bias: bool = False  # biases on the q, k, v projections (Qwen2.5); W_o never has one


PRESETS = {
    "tiny": Config(vocab=300, dim=32, n_heads=4, n_kv_heads=2, n_layers=2, hidden=64, max_len=32),
    "shipped": Config(),
}

PROBES = ("blocks.*.attn.q", "blocks.*.attn.k", "blocks.*.attn.pattern")  # what a page reads (and export carries)


class Block(nn.Module):
    """Pre-norm LLaMA block: x + Attn(RMSNorm(x)) with RoPE on q and k, then x + SwiGLU(RMSNorm(x))."""

    def __init__(self, c: Config):
        super().__init__()
        eps = getattr(c, "norm_eps", 1e-6)  # models/mistral.py builds this block from a Config of its own
        self.attn_norm, self.ffn_norm = RMSNorm(c.dim, eps=eps), RMSNorm(c.dim, eps=eps)
        self.attn = MultiHeadAttention(c.dim, c.n_heads, n_kv_heads=c.n_kv_heads, bias=False)
        if getattr(c, "qkv_bias", False):
            for proj in (self.attn.wq, self.attn.wk, self.attn.wv):
                proj.bias = nn.Parameter(torch.zeros(proj.out_features))
        self.mlp = SwiGLU(c.dim, c.hidden)
        self.attn_out, self.mlp_out, self.resid = Probe(), Probe(), Probe()

    def forward(
        self, x: torch.Tensor, mask: torch.Tensor, rope: tuple[torch.Tensor, torch.Tensor], cache: KVCache | None = None
    ) -> torch.Tensor:
        x = x + self.attn_out(self.attn(self.attn_norm(x), mask=mask, rope=rope, cache=cache))
        return self.resid(x + self.mlp_out(self.mlp(self.ffn_norm(x))))  # (B, T, C)


class Llama(RotaryDecoder):
    def __init__(self, c: Config):
        super().__init__(c, Block, rope_dim=c.dim // c.n_heads)  # embedding, RoPE, blocks, final RMSNorm, init
        self.head = None if c.tied else nn.Linear(c.dim, c.vocab, bias=False)  # W_U (V, C)
        self.embedded = Probe()  # the stream before block 0 (E[tokens] alone), named as GPT's
        name_probes(self)

    def forward(
        self,
        tokens: torch.Tensor,
        cache: list[KVCache] | None = None,
        *,
        interpolation: float = 1.0,
        ntk: float = 1.0,
        yarn: float = 1.0,
    ) -> torch.Tensor:
        """tokens (B, T) -> logits (B, T, V).

        Args:
            cache: one KVCache per block; ``tokens`` continue the cached sequence (positions start after it).
            interpolation: position interpolation factor s (positions read as m / s); 1 = plain RoPE.
            ntk: NTK-aware factor α (base · α^(D/(D−2))); 1 = plain RoPE.
            yarn: YaRN scale s (per-pair ramp between PI and plain RoPE over the training context, and the
                attention temperature); 1 = plain RoPE.
        """
        return self.unembed(self.trunk(tokens, cache, interpolation=interpolation, ntk=ntk, yarn=yarn))

    def unembed(self, x: torch.Tensor) -> torch.Tensor:
        """Logits of a residual stream (B, T, C) -> (B, T, V): the final RMSNorm, then Eᵀ (or W_U when untied);
        on an inner layer's stream this is the logit lens."""
        x = self.norm(x)
        return x @ self.embed.weight.T if self.head is None else self.head(x)  # (B, T, V)

    def positions(self, T: int, past: int, device: torch.device, **scaling: float):
        """The causal mask (T, past + T) and the rotary (cos, sin) (T, D/2) of ``T`` positions after ``past``."""
        if past + T > EXTRAPOLATE * self.config.max_len:
            raise ValueError(f"{past + T} positions exceed {EXTRAPOLATE}× the context of {self.config.max_len}")
        rope = self.rope(torch.arange(past, past + T, device=device), context=self.config.max_len, **scaling)
        return causal_mask(T, past + T, device=device), rope

    def trunk(self, tokens: torch.Tensor, cache: list[KVCache] | None = None, **scaling: float) -> torch.Tensor:
        """The residual stream after the last block, before the final RMSNorm: (B, T) -> (B, T, C)."""
        mask, rope = self.positions(tokens.shape[1], len(cache[0]) if cache else 0, tokens.device, **scaling)
        x = self.embedded(self.embed(tokens))  # (B, T, C)
        for i, block in enumerate(self.blocks):
            x = block(x, mask, rope, cache[i] if cache else None)
        return x

    def new_cache(self) -> list[KVCache]:
        return [KVCache() for _ in self.blocks]


def unrotate(model: Llama, T: int):
    """An override for the rotated q and k probes (``blocks.{i}.attn.q``, ``blocks.{i}.attn.k``) of a forward of
    ``T`` tokens from position 0 (no cache, no scaling): every pair turned back by its angle (the rotation by −m·θᵢ,
    RoPE's inverse), so the layer scores qᵀk of the unrotated vectors and attends without positions."""
    cos, sin = model.rope(torch.arange(T, device=model.embed.weight.device), context=model.config.max_len)

    def unrotated(x: torch.Tensor, name: str) -> torch.Tensor:  # (B, H or G, T, D)
        if x.shape[-2] != T:
            raise ValueError(f"unrotate was made for {T} positions, {name} has {x.shape[-2]}")
        return apply_rope(x, cos.to(x.dtype), -sin.to(x.dtype))

    return unrotated


def build(config: dict) -> Llama:
    return Llama(Config(**config))


# ---- RoPE scaling schemes -------------------------------------------------------------------------------------------

SCHEMES = ("plain", "pi", "ntk", "yarn")


def scheme_kwargs(scheme: str, scale: float) -> dict[str, float]:
    """Forward arguments of a RoPE scaling scheme for an input ``scale``× the training context."""
    return {"plain": {}, "pi": {"interpolation": scale}, "ntk": {"ntk": scale}, "yarn": {"yarn": scale}}[scheme]


# ---- published configurations: parameters and KV cache from a config ------------------------------------------------


def param_count(c: Config, *, tied: bool = True, qkv_bias: bool = False) -> int:
    """Parameters of a LLaMA-family decoder with config ``c``, counted matrix by matrix as this file builds them, with
    the two options published models differ by: an output matrix of its own (``tied=False``) and biases on q, k, v
    (Qwen2.5). D = C / H, F = ``hidden``:

        embedding V·C, and V·C more when the output matrix is not the embedding
        per layer: W_q, W_o C·H·D each; W_k, W_v C·G·D each (+ H·D + 2·G·D biases); W₁, W₂, W₃ C·F each;
                   two RMSNorm gains C each
        final RMSNorm C
    """
    D = c.dim // c.n_heads
    attention = 2 * c.dim * c.n_heads * D + 2 * c.dim * c.n_kv_heads * D
    if qkv_bias:
        attention += c.n_heads * D + 2 * c.n_kv_heads * D
    layer = attention + 3 * c.dim * c.hidden + 2 * c.dim
    return c.vocab * c.dim * (1 if tied else 2) + c.n_layers * layer + c.dim


def kv_bytes_per_token(c: Config, bytes_per_value: int = 2) -> int:
    """What the KV cache grows by per token: a key and a value of D numbers per key/value head per layer,
    2 · L · G · D · bytes (2 bytes in float16 / bfloat16, 4 in float32)."""
    return 2 * c.n_layers * c.n_kv_heads * (c.dim // c.n_heads) * bytes_per_value
