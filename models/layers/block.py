"""The Transformer blocks with one attention and one MLP sublayer: pre-LN (GPT-2-style decoders, ViT-style encoders)
and post-LN (the original Transformer's order, kept by BERT).

    pre-LN:   x = x + Attn(LN₁(x)) ;  x = x + MLP(LN₂(x))          (masked for a decoder, unmasked for an encoder)
    post-LN:  x = LN₁(x + Attn(x)) ;  x = LN₂(x + MLP(x))

Probes, all (B, T, C): ``attn_in`` what attention reads (LN₁(x) pre-LN, x post-LN); ``attn_out`` what attention
writes into the residual stream; ``mid`` = the stream after that add (and, post-LN, after LN₁); ``mlp_in`` what the
MLP reads; ``mlp_out`` = what the MLP writes; ``resid`` = the stream after the block — what a logit lens reads.
"""

from __future__ import annotations

import torch
from torch import nn

from models.layers.attention import KVCache, MultiHeadAttention
from models.layers.ffn import MLP
from models.layers.norms import LayerNorm
from models.probe import Probe


class PreNormBlock(nn.Module):
    def __init__(
        self, dim: int, n_heads: int, hidden: int, *, activation: str = "gelu", dropout: float = 0.0, eps: float = 1e-5
    ):
        super().__init__()
        self.ln1, self.ln2 = LayerNorm(dim, eps=eps), LayerNorm(dim, eps=eps)  # eps: 1e-5 torch's and GPT-2's default
        self.attn = MultiHeadAttention(dim, n_heads)
        self.mlp = MLP(dim, hidden, activation=activation)
        self.drop = nn.Dropout(dropout)  # on the residual branches, while training
        self.attn_in, self.attn_out, self.mid = Probe(), Probe(), Probe()
        self.mlp_in, self.mlp_out, self.resid = Probe(), Probe(), Probe()

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None, cache: KVCache | None = None) -> torch.Tensor:
        x = self.mid(x + self.drop(self.attn_out(self.attn(self.attn_in(self.ln1(x)), mask=mask, cache=cache))))
        return self.resid(x + self.drop(self.mlp_out(self.mlp(self.mlp_in(self.ln2(x))))))  # (B, T, C)


def gpt2_init(m: nn.Module) -> None:
    """GPT-2's initialisation, for ``model.apply``: N(0, 0.02) weights for linear and embedding layers, zero biases."""
    if isinstance(m, nn.Linear | nn.Embedding):
        nn.init.normal_(m.weight, std=0.02)
    if isinstance(m, nn.Linear) and m.bias is not None:
        nn.init.zeros_(m.bias)


class PostNormBlock(PreNormBlock):
    """Post-LN: LayerNorm(x + Sublayer(x)) after each sublayer (Vaswani et al. 2017 §3.1; BERT 1810.04805 keeps it).
    The same parameters as ``PreNormBlock`` (ln1, ln2, attn, mlp), used in the other order."""

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None, cache: KVCache | None = None) -> torch.Tensor:
        x = self.mid(self.ln1(x + self.drop(self.attn_out(self.attn(self.attn_in(x), mask=mask, cache=cache)))))
        return self.resid(self.ln2(x + self.drop(self.mlp_out(self.mlp(self.mlp_in(x))))))  # (B, T, C)
