"""The LLaMA-family page's bridge to ``models.llama`` and its three trained checkpoints (``llama-mha``, ``llama``,
``llama-mqa``: 4, 2 and 1 key/value heads for 4 query heads): RMSNorm against LayerNorm on the real residual stream,
SwiGLU's gate and up projection, the head groupings with their validation loss and KV cache, the cache growing while
each model writes, and the published configurations with the parameter and KV-cache calculator."""

from __future__ import annotations

import copy
import statistics
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np
import streamlit as st
import torch
import torch.nn.functional as F
from torch import nn

from app.shared import assets, services
from app.shared.i18n import InputError
from app.shared.services import engine, stack_layers
from models import llama, metrics, sampling
from models.data import bpe
from models.layers import RMSNorm, cache_bytes

MODEL = services.checkpoint("llama")  # the probed model (GQA: 4 query heads share 2 key/value heads)
SIBLINGS = ("llama-mha", "llama", "llama-mqa")  # ordered by key/value heads: 4, 2, 1
MAX_CHARS = 400  # the text box
MAX_PROMPT_CHARS = 200  # the generation prompt
MAX_NEW = 96  # tokens one generation may add
CLOSED = 0.1  # a gate counts as closed below this share of the token's largest |SiLU(W₁x)|
TOP_UNITS = 0.1  # the share of units whose part of ‖gate ⊙ up‖² is reported
TIMING_REPEATS = 101
CACHE_BYTES = 4  # float32: what the cache tensors here hold per number
PROBES = ("blocks.*.resid", "blocks.*.mlp.gate", "blocks.*.mlp.up")
_EXAMPLES = assets.lines("examples/llama.txt")
DEFAULT_TEXT, DEFAULT_PROMPT = _EXAMPLES[0], _EXAMPLES[1]


def available(name: str = MODEL.name) -> bool:
    return services.checkpoint(name).available


def model_missing(name: str = MODEL.name) -> InputError:
    return services.checkpoint(name).missing()


def card(name: str = MODEL.name) -> Mapping:
    """The checkpoint's card (read-only; empty when it has none)."""
    return services.checkpoint(name).card


@dataclass(frozen=True)
class Shape:
    """The shipped ``llama``'s sizes the page talks about."""

    n_layers: int  # L
    dim: int  # C
    n_heads: int  # H
    n_kv_heads: int  # G
    head_dim: int  # D
    hidden: int  # F, the SwiGLU width
    vocab: int
    max_len: int  # training context
    params: int


@st.cache_data(show_spinner=False, max_entries=4)
def shape() -> Shape:
    c = llama.Config(**MODEL.config)
    return Shape(
        c.n_layers,
        c.dim,
        c.n_heads,
        c.n_kv_heads,
        c.dim // c.n_heads,
        c.hidden,
        c.vocab,
        c.max_len,
        llama.param_count(c),
    )


def _pieces(ids) -> tuple[str, ...]:
    """What each id reads as (the leading <|endoftext|> as ⟨eot⟩)."""
    pieces = tuple(b.decode("utf-8", errors="replace") for b in bpe.token_bytes(MODEL.tokenizer, ids))
    return tuple("⟨eot⟩" if i == 0 else p for i, p in zip(ids, pieces))


def encode(text: str, max_chars: int = MAX_CHARS) -> np.ndarray:
    """<|endoftext|> then the ids of ``text``: (T,), within the characters and the training context."""
    if not text.strip():
        raise InputError("llama.error.empty")
    if len(text) > max_chars:
        raise InputError("llama.error.chars", n=len(text), max=max_chars)
    MODEL.require()
    ids = metrics.encode_document(MODEL.tokenizer, text)
    if len(ids) > shape().max_len:
        raise InputError("llama.error.tokens", n=len(ids), max=shape().max_len)
    return ids


# ---- RMSNorm and SwiGLU on the real activations ---------------------------------------------------------------------


@st.cache_resource(show_spinner=False)
def _centred_model(name: str) -> llama.Llama:
    """A private copy of the checkpoint ``name`` whose every RMSNorm is a LayerNorm without bias (the same gains, the
    same ε): the trained model with the mean subtracted before each normalisation, nothing retrained. The shared model
    is never touched."""
    model = copy.deepcopy(services.checkpoint(name).model)
    for parent in list(model.modules()):
        for attr, child in list(parent.named_children()):
            if isinstance(child, RMSNorm):
                ln = nn.LayerNorm(child.weight.numel(), eps=child.eps, bias=False).to(child.weight.device)
                with torch.no_grad():
                    ln.weight.copy_(child.weight)
                setattr(parent, attr, ln)
    return model.eval()


