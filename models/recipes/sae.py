"""How the ``gpt-sae`` dictionary is trained and evaluated (the model: models/sae.py).

``python -m models.train gpt-sae`` on one torch thread:

1. reads the stream of the shipped ``gpt`` after block 1 (of 4) on ``train_tokens`` tokens: random windows of
   ``context`` tokens of the training plays (the text GPT trained on: the dictionary describes the stream on that
   text; every number on the card is measured on the held-out validation plays, which neither model saw);
2. fixes the input scale s so the mean squared norm of s·x is d (one number, ``Config.scale``);
3. trains the sweep: a TopK dictionary for every (``sweep_features`` × ``sweep_k``), ``sweep_steps`` steps each,
   each measured on ``sweep_windows`` held-out windows (the card's ``sweep``: what a page draws as the trade-off);
4. trains the shipped dictionary (``n_features``, ``k``) for ``steps`` steps: Adam, decoder columns renormalised
   after every step (their gradient's radial part removed first), AuxK on the features that fired on none of the
   last ``dead_tokens`` tokens; the learning rate decays linearly to 0 over the last fifth;
5. rounds the weights to float16 (measured: the card's ``float32_metrics`` are the same measures before rounding)
   and writes the feature index (``index.safetensors``: ``models.sae.feature_index`` on the validation plays).

``evaluate`` recomputes, on ``EVAL_WINDOWS`` windows of the validation plays (the card's ``eval_windows`` where it
names them): nmse, fve, l0, the losses clean / spliced / zero- and mean-ablated, Δ nats and the loss recovered; and
the dead share over every validation token.

``python -m models.train smollm2-sae`` is the same recipe with the preset ``smollm2`` (``models.sae.PRESETS``: the
base model ``smollm2-135m``, the hook ``blocks.14.resid``, the width read from the model): the same Shakespeare
training plays and validation plays — text SmolLM2 may have seen in its pretraining (we cannot tell what it did not
see), but held out from the dictionary — with fewer vectors and steps, no sweep and 16 evaluation windows
(``SMOLLM2_SETTINGS``: reading SmolLM2 to block 14 is about 14 times slower per token than our GPT to block 1).
Vectors over the preset's ``passthrough_norm`` (the massive activations at a context's first token) are neither
trained on nor measured: the card's ``passed_through`` is their share of the evaluation tokens.
docs/training/smollm2-sae.md has the run.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import safetensors.torch
import torch
import torch.nn.functional as F

from models import interventions, metrics, pretrained, sae, zoo
from models.data import shakespeare
from models.probe import intervene
from models.recipes import Recipe, Run, Trained
from models.recipes.common import initial_model, windows

SETTINGS: dict[str, Any] = {
    "threads": 1,  # torch threads (the machine's 2 cores are shared)
    "preset": "shipped",  # models.sae.PRESETS key: the hook, the width
    "n_features": 4096,
    "k": 32,
    "train_tokens": 1_048_576,  # stream vectors read from the training plays (4,096 windows)
    "context": 256,
    "steps": 2500,
    "batch": 1024,
    "lr": 1e-3,
    "warmup": 50,
    "aux_k": 128,  # AuxK: how many dead features model the error (about d/2 here)
    "aux_coef": 1 / 32,  # the paper's α
    "dead_tokens": 262_144,  # a feature that fired on none of the last this many training tokens is dead (AuxK)
    "sweep_features": [1024, 2048, 4096],
    "sweep_k": [8, 16, 32],
    "sweep_steps": 400,
    "sweep_windows": 32,
    "index_top": 8,
}

# ``smollm2-sae``: the same recipe on SmolLM2-135M-Instruct after block 14 (preset ``smollm2``), sized so reading the
# stream, training, the evaluation and the index fit about 75 minutes of one thread (docs/training/sae.md)
SMOLLM2_SETTINGS: dict[str, Any] = {
    **SETTINGS,
    "preset": "smollm2",
    "n_features": 4608,
    "k": 32,
    "train_tokens": 262_144,  # 2,048 windows of 128 tokens (the vectors over passthrough_norm left out)
    "context": 128,
    "steps": 2000,
    "aux_k": 256,  # about d/2 of 576
    "sweep_features": [],  # no sweep: its cost is the shipped dictionary's again (docs/training/sae.md)
    "sweep_k": [],
    "eval_windows": 16,  # held-out windows of 256 tokens for the card (a full forward of SmolLM2 costs ~15× ours)
}

EVAL_WINDOWS = 128  # held-out windows of 256 tokens (32,768 predicted tokens) for the reconstruction and Δ nats


# ---- data -----------------------------------------------------------------------------------------------------------


def base_model(name: str):
    """(model, tokenizer) of the checkpoint a dictionary reads: ours (``gpt``) or a real one (``smollm2-135m``)."""
    model = zoo.load(name)
    return model, metrics.tokenizer(zoo.checkpoint_dir(name))


def collect(
    model, ids: np.ndarray, hook: str, n_tokens: int, context: int, seed: int, passthrough_norm: float = 0.0
) -> torch.Tensor:
    """``n_tokens`` stream vectors (N, d) in float16 from random windows of ``ids``, in batches of 32 windows; a
    vector with a norm over ``passthrough_norm`` (when > 0) is left out (the dictionary does not read it)."""
    batches = windows(ids, 32, context - 1, np.random.default_rng(seed))
    out, have = [], 0
    while have < n_tokens:
        x = sae.activations(model, next(batches), hook)
        x = x.reshape(-1, x.shape[-1])
        if passthrough_norm > 0:
            x = x[x.float().norm(dim=-1) <= passthrough_norm]
        out.append(x.half())
        have += out[-1].shape[0]
        if len(out) % 10 == 0:
            print(f"read {have:,} of {n_tokens:,} stream vectors", file=sys.stderr, flush=True)
    return torch.cat(out)[:n_tokens]


def held_out(tok, n: int, context: int = 256) -> torch.Tensor:
    """``n`` windows (n, context + 1) spread evenly over the validation plays."""
    w, _ = metrics.held_out_windows(tok, context, n, split="validation")
    return torch.from_numpy(w)


def validation_docs(tok) -> list[np.ndarray]:
    """The validation plays, each encoded as a document (<|endoftext|> then its ids)."""
    return [metrics.encode_document(tok, text) for text in shakespeare.plays("validation").values()]


# ---- training -------------------------------------------------------------------------------------------------------


def input_scale(acts: torch.Tensor) -> float:
    """s with mean ‖s·x‖² = d over the training activations."""
    mean_sq = acts.float().pow(2).sum(-1).mean().item()
    return float(np.sqrt(acts.shape[-1] / mean_sq))


def train_dictionary(
    acts: torch.Tensor, config: sae.Config, hp: dict, steps: int, seed: int, start: sae.SAE | None = None
) -> tuple:
    """One TopK dictionary on (N, d) stream vectors: (model, final training loss, seconds); ``start``: continue
    these weights (``--init-from``) instead of the paper's initialisation."""
    torch.manual_seed(seed)
    model = sae.SAE(config)
    s = config.scale
    with torch.no_grad():
        if start is not None:
            model.load_state_dict(start.state_dict())
        else:
            model.b_pre.copy_(acts[:65536].float().mean(0) * s)
    opt = torch.optim.Adam(model.parameters(), lr=hp["lr"], betas=(0.9, 0.999), eps=6.25e-10)
    since = torch.zeros(config.n_features)  # tokens since each feature last fired
    gen = torch.Generator().manual_seed(seed)
    decay_from = int(0.8 * steps)
    start, losses = time.perf_counter(), []
    for step in range(steps):
        lr = hp["lr"] * min(1.0, (step + 1) / hp["warmup"]) * min(1.0, (steps - step) / max(1, steps - decay_from))
        for group in opt.param_groups:
            group["lr"] = lr
        x = acts[torch.randint(len(acts), (hp["batch"],), generator=gen)].float() * s  # (B, d) scaled
        pre = (x - model.b_pre) @ model.W_enc.T + model.b_enc  # (B, n)
        z = sae.top_k(pre, config.k)
        recon = z @ model.W_dec.T + model.b_pre
        mse = (recon - x).pow(2).sum(-1).mean()
        fired = (z > 0).any(0)
        since = torch.where(fired, torch.zeros_like(since), since + len(x))
        dead = since > hp["dead_tokens"]
        loss = mse
        if dead.any():  # AuxK: the dead features model the error the live ones leave
            k_aux = min(hp["aux_k"], int(dead.sum()))
            z_aux = sae.top_k(pre.masked_fill(~dead, float("-inf")), k_aux)
            aux = (z_aux @ model.W_dec.T - (x - recon).detach()).pow(2).sum(-1).mean()
            if torch.isfinite(aux):
                loss = loss + hp["aux_coef"] * aux
        opt.zero_grad(set_to_none=True)
        loss.backward()
        with torch.no_grad():  # only the tangential part of each column's gradient (the norm is fixed at 1)
            g, w = model.W_dec.grad, model.W_dec
            g -= (g * w).sum(0, keepdim=True) * w
        opt.step()
        model.normalise_decoder()
        losses.append(mse.item())
        if step % 250 == 0 or step == steps - 1:
            print(
                f"sae n={config.n_features} k={config.k} step {step}: mse {np.mean(losses[-50:]):.4f} "
                f"(of d = {config.d_in}), dead {int(dead.sum())}",
                file=sys.stderr,
                flush=True,
            )
    return model.eval(), round(float(np.mean(losses[-50:])), 4), round(time.perf_counter() - start, 1)


