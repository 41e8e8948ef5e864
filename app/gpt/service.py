"""The GPT page's bridge to ``models.gpt``: tokenise, next-token distribution, sampling, generation, logit lens,
and the in-context-learning (induction) demo.

Every model call goes through the checkpoint's handle (``MODEL.run``: torch or ONNX Runtime) except generation,
which runs the engine's one-call decoding step (``models.gpt.CachedStep``: traced on torch, ``decode.onnx`` on ONNX
Runtime) with the KV cache or re-reading the whole sequence, as the reader chooses: the same tokens either way, and the
tokens-per-second readout compares the two as this reader measured them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import streamlit as st

from app.shared import assets, services
from app.shared.figures import cached
from app.shared.i18n import InputError
from app.shared.numbers import entropy_bits, log_softmax, softmax
from app.shared.services import engine, stack_layers
from models import gpt, metrics, sampling
from models.data import bpe

NAME = "gpt"
MODEL = services.checkpoint(NAME)  # every function of this page reads this checkpoint through its handle
MAX_CHARS = 600  # what the prompt box accepts
MAX_PROMPT_TOKENS = 160  # prompt tokens (with <|endoftext|>); leaves room for generation in the 256 context
MAX_NEW = 64  # tokens one generation may add
PROBES = ("embedded", "blocks.*.resid", "blocks.*.attn.pattern")

_EXAMPLES = assets.data("examples/gpt.json")
EXAMPLES: tuple[str, ...] = tuple(_EXAMPLES["prompts"])  # the prompt box's default is the first
# Few-shot prompts, each with the continuation that would show it caught the pattern (which ones the shipped model
# continues is checked in tests/app/test_gpt.py).
FEW_SHOT: dict[str, tuple[str, str]] = {k: (v["prompt"], v["expected"]) for k, v in _EXAMPLES["few_shot"].items()}


def piece_text(raw: bytes) -> str:
    """A token's bytes as text; bytes that are only part of a UTF-8 character are shown as ‹hex›."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return "‹" + " ".join(f"{b:02x}" for b in raw) + "›"


@st.cache_resource(show_spinner=False)
def vocabulary(name: str = NAME) -> tuple[str, ...]:
    """The display text of every id of checkpoint ``name``'s tokenizer (``<|endoftext|>`` for id 0)."""
    tok = services.checkpoint(name).tokenizer
    raw = bpe.token_bytes(tok, range(tok.get_vocab_size()))
    return (bpe.EOT, *(piece_text(b) for b in raw[1:]))


@dataclass(frozen=True)
class Tokens:
    ids: tuple[int, ...]  # <|endoftext|> first, then the prompt's BPE ids
    pieces: tuple[str, ...]  # each id as text
    n_bytes: tuple[int, ...]  # UTF-8 bytes each id stands for
    hex: tuple[str, ...]  # those bytes in hex


def _tokens(ids: list[int]) -> Tokens:
    raw = bpe.token_bytes(MODEL.tokenizer, ids)
    vocab = vocabulary()
    return Tokens(
        ids=tuple(int(i) for i in ids),
        pieces=tuple(vocab[i] for i in ids),
        n_bytes=tuple(len(b) for b in raw),
        hex=tuple(b.hex(" ") for b in raw),
    )


def tokenize(text: str) -> Tokens:
    """The prompt as the model reads it; ``InputError`` when it is empty or too long."""
    if not text or not text.strip():
        raise InputError("gpt.error.empty")
    if len(text) > MAX_CHARS:
        raise InputError("gpt.error.too_long_chars", n=len(text), max=MAX_CHARS)
    ids = [0, *MODEL.tokenizer.encode(text).ids]
    if len(ids) > MAX_PROMPT_TOKENS:
        raise InputError("gpt.error.too_long_tokens", n=len(ids), max=MAX_PROMPT_TOKENS)
    return _tokens(ids)


@dataclass(frozen=True)
class Analysis:
    """One forward pass over a sequence. Shapes: L layers, H heads, T tokens, V vocabulary."""

    tokens: Tokens
    logits: np.ndarray  # (V,) at the last position
    probs: np.ndarray  # (V,) softmax of those logits (temperature 1)
    patterns: np.ndarray  # (L, H, T, T)
    lens_ids: np.ndarray  # (L + 1, T): the top next-token id read from the residual stream before block 0 and
    lens_probs: np.ndarray  # (L + 1, T)   after each block (the last row is the model's own prediction)
    final_top_by_layer: np.ndarray  # (L + 1,) probability the lens gives the model's final top token, last position
    backend: str
    device: str
    ms: float