def _gains(model: llama.Llama) -> np.ndarray:
    """(L + 1, C): the gain g of the norm reading each point of the stream (block l's attention norm, then the final
    norm)."""
    gs = [b.attn_norm.weight for b in model.blocks] + [model.norm.weight]
    return torch.stack(gs).detach().float().cpu().numpy()


@dataclass(frozen=True)
class Analysis:
    """One forward pass of the text: the residual stream every RMSNorm reads and the SwiGLU gate and up projection."""

    ids: np.ndarray  # (T,)
    pieces: tuple[str, ...]  # (T,)
    stream: (
        np.ndarray
    )  # (L + 1, T, C) entering block 0 … L − 1 (what its attention RMSNorm reads), then the final norm's
    gains: np.ndarray  # (L + 1, C) the gain of the norm reading each point
    gate: np.ndarray  # (L, T, F) SiLU(W₁x)
    up: np.ndarray  # (L, T, F) W₃x
    loss: float  # mean next-token loss of the text, nats, as trained
    loss_centred: float  # the same with the mean subtracted in every norm (LayerNorm, same gains), nothing retrained
    backend: str
    device: str
    ms: float


def _text_loss(model: nn.Module, ids: np.ndarray) -> float:
    return float(metrics.token_losses(model, ids[None]).mean())


@st.cache_data(show_spinner=False, max_entries=64)
def analyse(text: str) -> Analysis:
    """torch only: the stream and SwiGLU probes are not outputs of the exported graph."""
    ids = encode(text)
    res = MODEL.run({"tokens": ids[None]}, PROBES, "torch")
    model = MODEL.model
    with torch.inference_mode():
        x0 = model.embed(torch.as_tensor(ids, device=model.embed.weight.device)).float().cpu().numpy()  # (T, C)
    stream = np.concatenate([x0[None], stack_layers(res.probes, "blocks.{}.resid")])  # (L + 1, T, C)
    return Analysis(
        ids=ids,
        pieces=_pieces(ids),
        stream=stream,
        gains=_gains(model),
        gate=stack_layers(res.probes, "blocks.{}.mlp.gate"),
        up=stack_layers(res.probes, "blocks.{}.mlp.up"),
        loss=_text_loss(model, ids),
        loss_centred=_text_loss(_centred_model(MODEL.name), ids),
        backend=res.backend,
        device=res.device,
        ms=res.ms,
    )


@dataclass(frozen=True)
class NormStats:
    """RMSNorm against LayerNorm (no bias) on every point of the stream, per token; arrays (L + 1, T)."""

    mean: np.ndarray  # μ = mean over the C channels
    rms: np.ndarray  # √mean(x²) = √(μ² + σ²)
    std: np.ndarray  # σ
    mean_share: np.ndarray  # |μ| / RMS
    cosine: np.ndarray  # cos(RMSNorm(x), LayerNorm(x)), both with the trained gain
    change: np.ndarray  # ‖LayerNorm(x) − RMSNorm(x)‖ / ‖RMSNorm(x)‖


def norm_stats(a: Analysis, eps: float = 1e-6) -> NormStats:
    x = a.stream.astype(np.float64)
    mu = x.mean(-1)
    rms = np.sqrt((x**2).mean(-1))
    std = x.std(-1)
    g = a.gains[:, None, :].astype(np.float64)
    by_rms = x / np.sqrt(rms**2 + eps)[..., None] * g
    by_ln = (x - mu[..., None]) / np.sqrt(std**2 + eps)[..., None] * g
    norm = np.linalg.norm(by_rms, axis=-1)
    cosine = (by_rms * by_ln).sum(-1) / (norm * np.linalg.norm(by_ln, axis=-1))
    change = np.linalg.norm(by_ln - by_rms, axis=-1) / norm
    return NormStats(mu, rms, std, np.abs(mu) / rms, cosine, change)


@dataclass(frozen=True)
class NormCost:
    """Both normalisations timed on the text's stream, (L + 1)·T vectors of C numbers, median µs of a call."""

    rms_us: float  # RMSNorm as models/layers/norms.py writes it (plain tensor operations)
    ln_us: float  # LayerNorm written the same way
    ln_fused_us: float  # torch's own LayerNorm kernel
    vectors: int
    backend: str
    device: str
    ms: float