def round_half(model: sae.SAE) -> None:
    """Round every weight to float16 in place (what the shipped file holds)."""
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(p.half().float())


# ---- measures -------------------------------------------------------------------------------------------------------


def _nats(model, tokens: torch.Tensor, overrides=None) -> float:
    with torch.inference_mode(), intervene(overrides or {}):
        logits = model(tokens[:, :-1])
    return F.cross_entropy(logits.flatten(0, 1), tokens[:, 1:].flatten()).item()


@torch.inference_mode()
def measure(dictionary: sae.SAE, model, tokens: torch.Tensor) -> dict[str, float]:
    """Reconstruction and Δ nats of ``dictionary`` on held-out windows (n, T + 1) of ``model``'s text.

    nmse = Σ‖x − x̂‖² / Σ‖x‖²; fve = 1 − Σ‖x − x̂‖² / Σ‖x − x̄‖² (x̄: the mean over these tokens; Gao et al.'s
    normalised MSE is 1 − fve); l0: mean features on per token; Δ nats: the next-token loss with x̂ spliced in minus
    the clean loss, beside the loss with the stream zeroed and mean-ablated (``interventions.mean``: the running mean
    over positions); loss_recovered = (zero − spliced) / (zero − clean)."""
    hook = dictionary.config.hook
    x = sae.activations(model, tokens[:, :-1], hook).reshape(-1, dictionary.config.d_in).double()
    read = dictionary.reads(x)
    x = x[read]  # the vectors the dictionary reads (all of them unless Config.passthrough_norm is set)
    z = dictionary.encode(x.float())
    err = (dictionary.decode(z).double() - x).pow(2).sum()
    clean = _nats(model, tokens)
    spliced = _nats(model, tokens, dictionary.splice())
    zero = _nats(model, tokens, {hook: interventions.zero()})
    mean = _nats(model, tokens, {hook: interventions.mean()})
    passed = {"passed_through": round(float(1 - read.double().mean()), 4)} if dictionary.config.passthrough_norm else {}
    return passed | {
        "nmse": round(float(err / x.pow(2).sum()), 4),
        "fve": round(float(1 - err / (x - x.mean(0)).pow(2).sum()), 4),
        "l0": round(float((z > 0).sum(-1).float().mean()), 4),
        "clean_nats": round(clean, 4),
        "spliced_nats": round(spliced, 4),
        "delta_nats": round(spliced - clean, 4),
        "zero_ablated_nats": round(zero, 4),
        "mean_ablated_nats": round(mean, 4),
        "loss_recovered": round((zero - spliced) / (zero - clean), 4),
    }