def forward(tokens: Tokens, backend: str) -> Analysis:
    res = MODEL.run({"tokens": np.array([tokens.ids], dtype=np.int64)}, PROBES, backend)
    n_layers = MODEL.config["n_layers"]
    patterns = stack_layers(res.probes, "blocks.{}.attn.pattern", n_layers)
    resid = np.concatenate([res.probes["embedded"][:1], stack_layers(res.probes, "blocks.{}.resid", n_layers)])
    lens = softmax(gpt.logit_lens(MODEL.model, resid))  # (L + 1, T, V)
    logits = res.outputs["logits"][0, -1].astype(np.float64)
    final_top = int(logits.argmax())
    return Analysis(
        tokens=tokens,
        logits=logits,
        probs=softmax(logits),
        patterns=patterns,
        lens_ids=lens.argmax(-1),
        lens_probs=lens.max(-1),
        final_top_by_layer=lens[:, -1, final_top],
        backend=res.backend,
        device=res.device,
        ms=res.ms,
    )


@st.cache_data(show_spinner=False, max_entries=64)
def analyse(text: str, backend: str = "torch") -> Analysis:
    """The prompt's next-token distribution, attention maps and logit lens."""
    return forward(tokenize(text), backend)


@st.cache_data(show_spinner=False, max_entries=64)
def analyse_ids(ids: tuple[int, ...], backend: str = "torch") -> Analysis:
    """The same for a sequence of ids (prompt plus generated tokens)."""
    return forward(_tokens(list(ids)), backend)


@dataclass(frozen=True)
class Sampling:
    """What temperature, top-k and top-p do to one distribution, ids sorted by the untouched probability."""

    order: np.ndarray  # (N,) ids shown, most likely first (before any change)
    before: np.ndarray  # (N,) softmax at temperature 1
    tempered: np.ndarray  # (N,) softmax at the chosen temperature
    after: np.ndarray  # (N,) what sampling draws from: tempered, cut by top-k and top-p, renormalised
    cumulative: np.ndarray  # (N,) cumulative mass of ``tempered`` (the nucleus line)
    kept: int  # ids left with non-zero probability (whole vocabulary)
    entropy_before: float  # bits
    entropy_after: float  # bits


@cached  # each sampling rerun asks again for the same distribution and controls
def sampling_steps(logits: np.ndarray, temperature: float, top_k: int, top_p: float, shown: int = 20) -> Sampling:
    before = sampling.softmax(logits)
    tempered = sampling.softmax(logits, temperature)
    after = sampling.filtered(logits, temperature=temperature, top_k=top_k, top_p=top_p)
    order = np.argsort(-before, kind="stable")[:shown]
    cum = np.cumsum(np.sort(tempered)[::-1])[: len(order)]
    return Sampling(
        order=order,
        before=before[order],
        tempered=tempered[order],
        after=after[order],
        cumulative=cum,
        kept=int((after > 0).sum()),
        entropy_before=entropy_bits(before),
        entropy_after=entropy_bits(after),
    )


@dataclass(frozen=True)
class Generation:
    prompt: Tokens
    new_ids: tuple[int, ...]
    text: str  # the generated continuation, decoded
    ms: float
    tokens_per_s: float
    backend: str
    device: str
    cache: bool = True  # decoded with the KV cache (else re-reading the whole sequence for each token)


def _decode_step(backend: str):
    """The engine's one-call decoding step (traced on torch — once per process — or ``decode.onnx``)."""
    MODEL.require()
    if backend == "onnx" and not (MODEL.folder / "decode.onnx").exists():
        raise InputError("error.onnx_missing", name=NAME)
    return engine().decode_step(NAME, backend)


def _check_n(n: int) -> None:
    if not 1 <= n <= MAX_NEW:
        raise InputError("gpt.error.n", max=MAX_NEW)


class Stream:
    """A continuation as it is decoded: iterating it yields the text as tokens arrive (for ``st.write_stream``);
    once it is spent, ``generation`` is the whole of it, timed."""

    def __init__(
        self, text: str, n: int, temperature: float, top_k: int, top_p: float, seed: int, backend: str, cache: bool
    ):
        self.prompt = tokenize(text)
        _check_n(n)
        self._args = (n, temperature, top_k, top_p, seed, backend, cache)
        self._generation: Generation | None = None

    @property
    def generation(self) -> Generation:
        if self._generation is None:
            raise RuntimeError("read Stream.generation after iterating the stream")
        return self._generation

    def __iter__(self) -> Iterator[str]:
        n, temperature, top_k, top_p, seed, backend, cache = self._args
        tok = MODEL.tokenizer
        step = _decode_step(backend)  # before the clock starts: the first call in a process traces it
        steps = gpt.decode(
            step,
            list(self.prompt.ids),
            n,
            max_len=MODEL.config["max_len"],
            cache=cache,
            temperature=temperature,
            top_k=top_k,
            top_p=top_p,
            seed=seed,
        )
        new: list[int] = []
        shown = ""
        start = time.perf_counter()
        for nxt in steps:
            new.append(nxt)
            decoded = tok.decode(new)
            if not decoded.endswith("\ufffd"):  # wait for the rest of a UTF-8 character split across tokens
                yield decoded[len(shown) :]
                shown = decoded
        seconds = time.perf_counter() - start
        self._generation = Generation(
            prompt=self.prompt,
            new_ids=tuple(new),
            text=tok.decode(new),
            ms=seconds * 1e3,
            tokens_per_s=len(new) / seconds if seconds else 0.0,
            backend=backend,
            device=device(backend),
            cache=cache,
        )


