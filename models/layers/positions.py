"""Position information, five ways.

- sinusoidal (Vaswani et al. 2017, 1706.03762): fixed sin/cos table added to token embeddings;
- learned absolute (GPT, BERT, ViT): an embedding per position, added;
- RoPE (Su et al. 2021, 2104.09864): rotate each (2i, 2i+1) pair of q and k by m·θᵢ, θᵢ = base^(−2i/d),
  so q_m·k_n depends only on m − n; with position interpolation and NTK-aware base scaling for long inputs;
- T5 relative buckets (Raffel et al. 2019, 1910.10683): a learned scalar bias per head and log-spaced offset bucket;
- ALiBi (Press et al. 2021, 2108.12409): a fixed per-head linear penalty −slope·distance added to the scores.

Shape letters: T positions (queries), S keys, d model width, D head width, H heads.
"""

from __future__ import annotations

import math

import torch
from torch import nn


def sinusoidal_table(n_positions: int, dim: int, base: float = 10000.0) -> torch.Tensor:
    """(n_positions, dim): PE[p, 2i] = sin(p / base^(2i/dim)), PE[p, 2i+1] = cos(same)."""
    pos = torch.arange(n_positions, dtype=torch.float32).unsqueeze(1)
    inv = base ** (-torch.arange(0, dim, 2, dtype=torch.float32) / dim)
    table = torch.zeros(n_positions, dim)
    table[:, 0::2] = torch.sin(pos * inv)
    table[:, 1::2] = torch.cos(pos * inv[: dim // 2])
    return table


class SinusoidalPositions(nn.Module):
    """Adds the fixed sinusoidal table: x + PE[offset : offset + T]."""

    def __init__(self, max_positions: int, dim: int):
        super().__init__()
        self.register_buffer("table", sinusoidal_table(max_positions, dim), persistent=False)

    def forward(self, x: torch.Tensor, offset: int = 0) -> torch.Tensor:
        return x + self.table[offset : offset + x.shape[1]]  # (B, T, d)


class LearnedPositions(nn.Module):
    """Adds one learned vector per absolute position."""

    def __init__(self, max_positions: int, dim: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(max_positions, dim) * 0.02)

    def forward(self, x: torch.Tensor, offset: int = 0) -> torch.Tensor:
        return x + self.weight[offset : offset + x.shape[1]]  # (B, T, d)


def rope_frequencies(head_dim: int, base: float = 10000.0) -> torch.Tensor:
    """(D/2,) θᵢ = base^(−2i/D): pair 0 turns fastest, the last pair slowest."""
    return base ** (-torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim)


# YaRN's ramp (2309.00071 §3.2): a pair whose wavelength fits fewer than ALPHA times into the training context is
# interpolated fully, one that fits more than BETA times is left alone; the values the paper uses for LLaMA models.
YARN_ALPHA, YARN_BETA = 1.0, 32.0


def yarn_frequencies(head_dim: int, base: float, scale: float, context: int) -> torch.Tensor:
    """(D/2,) YaRN's "NTK-by-parts" frequencies for a ``scale``× longer input than the training ``context``.

    With r = context / λᵢ (how many turns pair i makes over the training context, λᵢ = 2π/θᵢ) and the ramp
    γ(r) = clamp((r − α) / (β − α), 0, 1), the new frequency is (1 − γ)·θᵢ/s + γ·θᵢ: slow pairs (few turns, never
    seen at the new angles) are interpolated like PI, fast pairs keep theirs, the ones between are mixed.
    """
    theta = rope_frequencies(head_dim, base)
    turns = context * theta / (2 * math.pi)
    ramp = ((turns - YARN_ALPHA) / (YARN_BETA - YARN_ALPHA)).clamp(0.0, 1.0)
    return (1 - ramp) * theta / scale + ramp * theta


def yarn_attention_factor(scale: float) -> float:
    """YaRN's temperature: logits are multiplied by (0.1·ln s + 1)², applied as 0.1·ln s + 1 on both q and k
    (through cos and sin, so the cached keys carry it too)."""
    return 0.1 * math.log(scale) + 1.0 if scale > 1 else 1.0


class RotaryEmbedding(nn.Module):
    """cos/sin of m·θᵢ for given positions m, with three ways to stretch past the training context.

    ``interpolation`` s > 1 (position interpolation, Chen et al. 2023): use m / s.
    ``ntk`` α > 1 (NTK-aware scaling): use base · α^(D/(D−2)), which slows the low frequencies most.
    ``yarn`` s > 1 (YaRN, Peng et al. 2023, 2309.00071) with ``context`` the training context: the per-pair ramp of
    ``yarn_frequencies`` and cos, sin scaled by ``yarn_attention_factor(s)``.
    """

    def __init__(self, head_dim: int, base: float = 10000.0):
        super().__init__()
        self.head_dim = head_dim
        self.base = base

    def forward(
        self,
        positions: torch.Tensor,
        *,
        interpolation: float = 1.0,
        ntk: float = 1.0,
        yarn: float = 1.0,
        context: int = 0,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        base = self.base * ntk ** (self.head_dim / (self.head_dim - 2))
        if yarn > 1:
            if context <= 0:
                raise ValueError("YaRN needs the training context")
            theta = yarn_frequencies(self.head_dim, base, yarn, context).to(positions.device)
        else:
            theta = rope_frequencies(self.head_dim, base).to(positions.device)
        angles = (positions.float() / interpolation).unsqueeze(-1) * theta  # (T, D/2)
        m = yarn_attention_factor(yarn)
        return angles.cos() * m, angles.sin() * m


def rope_decay_bound(head_dim: int, distances: torch.Tensor, base: float = 10000.0) -> torch.Tensor:
    """RoFormer's long-term decay (2104.09864 §3.4.3): the relative upper bound (1/(D/2))·Σⱼ |Sⱼ| of a RoPE score
    at each distance r = m − n, where Sⱼ = Σ_{k<j} e^{i·r·θₖ} (j = 1 … D/2). It equals (D/2 + 1)/2 at r = 0 and
    shrinks, with oscillations, as r grows: far-apart tokens can interact less strongly."""
    theta = rope_frequencies(head_dim, base).double()
    angles = distances.double().unsqueeze(-1) * theta  # (R, D/2)
    partial = torch.polar(torch.ones_like(angles), angles).cumsum(-1)  # S₁ … S_{D/2}
    return partial.abs().mean(-1)  # (R,)


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotate pairs (x[2i], x[2i+1]) of x (B, H, T, D) by the angles behind cos/sin (T, D/2)."""
    x1, x2 = x[..., 0::2], x[..., 1::2]  # (B, H, T, D/2) each
    r1 = x1 * cos - x2 * sin
    r2 = x1 * sin + x2 * cos
    return torch.stack((r1, r2), dim=-1).flatten(-2)  # (B, H, T, D)


def t5_relative_position_bucket(
    relative_position: torch.Tensor, *, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128
) -> torch.Tensor:
    """Bucket of each offset key − query: exact for small offsets, log-spaced up to ``max_distance``.

    Bidirectional: half the buckets for keys after the query, half for keys before. Causal: only the past counts
    and every future offset shares bucket 0.
    """
    bucket = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        bucket = bucket + (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:
        distance = (-relative_position).clamp(min=0)
    exact = num_buckets // 2
    # Distances beyond `exact` share log-spaced buckets; the clamp keeps log() finite for small ones.
    log_ratio = torch.log(distance.float().clamp(min=1) / exact) / math.log(max_distance / exact)
    far = exact + (log_ratio * (num_buckets - exact)).long()
    far = far.clamp(max=num_buckets - 1)
    return bucket + torch.where(distance < exact, distance, far)


class T5RelativeBias(nn.Module):
    """A learned scalar per (bucket, head), added to the attention scores: (H, T, S)."""

    def __init__(self, n_heads: int, *, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128):
        super().__init__()
        self.bidirectional, self.num_buckets, self.max_distance = bidirectional, num_buckets, max_distance
        self.embedding = nn.Embedding(num_buckets, n_heads)

    def forward(self, T: int, S: int | None = None) -> torch.Tensor:
        S = T if S is None else S
        q = torch.arange(T, device=self.embedding.weight.device).unsqueeze(1) + (S - T)
        k = torch.arange(S, device=self.embedding.weight.device).unsqueeze(0)
        buckets = t5_relative_position_bucket(
            k - q, bidirectional=self.bidirectional, num_buckets=self.num_buckets, max_distance=self.max_distance
        )
        return self.embedding(buckets).permute(2, 0, 1)  # (H, T, S)


def alibi_slopes(n_heads: int) -> torch.Tensor:
    """(H,) geometric slopes 2^(−8/H·i); for H not a power of two, ALiBi's interleaving of the next power."""

    def geometric(n: int) -> list[float]:
        start = 2.0 ** (-8.0 / n)
        return [start ** (i + 1) for i in range(n)]

    if math.log2(n_heads).is_integer():
        return torch.tensor(geometric(n_heads))
    m = 2 ** math.floor(math.log2(n_heads))
    return torch.tensor(geometric(m) + geometric(2 * m)[0::2][: n_heads - m])


def alibi_bias(n_heads: int, T: int, S: int | None = None) -> torch.Tensor:
    """(H, T, S) additive bias −slope·|i − j| (the causal mask hides the future half)."""
    S = T if S is None else S
    q = torch.arange(T).unsqueeze(1) + (S - T)
    k = torch.arange(S).unsqueeze(0)
    return -alibi_slopes(n_heads)[:, None, None] * (q - k).abs().float()
