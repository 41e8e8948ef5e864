"""Attention masks. One convention across the zoo: boolean, ``True`` = this query may attend to this key.

Shapes: T queries, S keys. When S > T (a KV cache holds earlier keys), query i sits at absolute position
S - T + i, so the last query sees every key.
"""

from __future__ import annotations

import torch


def causal_mask(T: int, S: int | None = None, device: torch.device | str | None = None) -> torch.Tensor:
    """(T, S) lower-triangular mask: query i sees keys j <= S - T + i."""
    S = T if S is None else S
    q = torch.arange(T, device=device).unsqueeze(1) + (S - T)
    k = torch.arange(S, device=device).unsqueeze(0)
    return k <= q  # (T, S)


def sliding_window_mask(
    T: int, window: int, S: int | None = None, device: torch.device | str | None = None
) -> torch.Tensor:
    """(T, S) band: causal, and at most ``window`` keys (itself included) back. Row t sees min(window, t+1) keys."""
    S = T if S is None else S
    q = torch.arange(T, device=device).unsqueeze(1) + (S - T)
    k = torch.arange(S, device=device).unsqueeze(0)
    return (k <= q) & (q - k < window)  # (T, S)


def padding_mask(tokens: torch.Tensor, pad_id: int) -> torch.Tensor:
    """(B, 1, 1, S) mask hiding padded keys; broadcasts against (B, H, T, S) scores."""
    return (tokens != pad_id)[:, None, None, :]
