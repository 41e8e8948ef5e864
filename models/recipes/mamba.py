"""How the Mamba checkpoints are trained and evaluated (the model: models/mamba.py).

- ``mamba-selective-copy`` and ``mamba-lti-selective-copy``: the paper's selective copying task (section 4.1,
  models/data/ssm_tasks.py), the same model and budget, with input-dependent Δ, B, C and with constant ones (LTI).
- ``mamba-induction``: induction heads (associative recall of one pair), trained at length 64, tested at 64 and 256.
- ``mamba-lm``: next-token prediction on the Shakespeare training plays, with the gpt checkpoint's tokenizer, trained
  as the gpt recipe's stage 1 (same windows and loss); val_bpc computed as for gpt.

Fresh task instances every step from the run's seed; held-out instances from ``EVAL_SEED``. Training runs the
sequential scan (``model(tokens, scan="sequential")``: less arithmetic on one CPU thread) and flushes subnormal floats
to zero: decayed states reach them, and they are many times slower on a CPU. Each run takes 10–18 min on 2 CPU cores.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from models import mamba, metrics, zoo
from models.data import shakespeare, ssm_tasks
from models.data.ssm_tasks import COPY_TASK, INDUCTION_TASK, copy_batch, induction_batch
from models.recipes import Recipe, Run, Trained
from models.recipes.common import windows
from models.recipes.gpt import next_token_loss, train_tokenizer
from models.training import fit, schedule

EVAL_SEED = 12345  # held-out instances come from this seed; training draws from the run's seed
EVAL_COUNT = 1000

TASK_SETTINGS = {"steps": 2000, "batch": 32, "lr": 3e-3, "warmup": 100, "weight_decay": 0.01}
LM_SETTINGS = {"steps": 1000, "batch": 16, "context": 128, "lr": 3e-3, "warmup": 50, "weight_decay": 0.01}


# ---- the synthetic tasks --------------------------------------------------------------------------------------------


def masked_loss(model: mamba.Mamba, batch: ssm_tasks.Batch) -> torch.Tensor:
    """Cross-entropy on the scored positions only (training's: the sequential scan)."""
    logits = model(torch.from_numpy(batch.tokens), scan="sequential")
    mask = torch.from_numpy(batch.mask)
    return F.cross_entropy(logits[mask], torch.from_numpy(batch.targets)[mask])


@torch.inference_mode()
def masked_accuracy(model: mamba.Mamba, batch: ssm_tasks.Batch, chunk: int = 250) -> float:
    """Share of scored positions where the argmax is the target."""
    right = total = 0
    for s in range(0, len(batch.tokens), chunk):
        pred = model(torch.from_numpy(batch.tokens[s : s + chunk])).argmax(-1).numpy()
        mask = batch.mask[s : s + chunk]
        right += int((pred[mask] == batch.targets[s : s + chunk][mask]).sum())
        total += int(mask.sum())
    return right / total


def train_task(preset: mamba.Config, make_batch: Callable, run: Run) -> tuple[mamba.Mamba, list[dict]]:
    """A model of ``preset`` trained on fresh batches of a task; returns it and its one stage."""
    hp = run.settings
    torch.manual_seed(run.seed)
    torch.set_flush_denormal(True)  # decayed states reach subnormal floats, which are many times slower on a CPU
    model = mamba.build(asdict(preset))
    rng = np.random.default_rng(run.seed)

    def batches():
        while True:
            yield make_batch(rng, hp["batch"])

    trainer = fit(model, batches(), masked_loss, **schedule(hp), desc="mamba", log_every=50)
    return model, [trainer.summary("task")]


def train_copy(lti: bool) -> Callable[[Run], Trained]:
    def train(run: Run) -> Trained:
        preset = replace(mamba.PRESETS["copy"], lti=lti)
        model, stages = train_task(preset, copy_batch, run)
        t = COPY_TASK
        return Trained(
            model,
            asdict(preset),
            data=(
                f"selective copying (models/data/ssm_tasks.py): {t['n_memorize']} data tokens of "
                f"{t['n_values']} values at random places among {t['length']} positions of noise, then "
                f"{t['n_memorize']} copy markers; fresh instances every step from the run's seed"
            ),
            card={
                "task": dict(t),
                "held_out": f"{EVAL_COUNT} instances from seed {EVAL_SEED}",
                "variant": "LTI (Δ, B, C constant)" if lti else "selective (Δ, B, C from the input)",
            },
            stages=stages,
        )

    return train


def evaluate_copy(model: mamba.Mamba, out: Path) -> dict:
    batch = copy_batch(np.random.default_rng(EVAL_SEED), EVAL_COUNT)
    return {"accuracy": round(masked_accuracy(model, batch), 4)}


def train_induction(run: Run) -> Trained:
    model, stages = train_task(mamba.PRESETS["induction"], induction_batch, run)
    t = INDUCTION_TASK
    return Trained(
        model,
        asdict(mamba.PRESETS["induction"]),
        data=(
            f"induction heads (models/data/ssm_tasks.py): {t['length']} random tokens of "
            f"{t['n_values']} values, one (trigger, answer) pair, the trigger again at the end"
        ),
        card={
            "task": dict(t),
            "held_out": f"{EVAL_COUNT} instances from seed {EVAL_SEED} at lengths {t['length']} and {4 * t['length']}",
        },
        stages=stages,
    )


def evaluate_induction(model: mamba.Mamba, out: Path) -> dict:
    L = INDUCTION_TASK["length"]
    rng = np.random.default_rng(EVAL_SEED)
    return {
        "accuracy": round(masked_accuracy(model, induction_batch(rng, EVAL_COUNT, L)), 4),
        "accuracy_4x": round(masked_accuracy(model, induction_batch(rng, EVAL_COUNT, 4 * L)), 4),
    }


def copy_example(out: Path) -> dict[str, np.ndarray]:
    return {"tokens": copy_batch(np.random.default_rng(7), 1).tokens}


def induction_example(out: Path) -> dict[str, np.ndarray]:
    return {"tokens": induction_batch(np.random.default_rng(7), 1).tokens}


# ---- the language model ---------------------------------------------------------------------------------------------


def lm_tokenizer(out: Path):
    """The byte-level BPE shared with the gpt checkpoint (copied next to our weights when we train). Without a gpt
    checkpoint it is trained here exactly as the gpt recipe trains it: same training works, same vocabulary size."""
    for folder in (out, zoo.checkpoint_dir("gpt")):
        if (folder / "tokenizer.json").exists():
            return metrics.tokenizer(folder)
    return train_tokenizer(mamba.PRESETS["lm"].vocab)


def evaluate_lm(model: mamba.Mamba, out: Path) -> dict:
    return {"val_bpc": round(metrics.bits_per_character(model, lm_tokenizer(out)), 4)}


def train_lm(run: Run) -> Trained:
    c, hp = mamba.PRESETS["lm"], run.settings
    tok = lm_tokenizer(run.out)
    ids = metrics.encode_split(tok, "train")
    torch.manual_seed(run.seed)
    torch.set_flush_denormal(True)
    model = mamba.build(asdict(c))
    batches = windows(ids, hp["batch"], hp["context"], np.random.default_rng(run.seed))
    loss = functools.partial(next_token_loss, scan="sequential")
    trainer = fit(model, batches, loss, **schedule(hp), desc="mamba-lm", log_every=50)
    gpt_card = zoo.checkpoint_dir("gpt") / "card.json"
    extra = {"gpt_val_bpc": zoo.read_card("gpt")["metrics"].get("val_bpc")} if gpt_card.exists() else {}
    shared = (zoo.checkpoint_dir("gpt") / "tokenizer.json").exists()
    return Trained(
        model,
        asdict(c),
        data=(
            f"Shakespeare (models/data/shakespeare.py): the training works, {len(ids):,} tokens of the "
            f"shared byte-level BPE; val_bpc on the validation plays "
            f"{', '.join(shakespeare.VALIDATION_PLAYS)}"
        ),
        card={
            "tokenizer": (
                "the gpt checkpoint's tokenizer.json"
                if shared
                else "byte-level BPE trained exactly as the gpt recipe trains its tokenizer (same "
                "training works, same call); no gpt checkpoint existed yet"
            )
            + f" ({c.vocab} ids)",
            "final_train_loss": trainer.mean_loss(),
            **extra,
        },
        files={"tokenizer.json": tok.to_str()},
        stages=[trainer.summary("text")],
    )


def lm_example(out: Path) -> dict[str, np.ndarray]:
    return {"tokens": metrics.encode_document(lm_tokenizer(out), "Shall I compare thee to a summer's day?")[None]}


_AXES = {"tokens": {0: "b", 1: "l"}}

RECIPES = [
    Recipe(
        name="mamba-selective-copy",
        arch="mamba",
        train=train_copy(lti=False),
        evaluate=evaluate_copy,
        example_inputs=copy_example,
        bars={"accuracy": {"min": 0.99}},
        probes=mamba.PROBES,
        dynamic_axes=_AXES,
        defaults=TASK_SETTINGS,
    ),
    Recipe(
        name="mamba-lti-selective-copy",
        arch="mamba",
        train=train_copy(lti=True),
        evaluate=evaluate_copy,
        example_inputs=copy_example,
        bars={},
        probes=mamba.PROBES,
        dynamic_axes=_AXES,
        defaults=TASK_SETTINGS,
    ),
    Recipe(
        name="mamba-induction",
        arch="mamba",
        train=train_induction,
        evaluate=evaluate_induction,
        example_inputs=induction_example,
        bars={"accuracy": {"min": 0.99}, "accuracy_4x": {"min": 0.95}},
        probes=mamba.PROBES,
        dynamic_axes=_AXES,
        defaults=TASK_SETTINGS,
    ),
    Recipe(
        name="mamba-lm",
        arch="mamba",
        train=train_lm,
        evaluate=evaluate_lm,
        example_inputs=lm_example,
        bars={},
        probes=mamba.PROBES,
        dynamic_axes=_AXES,
        defaults=LM_SETTINGS,
    ),
]
