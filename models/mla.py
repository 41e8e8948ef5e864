"""Multi-head latent attention (MLA) in a LLaMA-style decoder: the key/value cache is one small latent per token.

Papers:
- DeepSeek-V2, DeepSeek-AI 2024 (2405.04434) §2.1: MLA, low-rank joint compression of keys and values, a compressed
  query, and decoupled RoPE; DeepSeek-V3 (2412.19437) §2.1.1 keeps the same attention.
- LLaMA (2302.13971) for the rest of the block: pre-norm RMSNorm, SwiGLU, RoPE, no biases (models/llama.py).

For the hidden state h_t (after the block's RMSNorm) of token t, per layer (DeepSeek-V2 §2.1.2-§2.1.3):

    c_KV = W_DKV h_t                                  (d_c)      the latent: the only content the cache keeps
    k^C  = W_UK c_KV ,  v^C = W_UV c_KV               (H·d_h)    per-head keys and values, up-projected
    c_Q  = W_DQ h_t                                   (d_c')     the compressed query (saves activations in training)
    q^C  = W_UQ c_Q                                   (H·d_h)
    q^R  = RoPE(W_QR c_Q)                             (H·d_h^R)  a rotary query part per head
    k^R  = RoPE(W_KR h_t)                             (d_h^R)    ONE rotary key, shared by all heads, also cached
    q_h  = [q^C_h ; q^R_h] ,  k_h = [k^C_h ; k^R]
    o_h  = Σ_j softmax_j(q_{t,h}·k_{j,h} / √(d_h + d_h^R)) v^C_{j,h}        (causal: j ≤ t)
    u_t  = W_O [o_1 ; … ; o_H]

DeepSeek-V2 (model hyper-parameters, §3.1) also puts an RMSNorm after the compressed latent vectors: here
c_Q = RMSNorm(W_DQ h_t) and c_KV = RMSNorm(W_DKV h_t) (on the content latent only, not on k^R, as in DeepSeek's
released code).
The cache holds c_KV and k^R: d_c + d_h^R numbers per token per layer, against 2·G·d_h for grouped-query attention.

Absorbed inference (DeepSeek-V2 §2.1.2): q^C_h·k^C_h = q^C_h·(W_UK,h c_KV) = (W_UK,hᵀ q^C_h)·c_KV, so W_UK moves to the
query side and the per-head keys are never made; likewise W_O,h W_UV,h is one matrix applied to the attention-
weighted latent Σ_j p_j c_KV,j, so the values are never made either. This works only because RoPE is not applied to
k^C: a rotation R(j) between W_UK and c_KV depends on the key's position and cannot be folded into a fixed matrix.
That is why the position signal travels in the separate, shared k^R. ``forward(..., absorbed=True)`` runs this path;
the default (naive) path up-projects k^C and v^C; both read and write the same cache and give the same logits.

Departures: sizes are ours (4 layers, width 192, 4 heads of d_h = 48, d_c = 64, d_c' = 96, d_h^R = 16, so the cache
is 80 numbers per token per layer against MQA's 96). DeepSeek-V2 also scales at the width bottlenecks; we do not.
The feed-forward is dense SwiGLU (DeepSeekMoE is another model), output tied to the embedding as in models/llama.py.

Glossary (shape letters): B batch, T positions (queries), S keys (T plus cached ones), C model width, H heads,
D head width d_h (content part), R rotary width d_h^R, K the KV latent width d_c, Q the query latent width d_c',
V vocabulary, L layers.

Probes: ``blocks.{i}.attn.c_kv`` (B, S, K) and ``blocks.{i}.attn.k_rope`` (B, S, R) as cached (after the norm /
the rotation), ``blocks.{i}.attn.{scores,pattern}`` (B, H, T, S), ``blocks.{i}.attn.context`` (B, H, T, D) each
head's output before W_O (the plain path only: the absorbed one never makes it), ``blocks.{i}.{attn_out,mlp_out}``
(B, T, C) what attention and the MLP write into the stream, ``blocks.{i}.mlp.act``, ``blocks.{i}.resid`` — named as
models/interventions.py's knock-outs expect.

The checkpoint ``mla`` is trained by models/recipes/mla.py, exactly as the LLaMA siblings (``llama-mha``,
``llama-mqa``) are, so their bits per character compare.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from models.layers import RMSNorm, RotaryDecoder, RotaryEmbedding, SwiGLU, apply_rope, causal_mask, tensor_bytes
from models.probe import Override, Probe, trace


@dataclass
class Config:
    vocab: int = 2048  # the byte-level BPE of the gpt checkpoint
    dim: int = 192
    n_heads: int = 4
    head_dim: int = 48  # d_h, the content part of each head's query and key
    kv_latent: int = 64  # d_c: with rope_dim, 80 cached numbers per token per layer (MQA with D = 48 caches 96)
    q_latent: int = 96  # d_c': larger than d_c, as in DeepSeek-V2 (1536 against 512)
    rope_dim: int = 16  # d_h^R, a third of d_h (DeepSeek-V2: 64 of 128)
    n_layers: int = 4
    hidden: int = 512  # SwiGLU width, as the llama checkpoint
    max_len: int = 128  # training context
    rope_base: float = 10000.0


PRESETS = {
    "tiny": Config(
        vocab=300,
        dim=32,
        n_heads=4,
        head_dim=8,
        kv_latent=12,
        q_latent=16,
        rope_dim=4,
        n_layers=2,
        hidden=64,
        max_len=32,
    ),
    "shipped": Config(),
}

PROBES = ("blocks.*.attn.c_kv", "blocks.*.attn.k_rope", "blocks.*.attn.pattern")  # what a page reads (and export)


class LatentCache:
    """What MLA keeps of earlier positions: the latent c_KV (B, S, K) and the shared rotary key k^R (B, S, R)."""

    def __init__(self) -> None:
        self.c_kv: torch.Tensor | None = None
        self.k_rope: torch.Tensor | None = None

    def __len__(self) -> int:
        return 0 if self.c_kv is None else self.c_kv.shape[1]

    @property
    def nbytes(self) -> int:
        """Bytes its latent and rotary-key tensors hold (measured from the tensors)."""
        return tensor_bytes(self.c_kv, self.k_rope)

    def append(self, c_kv: torch.Tensor, k_rope: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        self.c_kv = c_kv if self.c_kv is None else torch.cat([self.c_kv, c_kv], dim=1)
        self.k_rope = k_rope if self.k_rope is None else torch.cat([self.k_rope, k_rope], dim=1)
        return self.c_kv, self.k_rope  # (B, S, K), (B, S, R)


class MultiHeadLatentAttention(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.n_heads, self.head_dim, self.rope_dim = c.n_heads, c.head_dim, c.rope_dim
        H, D, R = c.n_heads, c.head_dim, c.rope_dim
        self.w_dq = nn.Linear(c.dim, c.q_latent, bias=False)  # W_DQ
        self.q_norm = RMSNorm(c.q_latent)
        self.w_uq = nn.Linear(c.q_latent, H * D, bias=False)  # W_UQ
        self.w_qr = nn.Linear(c.q_latent, H * R, bias=False)  # W_QR
        self.w_dkv = nn.Linear(c.dim, c.kv_latent, bias=False)  # W_DKV
        self.kv_norm = RMSNorm(c.kv_latent)
        self.w_kr = nn.Linear(c.dim, R, bias=False)  # W_KR
        self.w_uk = nn.Linear(c.kv_latent, H * D, bias=False)  # W_UK
        self.w_uv = nn.Linear(c.kv_latent, H * D, bias=False)  # W_UV
        self.wo = nn.Linear(H * D, c.dim, bias=False)  # W_O
        self.c_kv, self.k_rope = Probe(), Probe()
        self.scores, self.pattern, self.context = Probe(), Probe(), Probe()

    def _split(self, x: torch.Tensor, width: int) -> torch.Tensor:
        B, T, _ = x.shape
        return x.view(B, T, self.n_heads, width).transpose(1, 2)  # (B, H, T, width)

    def forward(
        self,
        x: torch.Tensor,
        *,
        mask: torch.Tensor,
        rope: tuple[torch.Tensor, torch.Tensor],
        cache: LatentCache | None = None,
        absorbed: bool = False,
    ) -> torch.Tensor:
        """x (B, T, C) -> (B, T, C).

        Args:
            mask: bool (T, S), True = may attend.
            rope: (cos, sin) of the queries' positions, (T, R/2); the new keys sit at the same positions.
            cache: the latents and rotary keys of earlier positions; this call's are appended.
            absorbed: fold W_UK into the query and W_UV into W_O, attending over c_KV directly (same result).
        """
        H, D, R = self.n_heads, self.head_dim, self.rope_dim
        c_q = self.q_norm(self.w_dq(x))  # (B, T, Q)
        q_c = self._split(self.w_uq(c_q), D)  # (B, H, T, D)
        q_r = apply_rope(self._split(self.w_qr(c_q), R), *rope)  # (B, H, T, R)
        c_kv = self.kv_norm(self.w_dkv(x))  # (B, T, K)
        k_r = apply_rope(self.w_kr(x)[:, None], *rope)[:, 0]  # (B, T, R), one for all heads
        if cache is not None:
            c_kv, k_r = cache.append(c_kv, k_r)  # (B, S, K), (B, S, R)
        c_kv, k_r = self.c_kv(c_kv), self.k_rope(k_r)
        rope_scores = q_r @ k_r[:, None].transpose(-2, -1)  # (B, H, T, S)

        if absorbed:
            w_uk = self.w_uk.weight.view(H, D, -1)  # (H, D, K)
            q_latent = torch.einsum("bhtd,hdk->bhtk", q_c, w_uk)  # W_UK,hᵀ q^C_h: (B, H, T, K)
            content_scores = q_latent @ c_kv[:, None].transpose(-2, -1)  # (B, H, T, S)
        else:
            k_c = self._split(self.w_uk(c_kv), D)  # (B, H, S, D)
            content_scores = q_c @ k_c.transpose(-2, -1)  # (B, H, T, S)
        scores = (content_scores + rope_scores) / math.sqrt(D + R)
        # The dtype's lowest value rather than -inf: a fully masked row gives a uniform row, not NaN.
        scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        pattern = self.pattern(torch.softmax(self.scores(scores), dim=-1))  # (B, H, T, S)

        B, T = x.shape[:2]
        if absorbed:
            mixed = pattern @ c_kv[:, None]  # Σ_j p_j c_KV,j: (B, H, T, K)
            w_ov = torch.einsum("chd,hdk->hkc", self.wo.weight.view(-1, H, D), self.w_uv.weight.view(H, D, -1))
            return torch.einsum("bhtk,hkc->btc", mixed, w_ov)  # Σ_h W_O,h W_UV,h (…): (B, T, C)
        v_c = self._split(self.w_uv(c_kv), D)  # (B, H, S, D)
        context = self.context(pattern @ v_c)  # (B, H, T, D)
        return self.wo(context.transpose(1, 2).reshape(B, T, H * D))


class Block(nn.Module):
    """Pre-norm block: x + MLA(RMSNorm(x)), then x + SwiGLU(RMSNorm(x))."""

    def __init__(self, c: Config):
        super().__init__()
        self.attn_norm, self.ffn_norm = RMSNorm(c.dim), RMSNorm(c.dim)
        self.attn = MultiHeadLatentAttention(c)
        self.mlp = SwiGLU(c.dim, c.hidden)
        self.attn_out, self.mlp_out, self.resid = Probe(), Probe(), Probe()

    def forward(
        self,
        x: torch.Tensor,
        mask: torch.Tensor,
        rope: tuple[torch.Tensor, torch.Tensor],
        cache: LatentCache | None = None,
        absorbed: bool = False,
    ) -> torch.Tensor:
        x = x + self.attn_out(self.attn(self.attn_norm(x), mask=mask, rope=rope, cache=cache, absorbed=absorbed))
        return self.resid(x + self.mlp_out(self.mlp(self.ffn_norm(x))))  # (B, T, C)


class MLA(RotaryDecoder):
    def __init__(self, c: Config):
        super().__init__(c, Block, rope_dim=c.rope_dim)  # LLaMA's top level (models/layers/decoder.py); RoPE on R dims

    def forward(
        self, tokens: torch.Tensor, cache: list[LatentCache] | None = None, *, absorbed: bool = False
    ) -> torch.Tensor:
        """tokens (B, T) -> logits (B, T, V).

        Args:
            cache: one LatentCache per block; ``tokens`` continue the cached sequence (positions start after it).
            absorbed: run attention with W_UK absorbed into the query and W_UV into W_O (the inference path).
        """
        T = tokens.shape[1]
        past = len(cache[0]) if cache else 0
        positions = torch.arange(past, past + T, device=tokens.device)
        rope = self.rope(positions)  # cos, sin: (T, R/2)
        mask = causal_mask(T, past + T, device=tokens.device)  # (T, S)
        x = self.embed(tokens)  # (B, T, C)
        for i, block in enumerate(self.blocks):
            x = block(x, mask, rope, cache[i] if cache else None, absorbed)
        return self.norm(x) @ self.embed.weight.T  # (B, T, V)

    def new_cache(self) -> list[LatentCache]:
        return [LatentCache() for _ in self.blocks]


def build(config: dict) -> MLA:
    return MLA(Config(**config))


def keep_latent(kept, fill: torch.Tensor | None = None) -> Override:
    """An override for the latent probes (``blocks.{i}.attn.c_kv``, (B, S, K)): layer i keeps the dimensions
    ``kept[i]`` of its c_KV and each other dimension d takes ``fill[i, d]`` (``latent_stats``' mean, a constant a
    cache needs to store once, not per token), or 0 without ``fill`` — what a cache that stores only the kept
    dimensions would hand back. Keeping all K is the plain forward exactly."""
    index = [torch.as_tensor(list(k), dtype=torch.long) for k in kept]

    def kept_only(x: torch.Tensor, name: str) -> torch.Tensor:
        i = int(name.split(".")[1])
        keep = index[i].to(x.device)
        out = torch.zeros_like(x) if fill is None else fill[i].to(x).expand_as(x).clone()
        out[..., keep] = x[..., keep]
        return out

    return kept_only


def latent_stats(model: MLA, tokens: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Each layer's latent dimensions over ``tokens`` (B, T): (L, K) their order by variance, largest first, and
    (L, K) their means. A dropped dimension filled with its mean costs its variance in squared error (filled with 0,
    its variance plus its squared mean), so keeping the dimensions of largest variance is the best choice for that
    fill."""
    with torch.inference_mode(), trace("blocks.*.attn.c_kv") as t:
        model(tokens)
    c = [t[f"blocks.{i}.attn.c_kv"].flatten(0, 1) for i in range(len(model.blocks))]  # (B·T, K) each
    var, mean = torch.stack([x.var(0) for x in c]), torch.stack([x.mean(0) for x in c])
    return var.argsort(-1, descending=True), mean