def dead_share(index: dict[str, torch.Tensor]) -> float:
    return round(float((index["fired"] == 0).float().mean()), 4)


# ---- the recipe -----------------------------------------------------------------------------------------------------


def train(run: Run) -> Trained:
    hp = run.settings
    torch.set_num_threads(hp["threads"])
    base = sae.PRESETS[hp["preset"]]
    model, tok = base_model(base.model)
    train_ids = metrics.encode_split(tok, "train")
    start = time.perf_counter()
    acts = collect(model, train_ids, base.hook, hp["train_tokens"], hp["context"], run.seed, base.passthrough_norm)
    base = sae.Config(**{**asdict(base), "d_in": acts.shape[-1]})  # the base model's width (a stand-in's in tests)
    scale = input_scale(acts)
    stages = [{"stage": "read the stream", "tokens": len(acts), "wall_time_s": round(time.perf_counter() - start, 1)}]
    print(f"{len(acts):,} stream vectors in {stages[0]['wall_time_s']} s; scale {scale:.5f}", file=sys.stderr)

    sweep_tokens = held_out(tok, hp["sweep_windows"], hp["context"] - 1)
    rows, start = [], time.perf_counter()
    for n in hp["sweep_features"]:
        for k in hp["sweep_k"]:
            config = sae.Config(**{**asdict(base), "n_features": n, "k": k, "scale": scale})
            d, final, secs = train_dictionary(acts, config, hp, hp["sweep_steps"], run.seed)
            round_half(d)
            row = {"n_features": n, "k": k, **measure(d, model, sweep_tokens), "train_seconds": secs}
            row["dead_share"] = round(float((_fired(d, model, sweep_tokens) == 0).float().mean()), 4)
            rows.append(row)
            print(f"sweep {row}", file=sys.stderr, flush=True)
    stages.append(
        {
            "stage": "sweep",
            "runs": len(rows),
            "steps": hp["sweep_steps"],
            "wall_time_s": round(time.perf_counter() - start, 1),
        }
    )

    config = sae.Config(**{**asdict(base), "n_features": hp["n_features"], "k": hp["k"], "scale": scale})
    init = None
    if run.init_from is not None:  # continue a dictionary: its weights and its config (its input scale)
        init, config_dict = initial_model(run, sae.build, asdict(config))
        config = sae.Config(**config_dict)
    start = time.perf_counter()
    d, final, secs = train_dictionary(acts, config, hp, hp["steps"], run.seed, init)
    stages.append(
        {
            "stage": "the dictionary",
            "steps": hp["steps"],
            "final_train_loss": final,
            "train_seconds": secs,
            "wall_time_s": round(time.perf_counter() - start, 1),
        }
    )
    del acts
    eval_tokens = held_out(tok, hp.get("eval_windows", EVAL_WINDOWS))
    float32 = measure(d, model, eval_tokens)
    round_half(d)
    index = sae.feature_index(d, model, validation_docs(tok), top=hp["index_top"])
    safetensors.torch.save_file(index, str(run.out / "index.safetensors"))
    return Trained(
        d.half(),
        asdict(config),
        data=_data(base, hp),
        card={
            "variant": "TopK (Gao et al. 2024, arXiv 2406.04093) with AuxK",
            "input_scale": round(scale, 6),
            "weights": "float16 (the float32 numbers before rounding: float32_metrics)",
            "float32_metrics": float32,
            "index": _index_record(index, run.out / "index.safetensors"),
            "sweep": {
                "steps": hp["sweep_steps"],
                "held_out_tokens": int(sweep_tokens[:, 1:].numel()),
                "note": "each run trained for sweep_steps steps on the same stream vectors, measured on "
                "sweep_windows windows of the validation plays; dead_share: fired on none of those tokens",
                "runs": rows,
            },
        },
        stages=stages,
    )


