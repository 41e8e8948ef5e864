"""Multi-head attention (Vaswani et al. 2017, 1706.03762), eager by default so every step can be probed.

    scores  = q·kᵀ / √D  (+ additive position bias)  masked where the mask is False
    pattern = softmax(scores) over keys
    context = pattern · v, heads concatenated, then the output projection Wo

Grouped-query attention (Ainslie et al. 2023): H query heads share G key/value heads (G divides H);
G = H is plain multi-head attention, G = 1 multi-query attention.

Shape letters: B batch, T queries, S keys, C model width, H query heads, G key/value heads, D head width.
Probes (relative to this module): ``q`` (B, H, T, D), ``k`` and ``v`` (B, G, S, D), ``scores`` (B, H, T, S)
before the softmax, ``pattern`` (B, H, T, S), ``context`` (B, H, T, D). The fused path (``fused=True``,
PyTorch SDPA) records only q, k, v and context, since it never materialises the matrix.
"""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models.layers.norms import RMSNorm
from models.layers.positions import apply_rope
from models.probe import Probe


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    """(B, G, S, D) -> (B, G·n_rep, S, D): each key/value head serves n_rep query heads."""
    if n_rep == 1:
        return x
    B, G, S, D = x.shape
    return x[:, :, None].expand(B, G, n_rep, S, D).reshape(B, G * n_rep, S, D)


def tensor_bytes(*tensors: torch.Tensor | None) -> int:
    """Bytes the given tensors hold (None: nothing cached yet)."""
    return sum(t.numel() * t.element_size() for t in tensors if t is not None)


def cache_bytes(caches) -> int:
    """Bytes held by every layer's cache (anything with ``nbytes``: KVCache, RollingKVCache, MLA's LatentCache)."""
    return sum(c.nbytes for c in caches)


