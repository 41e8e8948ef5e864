"""How the ``transformer-xl`` checkpoint is trained and evaluated (the model: models/transformer_xl.py).

``python -m models.train transformer-xl`` trains Transformer-XL as the paper does: the training token stream is cut
into ``batch`` parallel streams, each step reads the next segment of L tokens of every stream, and the memory the
model wrote on the step before is read by the next one (no gradient into it). In the same process a GPT-2-style
baseline (models/gpt.py, context L, learned positions, no memory: the fragmented vanilla model) trains on the same
segments, alternating one step each through ``race`` of the llama recipe: each stops when its own step time reaches
``budget_s``. The baseline's weights ship beside the model (``baseline.safetensors``). The tokenizer is the gpt
recipe's (byte-identical). About 2 × 20 min of step time on one CPU thread, plus a few minutes of evaluation.

Evaluation (every number recomputed by ``python -m models.evaluate transformer-xl``), on the validation plays, each
play scored from its <|endoftext|> on, segment after segment of L tokens:
- ``val_bpc``: with the memory carried from segment to segment; ``val_bpc_no_memory``: the same weights with the
  memory cleared before every segment;
- ``baseline_val_bpc_fragmented``: the baseline on the same non-overlapping segments (the vanilla model's training
  view of the text), and ``baseline_val_bpc_sliding`` with windows overlapping by half (each token with at least
  L/2 tokens before it; a remark, no bar);
- ``first_tokens_bpc_gain``: on the first ``FIRST`` targets of each segment, bits per character without memory
  minus with memory (the tokens fragmentation hurts most);
- ``memory_sweep``: ``val_bpc`` with other memory lengths at evaluation (relative positions allow any M);
- ``eval_speed``: milliseconds per predicted token of a long validation passage, Transformer-XL (segments of L
  with the memory, attention length M + L) against the vanilla evaluation (the same network without memory,
  recomputing a window of the same attention length for every token and predicting its last one), at several
  attention lengths; ``eval_speedup`` is the ratio at the training M. Timings: best of ``SPEED["repeats"]``, one
  thread; they change from run to run and machine to machine (``timed``: the card test checks their bars only).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

import numpy as np
import safetensors.torch
import torch
import torch.nn.functional as F
from torch import nn

from models import gpt, metrics, transformer_xl
from models.data import bpe, shakespeare
from models.recipes import Recipe, Run, Trained
from models.recipes.gpt import shakespeare_data, train_tokenizer
from models.recipes.llama import race
from models.training import fast_kernels
from models.zoo import parameter_count

C = transformer_xl.PRESETS["shipped"]

# The vanilla baseline: GPT-2-style, the same width, depth, heads and feed-forward, context L.
BASELINE = gpt.Config(vocab=C.vocab, dim=C.dim, n_heads=C.n_heads, n_layers=C.n_layers, max_len=C.segment)

# batch: parallel streams, so batch × L tokens per step for both models.
TRAIN_SETTINGS = {"budget_s": 1200.0, "batch": 32, "lr": 2e-3, "warmup": 100, "weight_decay": 0.01}

FIRST = 8  # first_tokens_bpc_gain: the first targets of each segment
MEMORY_SWEEP = (0, 32, 64, 128, 256)  # M = 0: the memory cleared
SPEED = {"passage": 1024, "vanilla_tokens": 128, "attention": (128, 256, 512), "repeats": 3}


# ---- training -------------------------------------------------------------------------------------------------------


def stream_segments(ids: np.ndarray, batch: int, L: int) -> Iterator[torch.Tensor]:
    """Endless (batch, L + 1) segments: ``ids`` cut into ``batch`` contiguous streams, each step the next L tokens
    of every stream (plus the one after, the last target). At the end the streams start again from their
    beginnings (a new epoch; the memory then still holds the end of the stream)."""
    n = (len(ids) - 1) // batch
    rows = np.stack([ids[r * n : r * n + n + 1] for r in range(batch)])  # (batch, n + 1)
    while True:
        for t in range(0, n - L + 1, L):
            yield torch.from_numpy(rows[:, t : t + L + 1])


class Recurrent(nn.Module):
    """Training view of Transformer-XL: ``forward(tokens) -> logits`` reads the memory the previous call wrote,
    so a plain next-token loss (and ``race``) trains it segment after segment. The memory carries no gradient."""

    def __init__(self, model: transformer_xl.TransformerXL):
        super().__init__()
        self.model = model
        self.memory: torch.Tensor | None = None

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        logits, self.memory = self.model(tokens, self.memory)
        return logits


def train(run: Run) -> Trained:
    """Transformer-XL and its fragmented baseline, raced on equal step time over the same segments."""
    hp = run.settings
    tok = train_tokenizer(C.vocab)  # as the gpt recipe trains it: identical
    ids = metrics.encode_split(tok, "train")
    torch.manual_seed(run.seed)
    model = transformer_xl.build(asdict(C))
    torch.manual_seed(run.seed)
    baseline = gpt.build(asdict(BASELINE))
    batches = stream_segments(ids, hp["batch"], C.segment)
    race_hp = {k: v for k, v in hp.items() if k != "batch"}
    with fast_kernels(baseline):
        trainers = race({"transformer-xl": Recurrent(model), "baseline": baseline}, batches, race_hp)
    model.eval()
    run.out.mkdir(parents=True, exist_ok=True)
    safetensors.torch.save_model(baseline, str(run.out / "baseline.safetensors"))
    ours, theirs = (trainers[n].summary(n) for n in ("transformer-xl", "baseline"))
    return Trained(
        model,
        asdict(C),
        data=shakespeare_data(ids),
        card={
            "tokenizer": f"byte-level BPE, {C.vocab} ids, trained exactly as the gpt recipe trains it "
            "(byte-identical to models/checkpoints/gpt/tokenizer.json)",
            "segment": C.segment,
            "memory": C.memory,
            "race": {
                "data": f"the training tokens cut into {hp['batch']} parallel streams; each step the next "
                f"{C.segment} tokens of every stream, for both models; Transformer-XL reads the memory it wrote on "
                "the step before (no gradient into it), the baseline sees the segment alone",
                "schedule": "warm-up steps, then cosine over the fraction of the budget used",
                "interleaved": "one Transformer-XL step, one baseline step, same batch, own step time counted",
            },
            **{k: v for k, v in ours.items() if k != "stage"},
            "baseline": {
                "arch": "models.gpt.GPT (GPT-2-style: pre-LN, GELU MLP, learned positions) with context L: the "
                "fragmented vanilla model",
                "config": asdict(BASELINE),
                "params": parameter_count(baseline),
                "weights": "baseline.safetensors",
                **{k: v for k, v in theirs.items() if k != "stage"},
            },
        },
        files={"tokenizer.json": tok.to_str()},
        stages=[ours, theirs],
    )


# ---- evaluation -----------------------------------------------------------------------------------------------------


@torch.inference_mode()
def document_losses(
    model: transformer_xl.TransformerXL, ids: np.ndarray, *, memory: bool = True, keep: int | None = None
) -> np.ndarray:
    """Nats of predicting ids[1:] (len − 1,), segment after segment of L targets, the memory carried (or cleared
    before each segment). Segment s predicts ids[sL + 1 .. sL + L] from ids[sL .. sL + L − 1]."""
    L = model.config.segment
    out = []
    mem = model.empty_memory()
    x = torch.from_numpy(ids)
    for start in range(0, len(ids) - 1, L):
        chunk = x[start : start + L + 1][None]
        logits, new = model(chunk[:, :-1], mem if memory else None, keep)
        mem = new
        out.append(F.cross_entropy(logits[0], chunk[0, 1:], reduction="none"))
    return torch.cat(out).numpy()


def validation_documents(tok) -> list[tuple[np.ndarray, str]]:
    return [(metrics.encode_document(tok, text), text) for text in shakespeare.plays("validation").values()]


def bpc(losses: list[np.ndarray], docs: list[tuple[np.ndarray, str]]) -> float:
    return float(sum(l.sum() for l in losses) / sum(len(t) for _, t in docs) / math.log(2))


def first_tokens_gain(
    with_memory: list[np.ndarray], without: list[np.ndarray], docs: list[tuple[np.ndarray, str]], tok, L: int
) -> float:
    """Bits per character on the first FIRST targets of every segment: without memory minus with memory (the
    characters of those target tokens; the validation plays are ASCII, so bytes = characters)."""
    nats = chars = 0.0
    for w, wo, (ids, _) in zip(with_memory, without, docs):
        first = np.arange(len(w)) % L < FIRST
        nats += (wo[first] - w[first]).sum()
        chars += sum(len(b) for b in bpe.token_bytes(tok, ids[1:][first]))
    return float(nats / chars / math.log(2))


def load_baseline(out: Path) -> gpt.GPT:
    config = json.loads((out / "card.json").read_text())["baseline"]["config"]
    model = gpt.build(config)
    safetensors.torch.load_model(model, str(out / "baseline.safetensors"), strict=True)
    return model.eval()


def baseline_bpc(model: gpt.GPT, docs: list[tuple[np.ndarray, str]], stride: int) -> float:
    nats = sum(metrics.document_nats(model, ids, stride=stride) for ids, _ in docs)
    return float(nats / sum(len(t) for _, t in docs) / math.log(2))


def _best_ms(fn, repeats: int) -> float:
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def recurrent_pass(model: transformer_xl.TransformerXL, text: torch.Tensor, memory: int) -> None:
    """Transformer-XL's evaluation: the passage (1, n) in segments of L, each reading ``memory`` states per layer."""
    L, mem = model.config.segment, model.empty_memory()
    for start in range(0, text.shape[1], L):
        _, mem = model(text[:, start : start + L], mem, memory)


