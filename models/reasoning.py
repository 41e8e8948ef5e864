"""The reasoning checkpoints (``direct``, ``cot``, ``grpo-start``, ``grpo``) at serving time: completing chain
problems (models/data/chains.py) with any decoder of the zoo, the held-out problem sets their cards are measured on,
and the settings they were trained with.

How they are trained and evaluated is models/recipes/reasoning.py, which imports all of this; the reasoning page and
the benchmarks import it without any training code. The settings below are the recipe's defaults (each a ``--set``
flag of ``python -m models.train``); a card records the ones its run used, which a page prefers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from models import gpt, llama
from models.data import chains

# ---- the settings the checkpoints are trained with (the recipe's defaults) -------------------------------------------

SUPERVISED = {
    "steps": 6000,
    "batch": 64,
    "lr": 3e-3,
    "warmup": 100,
    "weight_decay": 0.01,
    "easy_steps": 5,  # most problems have 1 … easy_steps operations
    "hard_share": 0.1,  # easy_steps + 1 operations, where the bar is held
    "table_share": 0.3,  # single operations: the table every step looks up
    "table_steps": 1000,  # a curriculum: the first steps train single operations only (docs/training/reasoning.md)
}
# The start: formatted examples of 1 … easy_steps operations (a table_share of them single operations), a
# direct_share of them answered directly and the rest worked, cycled, from ``cot``. On a new six-operation question it
# then writes the answer alone most of the time (run 18, docs/training/reasoning.md). Runs 15–17 started from
# ``direct`` fine-tuned on worked examples instead: it wrote steps it did not know, and GRPO gained 0.03.
COLD_START = {
    "examples": 2048,
    "direct_share": 0.75,
    "table_share": 0.3,
    "steps": 1500,
    "batch": 32,
    "lr": 1e-3,
    "warmup": 10,
    "weight_decay": 0.01,
}
GRPO = {
    "steps": 200,
    "questions": 16,  # per step
    "group": 8,  # G completions per question
    "updates": 2,  # optimiser steps on each sampled batch (DeepSeekMath: 1)
    "lr": 3e-4,
    "clip": 0.2,
    "beta": 0.04,  # KL coefficient, as DeepSeekMath
    "temperature": 1.0,
    "max_steps_in_question": 6,
}


# ---- the held-out problems -------------------------------------------------------------------------------------------

EVAL_N = 400  # held-out problems per number of operations
PASS_K = 8  # samples per problem for pass@k and maj@k
BAR_STEPS = 6  # where the cot-vs-direct bar is held


def held_out_set(k: int, n: int = EVAL_N) -> list[chains.Problem]:
    """The evaluation's problems of ``k`` operations: held-out ones only, from a seed of their own."""
    return chains.problems(np.random.default_rng(1000 + k), k, n, split="held_out")


# ---- decoding --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Samples:
    prompts: list[str]
    completions: list[str]
    ids: torch.Tensor  # (N, P + T) prompt then completion ids, padded with 0 after the end
    mask: torch.Tensor  # (N, P + T - 1) bool: positions whose next token is a completion token
    logp: torch.Tensor  # (N, P + T - 1) the sampled tokens' log-probabilities under the sampling policy (0 elsewhere)


def decode(
    model: llama.Llama, prompts: list[str], *, temperature: float = 0.0, generator: torch.Generator | None = None
) -> Samples:
    """Complete prompts of one length together (``gpt.decode_batch``): greedy at temperature 0, else sampled; each
    row stops at ``.`` or at the context's end."""
    if len({len(p) for p in prompts}) != 1:
        raise ValueError("decode takes prompts of one length")
    x = torch.tensor([chains.encode(p) for p in prompts])
    n, p_len = x.shape
    device = model.embed.weight.device  # decode where the model is; the results come back to the CPU
    completion, logps = gpt.decode_batch(
        model, x.to(device), chains.encode(chains.END)[0], temperature=temperature, generator=generator
    )
    completion, logps = completion.cpu(), logps.cpu()
    ids = torch.cat([x, completion], dim=1)
    mask = torch.zeros(n, ids.shape[1] - 1, dtype=torch.bool)
    mask[:, p_len - 1 :] = completion != 0
    logp = torch.zeros(n, ids.shape[1] - 1)
    logp[:, p_len - 1 :] = logps
    return Samples(list(prompts), [chains.decode(row.tolist()) for row in completion], ids, mask, logp)
