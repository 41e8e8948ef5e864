"""Policy-gradient pieces of GRPO (DeepSeekMath, Shao et al. 2024, 2402.03300, §4.1), as pure functions on arrays.

GRPO samples a group of G outputs o_1 … o_G for each question q from the old policy, scores each with a reward r_i,
and uses the group itself as the baseline instead of a learned value network (PPO's critic):

    Â_i,t = (r_i − mean(r)) / std(r)                              outcome supervision: one advantage per output,
                                                                  given to each of its tokens
    ρ_i,t = π_θ(o_i,t | q, o_i,<t) / π_old(o_i,t | q, o_i,<t)
    J(θ) = 1/G Σ_i 1/|o_i| Σ_t [ min(ρ Â, clip(ρ, 1 − ε, 1 + ε) Â) − β D_KL ]
    D_KL = π_ref/π_θ − log(π_ref/π_θ) − 1                         per token (an unbiased estimator, always ≥ 0)

The loss is −J. All functions take per-token log-probabilities of the sampled tokens (shape (N, T) for N outputs of
up to T tokens) and a mask (N, T) of the tokens that belong to each output. They run on torch tensors (training) and
on numpy arrays (the page) alike where they only do arithmetic.
"""

from __future__ import annotations

import numpy as np
import torch

EPS = 1e-4  # added to the group's standard deviation: a group whose rewards are all equal has advantages 0


def group_advantages(rewards: np.ndarray) -> np.ndarray:
    """rewards (Q, G), one row per question's group -> advantages (Q, G): each reward minus its group's mean, over
    the group's standard deviation (population, ddof 0) plus EPS."""
    r = np.asarray(rewards, dtype=np.float64)
    return (r - r.mean(axis=-1, keepdims=True)) / (r.std(axis=-1, keepdims=True) + EPS)


def kl_k3(logp: torch.Tensor, logp_ref: torch.Tensor) -> torch.Tensor:
    """The per-token KL estimate of DeepSeekMath's Eq. 4: π_ref/π − log(π_ref/π) − 1, from log-probabilities."""
    d = logp_ref - logp
    return torch.exp(d) - d - 1


def grpo_loss(
    logp: torch.Tensor,
    logp_old: torch.Tensor,
    logp_ref: torch.Tensor,
    advantages: torch.Tensor,
    mask: torch.Tensor,
    *,
    clip: float = 0.2,
    beta: float = 0.04,
) -> tuple[torch.Tensor, dict[str, float]]:
    """−J(θ) for N outputs: logp, logp_old, logp_ref (N, T) the sampled tokens' log-probabilities under the policy
    being trained, the policy that sampled them and the reference; advantages (N,); mask (N, T).

    Returns the loss (a scalar tensor) and what it is made of: the mean surrogate, the mean KL estimate, and the
    fraction of tokens where the clipped term was the smaller one (its gradient is then zero)."""
    mask = mask.to(logp.dtype)
    ratio = torch.exp(logp - logp_old)
    adv = advantages[:, None].to(logp.dtype)
    unclipped, clipped_term = ratio * adv, torch.clamp(ratio, 1 - clip, 1 + clip) * adv
    surrogate = torch.minimum(unclipped, clipped_term)
    kl = kl_k3(logp, logp_ref)
    per_token = surrogate - beta * kl
    lengths = mask.sum(dim=1).clamp(min=1)
    objective = ((per_token * mask).sum(dim=1) / lengths).mean()
    clipped = (clipped_term < unclipped).to(logp.dtype)  # the clip chose the term: no gradient through ρ there
    n = mask.sum().clamp(min=1)
    parts = {
        "surrogate": float(((surrogate * mask).sum(dim=1) / lengths).mean().detach()),
        "kl": float(((kl * mask).sum() / n).detach()),
        "clipped": float((clipped * mask).sum() / n),
    }
    return -objective, parts


def token_weights(advantages: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """How hard the first GRPO update pushes each output's tokens (ρ = 1, before clipping or KL): d J / d log π of
    each of its tokens is Â_i / |o_i| / G. Positive: that token becomes more likely; negative: less. advantages (G,),
    lengths (G,) -> weights (G,)."""
    a, n = np.asarray(advantages, dtype=np.float64), np.asarray(lengths, dtype=np.float64)
    return a / np.maximum(n, 1) / len(a)
