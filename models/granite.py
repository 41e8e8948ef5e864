"""IBM Granite 3.0's mixture-of-experts decoder, for real checkpoints (granite-3.0-1b-a400m, granite-3.0-3b-a800m).

Source: the model cards of IBM's granite-3.0-1b-a400m and granite-3.0-3b-a800m (2024; no arXiv paper), as Hugging
Face ``transformers`` implements them (``GraniteMoeForCausalLM``): a LLaMA-style decoder (models/llama.py: pre-norm
RMSNorm, RoPE, grouped-query attention, no biases) whose feed-forward layers are mixtures of small SwiGLU experts
(models/layers/moe.py), with four scalar multipliers a plain LLaMA does not have, each a setting of config.json.

    x₀ = E[tokens] · m_emb                                    (embedding_multiplier)
    xᵢ' = xᵢ + m_res · Attn(RMSNorm(xᵢ))                      (residual_multiplier on what each sub-block writes)
    xᵢ₊₁ = xᵢ' + m_res · MoE(RMSNorm(xᵢ'))
    Attn: softmax(q kᵀ · m_att + M) v per head, M causal  (attention_multiplier in place of 1/√D), RoPE on q, k
    MoE(x) = Σ_{e ∈ top-k(W_r x)} g_e · W₂ₑ (SiLU(W₁ₑ x) ⊙ W₃ₑ x)
    g = softmax over the k chosen router logits  = p_e / Σ_top-k p  with p = softmax(W_r x)   (Mixtral's weights)
    logits = RMSNorm_f(x_L) · Eᵀ / s                          (logits_scaling s; tied, or W_U of its own)

Every token is served (no capacity, no dropped tokens) and there are no shared experts: the MoE layer runs with
``capacity_factor=0``, ``n_shared=0`` and ``expert="swiglu"``. Granite's router takes the top-k of the logits and
a softmax over those k; the softmax over all E followed by renormalising the chosen k (ours) is the same weight.

Glossary (shape letters): B batch, T positions, S keys (T plus cached ones), C width, H query heads, G key/value
heads, D head width (C / H), F one expert's hidden width, E experts, k experts per token, K = max(k, 2) ranks
computed, V vocabulary, L layers.

Probes, named as models/llama.py's (so models/interventions.py serves both): ``embedded`` (B, T, C) the scaled
embedding; ``blocks.{i}.attn.{q,k,v,scores,pattern,context}`` (q, k after the rotation); ``blocks.{i}.attn_out``
and ``blocks.{i}.mlp_out`` (B, T, C) what attention and the MoE write into the stream (after m_res);
``blocks.{i}.resid``. And the MoE's, named as models/switch.py's: ``blocks.{i}.moe.{router_logits, router_probs,
expert_index, combine, dropped, capacity}`` (models/layers/moe.py; an override of ``router_logits`` switches an
expert off or forces a token to one) and each expert's ``blocks.{i}.moe.experts.{e}.{gate, up, act}``.

No checkpoint of ours is trained with it: it is the class real Granite MoE checkpoints convert into
(models/pretrained/granite.py). Left out: shared experts (``GraniteMoeSharedForCausalLM``), the Mamba layers of
Granite 4 (``GraniteMoeHybridForCausalLM``), biases, scaled RoPE, and the router's auxiliary loss (training only).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from models.layers import KVCache, MultiHeadAttention, RMSNorm, RotaryEmbedding, causal_mask
from models.layers.moe import MoE
from models.probe import Probe, name_probes


@dataclass
class Config:  # granite-3.0-1b-a400m's sizes; a conversion sets every field from the checkpoint's config.json
    vocab: int = 49155
    dim: int = 1024
    n_heads: int = 16
    n_kv_heads: int = 8
    n_layers: int = 24
    hidden: int = 512  # F, one expert's SwiGLU width
    n_experts: int = 32
    top_k: int = 8
    max_len: int = 4096
    rope_base: float = 10000.0
    norm_eps: float = 1e-6
    # the multipliers: neutral here (a plain LLaMA with MoE layers); a conversion sets the checkpoint's
    embedding_multiplier: float = 1.0
    attention_multiplier: float | None = None  # None: 1/√D
    residual_multiplier: float = 1.0
    logits_scaling: float = 1.0
    tied: bool = True  # output matrix = the token embedding (False: W_U of its own)


PRESETS = {
    "tiny": Config(
        vocab=300,
        dim=32,
        n_heads=4,
        n_kv_heads=2,
        n_layers=2,
        hidden=24,
        n_experts=4,
        top_k=2,
        max_len=64,
        embedding_multiplier=3.0,
        attention_multiplier=0.2,
        residual_multiplier=0.5,
        logits_scaling=2.0,
    ),
}

PROBES = ("embedded", "blocks.*.attn.pattern", "blocks.*.moe.expert_index", "blocks.*.resid")


class Block(nn.Module):
    """x + m_res · Attn(RMSNorm(x)), then x + m_res · MoE(RMSNorm(x)): LLaMA's block with experts and a multiplier."""

    def __init__(self, c: Config):
        super().__init__()
        self.residual_multiplier = c.residual_multiplier
        self.attn_norm, self.ffn_norm = RMSNorm(c.dim, c.norm_eps), RMSNorm(c.dim, c.norm_eps)
        self.attn = MultiHeadAttention(
            c.dim, c.n_heads, n_kv_heads=c.n_kv_heads, bias=False, scale=c.attention_multiplier
        )
        self.moe = MoE(
            c.dim,
            c.hidden,
            c.n_experts,
            top_k=c.top_k,
            capacity_factor=0.0,  # no limit: every token reaches its k experts
            activation="silu",
            expert="swiglu",
        )
        self.attn_out, self.mlp_out, self.resid = Probe(), Probe(), Probe()

    def forward(
        self,
        x: torch.Tensor,
        mask: torch.Tensor,
        rope: tuple[torch.Tensor, torch.Tensor],
        cache: KVCache | None = None,
        top_k: int | None = None,
    ) -> torch.Tensor:
        m = self.residual_multiplier
        x = x + self.attn_out(self.attn(self.attn_norm(x), mask=mask, rope=rope, cache=cache) * m)
        y, _ = self.moe(self.ffn_norm(x), top_k=top_k)  # the auxiliary loss is training's, not inference's
        return self.resid(x + self.mlp_out(y * m))