def _data(base: sae.Config, hp: dict) -> str:
    works = len(shakespeare.plays("train"))
    plays = ", ".join(shakespeare.VALIDATION_PLAYS)
    read = f"the stream of checkpoint {base.model} at {base.hook} on {hp['train_tokens']:,} tokens: random windows"
    if not pretrained.is_real(base.model):
        return (
            f"{read} of {hp['context']} tokens of the {works} training works (the text {base.model} trained on); every "
            f"metric on the validation plays {plays} (held out from both)"
        )
    return (
        f"{read} of {hp['context']} tokens of our {works} Shakespeare training works; every metric on the validation "
        f"plays {plays}: text {base.model} may have seen in its pretraining (we cannot tell what it did not see), "
        f"held out from the dictionary"
    )


@torch.inference_mode()
def _fired(d: sae.SAE, model, tokens: torch.Tensor) -> torch.Tensor:
    x = sae.activations(model, tokens[:, :-1], d.config.hook)
    return (d.encode(x) > 0).sum((0, 1))


def _index_record(index: dict[str, torch.Tensor], path: Path) -> dict[str, Any]:
    return {
        "file": path.name,
        "bytes": path.stat().st_size,
        "held_out_tokens": int(index["tokens"].numel()),
        "top": int(index["top_position"].shape[1]),
        "about": "tokens: the validation plays' ids, one document after the other (doc_starts); per feature: fired "
        "(tokens it fired on), top_position (into tokens; -1: none) and top_activation (float16), strongest first, "
        f"and histogram (tokens by activation, {sae.HIST_BINS} equal bars from 0 to its largest); each document read "
        "in windows of 256 tokens",
    }