def _median_us(fns, repeats: int) -> list[float]:
    """Median µs of each function, timed in interleaved rounds (one call of each per round, after one warm-up call),
    so that a burst of load on a shared machine falls on all of them alike rather than on one."""
    for fn in fns:
        fn()
    samples: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, got in zip(fns, samples):
            start = time.perf_counter()
            fn()
            got.append((time.perf_counter() - start) * 1e6)
    return [statistics.median(got) for got in samples]


@st.cache_data(show_spinner=False, max_entries=8)
def norm_cost(text: str) -> NormCost:
    a = analyse(text)
    C = a.stream.shape[-1]
    x = torch.as_tensor(a.stream.reshape(-1, C))
    rms = RMSNorm(C)
    g, b, eps = torch.ones(C), torch.zeros(C), rms.eps

    def layer_norm_plain() -> torch.Tensor:
        centred = x - x.mean(-1, keepdim=True)
        return centred * torch.rsqrt(centred.pow(2).mean(-1, keepdim=True) + eps) * g + b

    start = time.perf_counter()
    with torch.inference_mode():
        rms_us, ln_us, fused_us = _median_us(
            [lambda: rms(x), layer_norm_plain, lambda: F.layer_norm(x, (C,), g, b, eps)], TIMING_REPEATS
        )
    ms = (time.perf_counter() - start) * 1e3
    return NormCost(rms_us, ln_us, fused_us, x.shape[0], "torch", "cpu", ms)


@dataclass(frozen=True)
class Gating:
    """SwiGLU of one token in one block: SiLU(W₁x), W₃x and their element-wise product, (F,) each."""

    gate: np.ndarray
    up: np.ndarray
    product: np.ndarray
    closed: float  # share of units with |gate| < CLOSED · max |gate|
    negative: float  # share of units with W₁x < 0 (SiLU's negative side: |gate| ≤ 0.28)
    top_energy: float  # share of ‖product‖² carried by the TOP_UNITS largest units


def gating(a: Analysis, block: int, token: int) -> Gating:
    if not (0 <= block < a.gate.shape[0] and 0 <= token < a.gate.shape[1]):
        raise InputError("llama.error.choice")
    gate, up = a.gate[block, token].astype(np.float64), a.up[block, token].astype(np.float64)
    product = gate * up
    energy = np.sort(product**2)[::-1]
    top = max(1, int(round(TOP_UNITS * len(energy))))
    return Gating(
        gate=gate,
        up=up,
        product=product,
        closed=float((np.abs(gate) < CLOSED * np.abs(gate).max()).mean()),
        negative=float((gate < 0).mean()),
        top_energy=float(energy[:top].sum() / energy.sum()),
    )


# ---- MHA / GQA / MQA: the three siblings -----------------------------------------------------------------------------


def kv_heads(name: str) -> int:
    return {**llama.SIBLING_KV_HEADS, MODEL.name: llama.PRESETS["shipped"].n_kv_heads}[name]


def _config(name: str) -> llama.Config:
    sibling = services.checkpoint(name)
    if sibling.available:
        return llama.Config(**sibling.config)
    return replace(llama.Config(**MODEL.config), n_kv_heads=kv_heads(name))


@dataclass(frozen=True)
class Sibling:
    """One of the three models that differ only in their key/value heads, with what its card and cache say."""

    name: str
    present: bool
    n_heads: int
    n_kv_heads: int
    head_dim: int
    n_layers: int
    params: int
    val_bpc: float | None  # the shipped seed's, from its card (for llama: the like-for-like GQA control, see below)
    other_seed_bpc: float | None  # the next seed's, trained the same way (card ``other_seeds_val_bpc``)
    shipped_bpc: float | None  # what the shipped checkpoint's own card reads
    kv_measured: int | None  # bytes per token, measured from the cache tensors after a cached forward
    kv_formula: int  # 2 · L · G · D · 4 bytes (float32)


def installed() -> tuple[bool, ...]:
    """Which of SIBLINGS are installed (part of the cache keys, so a checkpoint installed later is picked up)."""
    return tuple(available(name) for name in SIBLINGS)


def family() -> tuple[Sibling, ...]:
    return _family(installed())


