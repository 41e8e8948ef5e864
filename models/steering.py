"""Steering: generate with a fixed vector added to the residual stream at one layer, at every position.

Activation addition: Turner et al. 2023, "Steering Language Models With Activation Engineering" (arXiv 2308.10248)
add a vector to the stream at one layer while the model writes; they make it from the activations of a pair of
prompts. Contrastive activation addition: Rimsky et al. 2023, "Steering Llama 2 via Contrastive Activation Addition"
(arXiv 2312.06681) average the difference over many pairs, read at one position of each prompt. Here:

    x_l(t) ↦ x_l(t) + α · ν · u          at every position t, prompt and generated tokens alike (the KV cache holds
                                          the steered keys and values of the prompt)
    u      a unit direction, from one of two sources:
           - an SAE feature: its decoder column W_dec[:, i] (models/sae.py; the dictionary's scale s only stretches
             the stream uniformly, so the unit direction in the stream's own units is the same column)
           - two lists of prompts A and B: (mean_A x_l(last) − mean_B x_l(last)) / ‖…‖, x_l(last) the stream at the
             last token of each prompt (where CAA also reads, the position of the answer)
    ν      the stream's typical length at that layer: the median over the prompt's tokens of ‖x_l(t)‖, measured on
           the plain run (median, not mean: the first token's stream is often many times longer than the rest)
    α      what a learner sets: α = 1 adds a vector as long as a typical token's state at that layer

``x_l`` is the probe ``blocks.{l}.resid``, the stream after block l (counted from 0), in models/gpt.py and
models/llama.py alike (so SmolLM2, converted into the latter). The vector goes in through ``models.probe.intervene``,
the project's intervention mechanism; decoding is ``models.gpt.decode`` over ``eager_step`` (greedy at temperature 0,
else the project's seeded sampling, the same draws for the plain and the steered run). With α = 0 the override adds
an exact zero, so the steered run is the plain one, bit for bit.

The shift it makes is read at the first generated token, where both runs read the same prompt: the tokens whose
probability rises and falls most, the change of every logit and KL(p_plain ‖ p_steered) in nats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from models import gpt, sae
from models.probe import Override, intervene, trace


def hook(layer: int) -> str:
    """The stream after block ``layer`` (0-based)."""
    return f"blocks.{layer}.resid"


def add(vector: torch.Tensor) -> Override:
    """An override that adds ``vector`` (C,) to a (B, T, C) stream at every position."""

    def fn(x: torch.Tensor, name: str) -> torch.Tensor:
        return x + vector.to(device=x.device, dtype=x.dtype)

    return fn


def steer(layer: int, vector: torch.Tensor) -> dict[str, Override]:
    """The ``intervene`` argument that adds ``vector`` to the stream after block ``layer``."""
    return {hook(layer): add(vector)}


def _ids(tokens: Sequence[int], device) -> torch.Tensor:
    return torch.as_tensor(np.asarray(tokens, dtype=np.int64), device=device).reshape(1, -1)


def stream(model: nn.Module, tokens: Sequence[int], layer: int) -> torch.Tensor:
    """The stream after block ``layer`` for one sequence of ids: (T, C)."""
    return sae.activations(model, _ids(tokens, next(model.parameters()).device), hook(layer))[0]


def typical_norm(x: torch.Tensor) -> float:
    """ν: the median over positions of ‖x(t)‖ for a stream (T, C)."""
    return float(x.double().norm(dim=-1).median())


@torch.inference_mode()
def mean_last(model: nn.Module, prompts: Sequence[Sequence[int]], layer: int) -> torch.Tensor:
    """The mean over ``prompts`` of the stream after block ``layer`` at each prompt's last token: (C,) float64."""
    if not prompts:
        raise ValueError("no prompts")
    return torch.stack([stream(model, p, layer)[-1].double() for p in prompts]).mean(0)


def difference_of_means(
    model: nn.Module, positive: Sequence[Sequence[int]], negative: Sequence[Sequence[int]], layer: int
) -> torch.Tensor:
    """The unit direction (C,) float64 from the mean of ``negative`` to the mean of ``positive`` at the last token;
    ValueError when a list is empty or the two means coincide."""
    if not positive or not negative:
        raise ValueError("both lists need at least one prompt")
    mean_positive = mean_last(model, positive, layer)
    d = mean_positive - mean_last(model, negative, layer)
    length = float(d.norm())
    if not length > 1e-9 * max(1.0, float(mean_positive.norm())):
        raise ValueError("the two lists give the same mean activation")
    return d / length


