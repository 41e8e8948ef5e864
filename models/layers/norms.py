"""Normalisations: LayerNorm (Ba et al. 2016) and RMSNorm (Zhang & Sennrich 2019, used by LLaMA)."""

from __future__ import annotations

import torch
from torch import nn

LayerNorm = nn.LayerNorm


class RMSNorm(nn.Module):
    """x / sqrt(mean(x²) + eps) · g — LayerNorm without the mean subtraction and the bias."""

    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight
