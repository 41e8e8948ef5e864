"""How the ``mla`` checkpoint is trained and evaluated (the model: models/mla.py).

``python -m models.train mla`` trains the multi-head latent attention decoder exactly as the LLaMA siblings
``llama-mha`` and ``llama-mqa`` are trained (models/recipes/llama.py): the same tokenizer, the same batches in the
same order, the same 612 optimiser steps with warm-up and cosine, through the same ``race`` loop with one runner.
Only the attention differs, so the bits per character compare. About 9 min per seed on one CPU core, two seeds.

Evaluation recomputes the bits per character on the held-out plays, the bytes the cache grows by per token (measured
from the cache tensors), and the largest difference between the absorbed and the naive logits on held-out windows.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import torch

from models import metrics, mla, zoo
from models.metrics import kv_cache_bytes_per_token
from models.recipes import Recipe, Run, Trained
from models.recipes.gpt import example_inputs, shakespeare_data, train_tokenizer
from models.recipes.llama import (
    SIBLING_SETTINGS,
    held_out_windows,
    seed_bpc,
    train_like_siblings,
)

# The siblings' settings as they are: 612 steps, batch 32, context 128, lr 3e-3, 50 warm-up steps, one extra seed.
SETTINGS = SIBLING_SETTINGS

# Absorbed against naive logits: held-out windows of the training context.
ABSORBED_CHECK = {"windows": 8}

# What the card sets beside ours: the siblings trained the same way (their cards' numbers).
BESIDE = ("llama-mha", "llama-mqa")


def _beside() -> dict:
    """The siblings' numbers, from their cards, when they are installed."""
    out = {}
    for name in BESIDE:
        if name in zoo.available():
            card = zoo.read_card(name)
            out[name] = {k: card["metrics"][k] for k in ("val_bpc", "kv_cache_bytes_per_token")}
            out[name]["other_seeds_val_bpc"] = card.get("other_seeds_val_bpc")
            out["llama (2 KV heads, the same schedule)"] = {"val_bpc": card.get("gqa_control_val_bpc")}
    return out


def train(run: Run) -> Trained:
    """The MLA decoder on the siblings' tokenizer, batches and schedule; extra seeds only evaluated."""
    hp = {k: v for k, v in run.settings.items() if k != "extra_seeds"}
    c = mla.PRESETS["shipped"]
    tok = train_tokenizer(c.vocab)
    ids = metrics.encode_split(tok, "train")
    model, trainer = train_like_siblings(mla.build, asdict(c), ids, hp, run.seed)
    seeds = range(run.seed, run.seed + 1 + int(run.settings["extra_seeds"]))
    extra = seed_bpc(mla.build, asdict(c), ids, hp, seeds[1:], tok)
    summary = {k: v for k, v in trainer.summary("model").items() if k != "stage"}
    return Trained(
        model,
        asdict(c),
        data=shakespeare_data(ids),
        card={
            "tokenizer": f"byte-level BPE, {c.vocab} ids, trained exactly as the gpt recipe trains it "
            "(byte-identical to models/checkpoints/gpt/tokenizer.json)",
            "trained_as": "the llama siblings (llama-mha, llama-mqa): the same data, batches and schedule for the "
            "612 optimiser steps llama took in its 960 s budget; only the attention differs",
            "cache": f"c_KV ({c.kv_latent}) and the shared rotary key k^R ({c.rope_dim}) per token per layer, "
            f"{c.n_layers} layers, float32",
            **summary,
            "other_seeds_val_bpc": extra,
            "beside": _beside(),
        },
        files={"tokenizer.json": tok.to_str()},
        stages=[trainer.summary("model")],
    )


# ---- evaluation -----------------------------------------------------------------------------------------------------


@torch.no_grad()
def absorbed_max_diff(model: mla.MLA, tok) -> float:
    """Largest |absorbed − naive| logit on held-out windows of the training context (three significant digits)."""
    win = torch.as_tensor(held_out_windows(tok, ABSORBED_CHECK["windows"], model.config.max_len - 1))
    diff = (model(win, absorbed=True) - model(win)).abs().max().item()
    return float(f"{diff:.3g}")


def evaluate(model: mla.MLA, out: Path) -> dict:
    tok = metrics.tokenizer(out)
    return {
        "val_bpc": round(metrics.bits_per_character(model, tok), 4),
        "kv_cache_bytes_per_token": kv_cache_bytes_per_token(model),
        "absorbed_max_diff": absorbed_max_diff(model, tok),
    }


RECIPES = [
    Recipe(
        name="mla",
        arch="mla",
        train=train,
        evaluate=evaluate,
        example_inputs=example_inputs,
        bars={"absorbed_max_diff": {"max": 1e-4}},
        probes=mla.PROBES,
        dynamic_axes={"tokens": {0: "B", 1: "T"}},
        defaults=SETTINGS,
    ),
]
