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


# ---- InstructGPT (2203.02155) and DPO (2305.18290) -------------------------------------------------------------------


def bradley_terry_loss(r_chosen: torch.Tensor, r_rejected: torch.Tensor) -> torch.Tensor:
    """The reward model's loss on preference pairs (InstructGPT Eq. 1): mean −log σ(r_w − r_l); (N,), (N,) -> ()."""
    return -torch.nn.functional.logsigmoid(r_chosen - r_rejected).mean()


def preference_probability(r_a: np.ndarray | float, r_b: np.ndarray | float) -> np.ndarray:
    """Bradley–Terry: the probability that a is preferred to b, σ(r_a − r_b)."""
    return 1.0 / (1.0 + np.exp(-(np.asarray(r_a, dtype=np.float64) - np.asarray(r_b, dtype=np.float64))))


def dpo_loss(
    logp_chosen: torch.Tensor,
    logp_rejected: torch.Tensor,
    ref_chosen: torch.Tensor,
    ref_rejected: torch.Tensor,
    beta: float,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """DPO's loss (Rafailov et al. 2023, Eq. 7) on N pairs, from each response's summed log-probability under the
    policy and the frozen reference (N,):

        r̂(x, y) = β log π_θ(y | x) / π_ref(y | x)                     the implicit reward
        loss = −log σ(r̂(x, y_w) − r̂(x, y_l))                          averaged over the pairs

    Returns (loss, r̂ of the chosen (N,), r̂ of the rejected (N,))."""
    chosen, rejected = beta * (logp_chosen - ref_chosen), beta * (logp_rejected - ref_rejected)
    return -torch.nn.functional.logsigmoid(chosen - rejected).mean(), chosen, rejected


def kl_per_token(logits: torch.Tensor, ref_logits: torch.Tensor) -> torch.Tensor:
    """The exact KL(π ‖ π_ref) of the next-token distributions at every position, summed over the vocabulary:
    (..., V), (..., V) -> (...)."""
    logp, logq = torch.log_softmax(logits.float(), -1), torch.log_softmax(ref_logits.float(), -1)
    return (logp.exp() * (logp - logq)).sum(-1)


def gae(rewards: torch.Tensor, values: torch.Tensor, mask: torch.Tensor, *, gamma: float = 1.0, lam: float = 0.95):
    """Generalised advantage estimation (Schulman et al. 2016) over each response's tokens, as PPO uses it:

        δ_t = r_t + γ V_{t+1} − V_t          (V after the last token is 0)
        Â_t = δ_t + γ λ Â_{t+1}              returns R_t = Â_t + V_t

    rewards, values, mask (N, T): the per-token reward, the value estimate and which positions are response tokens
    (a response's tokens are contiguous). Returns (advantages, returns), 0 outside the mask."""
    m = mask.to(values.dtype)
    values, rewards = values * m, rewards * m
    adv = torch.zeros_like(values)
    last = torch.zeros_like(values[:, 0])
    for t in reversed(range(values.shape[1])):
        nxt = values[:, t + 1] if t + 1 < values.shape[1] else torch.zeros_like(last)
        delta = rewards[:, t] + gamma * nxt - values[:, t]
        last = (delta + gamma * lam * last) * m[:, t]
        adv[:, t] = last
    return adv, (adv + values) * m


def ppo_losses(
    logp: torch.Tensor,
    logp_old: torch.Tensor,
    advantages: torch.Tensor,
    values: torch.Tensor,
    values_old: torch.Tensor,
    returns: torch.Tensor,
    mask: torch.Tensor,
    *,
    clip: float = 0.2,
) -> tuple[torch.Tensor, torch.Tensor, dict[str, float]]:
    """PPO's clipped surrogate (Schulman et al. 2017, Eq. 7) and its clipped value loss, averaged over the masked
    tokens; every argument (N, T). Returns (policy loss, value loss, parts: the clipped share and the approximate KL
    to the sampling policy)."""
    m = mask.to(logp.dtype)
    n = m.sum().clamp(min=1)
    ratio = torch.exp(logp - logp_old)
    unclipped, clipped = ratio * advantages, torch.clamp(ratio, 1 - clip, 1 + clip) * advantages
    policy_loss = -(torch.minimum(unclipped, clipped) * m).sum() / n
    v_clipped = values_old + torch.clamp(values - values_old, -clip, clip)
    value_loss = 0.5 * (torch.maximum((values - returns) ** 2, (v_clipped - returns) ** 2) * m).sum() / n
    parts = {
        "clipped": float(((clipped < unclipped).to(logp.dtype) * m).sum() / n),
        "approx_kl": float((((logp_old - logp) * m).sum() / n).detach()),
    }
    return policy_loss, value_loss, parts
