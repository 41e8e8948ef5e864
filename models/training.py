"""The one training loop of the recipes: AdamW, warm-up then cosine decay, gradient clipping, a tqdm bar.

``Trainer`` owns one model's optimiser and schedule and takes one step at a time, so a recipe can interleave two
models (the LLaMA-vs-GPT race on equal step time); ``fit`` runs one model for a number of steps. ``fast_kernels``
is the one way to switch a model to its training kernels and back. ``Recorder`` records a run as it trains: every
step's loss, and snapshots of the weights (float16) with measures taken on them at the steps of a schedule
(``snapshot_steps``: log-spaced early, where mechanisms form, and evenly spaced after).
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import math
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import numpy as np
import safetensors.torch
import torch
from torch import nn
from tqdm import tqdm

from models.layers import MultiHeadAttention


def lr_at(progress: float, step: int, lr: float, warmup: int) -> float:
    """Linear warm-up over the first ``warmup`` steps, then cosine from ``lr`` to a tenth of it as ``progress``
    (the fraction of the run done, in steps or in seconds) goes from 0 to 1."""
    if step < warmup:
        return lr * (step + 1) / warmup
    return lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, progress))))


SCHEDULE = ("steps", "budget_s", "lr", "warmup", "weight_decay")


_DEVICE = torch.device("cpu")


def use_device(name: str) -> None:
    """Where every ``Trainer`` built after this call trains its model ("cpu" or "cuda"); ``python -m models.train
    --device`` sets it. The recipes build their models on the CPU; ``Trainer`` moves the model there and each batch
    along with it, and ``models.train`` brings the trained model back to the CPU before saving and evaluating."""
    device = torch.device(name)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError("--device cuda: no CUDA device here")
    global _DEVICE
    _DEVICE = device


def to_device(batch: object, device: torch.device) -> object:
    """A batch (a tensor, or a tuple / list of them) on ``device``; anything else unchanged."""
    if isinstance(batch, torch.Tensor):
        return batch.to(device, non_blocking=True)
    if isinstance(batch, tuple | list):
        return type(batch)(to_device(b, device) for b in batch)
    return batch


def schedule(settings: dict) -> dict:
    """The keys of a recipe's settings that ``Trainer`` / ``fit`` take (steps or budget_s, lr, warm-up, weight
    decay), so every recipe passes them the same way: ``fit(model, batches, loss, **schedule(settings))``."""
    return {key: settings[key] for key in SCHEDULE if key in settings}


def snapshot_steps(total: int, log_spaced: int = 12, even: int = 12) -> list[int]:
    """The steps at which a run of ``total`` steps keeps its weights: 0, ``log_spaced`` steps spread on a log scale
    from 1 (dense early, where a mechanism can form in a few steps), ``even`` steps spread evenly, and the last."""
    log = np.geomspace(1, total, log_spaced) if log_spaced else []
    lin = np.linspace(0, total, even + 1) if even else []
    return sorted({0, total, *(int(round(x)) for x in (*log, *lin))})


class Recorder:
    """What a run keeps of its training for the pages' step slider: every step's loss (``history``) and, at the steps
    ``steps``, the weights in float16 under ``out/snapshots/`` with ``measure(model)`` taken on them (the model in
    eval mode, no gradients), listed in ``records`` (step, file, sha256, bytes, metrics) for the card.

    A ``Trainer`` given a recorder calls ``record(0, model)`` before its first step and ``record(n, model, loss)``
    after its n-th; the time spent here is not counted in the trainer's seconds. ``extra(model)`` adds per-step
    numbers to the history (an MoE router's loads), each a float or a list of floats."""

    def __init__(
        self,
        out: Path,
        steps: Iterable[int],
        measure: Callable[[nn.Module], dict] | None = None,
        extra: Callable[[nn.Module], dict] | None = None,
    ):
        self.out, self.steps, self.measure, self.extra = Path(out), set(steps), measure, extra
        self.records: list[dict] = []
        self.history: dict[str, list] = {"step": [], "loss": []}
        shutil.rmtree(self.out / "snapshots", ignore_errors=True)  # a new run's snapshots only

    def record(self, step: int, model: nn.Module, loss: float | None = None) -> None:
        if loss is not None:
            self.history["step"].append(step)
            self.history["loss"].append(round(float(loss), 4))
            for key, value in (self.extra(model) if self.extra else {}).items():
                self.history.setdefault(key, []).append(value)
        if step in self.steps and all(r["step"] != step for r in self.records):
            self.records.append(self.snapshot(step, model))

    def snapshot(self, step: int, model: nn.Module) -> dict:
        from models import zoo

        was_training = model.training
        model.eval()
        with torch.inference_mode(), fast_kernels(model, fused=False):
            found = self.measure(model) if self.measure else {}
            half = copy.deepcopy(model).cpu().half()
        model.train(was_training)
        path = self.out / zoo.snapshot_file(step)
        path.parent.mkdir(parents=True, exist_ok=True)
        safetensors.torch.save_model(half, str(path))
        data = path.read_bytes()
        return {
            "step": step,
            "file": zoo.snapshot_file(step),
            "sha256": hashlib.sha256(data).hexdigest(),
            "bytes": len(data),
            "metrics": found,
        }


class Trainer:
    """One model's optimiser, schedule, clock and losses.

    The run ends after ``steps`` optimiser steps, or, with ``budget_s``, once its steps have used that many seconds
    (the schedule then follows the time used). ``clock`` replaces ``time.perf_counter`` (tests).
    """

    def __init__(
        self,
        model: nn.Module,
        loss_fn: Callable[[nn.Module, object], torch.Tensor],
        *,
        steps: int = 0,
        budget_s: float = 0.0,
        lr: float = 3e-3,
        warmup: int = 50,
        weight_decay: float = 0.01,
        clip: float = 1.0,
        clock: Callable[[], float] = time.perf_counter,
        recorder: Recorder | None = None,
    ):
        if (steps > 0) == (budget_s > 0):
            raise ValueError("give either steps or budget_s")
        self.device = _DEVICE
        self.model, self.loss_fn, self.clock = model.to(self.device), loss_fn, clock
        self.steps, self.budget_s, self.lr, self.warmup, self.clip = steps, budget_s, lr, warmup, clip
        self.opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay, betas=(0.9, 0.95))
        self.seconds = 0.0
        self.losses: list[float] = []
        self.recorder = recorder
        model.train()
        if recorder is not None:
            recorder.record(0, model)

    @property
    def progress(self) -> float:
        """The fraction of the run done: of the budget's seconds, or of the steps after warm-up (as the recipes'
        step-counted runs were scheduled: the cosine starts where the warm-up ends)."""
        if self.budget_s:
            return self.seconds / self.budget_s
        return (len(self.losses) - self.warmup) / max(1, self.steps - self.warmup)

    @property
    def done(self) -> bool:
        return self.seconds >= self.budget_s if self.budget_s else len(self.losses) >= self.steps

    def step(self, batch: object) -> float:
        start = self.clock()
        for group in self.opt.param_groups:
            group["lr"] = lr_at(self.progress, len(self.losses), self.lr, self.warmup)
        loss = self.loss_fn(self.model, to_device(batch, self.device))
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
        self.opt.step()
        self.losses.append(loss.item())  # (waits for the device, so the step's time is all counted)
        self.seconds += self.clock() - start
        if self.recorder is not None:
            self.recorder.record(len(self.losses), self.model, self.losses[-1])
        return self.losses[-1]

    def mean_loss(self, last: int = 50) -> float:
        return round(float(np.mean(self.losses[-last:])), 4)

    def summary(self, name: str, last: int = 50) -> dict:
        """The card's record of this run as one stage."""
        return {
            "stage": name,
            "steps": len(self.losses),
            "train_seconds": round(self.seconds, 1),
            "final_train_loss": self.mean_loss(last),
        }


