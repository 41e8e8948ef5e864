"""The GPT page's bridge to ``models.gpt``: tokenise, next-token distribution, sampling, generation, logit lens,
and the in-context-learning (induction) demo.

Every function takes the checkpoint's name (``name``, ours ``gpt`` by default): the page's picker hands it ours or
a real pretrained decoder converted into our classes (SmolLM2 and the Llama family, GPT-2; models/pretrained). Every
model call goes through that checkpoint's handle (``handle(name).run``: torch or ONNX Runtime) except generation. On
ours it runs the engine's one-call decoding step (``models.gpt.CachedStep``: traced on torch, ``decode.onnx`` on
ONNX Runtime) with the KV cache or re-reading the whole sequence, as the reader chooses: the same tokens either way,
and the tokens-per-second readout compares the two as this reader measured them. A real checkpoint has no ONNX graph
and no traced step: it decodes in eager torch (``models.gpt.eager_step``, the model's own ``new_cache()``).

Ours reads ``<|endoftext|>`` before every text, as it was trained; a real checkpoint reads the text as its own
tokenizer encodes it, with nothing in front (SmolLM2's tokenizer adds no start token, and its ``<|endoftext|>``
separates documents, it does not start them). Its inputs are capped shorter (``MAX_REAL_TOKENS``): a forward pass
with every attention map of a 135 M model costs ~10 ms a token on a CPU.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import streamlit as st

from app.shared import assets, services
from app.shared.figures import cached
from app.shared.i18n import InputError
from app.shared.interventions import BLOCKS
from app.shared.interventions import check as check_knock_out
from app.shared.numbers import entropy_bits, log_softmax, softmax
from app.shared.services import engine, stack_layers
from models import gpt, metrics, sampling
from models.data import bpe

NAME = "gpt"  # our checkpoint, the page's default
DYNAMICS = "gpt-induction"  # ours too, smaller: its training recorded (snapshots) for the training-step slider
MAX_CHARS = 600  # what the prompt box accepts
MAX_PROMPT_TOKENS = 160  # prompt tokens (with <|endoftext|>); leaves room for generation in the 256 context
MAX_NEW = 64  # tokens one generation may add
MAX_REAL_TOKENS = 64  # prompt tokens a real checkpoint reads here (a forward with every map: ~0.7 s on a CPU)
MAX_REAL_NEW = 32  # tokens one generation of a real checkpoint may add (~5 tokens/s on a CPU)
PROBES = ("embedded", "blocks.*.resid", "blocks.*.attn.pattern")
LENS_CHUNK = 2  # layers read through the unembedding at once (a real vocabulary: 49k logits per token)


def handle(name: str = NAME) -> services.Checkpoint:
    """The checkpoint ``name``'s handle (models, tokenizer, card, runner)."""
    return services.checkpoint(name)


def is_real(name: str = NAME) -> bool:
    """A real pretrained checkpoint (no start token of ours, shorter inputs, eager torch decoding)."""
    return handle(name).real


def prefix(name: str = NAME) -> tuple[int, ...]:
    """What the model reads before the text (``Checkpoint.prefix``: ours <|endoftext|>, a real one nothing)."""
    return handle(name).prefix


