"""A two-layer causal Transformer that learns to copy the token ``lag`` positions back.

Not a milestone model: the foundation's demo, small enough to train in seconds inside the tests, and used to show
that train → evaluate → export → run on both backends works end to end. The task has a known answer, so the
attention pattern that solves it is known too: each query looks ``lag`` positions back.

    x₀ = E[token] + P[position] ;  xᵢ₊₁ = xᵢ + Attn(LN(xᵢ)) ;  xᵢ₊₁ = xᵢ₊₁ + MLP(LN(xᵢ₊₁))   (pre-LN, causal)
    logits = W · LN(x_L) + b ;  the target at position t is the token at t − lag

Trained by ``models/recipes/demo.py``.

Shape letters: B batch, T positions, C width, V vocabulary.
Probes: ``blocks.{i}.attn.{q,k,v,scores,pattern,context}``, ``blocks.{i}.mlp.act``, ``blocks.{i}.resid``.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from models.layers import LayerNorm, LearnedPositions, PreNormBlock, causal_mask
from models.probe import name_probes


@dataclass
class Config:
    vocab: int = 16
    dim: int = 32
    n_heads: int = 2
    n_layers: int = 2
    max_len: int = 24
    lag: int = 2  # the task: predict the token this many positions back


PRESETS = {"tiny": Config(dim=16, n_layers=1), "shipped": Config()}


class DemoModel(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.dim)
        self.pos = LearnedPositions(c.max_len, c.dim)
        self.blocks = nn.ModuleList(PreNormBlock(c.dim, c.n_heads, 4 * c.dim) for _ in range(c.n_layers))
        self.ln_f = LayerNorm(c.dim)
        self.head = nn.Linear(c.dim, c.vocab)
        name_probes(self)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """tokens (B, T) -> logits (B, T, V)."""
        T = tokens.shape[1]
        mask = causal_mask(T, device=tokens.device)
        x = self.pos(self.embed(tokens))
        for block in self.blocks:
            x = block(x, mask)
        return self.head(self.ln_f(x))


def build(config: dict) -> DemoModel:
    return DemoModel(Config(**config))
