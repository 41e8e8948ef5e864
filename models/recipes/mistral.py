"""How the ``mistral`` checkpoint is trained and evaluated (the model: models/mistral.py).

``python -m models.train mistral`` trains the sliding-window model on the Shakespeare training works, with the
tokenizer of ``gpt`` and ``llama`` (trained the same way, byte-identical) and ``llama``'s step-time budget
(``budget_s``: the run stops once its optimiser steps have used that many seconds; warm-up, then cosine over the
fraction of the budget used). Context 256 with batch 16: the same tokens per step as llama's 32 × 128. About
16 min on 2 CPU cores, plus a few minutes of evaluation.

Evaluation (every number recomputed by ``python -m models.evaluate mistral``):
- ``val_bpc`` on the validation plays, and ``llama_val_bpc``: the shipped llama checkpoint measured the same way;
- ``rolling_cache_max_diff``: max |logits of token-by-token decoding with the rolling buffer − logits of one full
  forward with the band mask| over a validation sequence of 4 × W tokens (absolute, on logits);
- ``outside_band_weight``: the largest attention weight outside the band, any layer, head, query, over a
  validation batch (must be exactly 0);
- ``extrapolation``: the loss per position bucket on validation windows 4× the training context. (A remark, not a
  bar: llama's card shows plain RoPE's loss rising past its context; a band never meets a distance it did not
  train on.)
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch

from models import metrics, mistral, zoo
from models.layers import sliding_window_mask
from models.probe import trace
from models.recipes import Recipe, Run, Trained
from models.recipes.common import initial_model, windows
from models.recipes.gpt import example_inputs, next_token_loss, shakespeare_data, train_tokenizer
from models.recipes.llama import held_out_windows
from models.training import Trainer, fast_kernels, schedule

# llama's settings, at twice the context and half the batch (the same 4,096 tokens per step).
TRAIN_SETTINGS = {"budget_s": 960.0, "batch": 16, "context": 256, "lr": 3e-3, "warmup": 50, "weight_decay": 0.01}

EXTRAPOLATION = {"windows": 16, "bucket": 64, "scale": 4, "group": 4}  # group: windows per forward (memory)
CACHE_CHECK_WINDOWS = 4  # the rolling-cache sequence is 4 × W tokens long
BAND_BATCH = 8  # validation windows of the training context for outside_band_weight


# ---- training -------------------------------------------------------------------------------------------------------


def train(run: Run) -> Trained:
    c, hp = mistral.PRESETS["shipped"], run.settings
    tok = train_tokenizer(c.vocab)  # as the gpt recipe trains it: identical
    ids = metrics.encode_split(tok, "train")
    torch.manual_seed(run.seed)
    model, config = initial_model(run, mistral.build, asdict(c))
    batches = windows(ids, hp["batch"], hp["context"], np.random.default_rng(run.seed))
    trainer = Trainer(
        model,
        next_token_loss,
        **schedule(hp),
    )
    log_every = 25
    with fast_kernels(model):
        while not trainer.done:
            trainer.step(next(batches))
            if len(trainer.losses) % log_every == 1:
                print(
                    f"step {len(trainer.losses) - 1}: loss {np.mean(trainer.losses[-log_every:]):.3f} "
                    f"{trainer.seconds:.0f}s",
                    flush=True,
                )
    model.eval()
    summary = trainer.summary("mistral")
    return Trained(
        model,
        config,
        data=shakespeare_data(ids),
        card={
            "tokenizer": f"byte-level BPE, {c.vocab} ids, trained exactly as the gpt recipe trains it "
            "(byte-identical to models/checkpoints/gpt/tokenizer.json)",
            "training": {
                **hp,
                "schedule": "warm-up steps, then cosine over the fraction of the budget used",
                "kernels": "fused attention (SDPA) with the boolean band mask; evaluation runs the eager path",
            },
            "window": c.window,
            "reach": c.n_layers * (c.window - 1),
            **{k: v for k, v in summary.items() if k != "stage"},
        },
        files={"tokenizer.json": tok.to_str()},
        stages=[summary],
    )


# ---- evaluation -----------------------------------------------------------------------------------------------------


@torch.inference_mode()
def rolling_cache_max_diff(model: mistral.Mistral, tok) -> float:
    """Max |rolling-buffer decoding − full forward| on the logits of a validation sequence 4 × W tokens long."""
    ids = torch.from_numpy(held_out_windows(tok, 1, CACHE_CHECK_WINDOWS * model.config.window - 1))  # (1, 4W)
    full = model(ids)
    caches = model.new_cache(rolling=True)
    stepped = torch.cat([model(ids[:, t : t + 1], caches) for t in range(ids.shape[1])], dim=1)
    return float((stepped - full).abs().max())


@torch.inference_mode()
def outside_band_weight(model: mistral.Mistral, tok) -> float:
    """The largest attention weight outside the band over a validation batch (every layer, head and query)."""
    T = model.config.max_len
    ids = torch.from_numpy(held_out_windows(tok, BAND_BATCH, T - 1))
    with trace("blocks.*.attn.pattern") as t:
        model(ids)
    outside = ~sliding_window_mask(T, model.config.window)
    return float(max(t[name][..., outside].max() for name in t.keys()))


def extrapolation(model: mistral.Mistral, tok) -> dict:
    """Loss per position bucket on validation windows ``scale``× the training context."""
    T, e = model.config.max_len, EXTRAPOLATION
    length = e["scale"] * T
    win = held_out_windows(tok, e["windows"], length)
    per_pos = np.concatenate(
        [metrics.token_losses(model, win[i : i + e["group"]]) for i in range(0, len(win), e["group"])]
    ).mean(0)  # (length,)
    return {
        "windows": e["windows"],
        "length": length,
        "train_context": T,
        "window": model.config.window,
        "bucket": e["bucket"],
        "text": "validation plays",
        "unit": "nats per token",
        "bucket_start": list(range(0, length, e["bucket"])),
        "loss": [round(float(b.mean()), 4) for b in per_pos.reshape(-1, e["bucket"])],
        "loss_within": round(float(per_pos[:T].mean()), 4),
        "loss_beyond": round(float(per_pos[T:].mean()), 4),
    }


def evaluate(model: mistral.Mistral, out: Path) -> dict:
    tok = metrics.tokenizer(out)
    return {
        "val_bpc": round(metrics.bits_per_character(model, tok), 4),
        "llama_val_bpc": round(metrics.bits_per_character(zoo.load("llama"), tok), 4),
        "rolling_cache_max_diff": float(f"{rolling_cache_max_diff(model, tok):.3g}"),
        "outside_band_weight": outside_band_weight(model, tok),
        "extrapolation": extrapolation(model, tok),
    }


RECIPES = [
    Recipe(
        name="mistral",
        arch="mistral",
        train=train,
        evaluate=evaluate,
        example_inputs=example_inputs,
        bars={"rolling_cache_max_diff": {"max": 1e-4}, "outside_band_weight": {"max": 0.0}},
        probes=mistral.PROBES,
        dynamic_axes={"tokens": {0: "B", 1: "T"}},
        defaults=TRAIN_SETTINGS,
    ),
]