def feature_direction(dictionary: nn.Module, i: int) -> torch.Tensor:
    """SAE feature ``i``'s unit decoder direction (C,) float64 in the stream's units."""
    d = dictionary.direction(i).detach().double()
    return d / d.norm()


@dataclass(frozen=True)
class Shift:
    """How the vector moves the next-token distribution at the first generated token. Tokens are ranked by the
    change of their probability (a ranking by the change of logit puts first tokens that stay improbable)."""

    promoted: tuple[tuple[int, float, float], ...]  # (id, p plain, p steered), the largest rise first
    suppressed: tuple[tuple[int, float, float], ...]  # the largest fall first
    kl: float  # KL(p_plain ‖ p_steered), nats
    logit_change: np.ndarray  # (V,) steered − plain logits


def shift(plain: np.ndarray, steered: np.ndarray, top: int = 10) -> Shift:
    """``Shift`` of two logit vectors (V,)."""
    plain, steered = np.asarray(plain, dtype=np.float64), np.asarray(steered, dtype=np.float64)
    lp = plain - np.logaddexp.reduce(plain)
    ls = steered - np.logaddexp.reduce(steered)
    p, q = np.exp(lp), np.exp(ls)
    order = np.argsort(-(q - p), kind="stable")
    return Shift(
        tuple((int(i), float(p[i]), float(q[i])) for i in order[:top]),
        tuple((int(i), float(p[i]), float(q[i])) for i in order[::-1][:top]),
        max(float(np.sum(p * (lp - ls))), 0.0),
        steered - plain,
    )


@dataclass(frozen=True)
class Steering:
    """A plain and a steered continuation of one prompt, and what the vector did to the first step."""

    plain: tuple[int, ...]  # new ids, plain
    steered: tuple[int, ...]  # new ids, with α · ν · u added
    plain_logits: np.ndarray  # (V,) float64, the first generated token's logits, plain
    steered_logits: np.ndarray  # (V,) the same, steered
    norm: float  # ν, the unit of α
    alpha: float
    layer: int

    @property
    def shift(self) -> Shift:
        return shift(self.plain_logits, self.steered_logits)


def _run(
    model: nn.Module, prompt: Sequence[int], n: int, *, cache: bool, sampling: dict, read: str | None = None
) -> tuple[list[int], np.ndarray, torch.Tensor | None]:
    """(new ids, the first step's logits, the stream at probe ``read`` on that step: the prompt's (T, C)) of
    ``models.gpt.decode`` over the eager step."""
    step = gpt.eager_step(model, cache)
    first: list = []

    def recorded(tokens, start, past):
        if first:
            return step(tokens, start, past)
        with trace(*(() if read is None else (read,))) as t:
            logits, present = step(tokens, start, past)
        first.append((logits, t[read][0] if read is not None else None))
        return logits, present

    ids = list(gpt.decode(recorded, list(prompt), n, max_len=max_len(model), cache=cache, **sampling))
    return ids, *first[0]


def max_len(model: nn.Module) -> int:
    """The longest sequence the model is run on here: its context (a rotary model's training context)."""
    return int(model.config.max_len)


def generate(
    model: nn.Module,
    prompt: Sequence[int],
    n: int,
    layer: int,
    direction: torch.Tensor,
    alpha: float,
    *,
    norm: float | None = None,
    cache: bool = True,
    temperature: float = 0.0,
    top_k: int = 0,
    top_p: float = 1.0,
    seed: int = 0,
) -> Steering:
    """The plain continuation of ``prompt`` (up to ``n`` new ids) and the one with α · ν · u added after block
    ``layer`` at every position (``direction`` u is normalised here). ``norm``: ν given (None: measured on the plain
    run's prompt, at no extra forward)."""
    if len(prompt) == 0:
        raise ValueError("an empty prompt")
    sampling = dict(temperature=temperature, top_k=top_k, top_p=top_p, seed=seed)
    plain, plain_logits, prompt_stream = _run(model, prompt, n, cache=cache, sampling=sampling, read=hook(layer))
    nu = typical_norm(prompt_stream) if norm is None else float(norm)
    u = direction.detach().double()
    u = u / u.norm()
    vector = (alpha * nu * u).float()
    with intervene(steer(layer, vector)):
        steered, steered_logits, _ = _run(model, prompt, n, cache=cache, sampling=sampling)
    return Steering(tuple(plain), tuple(steered), plain_logits, steered_logits, nu, float(alpha), layer)
