"""The original Transformer: an encoder–decoder built from attention alone.

Vaswani et al. 2017, "Attention Is All You Need", arXiv 1706.03762. What this file keeps from the paper:
post-LayerNorm sublayers ``LayerNorm(x + Sublayer(x))`` (section 3.1), scaled dot-product multi-head attention used
three ways — encoder self-attention, masked decoder self-attention, encoder–decoder (cross-) attention (3.2.3) —,
a ReLU feed-forward network (3.3), one embedding matrix shared by the encoder, the decoder and the output
projection and scaled by √d_model (3.4), and fixed sinusoidal positions (3.5). Dropout and label smoothing are left
out: the task is small and noise-free. One training-only addition: each batch starts the source and the target
positions at random rows of the sinusoidal table (``POSITION_SHIFT``), so that the model learns to locate tokens
by relative rather than absolute position; inference starts at row 0, exactly as in the paper.

It is trained to reverse short lowercase strings (``models.data.seq2seq``), a task whose correct alignment is known:
output symbol i copies source symbol n-1-i, so a working cross-attention head draws the anti-diagonal.

Shape letters: B batch, S source positions (keys of cross-attention), T target positions, C model width (d_model),
H heads, D head width (d_k = C / H), F feed-forward width (d_ff), V vocabulary.

Probes (each attention module records ``q``, ``k``, ``v`` (B, H, ·, D), ``scores`` (B, H, T, S) before the softmax,
``pattern`` (B, H, T, S) and ``context``, see ``models.layers.attention``):
    encoder.layers.{i}.self_attn.*    encoder self-attention (padding mask on the keys)
    decoder.layers.{i}.self_attn.*    decoder masked self-attention (causal and padding mask)
    decoder.layers.{i}.cross_attn.*   decoder queries attending to the encoder output (padding mask)
    encoder.layers.{i}.ffn.act, decoder.layers.{i}.ffn.act   ReLU hidden activations (B, ·, F)
    encoder.layers.{i}.out, decoder.layers.{i}.out            each layer's output (B, ·, C)
    encoder.embedded, decoder.embedded                        token embedding · √C + sinusoidal position (B, ·, C)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models.data import seq2seq
from models.layers import MLP, LayerNorm, MultiHeadAttention, SinusoidalPositions, causal_mask, padding_mask
from models.probe import Probe, name_probes, trace
from models.training import fit
from models.zoo import Recipe, Trained


@dataclass
class Config:
    vocab: int = seq2seq.VOCAB
    dim: int = 64  # d_model
    n_heads: int = 4
    ffn_dim: int = 256  # d_ff, 4 × d_model as in the paper
    n_enc_layers: int = 2
    n_dec_layers: int = 2
    max_positions: int = 64  # rows of the sinusoidal table; ≥ 1.25 × the longest training input + <eos>
    pad_id: int = seq2seq.PAD


PRESETS = {
    "tiny": Config(dim=36, n_heads=3, ffn_dim=52, n_enc_layers=1, n_dec_layers=2, max_positions=24),
    "shipped": Config(),
}

# The task of the shipped checkpoint: lengths seen in training, and the longer ones it is tested on (1.25×).
TRAIN_LENGTHS = (1, 16)
LONG_LENGTHS = (17, 20)


# ---- modules, bottom-up ------------------------------------------------------------------------------------------


class EncoderLayer(nn.Module):
    """x -> LN(x + SelfAttn(x)) -> LN(· + FFN(·)): the post-LayerNorm order of the paper."""

    def __init__(self, c: Config):
        super().__init__()
        self.self_attn = MultiHeadAttention(c.dim, c.n_heads)
        self.norm1 = LayerNorm(c.dim)
        self.ffn = MLP(c.dim, c.ffn_dim, activation="relu")
        self.norm2 = LayerNorm(c.dim)
        self.out = Probe()

    def forward(self, x: torch.Tensor, src_mask: torch.Tensor) -> torch.Tensor:
        x = self.norm1(x + self.self_attn(x, mask=src_mask))  # (B, S, C)
        return self.out(self.norm2(x + self.ffn(x)))  # (B, S, C)


class DecoderLayer(nn.Module):
    """Masked self-attention, then cross-attention to the encoder output, then the FFN; each post-LayerNorm."""

    def __init__(self, c: Config):
        super().__init__()
        self.self_attn = MultiHeadAttention(c.dim, c.n_heads)
        self.norm1 = LayerNorm(c.dim)
        self.cross_attn = MultiHeadAttention(c.dim, c.n_heads)
        self.norm2 = LayerNorm(c.dim)
        self.ffn = MLP(c.dim, c.ffn_dim, activation="relu")
        self.norm3 = LayerNorm(c.dim)
        self.out = Probe()

    def forward(self, y: torch.Tensor, memory: torch.Tensor, tgt_mask: torch.Tensor,
                src_mask: torch.Tensor) -> torch.Tensor:
        y = self.norm1(y + self.self_attn(y, mask=tgt_mask))  # (B, T, C)
        y = self.norm2(y + self.cross_attn(y, source=memory, mask=src_mask))  # queries from y, keys/values memory
        return self.out(self.norm3(y + self.ffn(y)))  # (B, T, C)


class Encoder(nn.Module):
    def __init__(self, c: Config, embed: nn.Embedding, positions: SinusoidalPositions):
        super().__init__()
        self.embed, self.positions, self.scale = embed, positions, math.sqrt(c.dim)
        self.embedded = Probe()
        self.layers = nn.ModuleList(EncoderLayer(c) for _ in range(c.n_enc_layers))

    def forward(self, src: torch.Tensor, src_mask: torch.Tensor, offset: int = 0) -> torch.Tensor:
        x = self.embedded(self.positions(self.embed(src) * self.scale, offset))  # (B, S, C)
        for layer in self.layers:
            x = layer(x, src_mask)
        return x  # (B, S, C): the "memory" every decoder layer attends to


class Decoder(nn.Module):
    def __init__(self, c: Config, embed: nn.Embedding, positions: SinusoidalPositions):
        super().__init__()
        self.embed, self.positions, self.scale = embed, positions, math.sqrt(c.dim)
        self.embedded = Probe()
        self.layers = nn.ModuleList(DecoderLayer(c) for _ in range(c.n_dec_layers))

    def forward(self, tgt: torch.Tensor, memory: torch.Tensor, tgt_mask: torch.Tensor,
                src_mask: torch.Tensor, offset: int = 0) -> torch.Tensor:
        y = self.embedded(self.positions(self.embed(tgt) * self.scale, offset))  # (B, T, C)
        for layer in self.layers:
            y = layer(y, memory, tgt_mask, src_mask)
        return y  # (B, T, C)


class Transformer(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        # One embedding for source, target and the output projection (section 3.4); positions are fixed.
        self.embed = nn.Embedding(c.vocab, c.dim)
        nn.init.normal_(self.embed.weight, std=c.dim**-0.5)
        positions = SinusoidalPositions(c.max_positions, c.dim)
        self.encoder = Encoder(c, self.embed, positions)
        self.decoder = Decoder(c, self.embed, positions)
        name_probes(self)

    def source_mask(self, src: torch.Tensor) -> torch.Tensor:
        return padding_mask(src, self.config.pad_id)  # (B, 1, 1, S)

    def target_mask(self, tgt: torch.Tensor) -> torch.Tensor:
        T = tgt.shape[1]
        return causal_mask(T, device=tgt.device) & padding_mask(tgt, self.config.pad_id)  # (B, 1, T, T)

    def encode(self, src: torch.Tensor, offset: int = 0) -> torch.Tensor:
        """src (B, S) -> memory (B, S, C). ``offset``: first row of the position table (training shifts it)."""
        return self.encoder(src, self.source_mask(src), offset)

    def decode(self, tgt: torch.Tensor, memory: torch.Tensor, src: torch.Tensor, offset: int = 0) -> torch.Tensor:
        """tgt (B, T) decoder input, memory (B, S, C), src (B, S) for its padding -> logits (B, T, V)."""
        y = self.decoder(tgt, memory, self.target_mask(tgt), self.source_mask(src), offset)
        return y @ self.embed.weight.T  # (B, T, V)

    def forward(self, src: torch.Tensor, tgt: torch.Tensor) -> torch.Tensor:
        """src (B, S) source ids ending in <eos>, tgt (B, T) decoder input starting with <bos> -> logits (B, T, V).

        Position t of the logits predicts target token t, having seen tgt[:, :t+1] and the whole source.
        """
        return self.decode(tgt, self.encode(src), src)


# ---- greedy decoding -----------------------------------------------------------------------------------------------


def greedy_decode(model: Transformer, src: torch.Tensor, max_new: int) -> torch.Tensor:
    """Greedy output ids (B, ≤ max_new), <eos> included, <pad> after it. Encodes once, re-runs the decoder per step.

    Simple rather than fast: each step runs the decoder over the whole prefix (no KV cache); at these sizes that
    costs well under a millisecond per step.
    """
    memory = model.encode(src)
    tgt = torch.full((src.shape[0], 1), seq2seq.BOS, dtype=torch.long, device=src.device)
    done = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
    for _ in range(max_new):
        nxt = model.decode(tgt, memory, src)[:, -1].argmax(-1)  # (B,)
        nxt = nxt.masked_fill(done, seq2seq.PAD)
        tgt = torch.cat([tgt, nxt[:, None]], dim=1)
        done |= nxt == seq2seq.EOS
        if done.all():
            break
    return tgt[:, 1:]


def greedy_steps(logits_fn: Callable[[np.ndarray, np.ndarray], np.ndarray], src: np.ndarray,
                 max_new: int) -> list[int]:
    """Greedy decoding of one source (1, S) through any backend: ``logits_fn(src, tgt) -> (1, T, V)`` logits.

    Returns the output ids, <eos> included when produced. Used by the app, whose backend may be ONNX Runtime.
    """
    tgt = [seq2seq.BOS]
    for _ in range(max_new):
        logits = logits_fn(src, np.array([tgt], dtype=np.int64))
        nxt = int(np.argmax(logits[0, -1]))
        tgt.append(nxt)
        if nxt == seq2seq.EOS:
            break
    return tgt[1:]


# ---- recipe: training and evaluation --------------------------------------------------------------------------------


def build(config: dict) -> Transformer:
    return Transformer(Config(**config))


def _loss(model: Transformer, batch: seq2seq.Batch, offsets: tuple[int, int] = (0, 0)) -> torch.Tensor:
    src = torch.from_numpy(batch.src)
    logits = model.decode(torch.from_numpy(batch.tgt_in), model.encode(src, offsets[0]), src, offsets[1])
    return F.cross_entropy(logits.flatten(0, 1), torch.from_numpy(batch.tgt_out).flatten(), ignore_index=seq2seq.PAD)


STEPS, BATCH, LR, WARMUP = 4000, 128, 2e-3, 300
# Each training batch starts the source and the target positions at random rows 0..POSITION_SHIFT of the table
# (independently), so the model cannot tie "where to look" to absolute positions; it has to use relative ones,
# which is what lets it handle lengths it never saw. At inference both start at row 0, as in the paper.
POSITION_SHIFT = 8


def train(seed: int, out: Path) -> Trained:
    c = PRESETS["shipped"]
    torch.manual_seed(seed)
    model = build(asdict(c))
    rng = np.random.default_rng(seed)

    def batches():
        while True:
            shifts = tuple(int(s) for s in rng.integers(0, POSITION_SHIFT + 1, size=2))
            yield seq2seq.reversal(rng, BATCH, *TRAIN_LENGTHS), shifts

    start = time.perf_counter()
    losses = fit(model, batches(), lambda m, b: _loss(m, *b), steps=STEPS, lr=LR, warmup=WARMUP, weight_decay=0.0,
                 desc="transformer")
    lo, hi = TRAIN_LENGTHS
    return Trained(
        model, asdict(c),
        data=f"random lowercase strings (a–z and space), lengths {lo}–{hi}, generated from the seed; "
             f"{STEPS} steps × {BATCH} examples",
        card={
            "task": "reverse the input string: output symbol i copies source symbol n-1-i",
            "position_shift": f"training only: source and target positions start at independent random rows "
                              f"0–{POSITION_SHIFT} of the sinusoidal table in each batch; inference starts at 0",
            "train_lengths": list(TRAIN_LENGTHS), "long_lengths": list(LONG_LENGTHS),
            "final_loss": round(float(np.mean(losses[-50:])), 5),
            "train_loop_s": round(time.perf_counter() - start, 1),
            "metric_notes": {
                "exact_match": f"greedy output equals the reversal, 1000 held-out strings of lengths {lo}–{hi} "
                               "(seed 12345)",
                "exact_match_long": f"the same on 500 strings of unseen lengths {LONG_LENGTHS[0]}–{LONG_LENGTHS[1]} "
                                    "(seed 12346)",
                "alignment_accuracy": "share of output symbols whose cross-attention argmax is the source symbol "
                                      "they copy, for the best head of the last decoder layer (chosen on seed 999, "
                                      "measured on seed 12345, teacher-forced)",
                "alignment_accuracy_head_avg": "the same with the head-averaged cross-attention of the last layer",
                "alignment_accuracy_long": "best head on the unseen lengths",
            },
        },
    )


def exact_match(model: Transformer, batch: seq2seq.Batch) -> float:
    with torch.no_grad():
        pred = greedy_decode(model, torch.from_numpy(batch.src), max_new=batch.tgt_out.shape[1] + 2).numpy()
    hits = 0
    for b, n in enumerate(batch.lengths):
        want = batch.tgt_out[b, : n + 1]
        hits += int(pred.shape[1] >= n + 1 and bool((pred[b, : n + 1] == want).all()))
    return float(hits / len(batch.lengths))


def cross_alignment(model: Transformer, batch: seq2seq.Batch, layer: int = -1) -> np.ndarray:
    """(H + 1,) for each head of a decoder layer, then the head average: the share of output symbols whose
    cross-attention argmax (teacher-forced) is the source position they copy."""
    layer = layer % model.config.n_dec_layers
    name = f"decoder.layers.{layer}.cross_attn.pattern"
    with torch.no_grad(), trace(name) as t:
        model(torch.from_numpy(batch.src), torch.from_numpy(batch.tgt_in))
    pattern = t[name].numpy()  # (B, H, T, S)
    pattern = np.concatenate([pattern, pattern.mean(1, keepdims=True)], axis=1)  # heads, then their average
    hits = np.zeros(pattern.shape[1])
    total = 0
    for b, n in enumerate(batch.lengths):
        argmax = pattern[b, :, :n, :].argmax(-1)  # (H + 1, n): query i predicts output symbol i
        hits += (argmax == seq2seq.reverse_alignment(n)).sum(-1)
        total += n
    return hits / total


def evaluate(model: Transformer, out: Path) -> dict:
    held_out = seq2seq.reversal(np.random.default_rng(12345), 1000, *TRAIN_LENGTHS)
    long = seq2seq.reversal(np.random.default_rng(12346), 500, *LONG_LENGTHS)
    choose = seq2seq.reversal(np.random.default_rng(999), 500, *TRAIN_LENGTHS)
    head = int(np.argmax(cross_alignment(model, choose)[:-1]))
    acc = cross_alignment(model, held_out)
    return {
        "exact_match": round(exact_match(model, held_out), 4),
        "exact_match_long": round(exact_match(model, long), 4),
        "alignment_accuracy": round(float(acc[head]), 4),
        "alignment_head": head,
        "alignment_accuracy_head_avg": round(float(acc[-1]), 4),
        "alignment_accuracy_long": round(float(cross_alignment(model, long)[head]), 4),
    }


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    batch = seq2seq.reversal(np.random.default_rng(7), 2, 5, 9)
    return {"src": batch.src, "tgt": batch.tgt_in}


RECIPES = [
    Recipe(name="transformer", build=build, train=train, evaluate=evaluate, example_inputs=example_inputs,
           bars={"exact_match": {"min": 0.98}, "alignment_accuracy": {"min": 0.90}},
           probes=("*.self_attn.pattern", "*.cross_attn.pattern", "*_attn.q", "*_attn.k", "*_attn.v",
                   "*_attn.scores"),
           dynamic_axes={"src": {0: "B", 1: "S"}, "tgt": {0: "B", 1: "T"}}),
]
