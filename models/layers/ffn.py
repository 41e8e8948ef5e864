"""Position-wise feed-forward networks: the two-layer MLP (ReLU or GELU) and SwiGLU (Shazeer 2020)."""

from __future__ import annotations

from functools import partial

import torch
import torch.nn.functional as F
from torch import nn

from models.probe import Probe

# "gelu" is the exact erf form x·Φ(x); "gelu_tanh" GPT-2's approximation 0.5x(1 + tanh(√(2/π)(x + 0.044715x³))),
# which checkpoints converted from GPT-2 and T5 v1.1 need (models/pretrained/).
_ACTIVATIONS = {"relu": F.relu, "gelu": F.gelu, "gelu_tanh": partial(F.gelu, approximate="tanh"), "silu": F.silu}


def activation(name: str):
    """The activation function called ``name`` here ("relu", "gelu", "gelu_tanh", "silu"), for a module that applies
    one outside an MLP (BERT's MLM transform)."""
    return _ACTIVATIONS[name]


class MLP(nn.Module):
    """W2 · act(W1 x). Probes ``pre``: W1 x + b1 before the activation, and ``act``: the hidden activations after
    it, both (B, T, hidden). ``"gelu"`` is the exact erf form, x·Φ(x); ``"gelu_tanh"`` GPT-2's tanh approximation."""

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
    w3 x; ``act``, their element-wise product (the gated hidden that w2 reads). ``activation`` replaces the SiLU
    of the gate (``"gelu_tanh"``: GEGLU, T5 v1.1's gated-gelu feed-forward)."""

    def __init__(self, dim: int, hidden: int, *, bias: bool = False, activation: str = "silu"):
        super().__init__()
        self.activation = activation
        self.w1 = nn.Linear(dim, hidden, bias=bias)
        self.w2 = nn.Linear(hidden, dim, bias=bias)
        self.w3 = nn.Linear(dim, hidden, bias=bias)
        self.gate, self.up, self.act = Probe(), Probe(), Probe()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.w2(self.act(self.gate(_ACTIVATIONS[self.activation](self.w1(x))) * self.up(self.w3(x))))