def latent_order(model: MLA, tokens: torch.Tensor) -> torch.Tensor:
    """(L, K): each layer's latent dimensions by their variance over ``tokens`` (B, T), largest first."""
    return latent_stats(model, tokens)[0]


def cache_numbers_per_token(c: Config) -> int:
    """Numbers the cache grows by per token, all layers: L · (d_c + d_h^R)."""
    return c.n_layers * (c.kv_latent + c.rope_dim)


def content_scores(
    attn: MultiHeadLatentAttention, h: torch.Tensor, *, rope_on_content: bool, absorbed: bool, base: float = 10000.0
) -> torch.Tensor:
    """The content part of the scores, q^C·k^C (B, H, T, T), of ``attn``'s own weights on hidden states h (B, T, C)
    (after the block's RMSNorm): why RoPE is decoupled, made computable.

    ``absorbed``: W_UK,hᵀ q^C against the raw latent c_KV (keys never made). ``rope_on_content``: RoPE rotates q^C
    and k^C by their positions, the "coupled" design MLA avoids; then the absorbed scores are wrong, because the
    rotation R(j) sits between W_UK and c_KV and depends on the key's position j (exact at j = 0 only)."""
    H, D = attn.n_heads, attn.head_dim
    T = h.shape[1]
    q_c = attn._split(attn.w_uq(attn.q_norm(attn.w_dq(h))), D)  # (B, H, T, D)
    c_kv = attn.kv_norm(attn.w_dkv(h))  # (B, T, K)
    cos, sin = RotaryEmbedding(D, base).to(h.device)(torch.arange(T, device=h.device))
    if rope_on_content:
        q_c = apply_rope(q_c, cos, sin)
    if absorbed:
        q_latent = torch.einsum("bhtd,hdk->bhtk", q_c, attn.w_uk.weight.view(H, D, -1))  # (B, H, T, K)
        return q_latent @ c_kv[:, None].transpose(-2, -1)
    k_c = attn._split(attn.w_uk(c_kv), D)  # (B, H, T, D)
    if rope_on_content:
        k_c = apply_rope(k_c, cos, sin)
    return q_c @ k_c.transpose(-2, -1)