def vanilla_pass(model: transformer_xl.TransformerXL, text: torch.Tensor, attention: int, n: int) -> None:
    """The vanilla evaluation of the last ``n`` tokens of the passage: a window of ``attention`` tokens recomputed
    from scratch for each, only its last position predicted."""
    for end in range(text.shape[1] - n, text.shape[1]):
        model(text[:, end - attention + 1 : end + 1], None, 0)


@torch.inference_mode()
def eval_speed(model: transformer_xl.TransformerXL, ids: np.ndarray) -> dict:
    """Milliseconds per predicted token on one passage, batch 1, one thread: Transformer-XL over the whole passage
    in segments of L with memory M = A − L, and the vanilla evaluation recomputing a window of A tokens for each of
    the passage's last ``vanilla_tokens`` tokens (every window full). A = the attention length."""
    L, s = model.config.segment, SPEED
    text = torch.from_numpy(ids[: s["passage"]])[None]
    n = s["vanilla_tokens"]
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        xl = [
            _best_ms(lambda a=A: recurrent_pass(model, text, a - L), s["repeats"]) / text.shape[1]
            for A in s["attention"]
        ]
        va = [_best_ms(lambda a=A: vanilla_pass(model, text, a, n), s["repeats"]) / n for A in s["attention"]]
    finally:
        torch.set_num_threads(threads)
    return {
        "passage_tokens": int(text.shape[1]),
        "segment": L,
        "threads": 1,
        "attention": list(s["attention"]),
        "xl_ms_per_token": [round(x, 4) for x in xl],
        "vanilla_ms_per_token": [round(v, 4) for v in va],
        "speedup": [round(v / x, 2) for x, v in zip(xl, va)],
    }