def limits(name: str = NAME) -> tuple[int, int]:
    """(prompt tokens, new tokens) the page lets checkpoint ``name`` read and write: a prompt and its continuation
    fit in the model's context (the dynamics model's is 64)."""
    if is_real(name):
        return MAX_REAL_TOKENS, MAX_REAL_NEW
    context = handle(name).config["max_len"]
    new = min(MAX_NEW, context // 2)  # the dynamics model's 64 tokens: 32 to read, 32 to write
    return min(MAX_PROMPT_TOKENS, context - new), new


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
    """The display text of every id of checkpoint ``name``'s tokenizer (a special token, such as ours
    ``<|endoftext|>`` at id 0, by its name)."""
    tok = services.checkpoint(name).tokenizer
    raw = bpe.token_bytes(tok, range(tok.get_vocab_size()))
    return tuple(piece_text(b) if b else tok.id_to_token(i) for i, b in enumerate(raw))  # id 0 of ours: EOT


@dataclass(frozen=True)
class Tokens:
    ids: tuple[int, ...]  # what the model reads before the text (ours: <|endoftext|>), then the text's BPE ids
    pieces: tuple[str, ...]  # each id as text
    n_bytes: tuple[int, ...]  # UTF-8 bytes each id stands for
    hex: tuple[str, ...]  # those bytes in hex
    prefix: int = 1  # ids in front of the text (ours 1: <|endoftext|>; a real checkpoint 0)


def _tokens(ids: list[int], name: str = NAME) -> Tokens:
    raw = bpe.token_bytes(handle(name).tokenizer, ids)
    vocab = vocabulary(name)
    return Tokens(
        ids=tuple(int(i) for i in ids),
        pieces=tuple(vocab[i] for i in ids),
        n_bytes=tuple(len(b) for b in raw),
        hex=tuple(b.hex(" ") for b in raw),
        prefix=len(prefix(name)),
    )


def chat_template(name: str = NAME) -> str | None:
    """The real checkpoint's chat template (its card, from the model's own files), else None."""
    return handle(name).card.get("chat_template") if is_real(name) else None


@st.cache_data(show_spinner=False, max_entries=8)
def stops(name: str = NAME) -> tuple[int, ...]:
    """The ids that end the model's turn or text (``services.Checkpoint.stops``; ours: none)."""
    return handle(name).stops


def tokenize(text: str, name: str = NAME, chat: bool = False) -> Tokens:
    """The prompt as the model reads it (``chat``: as the user's turn in the model's chat template, where it has
    one); ``InputError`` when it is empty or too long."""
    if not text or not text.strip():
        raise InputError("gpt.error.empty")
    n_chars = len(text)
    template = chat_template(name) if chat else None
    if template:
        from jinja2.exceptions import TemplateError

        from models import pretrained

        try:
            text = pretrained.chat_prompt(template, text, handle(name).card)
        except TemplateError as e:
            raise InputError("gpt.error.template", why=str(e)[:200]) from None
    ids = [*prefix(name), *handle(name).tokenizer.encode(text).ids]
    most = limits(name)[0]
    if len(ids) > most:
        key = "gpt.error.too_long_tokens_real" if is_real(name) else "gpt.error.too_long_tokens"
        raise InputError(key, n=len(ids), max=most)
    if n_chars > MAX_CHARS:  # after the tokens, which bind first for most text: one refusal, in the unit that binds
        raise InputError("gpt.error.too_long_chars", n=n_chars, max=MAX_CHARS)
    return _tokens(ids, name)


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
    name: str = NAME  # the checkpoint


def _lens(model, resid: np.ndarray, final_top: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The logit lens of residual streams (L + 1, T, C): each one through the model's own final norm and
    unembedding (``model.unembed``: GPT's LayerNorm and Eᵀ, Llama's RMSNorm and Eᵀ or W_U), a few layers at a time so
    a 49k vocabulary never holds every layer's logits at once. Returns the top id and its probability per (layer,
    position), and the probability of ``final_top`` at the last position per layer."""
    import torch

    device = next(model.parameters()).device
    ids, probs, final = [], [], []
    with torch.inference_mode():
        for start in range(0, len(resid), LENS_CHUNK):
            x = torch.from_numpy(np.ascontiguousarray(resid[start : start + LENS_CHUNK], dtype=np.float32))
            p = torch.softmax(model.unembed(x.to(device)).float(), dim=-1)  # (l, T, V)
            top = p.max(-1)
            ids.append(top.indices.cpu().numpy())
            probs.append(top.values.cpu().numpy())
            final.append(p[:, -1, final_top].cpu().numpy())
    return np.concatenate(ids), np.concatenate(probs), np.concatenate(final)


def forward(tokens: Tokens, backend: str, name: str = NAME) -> Analysis:
    ck = handle(name)
    real = ck.real
    probes = PROBES[1:] if real and ck.card.get("arch") != "gpt" else PROBES  # a Llama has no position table
    res = ck.run({"tokens": np.array([tokens.ids], dtype=np.int64)}, probes, ck.backend(backend))
    n_layers = ck.config["n_layers"]
    patterns = stack_layers(res.probes, "blocks.{}.attn.pattern", n_layers)
    if "embedded" in res.probes:
        embedded = res.probes["embedded"][:1]
    else:  # the stream before block 0 of a rotary decoder is the token embedding alone
        embedded = ck.model.embed.weight[list(tokens.ids)].detach().float().cpu().numpy()[None]
    resid = np.concatenate([embedded, stack_layers(res.probes, "blocks.{}.resid", n_layers)])
    logits = res.outputs["logits"][0, -1].astype(np.float64)
    final_top = int(logits.argmax())
    lens_ids, lens_probs, final_by_layer = _lens(ck.model, resid, final_top)
    return Analysis(
        tokens=tokens,
        logits=logits,
        probs=softmax(logits),
        patterns=patterns,
        lens_ids=lens_ids,
        lens_probs=lens_probs,
        final_top_by_layer=final_by_layer,
        backend=res.backend,
        device=res.device,
        ms=res.ms,
        name=name,
    )


@st.cache_data(show_spinner=False, max_entries=64)
def analyse(text: str, backend: str = "torch", name: str = NAME) -> Analysis:
    """The prompt's next-token distribution, attention maps and logit lens, on checkpoint ``name``."""
    return forward(tokenize(text, name), backend, name)


@st.cache_data(show_spinner=False, max_entries=64)
def analyse_ids(ids: tuple[int, ...], backend: str = "torch", name: str = NAME) -> Analysis:
    """The same for a sequence of ids (prompt plus generated tokens)."""
    return forward(_tokens(list(ids), name), backend, name)


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
    stopped: str = ""  # the end-of-turn or end-of-text token it stopped at (not in ``text``), else ""
    chat: bool = False  # the prompt went in as a user's turn of the chat template


def _decode_step(backend: str, name: str = NAME, cache: bool = True):
    """Ours: the engine's one-call decoding step (traced on torch — once per process — or ``decode.onnx``). A real
    checkpoint has neither: the model itself, eager, with its own KV cache (``new_cache()``) or without."""
    ck = handle(name)
    ck.require()
    if not engine().has_step(name):
        return gpt.eager_step(ck.model, cache)
    if backend == "onnx" and not (ck.folder / "decode.onnx").exists():
        raise InputError("error.onnx_missing", name=name)
    return engine().decode_step(name, backend)


def decode_backend(backend: str, name: str = NAME) -> str:
    """The backend generation runs on: the reader's where the checkpoint has a decoding step, else torch."""
    return backend if engine().has_step(name) else "torch"


def _check_n(n: int, name: str = NAME) -> None:
    most = limits(name)[1]
    if not 1 <= n <= most:
        raise InputError("gpt.error.n", max=most)


class Stream:
    """A continuation as it is decoded: iterating it yields the text as tokens arrive (for ``st.write_stream``);
    once it is spent, ``generation`` is the whole of it, timed."""

    def __init__(
        self,
        text: str,
        n: int,
        temperature: float,
        top_k: int,
        top_p: float,
        seed: int,
        backend: str,
        cache: bool,
        name: str = NAME,
        chat: bool = False,
    ):
        self.chat = bool(chat and chat_template(name))
        self.prompt = tokenize(text, name, self.chat)
        _check_n(n, name)
        self.name = name
        self.skip = not is_real(name)  # a real model's own special tokens show (a stop token ends the text unshown)
        self._args = (n, temperature, top_k, top_p, seed, decode_backend(backend, name), cache)
        self._generation: Generation | None = None
        self.on_token: Callable[[int, int], None] | None = None  # (tokens so far, n): a page's progress bar

    @property
    def generation(self) -> Generation:
        if self._generation is None:
            raise RuntimeError("read Stream.generation after iterating the stream")
        return self._generation

    def __iter__(self) -> Iterator[str]:
        n, temperature, top_k, top_p, seed, backend, cache = self._args
        ck = handle(self.name)
        tok = ck.tokenizer
        step = _decode_step(backend, self.name, cache)  # before the clock starts: the first call traces it
        steps = gpt.decode(
            step,
            list(self.prompt.ids),
            n,
            max_len=ck.config["max_len"],
            cache=cache,
            temperature=temperature,
            top_k=top_k,
            top_p=top_p,
            seed=seed,
        )
        new: list[int] = []
        shown, stopped = "", ""
        ends = set(stops(self.name))
        start = time.perf_counter()
        for nxt in steps:
            if nxt in ends:  # the model ended its turn or its text: what it writes after that is not its reply
                stopped = tok.id_to_token(nxt)
                break
            new.append(nxt)
            if self.on_token is not None:
                self.on_token(len(new), n)
            decoded = tok.decode(new, skip_special_tokens=self.skip)
            if not decoded.endswith("\ufffd"):  # wait for the rest of a UTF-8 character split across tokens
                yield decoded[len(shown) :]
                shown = decoded
        seconds = time.perf_counter() - start
        self._generation = Generation(
            prompt=self.prompt,
            new_ids=tuple(new),
            text=tok.decode(new, skip_special_tokens=self.skip),
            ms=seconds * 1e3,
            tokens_per_s=len(new) / seconds if seconds else 0.0,
            backend=backend,
            device=device(backend, self.name),
            cache=cache,
            stopped=stopped,
            chat=self.chat,
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
    name: str = NAME,
    chat: bool = False,
) -> Stream:
    """The continuation to stream live (``st.write_stream(s)``, then ``s.generation``); ``InputError`` at once for a
    bad prompt or length."""
    return Stream(text, n, temperature, top_k, top_p, seed, backend, cache, name, chat)


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
    name: str = NAME,
    chat: bool = False,
) -> Generation:
    """The whole continuation at once (same ids as ``stream`` for the same arguments)."""
    s = stream(text, n, temperature, top_k, top_p, seed, backend, cache, name, chat)
    for _ in s:
        pass
    return s.generation