class Granite(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        if c.dim % c.n_heads:
            raise ValueError(f"width {c.dim} does not split into {c.n_heads} heads")
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.dim)
        self.rope = RotaryEmbedding(c.dim // c.n_heads, c.rope_base)
        self.blocks = nn.ModuleList(Block(c) for _ in range(c.n_layers))
        self.norm = RMSNorm(c.dim, c.norm_eps)
        self.head = None if c.tied else nn.Linear(c.dim, c.vocab, bias=False)  # W_U (V, C)
        self.embedded = Probe()
        name_probes(self)

    def forward(
        self, tokens: torch.Tensor, cache: list[KVCache] | None = None, *, top_k: int | None = None
    ) -> torch.Tensor:
        """tokens (B, T) -> logits (B, T, V); ``cache`` (``new_cache``): ``tokens`` continue the cached sequence;
        ``top_k`` overrides the config's experts per token (at most K = max(k, 2), the ranks computed)."""
        return self.unembed(self.trunk(tokens, cache, top_k=top_k))

    def trunk(
        self, tokens: torch.Tensor, cache: list[KVCache] | None = None, *, top_k: int | None = None
    ) -> torch.Tensor:
        """The residual stream after the last block, before the final RMSNorm: (B, T) -> (B, T, C)."""
        mask, rope = self.positions(tokens.shape[1], len(cache[0]) if cache else 0, tokens.device)
        emb = self.embed(tokens)
        x = self.embedded(emb * torch.tensor(self.config.embedding_multiplier, dtype=emb.dtype))
        for i, block in enumerate(self.blocks):
            x = block(x, mask, rope, cache[i] if cache else None, top_k)
        return x

    def positions(self, T: int, past: int, device: torch.device) -> tuple[torch.Tensor, tuple[torch.Tensor, ...]]:
        """The causal mask (T, past + T) and the rotary (cos, sin) (T, D/2) of ``T`` positions after ``past`` (as
        ``models.llama.Llama.positions``, which ``models.interventions.run_blocks`` calls on a rotary decoder)."""
        if past + T > self.config.max_len:
            raise ValueError(f"{past + T} positions exceed the context of {self.config.max_len}")
        rope = self.rope(torch.arange(past, past + T, device=device))
        return causal_mask(T, past + T, device=device), rope

    def unembed(self, x: torch.Tensor) -> torch.Tensor:
        """Logits of a residual stream (..., C) -> (..., V): the final RMSNorm, Eᵀ (or W_U), then ÷ logits_scaling;
        on an inner layer's stream this is the logit lens."""
        x = self.norm(x)
        logits = x @ self.embed.weight.T if self.head is None else self.head(x)
        return logits / self.config.logits_scaling

    def new_cache(self) -> list[KVCache]:
        return [KVCache() for _ in self.blocks]


def build(config: dict) -> Granite:
    return Granite(Config(**config))


# ---- parameters: all of them, and those one token uses ---------------------------------------------------------------


def param_count(c: Config) -> tuple[int, int]:
    """(total, active per token) parameters of a Granite MoE with config ``c``, counted matrix by matrix as this
    file builds them (D = C / H):

        embedding V·C (and V·C more for an untied W_U)
        per layer: W_q, W_o C·H·D each; W_k, W_v C·G·D each; router E·C; E experts of 3·C·F; two RMSNorms C each
        final RMSNorm C
    A token uses the k experts it is routed to: active = total − L·(E − k)·3·C·F.
    """
    D = c.dim // c.n_heads
    attention = 2 * c.dim * c.n_heads * D + 2 * c.dim * c.n_kv_heads * D
    expert = 3 * c.dim * c.hidden
    layer = attention + c.n_experts * c.dim + c.n_experts * expert + 2 * c.dim
    total = c.vocab * c.dim * (1 if c.tied else 2) + c.n_layers * layer + c.dim
    return total, total - c.n_layers * (c.n_experts - c.top_k) * expert