def stream(
    text: str,
    n: int,
    temperature: float,
    top_k: int,
    top_p: float,
    seed: int,
    backend: str,
    cache: bool = True,
) -> Stream:
    """The continuation to stream live (``st.write_stream(s)``, then ``s.generation``); ``InputError`` at once for a
    bad prompt or length."""
    return Stream(text, n, temperature, top_k, top_p, seed, backend, cache)


@cached  # shared in the process, keyed by figures.cached's own hashing: a sampling rerun draws this each time
def generate(
    text: str,
    n: int,
    temperature: float,
    top_k: int,
    top_p: float,
    seed: int,
    backend: str = "torch",
    cache: bool = True,
) -> Generation:
    """The whole continuation at once (same ids as ``stream`` for the same arguments)."""
    s = stream(text, n, temperature, top_k, top_p, seed, backend, cache)
    for _ in s:
        pass
    return s.generation


def device(backend: str) -> str:
    """Where ``backend`` runs this model (the ONNX session may fall back to the CPU)."""
    if backend == "onnx":
        MODEL.require()
        providers = engine().session(NAME).get_providers()
        return "cuda" if providers[0] == "CUDAExecutionProvider" else "cpu"
    return engine().device


@dataclass(frozen=True)
class Induction:
    """A random sequence of ``length`` merged BPE ids, shown twice. Position 0 is <|endoftext|>."""

    tokens: Tokens
    length: int
    loss: np.ndarray  # (2·length,) loss (nats) of predicting token t + 1 from tokens ≤ t
    loss_first: float  # mean over targets 2..length of the first copy
    loss_second: float  # mean over targets 2..length of the second copy
    scores: np.ndarray  # (L, H) induction score: mean attention from a repeated token to the one after its first copy
    patterns: np.ndarray  # (L, H, T, T)
    backend: str
    device: str
    ms: float

    @property
    def ratio(self) -> float:
        return self.loss_second / self.loss_first

    @property
    def best_head(self) -> tuple[int, int]:
        layer, head = np.unravel_index(int(self.scores.argmax()), self.scores.shape)
        return int(layer), int(head)


@st.cache_data(show_spinner=False, max_entries=32)
def induction(length: int, seed: int, backend: str = "torch") -> Induction:
    if not 4 <= length <= 100:
        raise InputError("gpt.error.length", min=4, max=100)
    vocab = MODEL.config["vocab"]
    ids = metrics.induction_batch(vocab, n=1, length=length, seed=seed)[0]
    res = MODEL.run({"tokens": ids[None]}, ("blocks.*.attn.pattern",), backend)
    logp = log_softmax(res.outputs["logits"][0])  # (T, V)
    loss = -logp[np.arange(len(ids) - 1), ids[1:]]  # (2·length,)
    patterns = stack_layers(res.probes, "blocks.{}.attn.pattern")  # (L, H, T, T)
    first, second = metrics.copy_losses(loss, length)
    scores = metrics.induction_scores(patterns, length)
    return Induction(
        tokens=_tokens(list(ids)),
        length=length,
        loss=loss,
        loss_first=first,
        loss_second=second,
        scores=scores,
        patterns=patterns,
        backend=res.backend,
        device=res.device,
        ms=res.ms,
    )


def card():
    """The checkpoint's card (read-only mapping; empty when it has none)."""
    return MODEL.card


@st.cache_data(show_spinner=False)
def facts() -> dict:
    """The shipped model's sizes and training, read from its config and card (the intro, the explanation and the
    paper-vs-here table state these, so they follow the checkpoint)."""
    cfg, c = MODEL.config, MODEL.card
    stages = c.get("stages", [])
    hp = c.get("training", {})
    return {
        "layers": cfg["n_layers"],
        "heads": cfg["n_heads"],
        "dim": cfg["dim"],
        "vocab": cfg["vocab"],
        "uniform_nats": float(np.log(cfg["vocab"])),  # the loss of a uniform guess over the vocabulary
        "context": cfg["max_len"],
        "params": c["params"],
        "stage1_minutes": stages[0]["wall_time_s"] / 60 if stages else float("nan"),
        "stage2_minutes": sum(s["wall_time_s"] for s in stages[1:]) / 60,
        "stage1_tokens": hp.get("steps", 0) * hp.get("batch", 0) * hp.get("context", 0),  # windows of the plays
        "val_bpc": c["metrics"]["val_bpc"],
        "bigram_bpc": c["metrics"]["bigram_val_bpc"],
        "induction_ratio": c["metrics"]["induction_loss_ratio"],
    }


def training_summary(card: dict) -> tuple[float, str]:
    """(minutes, command) of the whole recipe: a card assembled from runs that each continued the one before gives
    their summed wall time and the single command that runs every stage."""
    return card.get("wall_time_s", 0) / 60, card.get("reproduce", card.get("command", ""))