@st.cache_data(show_spinner=False, max_entries=4)
def _family(installed: tuple[bool, ...]) -> tuple[Sibling, ...]:
    out = []
    # The shipped llama raced its GPT baseline with a schedule counted in seconds; its config trained exactly as the
    # siblings are (same steps, batches and seeds) is recorded in their cards as ``gqa_control_val_bpc``: that is the
    # like-for-like GQA point. The shipped llama's own figure stays in ``shipped_bpc``.
    control = next(
        (
            card(n)["gqa_control_val_bpc"]
            for n, ok in zip(SIBLINGS, installed)
            if ok and "gqa_control_val_bpc" in card(n)
        ),
        None,
    )
    for name, present in zip(SIBLINGS, installed):
        c = _config(name)
        metrics_ = card(name).get("metrics", {}) if present else {}
        others = card(name).get("other_seeds_val_bpc", {}) if present else {}
        shipped = metrics_.get("val_bpc")
        if name == "llama" and control:
            seeds = sorted(control)
            metrics_ = {**metrics_, "val_bpc": control[seeds[0]]}
            others = {k: control[k] for k in seeds[1:]}
        out.append(
            Sibling(
                name=name,
                present=present,
                n_heads=c.n_heads,
                n_kv_heads=c.n_kv_heads,
                head_dim=c.dim // c.n_heads,
                n_layers=c.n_layers,
                params=llama.param_count(c),
                val_bpc=metrics_.get("val_bpc"),
                other_seed_bpc=next(iter(others.values()), None),
                shipped_bpc=shipped,
                kv_measured=metrics.kv_cache_bytes_per_token(services.checkpoint(name).model) if present else None,
                kv_formula=llama.kv_bytes_per_token(c, CACHE_BYTES),
            )
        )
    return tuple(out)


@dataclass(frozen=True)
class Writing:
    """One sibling writing greedily with its KV cache, the cache measured from its tensors after every step."""

    name: str
    text: str  # the continuation
    positions: np.ndarray  # (n + 1,) positions cached after the prompt, then after each new token
    measured: np.ndarray  # (n + 1,) bytes of every layer's k and v tensors
    formula: np.ndarray  # (n + 1,) 2 · L · G · D · 4 · positions
    tokens_per_s: float


@dataclass(frozen=True)
class Growth:
    prompt_tokens: int
    new_tokens: int
    writings: tuple[Writing, ...]  # the siblings present, in SIBLINGS order
    missing: tuple[str, ...]  # the siblings not installed
    backend: str
    device: str
    ms: float


def _write(name: str, prompt: np.ndarray, n: int) -> Writing:
    sibling = services.checkpoint(name)
    model = sibling.model
    device = model.embed.weight.device
    cache = model.new_cache()
    per_token = llama.kv_bytes_per_token(model.config, CACHE_BYTES)
    positions, measured = [], []
    new: list[int] = []
    start = time.perf_counter()
    with torch.inference_mode():
        logits = model(torch.as_tensor(prompt, device=device)[None], cache)[0, -1]
        positions.append(len(cache[0]))
        measured.append(cache_bytes(cache))
        for _ in range(n):
            nxt = sampling.greedy(logits.double().cpu().numpy())
            new.append(nxt)
            logits = model(torch.tensor([[nxt]], device=device), cache)[0, -1]
            positions.append(len(cache[0]))
            measured.append(cache_bytes(cache))
    seconds = time.perf_counter() - start
    pos = np.array(positions)
    return Writing(
        name=name,
        text=sibling.tokenizer.decode(new),
        positions=pos,
        measured=np.array(measured),
        formula=pos * per_token,
        tokens_per_s=n / seconds,
    )


def grow(prompt: str, n: int) -> Growth:
    return _grow(prompt, n, installed())


@st.cache_data(show_spinner=False, max_entries=32)
def _grow(prompt: str, n: int, present: tuple[bool, ...]) -> Growth:
    ids = encode(prompt, MAX_PROMPT_CHARS)
    if not 1 <= n <= MAX_NEW:
        raise InputError("llama.error.n", max=MAX_NEW)
    if len(ids) + n > shape().max_len:
        raise InputError("llama.error.room", n=len(ids), new=n, max=shape().max_len)
    start = time.perf_counter()
    writings = tuple(_write(name, ids, n) for name, here in zip(SIBLINGS, present) if here)
    ms = (time.perf_counter() - start) * 1e3
    missing = tuple(name for name, here in zip(SIBLINGS, present) if not here)
    return Growth(len(ids), n, writings, missing, "torch", engine().device, ms)


