"""The alignment models of InstructGPT (Ouyang et al. 2022, 2203.02155): a reward model, and the policy with a value
head that PPO trains. (The SFT, PPO and DPO policies themselves are plain GPTs, models/gpt.py.)

InstructGPT §3.5: the reward model is the SFT model with its unembedding layer replaced by a projection to one scalar,
read at the end of the response; it is trained on pairs of responses to one prompt, the labellers' preferred y_w and
the other y_l, with the Bradley–Terry loss

    loss(θ) = −log σ(r_θ(x, y_w) − r_θ(x, y_l))                       (models/rl.py: bradley_terry_loss)

PPO's value function V(x, y_<t) (InstructGPT initialises it from the reward model) estimates the return after each
token; here it is a second scalar head on the policy's own trunk (a shared trunk, as in common open-source PPO for
language models; InstructGPT kept a separate 6B value model).

    r(x, y)_t = w · LN_f(x_L)_t + b                                    (scalar head; x_L the last block's output)

Glossary (shape letters): B batch, T positions, C model width.

Probes: those of the GPT trunk (models/gpt.py), and ``reward`` (B, T) the scalar at every position.
"""

from __future__ import annotations

from dataclasses import asdict

import torch
from torch import nn

from models import gpt
from models.probe import Probe, name_probes

# The KL coefficients the shipped policies were trained with (the recipe's defaults; the ppo and dpo cards record
# them). PPO: β of the per-token KL penalty (InstructGPT: 0.02); 0.05 and 0.3 collapsed (docs/training/alignment.md).
PPO_KL_COEF = 1.0
# DPO: at the DPO paper's usual 0.1, KL to sft was 7.9 nats and greedy replies repeated "good my lord" to the 12-word
# limit; at 0.5 KL is 1.8, as PPO's (docs/training/alignment.md).
DPO_BETA = 0.5


class ScalarHead(nn.Module):
    """LN_f(x_L) -> one number per position, (B, T, C) -> (B, T)."""

    def __init__(self, dim: int):
        super().__init__()
        self.proj = nn.Linear(dim, 1)
        nn.init.zeros_(self.proj.weight)  # starts at 0 for every input: no preference before training
        nn.init.zeros_(self.proj.bias)

    def forward(self, normed: torch.Tensor) -> torch.Tensor:
        return self.proj(normed)[..., 0]


class RewardModel(nn.Module):
    """The SFT model's trunk and final LayerNorm with a scalar head in place of the unembedding."""

    def __init__(self, c: gpt.Config):
        super().__init__()
        self.config = c
        self.gpt = gpt.GPT(c)
        self.head = ScalarHead(c.dim)
        self.reward = Probe()
        name_probes(self)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """tokens (B, T) -> the reward at every position (B, T); a response's reward is the value at its last
        token (its END)."""
        return self.reward(self.head(self.gpt.ln_f(self.gpt.trunk(tokens))))


class PolicyWithValue(nn.Module):
    """PPO's actor and critic on one trunk: the policy's logits and the value head's V at every position."""

    def __init__(self, policy: gpt.GPT):
        super().__init__()
        self.policy = policy
        self.value = ScalarHead(policy.config.dim)

    def forward(self, tokens: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """tokens (B, T) -> (logits (B, T, V), values (B, T))."""
        x = self.policy.trunk(tokens)
        return self.policy.unembed(x), self.value(self.policy.ln_f(x))


def build(config: dict) -> RewardModel:
    return RewardModel(gpt.Config(**config))


def reward_from_policy(policy: gpt.GPT) -> RewardModel:
    """A reward model that starts from a policy's weights (InstructGPT: from the SFT model), head at zero."""
    rm = RewardModel(gpt.Config(**asdict(policy.config)))
    rm.gpt.load_state_dict(policy.state_dict())
    return rm


# ---- replies ---------------------------------------------------------------------------------------------------------

MAX_NEW = 24  # tokens a reply may take (the longest demonstration is 27 tokens with END; 95% take 20)


def by_length(prompt_ids: list[list[int]]) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    for i, p in enumerate(prompt_ids):
        groups.setdefault(len(p), []).append(i)
    return groups


@torch.inference_mode()
def complete(
    model: gpt.GPT,
    prompt_ids: list[list[int]],
    *,
    temperature: float = 0.0,
    generator: torch.Generator | None = None,
    chunk: int = 64,
) -> list[list[int]]:
    """Each prompt's reply ids (up to END included, at most MAX_NEW), prompts of one length decoded together."""
    out: list[list[int]] = [[] for _ in prompt_ids]
    for idx in by_length(prompt_ids).values():
        for s in range(0, len(idx), chunk):
            part = idx[s : s + chunk]
            x = torch.tensor([prompt_ids[i] for i in part])
            ids, _ = gpt.decode_batch(model, x, 0, temperature=temperature, generator=generator, max_new=MAX_NEW)
            for i, row in zip(part, ids.tolist()):
                out[i] = row[: row.index(0) + 1] if 0 in row else row
    return out