def device(backend: str, name: str = NAME) -> str:
    """Where ``backend`` runs this model (the ONNX session may fall back to the CPU)."""
    if backend == "onnx":
        handle(name).require()
        providers = engine().session(name).get_providers()
        return "cuda" if providers[0] == "CUDAExecutionProvider" else "cpu"
    return engine().device


@dataclass(frozen=True)
class Induction:
    """A random sequence of ``length`` merged BPE ids, shown twice. Position 0 is <|endoftext|> (also for a real
    checkpoint, whose tokenizer has it: there it separates documents)."""

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
    name: str = NAME

    @property
    def ratio(self) -> float:
        return self.loss_second / self.loss_first

    @property
    def best_head(self) -> tuple[int, int]:
        layer, head = np.unravel_index(int(self.scores.argmax()), self.scores.shape)
        return int(layer), int(head)


def longest_repeat(name: str = NAME) -> int:
    """The longest random sequence the model reads twice in its context (<|endoftext|> + 2 copies): 100, or less in
    a short context (the dynamics model's 64 tokens: 31)."""
    return min(100, (handle(name).config["max_len"] - 1) // 2)


@st.cache_data(show_spinner=False, max_entries=32)
def induction(length: int, seed: int, backend: str = "torch", name: str = NAME) -> Induction:
    most = longest_repeat(name)
    if not 4 <= length <= most:
        raise InputError("gpt.error.length", min=4, max=most)
    ck = handle(name)
    vocab = ck.config["vocab"]
    ids = metrics.induction_batch(vocab, n=1, length=length, seed=seed)[0]
    res = ck.run({"tokens": ids[None]}, ("blocks.*.attn.pattern",), ck.backend(backend))
    logp = log_softmax(res.outputs["logits"][0])  # (T, V)
    loss = -logp[np.arange(len(ids) - 1), ids[1:]]  # (2·length,)
    patterns = stack_layers(res.probes, "blocks.{}.attn.pattern")  # (L, H, T, T)
    first, second = metrics.copy_losses(loss, length)
    scores = metrics.induction_scores(patterns, length)
    return Induction(
        tokens=_tokens(list(ids), name),
        length=length,
        loss=loss,
        loss_first=first,
        loss_second=second,
        scores=scores,
        patterns=patterns,
        backend=res.backend,
        device=res.device,
        ms=res.ms,
        name=name,
    )


def card(name: str = NAME):
    """The checkpoint's card (read-only mapping; empty when it has none)."""
    return handle(name).card


@st.cache_data(show_spinner=False)
def facts(name: str = NAME) -> dict:
    """The model's sizes and training, read from its config and card (the intro, the explanation and the
    paper-vs-here table state these, so they follow the checkpoint). A real checkpoint's card has no training
    record of ours: its fields are what its config and conversion say (title, precision, licence)."""
    ck = handle(name)
    ck.require()
    cfg, c = ck.config, ck.card
    common = {
        "name": name,
        "real": ck.real,
        "layers": cfg["n_layers"],
        "heads": cfg["n_heads"],
        "kv_heads": cfg.get("n_kv_heads", cfg["n_heads"]),
        "dim": cfg["dim"],
        "vocab": cfg["vocab"],
        "uniform_nats": float(np.log(cfg["vocab"])),  # the loss of a uniform guess over the vocabulary
        "uniform_bits": float(np.log2(cfg["vocab"])),
        "context": cfg["max_len"],
        "params": c.get("params", 0),
        "arch": c.get("arch", "gpt"),
    }
    if ck.real:
        about = services.real_about(name)
        return {**common, "title": about.get("title", name), "paper": about.get("paper", "")}
    if ck.snapshots:  # the dynamics model: what its recorded training says, at the picked step
        return {**common, **_dynamics_facts(ck)}
    stages = c.get("stages", [])
    hp = c.get("training", {})
    return {
        **common,
        "stage1_minutes": stages[0]["wall_time_s"] / 60 if stages else float("nan"),
        "stage2_minutes": sum(s["wall_time_s"] for s in stages[1:]) / 60,
        "stage1_tokens": hp.get("steps", 0) * hp.get("batch", 0) * hp.get("context", 0),  # windows of the plays
        "val_bpc": c["metrics"]["val_bpc"],
        "bigram_bpc": c["metrics"]["bigram_val_bpc"],
        "induction_ratio": c["metrics"]["induction_loss_ratio"],
    }


def _dynamics_facts(ck: services.Checkpoint) -> dict:
    """The recorded run's facts at the picked step: the step, the run's length and time, the step its induction head
    formed (the card's), and the snapshot's own measures (held-out loss, the copies' losses, the best heads)."""
    c = ck.card
    records = {r["step"]: r for r in ck.snapshots}
    last = max(records)
    step = last if ck.step is None else ck.step
    m = records[step]["metrics"]
    induction = np.asarray(m["induction"])
    prev = np.asarray(m["prev_token"])
    return {
        "dynamics": True,
        "step": step,
        "steps": last,
        "minutes": c.get("wall_time_s", 0) / 60,
        "formed": c.get("formation_step", 0),
        "val_loss": m["val_loss"],
        "loss_first": m["loss_first"],
        "loss_repeat": m["loss_repeat"],
        "induction_ratio": m["loss_repeat"] / m["loss_first"],
        "icl": m["icl"],
        "best_induction": float(induction.max()),
        "best_prev": float(prev.max()),
        "val_bpc": c["metrics"]["val_bpc"],  # the trained weights' (the card's)
        "bigram_bpc": c["metrics"]["bigram_val_bpc"],
    }


@dataclass(frozen=True)
class Dynamics:
    """A recorded training run, as its card holds it: every step's loss, and at the measured steps every head's
    previous-token and induction scores, the losses on a sequence's first copy and its repeat, Olsson et al.'s
    in-context-learning score and the held-out loss; the steps whose weights were kept; the formation step."""

    steps: np.ndarray  # (S,) optimiser steps with a training loss
    loss: np.ndarray  # (S,)
    measured: np.ndarray  # (M,) steps measured
    prev_token: np.ndarray  # (M, L, H)
    induction: np.ndarray  # (M, L, H)
    loss_first: np.ndarray  # (M,)
    loss_repeat: np.ndarray  # (M,)
    icl: np.ndarray  # (M,)
    val_loss: np.ndarray  # (M,)
    snapshots: tuple[int, ...]
    formed: int


@st.cache_data(show_spinner=False, max_entries=4)
def dynamics(name: str = DYNAMICS) -> Dynamics:
    """The recorded run of checkpoint ``name`` (any of its steps: the card is the checkpoint's)."""
    ck = handle(name)
    ck.require()
    h = ck.history
    if not h.get("measured"):
        raise InputError("gpt.error.no_dynamics", name=ck.base)
    return Dynamics(
        steps=np.asarray(h["step"]),
        loss=np.asarray(h["loss"], dtype=float),
        measured=np.asarray(h["measured"]),
        prev_token=np.asarray(h["prev_token"], dtype=float),
        induction=np.asarray(h["induction"], dtype=float),
        loss_first=np.asarray(h["loss_first"], dtype=float),
        loss_repeat=np.asarray(h["loss_repeat"], dtype=float),
        icl=np.asarray(h["icl"], dtype=float),
        val_loss=np.asarray(h["val_loss"], dtype=float),
        snapshots=tuple(r["step"] for r in ck.snapshots),
        formed=int(ck.card.get("formation_step", 0)),
    )


@dataclass(frozen=True)
class Moment:
    """One measured step of a recorded run: the loss on the repeat ÷ the first copy, the ICL score, the best
    induction head and its score."""

    step: int
    ratio: float
    icl: float
    score: float
    head: tuple[int, int]


def around_formation(d: Dynamics) -> tuple[Moment, Moment]:
    """The last measured step before the induction head formed (half its final score, ``formed``) and the one a
    tenth of the run after it: what the page's sentence on the phase change reads."""

    def at(i: int) -> Moment:
        layer, head = np.unravel_index(int(d.induction[i].argmax()), d.induction[i].shape)
        return Moment(
            step=int(d.measured[i]),
            ratio=float(d.loss_repeat[i] / d.loss_first[i]),
            icl=float(d.icl[i]),
            score=float(d.induction[i].max()),
            head=(int(layer), int(head)),
        )

    i = int(np.searchsorted(d.measured, d.formed))
    before = max(0, i - 1)
    after = min(len(d.measured) - 1, int(np.searchsorted(d.measured, d.formed + d.measured[-1] // 10)))
    return at(before), at(after)


# ---- train it yourself ----------------------------------------------------------------------------------------------


def icl_tokens(name: str = DYNAMICS) -> dict:
    """The tokens the in-context-learning score compares in this model's context (``metrics.icl_tokens``), counted
    from 1 as the paper counts its 50th and 500th."""
    early, late = metrics.icl_tokens(handle(name).config["max_len"])
    # the losses are by target: entry j predicts the window's token j + 1 counting from 0, its (j + 2)-th token
    return {"early": early + 2, "late": late + 2}


def live_trainer():
    """The process's queue of live trainings of the dynamics model (``app.shared.training_jobs``)."""
    from app.shared import training_jobs as live

    return live.trainer()


def live_formed(job) -> int | None:
    """The step a live run's induction head formed, by the recorded run's rule applied to what it has measured so far
    (half of the best score yet), once some head scores 0.3; None before."""
    from models import dynamics

    if not job.measures or job.scores("induction").max() < 0.3:
        return None
    return dynamics.formation_step(job.measured, [m["induction"] for m in job.measures])


@dataclass(frozen=True)
class LiveLook:
    """A live run's snapshot on a sequence shown twice: per-target loss, every head's induction score, and the best
    head's attention map."""

    step: int
    loss: np.ndarray  # (2·length,)
    scores: np.ndarray  # (L, H)
    pattern: np.ndarray  # (T, T) of the best head
    head: tuple[int, int]
    length: int


@cached
def live_look(job_id: int, step: int, length: int = 30, seed: int = 0) -> LiveLook:
    """Build the dynamics model from a live run's weights at ``step`` (float16, as it sent them) and run it on a
    random sequence shown twice. Cached per (run, step): a run's snapshots never change."""
    import torch

    from models.probe import trace

    job = live_trainer().job(job_id)
    if job is None or step not in job.snapshots:
        raise InputError("gpt.live.error.gone")
    ck = handle(DYNAMICS)
    model = gpt.build(ck.config)
    model.load_state_dict({k: torch.from_numpy(v.astype(np.float32)) for k, v in job.snapshots[step].items()})
    model.eval()
    ids = metrics.induction_batch(ck.config["vocab"], n=1, length=length, seed=seed)
    with torch.inference_mode(), trace("blocks.*.attn.pattern") as t:
        logits = model(torch.from_numpy(ids))
    logp = log_softmax(logits[0].numpy())
    loss = -logp[np.arange(ids.shape[1] - 1), ids[0, 1:]]
    patterns = np.stack([t[f"blocks.{i}.attn.pattern"][0].numpy() for i in range(len(t))])  # (L, H, T, T)
    scores = metrics.induction_scores(patterns, length)
    layer, head = np.unravel_index(int(scores.argmax()), scores.shape)
    return LiveLook(step, loss, scores, patterns[layer, head], (int(layer), int(head)), length)


def training_summary(card: dict) -> tuple[float, str]:
    """(minutes, command) of the whole recipe: a card assembled from runs that each continued the one before gives
    their summed wall time and the single command that runs every stage."""
    return card.get("wall_time_s", 0) / 60, card.get("reproduce", card.get("command", ""))


@dataclass(frozen=True)
class LensSummary:
    """What the logit lens says at the last position: where the model's final top token first tops the lens, and
    which token the inner layers read most often (with its highest probability there)."""

    first_on_top: int  # row of the lens (0: the embedding, i: after block i − 1) where the final top token first tops
    inner_token: int  # the token most often on top over the inner rows (neither the embedding nor the output)
    inner_layers: int  # in how many inner rows
    inner_p: float  # its highest probability there
    final_p: float  # the final top token's probability at the output


def lens_summary(a: Analysis) -> LensSummary:
    last = a.lens_ids[:, -1]
    agree = np.flatnonzero(last == last[-1])
    inner = last[1:-1] if len(last) > 2 else last
    values, counts = np.unique(inner, return_counts=True)
    token = int(values[counts.argmax()])
    rows = np.flatnonzero(last == token)
    rows = rows[(rows > 0) & (rows < len(last) - 1)] if len(last) > 2 else rows
    return LensSummary(
        first_on_top=int(agree[0]),
        inner_token=token,
        inner_layers=int(counts.max()),
        inner_p=float(a.lens_probs[rows, -1].max()) if len(rows) else 0.0,
        final_p=float(a.final_top_by_layer[-1]),
    )


def real_about(name: str) -> dict:
    """What the page says of a real checkpoint (title, paper, parameters, precision, licence, origin)."""
    return services.real_about(name)


def text_of(a: Analysis) -> str:
    """The text an analysis read (its ids after the start token, decoded): to run another model on the same text."""
    return handle(a.name).tokenizer.decode(list(a.tokens.ids[a.tokens.prefix :]))


# ---- interventions: knock-outs and activation patching (models/interventions.py), torch only ----------------------

ICL_DEFAULT = (30, 0)  # the in-context-learning view's default length and seed (the knock-out view reads them too)


@dataclass(frozen=True)
class KnockOut:
    """The same two inputs run plainly and with one part of the model knocked out: the induction sequence of the
    in-context-learning view (loss per target) and the prompt (probability of its plain top next token)."""

    loss_before: np.ndarray  # (2·length,) nats per target on the induction sequence
    loss_after: np.ndarray
    second_before: float  # mean loss on the repeat (targets 2..length of the second copy)
    second_after: float
    first_before: float
    first_after: float
    target: int  # the prompt's most likely next token, plain
    p_before: float  # its probability, plain and knocked out
    p_after: float
    top_after: int  # the prompt's most likely next token, knocked out
    backend: str
    device: str
    ms: float  # the knocked-out runs
    name: str = NAME


def _check_part(name: str, layer: int, part: str, mode: str, head: int) -> None:
    cfg = handle(name).config
    check_knock_out(BLOCKS, layer, part, mode, head, {BLOCKS: cfg["n_layers"]}, cfg["n_heads"])


@st.cache_data(show_spinner=False, max_entries=64)
def knock_out(
    text: str, length: int, seed: int, layer: int, part: str, mode: str, head: int = 0, name: str = NAME
) -> KnockOut:
    """Knock out ``part`` of block ``layer`` (one head, the whole attention, the MLP) by ``mode`` (zeros, or at
    each position its mean over this input's positions up to there) and compare with the plain run. Eager torch on
    the shared model: the override lives in this call's context only (``models.probe.intervene``), the model is
    never changed."""
    import torch

    from models import interventions
    from models.probe import intervene

    if not 4 <= length <= 100:
        raise InputError("gpt.error.length", min=4, max=100)
    _check_part(name, layer, part, mode, head)
    ck = handle(name)
    model = ck.model
    device = next(model.parameters()).device
    ids = metrics.induction_batch(ck.config["vocab"], n=1, length=length, seed=seed)[0]
    prompt = tokenize(text, name).ids

    def run() -> tuple[np.ndarray, np.ndarray]:
        with torch.inference_mode():
            seq = model(torch.from_numpy(ids[None]).to(device))[0].float().cpu().numpy()
            last = model(torch.tensor([prompt], device=device))[0, -1].float().cpu().numpy()
        logp = log_softmax(seq)
        return -logp[np.arange(len(ids) - 1), ids[1:]], softmax(last.astype(np.float64))

    loss_before, p_before = run()
    start = time.perf_counter()
    with intervene(interventions.knock_out(layer, part, mode, head)):
        loss_after, p_after = run()
    ms = (time.perf_counter() - start) * 1e3
    target = int(p_before.argmax())
    first_b, second_b = metrics.copy_losses(loss_before, length)
    first_a, second_a = metrics.copy_losses(loss_after, length)
    return KnockOut(
        loss_before=loss_before,
        loss_after=loss_after,
        second_before=second_b,
        second_after=second_a,
        first_before=first_b,
        first_after=first_a,
        target=target,
        p_before=float(p_before[target]),
        p_after=float(p_after[target]),
        top_after=int(p_after.argmax()),
        backend="torch",
        device=str(device.type),
        ms=ms,
        name=name,
    )


PATCH_DEFAULTS = tuple(_EXAMPLES["patching"])  # (clean, corrupted): a repeated sentence, its first half changed
MAX_PATCH_TOKENS = 48  # ours: L + 1 = 5 batched forwards of T rows
MAX_REAL_PATCH_TOKENS = 20  # a real model: a forward of T rows of T tokens per layer patched
PATCH_ROWS = 12  # layers of the stream a map patches at most: a deeper model's every k-th (and the last)


@dataclass(frozen=True)
class Patching:
    """Activation patching of the corrupted prompt with the clean one's residual stream, one (layer, position) at a
    time (``models.interventions.activation_patching``)."""

    clean: Tokens
    corrupted: Tokens
    answer: int  # the token the clean prompt's induction copies (else the clean run's top)
    wrong: int  # the one the corrupted prompt's copies (else the corrupted run's top other than ``answer``)
    ld_clean: float  # logit[answer] − logit[wrong] at the last position
    ld_corrupted: float
    restored: np.ndarray  # (len(layers), T): 0 = corrupted, 1 = clean
    layers: tuple[int, ...]  # the stream's layers patched (0: before block 0, l: after block l − 1)
    backend: str
    device: str
    ms: float
    name: str = NAME


def patch_layers(n_blocks: int) -> list[int]:
    """The stream's layers a map patches: all L + 1 of a shallow model; of a deep one (SmolLM2's 31, ~6 min on two
    busy CPU cores for 16 tokens) every k-th from the embedding, and the last, so that at most ``PATCH_ROWS`` remain
    (rows above layer l cost L − l blocks each: every third layer is about a third of the work)."""
    step = -(-(n_blocks + 1) // PATCH_ROWS)  # ceil
    return sorted({*range(0, n_blocks + 1, step), n_blocks})


def patch_limit(name: str = NAME) -> int:
    return MAX_REAL_PATCH_TOKENS if is_real(name) else MAX_PATCH_TOKENS


def _answers(model, clean: tuple[int, ...], corrupted: tuple[int, ...]) -> tuple[int, int, float, float]:
    import torch

    from models import interventions

    device = next(model.parameters()).device
    with torch.inference_mode():
        logits = [interventions.last_logits(model, torch.tensor([x], device=device))[0] for x in (clean, corrupted)]
    answer = interventions.copied_token(clean)
    if answer is None:
        answer = int(logits[0].argmax())
    wrong = interventions.copied_token(corrupted)
    if wrong is None or wrong == answer:
        order = torch.argsort(logits[1], descending=True)[:2].tolist()
        wrong = order[1] if order[0] == answer else order[0]
    lds = [float(x[answer] - x[wrong]) for x in logits]
    return answer, wrong, lds[0], lds[1]


_patch_cache: dict[tuple[str, str, str], Patching] = {}
_patch_lock = threading.Lock()
PATCH_CACHE = 32


def patching(clean_text: str, corrupted_text: str, name: str = NAME, progress=None) -> Patching:
    """The (layer, position) map of restored logit difference, cached per model and input here (a progress report
    cannot go through ``st.cache_data``): ``progress(fraction)`` after each layer while it is computed."""
    key = (clean_text, corrupted_text, name)
    with _patch_lock:
        hit = _patch_cache.get(key)
    if hit is not None:
        return hit
    from models import interventions

    clean, corrupted = tokenize(clean_text, name), tokenize(corrupted_text, name)
    most = patch_limit(name)
    if len(clean.ids) != len(corrupted.ids):
        raise InputError("gpt.error.patch_lengths", clean=len(clean.ids), corrupted=len(corrupted.ids))
    if len(clean.ids) > most:
        raise InputError("gpt.error.patch_long", n=len(clean.ids), max=most)
    model = handle(name).model
    answer, wrong, ld_clean, ld_corrupted = _answers(model, clean.ids, corrupted.ids)
    if abs(ld_clean - ld_corrupted) < 1e-3:
        raise InputError("gpt.error.patch_same")
    layers = patch_layers(len(model.blocks))
    start = time.perf_counter()
    restored = interventions.activation_patching(model, clean.ids, corrupted.ids, answer, wrong, progress, layers)
    result = Patching(
        clean=clean,
        corrupted=corrupted,
        answer=answer,
        wrong=wrong,
        ld_clean=ld_clean,
        ld_corrupted=ld_corrupted,
        restored=restored,
        layers=tuple(layers),
        backend="torch",
        device=next(model.parameters()).device.type,
        ms=(time.perf_counter() - start) * 1e3,
        name=name,
    )
    with _patch_lock:
        _patch_cache[key] = result
        while len(_patch_cache) > PATCH_CACHE:
            _patch_cache.pop(next(iter(_patch_cache)))
    return result