# ---- published configurations and the calculator --------------------------------------------------------------------

LIMITS = {  # the calculator's input ranges
    "n_layers": (1, 256),
    "dim": (8, 65_536),
    "n_heads": (1, 512),
    "n_kv_heads": (1, 512),
    "hidden": (8, 262_144),
    "vocab": (2, 1_048_576),
    "context": (1, 10_485_760),
}
BYTES = (1, 2, 4)  # bytes per cached number: 8-bit, float16 / bfloat16, float32
DEFAULT_PRESET = "Llama 2 70B"  # the calculator's first configuration (GQA with 8 key/value heads)
SMALL_QWEN = "Qwen2.5 0.5B"  # the model section 5 measures Qwen2.5's departures on


@dataclass(frozen=True)
class Published:
    name: str
    family: str
    arxiv: str
    config: dict  # n_layers, dim, n_heads, n_kv_heads, hidden, vocab, context, tied, qkv_bias
    published: float
    published_as: str  # the count as its source prints it
    label: str  # the size in the model's name where the paper gives only that ("7B"), else ""
    source: str


def published() -> tuple[Published, ...]:
    data = assets.data("llama_configs.json")
    fields = ("n_layers", "dim", "n_heads", "n_kv_heads", "hidden", "vocab", "context", "tied", "qkv_bias")
    return tuple(
        Published(
            r["name"],
            r["family"],
            r["arxiv"],
            {k: r[k] for k in fields},
            r["published"],
            r["published_as"],
            r.get("label", ""),
            r["source"],
        )
        for r in data["models"]
    )


def preset(name: str) -> Published:
    """The published configuration called ``name``."""
    return next(r for r in published() if r.name == name)


def published_rule() -> str:
    return assets.data("llama_configs.json")["rule"]


@dataclass(frozen=True)
class Calculation:
    params: int
    embedding: int  # of which the embedding (and the output matrix when untied)
    kv_per_token: int  # bytes
    kv_context: int  # bytes for one sequence of the full context
    head_dim: int
    ffn_ratio: float  # F / (⅔ · 4C)
    qkv_bias_per_layer: int  # H·D + 2·G·D: what biases on q, k, v add per layer (whether or not the config has them)


@st.cache_data(show_spinner=False, max_entries=256)
def calculate(
    n_layers: int,
    dim: int,
    n_heads: int,
    n_kv_heads: int,
    hidden: int,
    vocab: int,
    context: int,
    tied: bool,
    qkv_bias: bool,
    bytes_per_value: int = 2,
) -> Calculation:
    """Parameters and KV cache of a LLaMA-family config (``models.llama.param_count``, ``kv_bytes_per_token``)."""
    values = {
        "n_layers": n_layers,
        "dim": dim,
        "n_heads": n_heads,
        "n_kv_heads": n_kv_heads,
        "hidden": hidden,
        "vocab": vocab,
        "context": context,
    }
    for key, v in values.items():
        lo, hi = LIMITS[key]
        if not lo <= v <= hi:
            raise InputError("llama.error.range", lo=lo, hi=hi)
    if dim % n_heads:
        raise InputError("llama.error.heads", dim=dim, heads=n_heads)
    if n_heads % n_kv_heads:
        raise InputError("llama.error.kv_heads", heads=n_heads, kv=n_kv_heads)
    if bytes_per_value not in BYTES:
        raise InputError("llama.error.choice")
    c = llama.Config(
        vocab=vocab, dim=dim, n_heads=n_heads, n_kv_heads=n_kv_heads, n_layers=n_layers, hidden=hidden, max_len=context
    )
    per_token = llama.kv_bytes_per_token(c, bytes_per_value)
    return Calculation(
        params=llama.param_count(c, tied=tied, qkv_bias=qkv_bias),
        embedding=vocab * dim * (1 if tied else 2),
        kv_per_token=per_token,
        kv_context=per_token * context,
        head_dim=dim // n_heads,
        ffn_ratio=hidden / (2 / 3 * 4 * dim),
        qkv_bias_per_layer=(n_heads + 2 * n_kv_heads) * (dim // n_heads),
    )