def evaluate(model: transformer_xl.TransformerXL, out: Path) -> dict:
    tok = metrics.tokenizer(out)
    L = model.config.segment
    docs = validation_documents(tok)
    without = [document_losses(model, ids, memory=False) for ids, _ in docs]
    sweep = {m: [document_losses(model, ids, keep=m) for ids, _ in docs] if m else without for m in MEMORY_SWEEP}
    with_memory = sweep[model.config.memory]
    baseline = load_baseline(out)
    speed = eval_speed(model, docs[0][0])
    return {
        "val_bpc": round(bpc(with_memory, docs), 4),
        "val_bpc_no_memory": round(bpc(without, docs), 4),
        "baseline_val_bpc_fragmented": round(baseline_bpc(baseline, docs, stride=L), 4),
        "baseline_val_bpc_sliding": round(baseline_bpc(baseline, docs, stride=L // 2), 4),
        "first_tokens_bpc_gain": round(first_tokens_gain(with_memory, without, docs, tok, L), 4),
        "memory_sweep": {
            "memory": list(MEMORY_SWEEP),
            "val_bpc": [round(bpc(sweep[m], docs), 4) for m in MEMORY_SWEEP],
        },
        "eval_speed": speed,
        "eval_speedup": speed["speedup"][speed["attention"].index(L + model.config.memory)],
    }


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    """A segment and a memory of M states per layer (random: the export only traces shapes)."""
    tok = metrics.tokenizer(out)
    tokens = metrics.encode_document(tok, "To be, or not to be, that is the question:")[None]
    memory = np.random.default_rng(0).standard_normal((C.n_layers, 1, C.memory, C.dim)).astype(np.float32)
    return {"tokens": tokens, "memory": memory}


RECIPES = [
    Recipe(
        name="transformer-xl",
        arch="transformer_xl",
        train=train,
        evaluate=evaluate,
        example_inputs=example_inputs,
        bars={
            "val_bpc": {"max": "baseline_val_bpc_fragmented"},
            "val_bpc_no_memory": {"min": "val_bpc"},  # val_bpc with memory ≤ the same weights without
            "first_tokens_bpc_gain": {"min": 0.0001},  # > 0 at the card's four decimals
            "eval_speedup": {"min": 1.0},
        },
        output_names=("logits", "new_memory"),  # ONNX names must differ from the input "memory"
        probes=transformer_xl.PROBES,
        dynamic_axes={"tokens": {0: "B", 1: "T"}, "memory": {1: "B", 2: "M"}},
        defaults=TRAIN_SETTINGS,
        timed=("eval_speed", "eval_speedup"),
    ),
]