def fit(
    model: nn.Module,
    batches: Iterator,
    loss_fn: Callable[[nn.Module, object], torch.Tensor],
    *,
    steps: int,
    lr: float = 3e-3,
    warmup: int = 50,
    weight_decay: float = 0.01,
    clip: float = 1.0,
    desc: str = "train",
    log_every: int = 50,
) -> Trainer:
    """Run ``steps`` optimiser steps on one model; returns its Trainer (losses, seconds). Progress goes to stderr."""
    trainer = Trainer(model, loss_fn, steps=steps, lr=lr, warmup=warmup, weight_decay=weight_decay, clip=clip)
    bar = tqdm(range(steps), desc=desc, file=sys.stderr, mininterval=5.0)  # also into a log file
    for step in bar:
        trainer.step(next(batches))
        if step % log_every == 0:
            bar.set_postfix(loss=f"{np.mean(trainer.losses[-log_every:]):.4f}")
    model.eval()
    return trainer


@contextlib.contextmanager
def fast_kernels(*models: nn.Module, fused: bool = True):
    """Within the block, the models run their training kernel: fused attention (SDPA) instead of the eager path.
    Training never probes, and both compute the same function (tests hold them equal). Back to the eager path after.
    ``fused=False``: the eager path within the block (what a ``Recorder`` measures with, since it reads the
    attention patterns). (Mamba's training scan is an argument of its forward, ``scan="sequential"``:
    models/recipes/mamba.py.)"""
    saved: list[tuple[nn.Module, str, bool]] = []
    for model in models:
        for module in model.modules():
            if isinstance(module, MultiHeadAttention):
                saved.append((module, "fused", module.fused))
                module.fused = fused
    try:
        yield
    finally:
        for module, attr, value in saved:
            setattr(module, attr, value)
