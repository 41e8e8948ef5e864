"""How the ``transformer`` checkpoint is trained and evaluated: reversal of short lowercase strings
(``models.data.seq2seq``), greedy exact match on seen and unseen lengths, and how well cross-attention aligns.

    python -m models.train transformer [--set steps=4000 ...]

What the randomly shifted positions bought: docs/training/transformer.md.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from models import recipes as registry
from models import transformer as tr
from models.data import seq2seq
from models.probe import trace
from models.recipes.common import initial_model
from models.training import fit, schedule

# The task: lengths seen in training, and the longer ones the checkpoint is tested on (1.25×).
TRAIN_LENGTHS = seq2seq.TRAIN_LENGTHS
LONG_LENGTHS = seq2seq.LONG_LENGTHS

SETTINGS = {
    "steps": 4000,
    "batch": 128,
    "lr": 2e-3,
    "warmup": 300,
    "weight_decay": 0.0,
    # random start rows of the source and target positions in each batch (models/data/seq2seq.py: why)
    "position_shift": seq2seq.POSITION_SHIFT,
}


def loss(model: tr.Transformer, batch: seq2seq.Batch, offsets: tuple[int, int] = (0, 0)) -> torch.Tensor:
    """Teacher-forced cross-entropy of the target, the source and target positions starting at ``offsets``."""
    src = torch.from_numpy(batch.src)
    logits = model.decode(torch.from_numpy(batch.tgt_in), model.encode(src, offsets[0]), src, offsets[1])
    return F.cross_entropy(logits.flatten(0, 1), torch.from_numpy(batch.tgt_out).flatten(), ignore_index=seq2seq.PAD)


def train(run: registry.Run) -> registry.Trained:
    hp = run.settings
    config = asdict(
        replace(tr.PRESETS["shipped"], vocab=seq2seq.VOCAB, pad_id=seq2seq.PAD, bos_id=seq2seq.BOS, eos_id=seq2seq.EOS)
    )
    torch.manual_seed(run.seed)
    model, config = initial_model(run, tr.build, config)
    rng = np.random.default_rng(run.seed)

    def batches():
        while True:
            shifts = tuple(int(s) for s in rng.integers(0, hp["position_shift"] + 1, size=2))
            yield seq2seq.reversal(rng, hp["batch"], *TRAIN_LENGTHS), shifts

    trainer = fit(
        model,
        batches(),
        lambda m, b: loss(m, *b),
        **schedule(hp),
        desc="transformer",
    )
    lo, hi = TRAIN_LENGTHS
    return registry.Trained(
        model,
        config,
        data=f"random lowercase strings (a–z and space), lengths {lo}–{hi}, generated from the seed; "
        f"{hp['steps']} steps × {hp['batch']} examples",
        card={
            "task": "reverse the input string: output symbol i copies source symbol n-1-i",
            "position_shift": f"training only: source and target positions start at independent random rows "
            f"0–{hp['position_shift']} of the sinusoidal table in each batch; inference starts at 0",
            "train_lengths": list(TRAIN_LENGTHS),
            "long_lengths": list(LONG_LENGTHS),
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
        stages=[trainer.summary("reverse")],
    )


# ---- evaluation --------------------------------------------------------------------------------------------------


def exact_match(model: tr.Transformer, batch: seq2seq.Batch) -> float:
    """Share of the batch whose greedy output is the target, <eos> included."""
    with torch.no_grad():
        pred = tr.greedy_decode(model, torch.from_numpy(batch.src), max_new=batch.tgt_out.shape[1] + 2).numpy()
    hits = 0
    for b, n in enumerate(batch.lengths):
        want = batch.tgt_out[b, : n + 1]
        hits += int(pred.shape[1] >= n + 1 and bool((pred[b, : n + 1] == want).all()))
    return float(hits / len(batch.lengths))


def cross_alignment(model: tr.Transformer, batch: seq2seq.Batch, layer: int = -1) -> np.ndarray:
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


def evaluate(model: tr.Transformer, out: Path) -> dict:
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
    registry.Recipe(
        name="transformer",
        arch="transformer",
        train=train,
        evaluate=evaluate,
        example_inputs=example_inputs,
        bars={"exact_match": {"min": 0.98}, "alignment_accuracy": {"min": 0.90}},
        probes=("*.self_attn.pattern", "*.cross_attn.pattern", "*_attn.q", "*_attn.k", "*_attn.v", "*_attn.scores"),
        dynamic_axes={"src": {0: "B", 1: "S"}, "tgt": {0: "B", 1: "T"}},
        defaults=SETTINGS,
    ),
]
