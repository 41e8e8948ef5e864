"""The top level the LLaMA family shares (models/llama.py, models/mistral.py, models/mla.py): token embedding E,
rotary positions, L pre-norm blocks, a final RMSNorm; initialised as GPT-2 with the projections into the residual
stream (each block's ``attn.wo`` and ``mlp.w2``) at 0.02/√(2L).

    x₀ = E[tokens] ;  xᵢ₊₁ = Blockᵢ(xᵢ) ;  logits = RMSNorm(x_L) · Eᵀ       (each model's forward; output tied to E)

An architecture subclasses ``RotaryDecoder``, passes its block and the width its rotary embedding turns, and writes
its own forward (LLaMA's RoPE scaling, Mistral's sliding window, MLA's latent cache).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from torch import nn

from models.layers.block import gpt2_init
from models.layers.norms import RMSNorm
from models.layers.positions import RotaryEmbedding
from models.probe import name_probes


class RotaryDecoder(nn.Module):
    """``config`` needs ``vocab``, ``dim``, ``n_layers`` and ``rope_base``; ``block(config)`` makes one block, whose
    ``attn.wo`` and ``mlp.w2`` write into the residual stream; ``rope_dim`` is the width RoPE rotates (a head's)."""

    def __init__(self, c: Any, block: Callable[[Any], nn.Module], rope_dim: int):
        super().__init__()
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.dim)
        self.rope = RotaryEmbedding(rope_dim, c.rope_base)
        self.blocks = nn.ModuleList(block(c) for _ in range(c.n_layers))
        self.norm = RMSNorm(c.dim, eps=getattr(c, "norm_eps", 1e-6))
        self.apply(gpt2_init)
        for b in self.blocks:  # as GPT-2: the projections into the residual stream start at 0.02/√(2L)
            for proj in (b.attn.wo, b.mlp.w2):
                nn.init.normal_(proj.weight, std=0.02 / math.sqrt(2 * c.n_layers))
        name_probes(self)
