"""A plain training loop shared by the recipes: AdamW, warm-up then cosine decay, gradient clipping, a tqdm bar."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator

import torch
from torch import nn
from tqdm import tqdm


def lr_at(step: int, steps: int, lr: float, warmup: int) -> float:
    if step < warmup:
        return lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, steps - warmup)
    return lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))


def fit(model: nn.Module, batches: Iterator, loss_fn: Callable[[nn.Module, object], torch.Tensor], *,
        steps: int, lr: float = 3e-3, warmup: int = 50, weight_decay: float = 0.01, clip: float = 1.0,
        desc: str = "train", log_every: int = 50) -> list[float]:
    """Run ``steps`` optimiser steps; returns the loss of every step. Progress goes to stderr."""
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay, betas=(0.9, 0.95))
    model.train()
    losses: list[float] = []
    bar = tqdm(range(steps), desc=desc, file=sys.stderr, mininterval=5.0)  # also into a log file
    for step in bar:
        for group in opt.param_groups:
            group["lr"] = lr_at(step, steps, lr, warmup)
        loss = loss_fn(model, next(batches))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), clip)
        opt.step()
        losses.append(loss.item())
        if step % log_every == 0:
            bar.set_postfix(loss=f"{sum(losses[-log_every:]) / len(losses[-log_every:]):.4f}")
    model.eval()
    return losses
