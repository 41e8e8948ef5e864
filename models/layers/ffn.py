"""Position-wise feed-forward networks: the two-layer MLP (ReLU or GELU) and SwiGLU (Shazeer 2020)."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from models.probe import Probe

_ACTIVATIONS = {"relu": F.relu, "gelu": F.gelu, "silu": F.silu}


class MLP(nn.Module):
    """W2 · act(W1 x). Probes ``pre``: W1 x + b1 before the activation, and ``act``: the hidden activations after
    it, both (B, T, hidden). ``"gelu"`` is the exact erf form, x·Φ(x), not GPT-2's tanh approximation."""

    def __init__(self, dim: int, hidden: int, *, activation: str = "gelu", bias: bool = True):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden, bias=bias)
        self.fc2 = nn.Linear(hidden, dim, bias=bias)
        self.activation = activation
        self.pre, self.act = Probe(), Probe()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.act(_ACTIVATIONS[self.activation](self.pre(self.fc1(x)))))


class SwiGLU(nn.Module):
    """w2 · (silu(w1 x) ⊙ w3 x), with LLaMA's names. Probes, each (B, T, hidden): ``gate``, silu(w1 x); ``up``,
    w3 x; ``act``, their element-wise product (the gated hidden that w2 reads)."""

    def __init__(self, dim: int, hidden: int, *, bias: bool = False):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=bias)
        self.w2 = nn.Linear(hidden, dim, bias=bias)
        self.w3 = nn.Linear(dim, hidden, bias=bias)
        self.gate, self.up, self.act = Probe(), Probe(), Probe()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.w2(self.act(self.gate(F.silu(self.w1(x))) * self.up(self.w3(x))))