class KVCache:
    """Keys and values of earlier positions, so decoding a new token costs one row, not the whole square."""

    def __init__(self) -> None:
        self.k: torch.Tensor | None = None
        self.v: torch.Tensor | None = None

    def __len__(self) -> int:
        return 0 if self.k is None else self.k.shape[2]

    @property
    def nbytes(self) -> int:
        """Bytes its key and value tensors hold (measured from the tensors)."""
        return tensor_bytes(self.k, self.v)

    def append(self, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        self.k = k if self.k is None else torch.cat([self.k, k], dim=2)
        self.v = v if self.v is None else torch.cat([self.v, v], dim=2)
        return self.k, self.v  # (B, G, S, D)


class RollingKVCache:
    """Mistral's rolling buffer (Jiang et al. 2023, 2310.06825): a fixed ``window`` W of slots, position i stored in
    slot i mod W, so memory stays W rows however long the sequence grows (once i ≥ W, i overwrites i − W).

    ``append(k, v)`` takes the keys/values of the next T positions and returns what they attend to, in position
    order: the up to W − 1 cached positions before them, then the T new ones (B, G, min(seen, W − 1) + T, D); keys
    then line up with ``sliding_window_mask(T, W, S)`` exactly as in a full forward pass. Only the last W positions
    are then kept. ``len(cache)`` is the number of positions seen (where the next one starts, as for KVCache);
    ``positions`` (W,) says which absolute position each slot holds (−1: empty).
    """

    def __init__(self, window: int) -> None:
        if window < 1:
            raise ValueError("the window must hold at least one position")
        self.window = window
        self.k: torch.Tensor | None = None  # (B, G, W, D), slot order
        self.v: torch.Tensor | None = None
        self.positions = np.full(window, -1, dtype=np.int64)
        self.seen = 0

    def __len__(self) -> int:
        return self.seen

    @property
    def nbytes(self) -> int:
        """Bytes its W slots of keys and values hold (measured from the tensors)."""
        return tensor_bytes(self.k, self.v)

    @property
    def filled(self) -> int:
        """Slots in use: min(positions seen, W)."""
        return min(self.seen, self.window)

    def slot(self, position: int) -> int:
        return position % self.window

    def _in_order(self, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        """The last n cached positions' keys and values, oldest first."""
        slots = torch.arange(self.seen - n, self.seen, device=self.k.device) % self.window
        return self.k[:, :, slots], self.v[:, :, slots]  # (B, G, n, D)

    def append(self, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        B, G, T, D = k.shape
        if self.k is None:
            self.k = k.new_zeros(B, G, self.window, D)
            self.v = v.new_zeros(B, G, self.window, D)
        before = min(self.seen, self.window - 1)  # what the first new query can still see
        old_k, old_v = self._in_order(before)
        keys, values = torch.cat([old_k, k], dim=2), torch.cat([old_v, v], dim=2)
        kept = min(T, self.window)  # a chunk longer than W overwrites its own first positions
        new_positions = np.arange(self.seen + T - kept, self.seen + T)
        slots = torch.as_tensor(new_positions % self.window, device=k.device)
        self.k[:, :, slots] = k[:, :, T - kept :]
        self.v[:, :, slots] = v[:, :, T - kept :]
        self.positions[new_positions % self.window] = new_positions
        self.seen += T
        return keys, values  # (B, G, before + T, D), position order


class MultiHeadAttention(nn.Module):
    """Multi-head attention with H query heads and G key/value heads (GQA: G divides H), optional rotary positions
    and a KV cache. Options a family of checkpoints needs (each off by default): ``head_dim``, a head width other
    than C / H (W_q then maps C to H·D); ``qk_norm_eps``, an RMSNorm of width D on every query and key head before
    the rotation (QK-norm: Gemma 3, with the ε given); ``scale``, the factor on q·k other than 1/√D."""

    def __init__(
        self,
        dim: int,
        n_heads: int,
        *,
        n_kv_heads: int | None = None,
        bias: bool = True,
        fused: bool = False,
        head_dim: int | None = None,
        qk_norm_eps: float | None = None,
        scale: float | None = None,
    ):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads or n_heads
        if (head_dim is None and dim % n_heads) or n_heads % self.n_kv_heads:
            raise ValueError("dim must divide into n_heads, and n_heads into n_kv_heads")
        self.head_dim = head_dim or dim // n_heads
        self.scale = scale  # None: 1/√D (divided by √D, as before this option, so old results stay bit-equal)
        self.fused = fused
        inner = n_heads * self.head_dim
        self.wq = nn.Linear(dim, inner, bias=bias)
        self.wk = nn.Linear(dim, self.n_kv_heads * self.head_dim, bias=bias)
        self.wv = nn.Linear(dim, self.n_kv_heads * self.head_dim, bias=bias)
        self.wo = nn.Linear(inner, dim, bias=bias)
        if qk_norm_eps is not None:
            self.q_norm, self.k_norm = RMSNorm(self.head_dim, qk_norm_eps), RMSNorm(self.head_dim, qk_norm_eps)
        else:
            self.q_norm = self.k_norm = None
        self.q, self.k, self.v = Probe(), Probe(), Probe()
        self.scores, self.pattern, self.context = Probe(), Probe(), Probe()

    def _heads(self, x: torch.Tensor, n: int) -> torch.Tensor:
        B, T, _ = x.shape
        return x.view(B, T, n, self.head_dim).transpose(1, 2)  # (B, n, T, D)

    def forward(
        self,
        x: torch.Tensor,
        *,
        source: torch.Tensor | None = None,
        mask: torch.Tensor | None = None,
        bias: torch.Tensor | None = None,
        rope: tuple[torch.Tensor, torch.Tensor] | None = None,
        rope_keys: tuple[torch.Tensor, torch.Tensor] | None = None,
        cache: KVCache | RollingKVCache | None = None,
    ) -> torch.Tensor:
        """Attend from x (B, T, C) to ``source`` (B, S, C; x itself when None: self-attention).

        Args:
            mask: bool, broadcastable to (B, H, T, S); True = may attend.
            bias: float added to the scores, broadcastable to (B, H, T, S) (ALiBi, T5 buckets).
            rope: (cos, sin) of the queries' positions, (T, D/2); keys use ``rope_keys`` or the same.
            cache: keys/values of earlier positions (KVCache, or RollingKVCache); this call's are appended and
                what the cache returns is attended.
        Returns:
            (B, T, C)
        """
        src = x if source is None else source
        q = self._heads(self.wq(x), self.n_heads)  # (B, H, T, D)
        k = self._heads(self.wk(src), self.n_kv_heads)  # (B, G, S, D)
        v = self._heads(self.wv(src), self.n_kv_heads)  # (B, G, S, D)
        if self.q_norm is not None:
            q, k = self.q_norm(q), self.k_norm(k)
        if rope is not None:
            q = apply_rope(q, *rope)
            k = apply_rope(k, *(rope_keys or rope))
        if cache is not None:
            k, v = cache.append(k, v)
        q, k, v = self.q(q), self.k(k), self.v(v)
        n_rep = self.n_heads // self.n_kv_heads
        k, v = repeat_kv(k, n_rep), repeat_kv(v, n_rep)  # (B, H, S, D)

        if self.fused:
            attn_mask = mask
            if bias is not None:
                attn_mask = bias if mask is None else bias.masked_fill(~mask, float("-inf"))
            context = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, scale=self.scale)  # None: 1/√D
        else:
            scores = q @ k.transpose(-2, -1)  # (B, H, T, S)
            scores = scores / math.sqrt(self.head_dim) if self.scale is None else scores * self.scale
            if bias is not None:
                scores = scores + bias
            if mask is not None:
                # The dtype's lowest value rather than -inf: a fully masked row gives a uniform row, not NaN.
                scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
            pattern = self.pattern(torch.softmax(self.scores(scores), dim=-1))
            context = pattern @ v  # (B, H, T, D)
        context = self.context(context)
        B, H, T, D = context.shape
        return self.wo(context.transpose(1, 2).reshape(B, T, H * D))
