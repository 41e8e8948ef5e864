"""Switch: a decoder-only language model whose feed-forward layers are mixtures of experts, and its dense twin.

Papers: Switch Transformer (Fedus et al. 2021, 2101.03961), Mixtral of Experts (Jiang et al. 2024, 2401.04088),
DeepSeekMoE (Dai et al. 2024, 2401.06066). The MoE layer itself is ``models/layers/moe.py``.

    x₀ = token embedding + learned position embedding
    xᵢ₊₁ = xᵢ + Attn(LN(xᵢ)) ;  xᵢ₊₁ = xᵢ₊₁ + MoE(LN(xᵢ₊₁))      (pre-LN block, causal mask; MLP in the dense twin)
    logits = LN_f(x_L) · Eᵀ
    loss = cross-entropy + α · Σ_layers aux                      (aux: Switch's load-balancing loss)

``switch-auxfree`` sets ``balance="bias"`` and α = 0: DeepSeek-V3's auxiliary-loss-free balancing (2412.19437,
§2.1.2), a per-expert bias on the top-k choice nudged by γ after each step (``update_bias``; models/layers/moe.py).
It departs from DeepSeek-V3 twice. It keeps Switch's capacity (``capacity_factor``), so a token past a full expert
is still dropped; DeepSeek-V3 drops no tokens, in training or inference. And it has no balance loss at all; DeepSeek-V3
keeps a complementary sequence-wise balance loss with a very small α against imbalance within one sequence.

and inside each MoE layer (models/layers/moe.py has the full story):

    p = softmax(W_r x) ;  MoE(x) = Σ_shared FFN_s(x) + Σ_{e ∈ top-k(p), slot kept} g_e · FFN_e(x)
    capacity = ⌈capacity_factor · N · k / E⌉ slots per expert ;  aux = E · Σᵢ fᵢ · Pᵢ       (Switch, eq. 4)

A token whose slot overflows an expert's capacity gets nothing from that MoE layer: the residual carries it on.

Glossary (shape letters): B batch, T positions, C width, E experts, K ranks computed (2), V vocabulary, L layers.
Probes: ``blocks.{i}.moe.{router_logits, router_probs, expert_index, combine, dropped, capacity}`` (see
models/layers/moe.py; an override of ``router_logits`` switches an expert off or forces a token to one),
``blocks.{i}.resid`` (B, T, C).

Checkpoints ``switch``, its dense twin ``switch-dense`` and ``switch-auxfree`` are trained and evaluated by
``models/recipes/switch.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from models.layers import MLP, LayerNorm, LearnedPositions, MultiHeadAttention, causal_mask, gpt2_init
from models.layers.moe import MoE
from models.probe import Probe, name_probes


@dataclass
class Config:
    vocab: int = 1024  # byte-level BPE ids: <|endoftext|>, 256 bytes, merges
    dim: int = 96
    n_heads: int = 4
    n_layers: int = 3
    max_len: int = 128
    hidden: int = 64  # width of one expert's MLP (fine-grained: half the dense twin's width)
    n_experts: int = 6  # routed experts per MoE layer; 0 = the dense twin
    top_k: int = 1  # 1 = Switch, 2 = Mixtral
    capacity_factor: float = 1.25  # the shipped capacity (Switch trains at 1.0–1.25)
    n_shared: int = 1  # DeepSeekMoE's always-on shared experts (why one: docs/training/switch.md)
    aux_weight: float = 0.01  # α of the load-balancing loss (Switch's value)
    balance: str = "aux"  # "aux": Switch's loss balances the load; "bias": DeepSeek-V3's selection bias (moe.py)
    bias_update: float = 0.0  # γ, the bias update speed of balance="bias" (per training step)


PRESETS = {
    "tiny": Config(vocab=300, dim=32, n_heads=4, n_layers=2, max_len=32, hidden=16, n_experts=4, n_shared=0),
    "shipped": Config(),
}


def dense_twin(c: Config) -> Config:
    """The dense model with the same active feed-forward width per token: one MLP of (k + shared) × hidden."""
    return Config(
        vocab=c.vocab,
        dim=c.dim,
        n_heads=c.n_heads,
        n_layers=c.n_layers,
        max_len=c.max_len,
        hidden=c.hidden * (c.top_k + c.n_shared),
        n_experts=0,
        top_k=1,
        capacity_factor=0.0,
        n_shared=0,
        aux_weight=0.0,
    )


class Block(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.ln1, self.ln2 = LayerNorm(c.dim), LayerNorm(c.dim)
        self.attn = MultiHeadAttention(c.dim, c.n_heads)
        if c.n_experts:
            self.moe = MoE(
                c.dim,
                c.hidden,
                c.n_experts,
                top_k=c.top_k,
                capacity_factor=c.capacity_factor,
                n_shared=c.n_shared,
                balance=c.balance,
                bias_update=c.bias_update,
            )
        else:
            self.mlp = MLP(c.dim, c.hidden)
        self.resid = Probe()

    def forward(self, x: torch.Tensor, mask: torch.Tensor, capacity_factor=None, top_k=None):
        """(B, T, C) -> ((B, T, C), aux loss of this block)."""
        x = x + self.attn(self.ln1(x), mask=mask)
        if hasattr(self, "moe"):
            y, aux = self.moe(self.ln2(x), capacity_factor, top_k)
        else:
            y, aux = self.mlp(self.ln2(x)), x.new_zeros(())
        return self.resid(x + y), aux


class SwitchLM(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.dim)
        self.pos = LearnedPositions(c.max_len, c.dim)
        self.blocks = nn.ModuleList(Block(c) for _ in range(c.n_layers))
        self.ln_f = LayerNorm(c.dim)
        self.apply(gpt2_init)
        name_probes(self)

    def forward_aux(self, tokens: torch.Tensor, capacity_factor=None, top_k=None):
        """tokens (B, T) -> (logits (B, T, V), Σ aux over layers)."""
        T = tokens.shape[1]
        if T > self.config.max_len:
            raise ValueError(f"{T} positions exceed the context of {self.config.max_len}")
        mask = causal_mask(T, device=tokens.device)
        x = self.pos(self.embed(tokens))
        aux = x.new_zeros(())
        for block in self.blocks:
            x, a = block(x, mask, capacity_factor, top_k)
            aux = aux + a
        return self.ln_f(x) @ self.embed.weight.T, aux

    def forward(
        self,
        tokens: torch.Tensor,
        capacity_factor: torch.Tensor | float | None = None,
        top_k: torch.Tensor | int | None = None,
    ) -> torch.Tensor:
        """tokens (B, T) -> logits (B, T, V). ``capacity_factor`` and ``top_k`` override the config's (MoE only)."""
        return self.forward_aux(tokens, capacity_factor, top_k)[0]


def build(config: dict) -> SwitchLM:
    return SwitchLM(Config(**config))


def update_bias(model: SwitchLM) -> None:
    """After an optimiser step: every MoE layer with balance="bias" moves its selection bias against its load."""
    for block in model.blocks:
        if hasattr(block, "moe"):
            block.moe.update_bias()


def active_parameters(model: SwitchLM) -> int:
    """Parameters one token uses: everything but the experts it is not routed to."""
    c = model.config
    total = sum(p.numel() for p in {id(p): p for p in model.parameters()}.values())
    if not c.n_experts:
        return total
    per_expert = sum(p.numel() for p in model.blocks[0].moe.experts[0].parameters())
    return total - c.n_layers * (c.n_experts - c.top_k) * per_expert
