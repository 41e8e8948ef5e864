"""The dynamics model's training, shared by its recorded run (``python -m models.train gpt-induction``) and the live
training a learner starts on the GPT page: a small GPT (models/gpt.py) learning from scratch on Shakespeare's
training plays, every window of 64 tokens with a piece of itself (8-24 tokens) written again further on
(models/data/repeats.py), so that copying pays and an induction head forms within minutes of one CPU core. (Random ids
shown twice, which the shipped gpt's second stage adds, made this small model learn to copy any earlier token
instead and undid its previous-token heads: docs/training/gpt.md.)

``run`` steps the optimiser (``models.training.Trainer``) and, every ``measure_every`` steps, measures every head
on held-out data (``metrics.training_measures``: previous-token and induction scores, the losses on a sequence's
first copy and its repeat, the in-context-learning score) and hands the measures to ``on_measure``; ``stop`` ends
it early (the live trainer's cancel and time cap). Nothing here writes a file: the recipe passes a
``training.Recorder`` for the snapshots, the live trainer keeps its own in memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models import gpt, metrics
from models.data import windows
from models.data.repeats import with_repeats
from models.training import Recorder, Trainer, fast_kernels, schedule

SETTINGS: dict = {
    "vocab": 512,  # a byte-level BPE of its own, learnt on the training plays
    "dim": 64,
    "n_heads": 2,
    "n_layers": 2,
    "context": 64,
    "steps": 5000,
    "lr": 3e-3,
    "warmup": 50,
    "weight_decay": 0.01,
    "batch": 32,  # text windows, each with a piece of itself written again
    "repeat_longest": 24,
    "measure_every": 50,  # steps between the measures of the history (every head's scores, the copies' losses)
}


def build(settings: dict) -> gpt.GPT:
    return gpt.build(
        {
            "vocab": settings["vocab"],
            "dim": settings["dim"],
            "n_heads": settings["n_heads"],
            "n_layers": settings["n_layers"],
            "max_len": settings["context"],
            "mlp_ratio": 4,
        }
    )


def batches(ids: np.ndarray, settings: dict, rng: np.random.Generator) -> Iterator:
    """Endless one-part batches: ``batch`` windows of the training ids, each with a piece of itself repeated (its
    (chunk, keep) pair, ``with_repeats``)."""
    text = windows(ids, settings["batch"], settings["context"], rng)
    return ((part,) for part in with_repeats(text, rng, settings["vocab"], 1.0, settings["repeat_longest"], 0.0))


def _loss(model: nn.Module, batch) -> torch.Tensor:
    total = 0.0
    for chunk, keep in batch:
        logits = model(chunk[:, :-1])
        targets = chunk[:, 1:].masked_fill(~keep, -100)
        total = total + F.cross_entropy(logits.flatten(0, 1), targets.flatten())
    return total


def formation_step(measured: list[int], induction: list) -> int:
    """The step the induction head forms: the first measured step at which the best head's induction score reaches
    half of its final value (the middle of the rise)."""
    best = [float(np.max(scores)) for scores in induction]
    return int(measured[next(i for i, b in enumerate(best) if b >= best[-1] / 2)])


def run(
    model: gpt.GPT,
    ids: np.ndarray,
    val: np.ndarray,
    settings: dict,
    seed: int,
    *,
    recorder: Recorder | None = None,
    on_measure: Callable[[int, dict, Trainer], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> tuple[Trainer, dict[str, list]]:
    """Train ``model`` from its current weights for ``settings["steps"]`` steps (or until ``stop()``); returns the
    trainer and the measured history (``measured``: the steps; one list per measure, ``metrics.training_measures``)."""
    trainer = Trainer(model, _loss, recorder=recorder, **schedule(settings))
    data = batches(ids, settings, np.random.default_rng(seed + 1))
    history: dict[str, list] = {"measured": []}

    def measure() -> None:
        step = len(trainer.losses)
        model.eval()
        found = metrics.training_measures(model, val)
        model.train()
        history["measured"].append(step)
        for key, value in found.items():
            history.setdefault(key, []).append(value)
        if on_measure is not None:
            on_measure(step, found, trainer)

    while not trainer.done and not (stop is not None and stop()):
        if len(trainer.losses) % settings["measure_every"] == 0:
            measure()
        with fast_kernels(model):
            trainer.step(next(data))
    if not history["measured"] or history["measured"][-1] != len(trainer.losses):
        measure()
    model.eval()
    return trainer, history


def live_worker(folder: str, settings: dict, seed: int, snapshot_every: int, send: Callable[[tuple], None]) -> None:
    """The body of a live training process (the GPT page's "train it yourself"): one thread, the tokenizer of the
    recorded checkpoint in ``folder``, ``run`` from a fresh model with ``settings`` and ``seed``. It sends
    ``("ready", steps)`` once the data is encoded, ``("measure", step, loss, measures)`` at every measure (the mean
    training loss of the steps since the last), ``("snapshot", step, {name: float16 array})`` every
    ``snapshot_every`` steps and at the end, then ``("done", steps)``. The parent ends it early by terminating the
    process (cancel, time cap)."""
    from pathlib import Path

    torch.set_num_threads(1)
    tok = metrics.tokenizer(Path(folder))
    ids = metrics.encode_split(tok, "train")
    val = metrics.encode_split(tok, "validation")
    torch.manual_seed(seed)
    model = build(settings)
    send(("ready", settings["steps"]))

    def on_measure(step: int, found: dict, trainer: Trainer) -> None:
        recent = trainer.losses[-settings["measure_every"] :]
        send(("measure", step, float(np.mean(recent)) if recent else float("nan"), found))
        if step % snapshot_every == 0 or step >= settings["steps"]:
            state = {k: v.detach().cpu().half().numpy() for k, v in trainer.model.state_dict().items()}
            send(("snapshot", step, state))

    trainer, _ = run(model, ids, val, settings, seed, on_measure=on_measure)
    send(("done", len(trainer.losses)))


def live_process(folder: str, settings: dict, seed: int, snapshot_every: int, conn) -> None:
    """A live training process's target (``multiprocessing``, spawned): ``live_worker`` sending on the pipe's end
    ``conn``; an exception is sent as ``("failed", message)``."""
    try:
        live_worker(folder, settings, seed, snapshot_every, conn.send)
    except Exception as e:  # reported to the page, which says the run failed
        conn.send(("failed", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()