def evaluate(model: sae.SAE, out: Path) -> dict[str, Any]:
    """On one torch thread, as trained (the sums' order then matches the card's), the caller's count restored; on
    the card's ``eval_windows`` held-out windows (``EVAL_WINDOWS`` where the card names none)."""
    card = out / "card.json"
    n = json.loads(card.read_text())["settings"].get("eval_windows", EVAL_WINDOWS) if card.exists() else EVAL_WINDOWS
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        lm, tok = base_model(model.config.model)
        found = measure(model, lm, held_out(tok, n))
        index = sae.feature_index(model, lm, validation_docs(tok), top=1)
    finally:
        torch.set_num_threads(threads)
    return found | {"dead_share": dead_share(index)}


def reindex(name: str) -> dict[str, Any]:
    """Recompute a shipped dictionary's feature index from its weights (as the recipe's last step did, on the float16
    weights held in float32) and the card's record of it: ``python -m models.recipes.sae reindex NAME``, when the
    index gains a field. Every field the shipped index had must come out the same, or nothing is written."""
    torch.set_num_threads(1)
    out = zoo.checkpoint_dir(name)
    d = zoo.load(name).float()
    model, tok = base_model(d.config.model)
    card = json.loads((out / "card.json").read_text())
    index = sae.feature_index(d, model, validation_docs(tok), top=int(card["index"]["top"]))
    path = out / "index.safetensors"
    shipped = safetensors.torch.load_file(str(path))
    for key, value in shipped.items():
        if not torch.equal(index[key], value):
            raise SystemExit(f"{name}: the recomputed index differs from the shipped one in {key!r}; nothing written")
    safetensors.torch.save_file(index, str(path))
    card["index"] = _index_record(index, path)
    zoo.write_card(name, card)
    return card["index"]


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    preset = sae.PRESETS["smollm2" if out.name == "smollm2-sae" else "shipped"]
    config = zoo.read_config(out.name) if (out / "config.json").exists() else asdict(preset)
    return {"x": np.zeros((1, 8, config["d_in"]), dtype=np.float32)}


def _recipe(name: str, fve: float, defaults: dict) -> Recipe:
    """A dictionary's recipe: the bars all dictionaries share (l0 ≤ k, Δ nats ≤ 0.15, loss_recovered ≥ 0.95, at
    most a tenth dead) and its own floor on the variance explained."""
    return Recipe(
        name=name,
        arch="sae",
        train=train,
        evaluate=evaluate,
        example_inputs=example_inputs,
        bars={
            "fve": {"min": fve},
            "l0": {"max": 32},
            "dead_share": {"max": 0.1},
            "delta_nats": {"max": 0.15},
            "loss_recovered": {"min": 0.95},
        },
        output_names=("reconstruction",),
        dynamic_axes={"x": {0: "B", 1: "T"}},
        defaults=defaults,
    )


RECIPES = [
    # Δ nats ≤ 0.15: a seventh of what gpt gains over the bigram baseline on these plays (0.53 bits per character,
    # about 1 nat per token); loss_recovered ≥ 0.95 and fve ≥ 0.98: the stream kept nearly whole; l0 ≤ k; at most a
    # tenth of the dictionary silent on every validation token (docs/training/sae.md)
    _recipe("gpt-sae", 0.98, SETTINGS),
    # Δ nats ≤ 0.15, loss_recovered ≥ 0.95, a tenth dead at most: gpt-sae's bars (a page that splices it in still
    # shows SmolLM2); fve ≥ 0.8: below gpt-sae's, what 2,000 steps on 262,144 vectors reach at this width (0.851),
    # with room for another seed; l0 ≤ k (docs/training/smollm2-sae.md)
    _recipe("smollm2-sae", 0.8, SMOLLM2_SETTINGS),
]


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "reindex":
        raise SystemExit("usage: python -m models.recipes.sae reindex NAME")
    print(json.dumps(reindex(sys.argv[2]), indent=2))
