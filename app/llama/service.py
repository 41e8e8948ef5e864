"""The LLaMA-family page's bridge to ``models.llama`` and its three trained checkpoints (``llama-mha``, ``llama``,
``llama-mqa``: 4, 2 and 1 key/value heads for 4 query heads): RMSNorm against LayerNorm on the real residual stream,
SwiGLU's gate and up projection, the head groupings with their validation loss and KV cache, the cache growing while
each model writes, and the published configurations with the parameter and KV-cache calculator."""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np
import streamlit as st
import torch
import torch.nn.functional as F

from app.shared import assets, services
from app.shared.i18n import InputError
from app.shared.interventions import BLOCKS, HeldOut, decoder_change
from app.shared.interventions import check as check_knock_out
from app.shared.services import engine, stack_layers
from models import llama, metrics, sampling
from models.data import bpe
from models.layers import RMSNorm, cache_bytes

MODEL = services.checkpoint("llama")  # the default probed model (GQA: 4 query heads share 2 key/value heads)
SIBLINGS = ("llama-mha", "llama", "llama-mqa")  # ordered by key/value heads: 4, 2, 1
MAX_CHARS = 400  # the text box
MAX_PROMPT_CHARS = 200  # the generation prompt
MAX_NEW = 96  # tokens one generation may add
CLOSED = 0.1  # a gate counts as closed below this share of the token's largest |SiLU(W₁x)|
TOP_UNITS = 0.1  # the share of units whose part of ‖gate ⊙ up‖² is reported
TIMING_REPEATS = 101
MIN_TIMING_REPEATS = 11  # a real model's stream is 30 × 64 vectors of 576: fewer rounds, within TIMING_BUDGET_S
TIMING_BUDGET_S = 0.5
CACHE_BYTES = 4  # float32: what the cache tensors here hold per number
PROBES = ("blocks.*.resid", "blocks.*.mlp.gate", "blocks.*.mlp.up", "blocks.*.attn.pattern")
REAL_MAX_TOKENS = 64  # a real model reads at most this many tokens: 30 layers with every probe, ~0.7 s on a CPU
TOP_K = 5  # next-token guesses shown (never the whole vocabulary)
OWN = ("llama",)  # our checkpoints the model picker offers (the siblings stay in section 3)
_EXAMPLES = assets.lines("examples/llama.txt")
DEFAULT_TEXT, DEFAULT_PROMPT, REPEATED_TEXT = _EXAMPLES[0], _EXAMPLES[1], _EXAMPLES[2]  # the third: one sentence twice


def available(name: str = MODEL.name) -> bool:
    return services.checkpoint(name).available


def model_missing(name: str = MODEL.name) -> InputError:
    return services.checkpoint(name).missing()


def card(name: str = MODEL.name) -> Mapping:
    """The checkpoint's card (read-only; empty when it has none)."""
    return services.checkpoint(name).card


@dataclass(frozen=True)
class Shape:
    """A checkpoint's sizes the page talks about."""

    n_layers: int  # L
    dim: int  # C
    n_heads: int  # H
    n_kv_heads: int  # G
    head_dim: int  # D
    hidden: int  # F, the SwiGLU width
    vocab: int
    max_len: int  # training context
    params: int
    real: bool  # a real pretrained checkpoint (models/pretrained), not one we trained
    limit: int  # the most tokens the page reads: the training context, or REAL_MAX_TOKENS on a real model
    rope_base: float


@st.cache_data(show_spinner=False, max_entries=8)
def shape(name: str = MODEL.name) -> Shape:
    ck = services.checkpoint(name)
    c = llama.Config(**ck.config)
    return Shape(
        c.n_layers,
        c.dim,
        c.n_heads,
        c.n_kv_heads,
        c.dim // c.n_heads,
        c.hidden,
        c.vocab,
        c.max_len,
        llama.param_count(c, tied=c.tied, qkv_bias=c.qkv_bias),
        ck.real,
        min(c.max_len, REAL_MAX_TOKENS) if ck.real else c.max_len,
        c.rope_base,
    )


def title(name: str) -> str:
    """What the page calls the checkpoint: a real one by its authors' name, ours by our name."""
    return services.real_about(name).get("title", name) if services.checkpoint(name).real else name


def _pieces(name: str, ids) -> tuple[str, ...]:
    """What each id reads as (our leading <|endoftext|> as ⟨eot⟩)."""
    ck = services.checkpoint(name)
    pieces = tuple(b.decode("utf-8", errors="replace") for b in bpe.token_bytes(ck.tokenizer, ids))
    return ("⟨eot⟩", *pieces[1:]) if ck.prefix and pieces else pieces


def encode(text: str, max_chars: int = MAX_CHARS, name: str = MODEL.name) -> np.ndarray:
    """The ids of ``text`` as the model reads it (ours: <|endoftext|> first; a real model: nothing added,
    ``Checkpoint.prefix``): (T,), within the characters and the training context (on a real model, within
    REAL_MAX_TOKENS)."""
    if not text.strip():
        raise InputError("llama.error.empty")
    if len(text) > max_chars:
        raise InputError("llama.error.chars", n=len(text), max=max_chars)
    ck = services.checkpoint(name)
    ck.require()
    ids = ck.encode(text)
    s = shape(name)
    if len(ids) > s.limit:
        if s.real:
            raise InputError("llama.error.real_tokens", n=len(ids), max=s.limit, name=title(name))
        raise InputError("llama.error.tokens", n=len(ids), max=s.max_len)
    return ids


# ---- RMSNorm and SwiGLU on the real activations ---------------------------------------------------------------------


def _centred(norm: RMSNorm, x: torch.Tensor) -> torch.Tensor:
    """The norm ``norm`` as a LayerNorm without bias: the same gain, the same ε, the mean subtracted first."""
    return F.layer_norm(x, (x.shape[-1],), norm.weight, None, norm.eps)


@torch.inference_mode()
def _centred_losses(model: llama.Llama, ids: np.ndarray) -> np.ndarray:
    """(T − 1,) next-token losses of ``ids`` (nats) when every RMSNorm of ``model`` is read as a LayerNorm without
    bias (the same gains, the same ε): the trained model with the mean subtracted before each normalisation,
    nothing retrained. The blocks' own modules run in the same order as ``Block.forward``; the shared model is
    never changed (no copy either: a real model's weights are half a gigabyte)."""
    x = torch.as_tensor(ids[None], device=model.embed.weight.device)
    mask, rope = model.positions(x.shape[1], 0, x.device)
    h = model.embed(x)
    for b in model.blocks:
        h = h + b.attn(_centred(b.attn_norm, h), mask=mask, rope=rope)
        h = h + b.mlp(_centred(b.ffn_norm, h))
    h = _centred(model.norm, h)
    logits = h @ model.embed.weight.T if model.head is None else model.head(h)
    return F.cross_entropy(logits[0, :-1].float(), x[0, 1:], reduction="none").cpu().numpy()


def _losses(logits: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """(T − 1,) next-token losses (nats) from the forward's logits (T, V)."""
    z = logits[:-1].astype(np.float64)
    z = z - z.max(-1, keepdims=True)
    return np.log(np.exp(z).sum(-1)) - z[np.arange(len(z)), ids[1:]]


def _gains(model: llama.Llama) -> np.ndarray:
    """(L + 1, C): the gain g of the norm reading each point of the stream (block l's attention norm, then the final
    norm)."""
    gs = [b.attn_norm.weight for b in model.blocks] + [model.norm.weight]
    return torch.stack(gs).detach().float().cpu().numpy()


@dataclass(frozen=True)
class Analysis:
    """One forward pass of the text: the residual stream every RMSNorm reads, the SwiGLU gate and up projection,
    every attention pattern, and the model's next-token guesses."""

    name: str  # the checkpoint
    ids: np.ndarray  # (T,)
    pieces: tuple[str, ...]  # (T,)
    stream: (
        np.ndarray
    )  # (L + 1, T, C) entering block 0 … L − 1 (what its attention RMSNorm reads), then the final norm's
    gains: np.ndarray  # (L + 1, C) the gain of the norm reading each point
    gate: np.ndarray  # (L, T, F) SiLU(W₁x)
    up: np.ndarray  # (L, T, F) W₃x
    pattern: np.ndarray  # (L, H, T, T) attention weights, query down, key across
    top_ids: np.ndarray  # (T, TOP_K) the likeliest next tokens after each position
    top_p: np.ndarray  # (T, TOP_K) their probabilities
    top_pieces: tuple[tuple[str, ...], ...]  # (T, TOP_K) what they read as
    loss: float  # mean next-token loss of the text, nats, as trained
    loss_centred: float  # the same with the mean subtracted in every norm (LayerNorm, same gains), nothing retrained
    backend: str
    device: str
    ms: float


@st.cache_data(show_spinner=False, max_entries=64)
def analyse(text: str, name: str = MODEL.name) -> Analysis:
    """torch only: the stream and SwiGLU probes are not outputs of the exported graph."""
    ids = encode(text, name=name)
    ck = services.checkpoint(name)
    res = ck.run({"tokens": ids[None]}, PROBES, "torch")
    model = ck.model
    with torch.inference_mode():
        x0 = model.embed(torch.as_tensor(ids, device=model.embed.weight.device)).float().cpu().numpy()  # (T, C)
    stream = np.concatenate([x0[None], stack_layers(res.probes, "blocks.{}.resid")])  # (L + 1, T, C)
    logits = res.outputs["logits"][0]  # (T, V): only the top TOP_K of each row are kept
    top = np.argsort(-logits, axis=-1)[:, :TOP_K]
    z = logits.astype(np.float64) - logits.max(-1, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(-1, keepdims=True)
    return Analysis(
        name=name,
        ids=ids,
        pieces=_pieces(name, ids),
        stream=stream,
        gains=_gains(model),
        gate=stack_layers(res.probes, "blocks.{}.mlp.gate"),
        up=stack_layers(res.probes, "blocks.{}.mlp.up"),
        pattern=stack_layers(res.probes, "blocks.{}.attn.pattern"),
        top_ids=top,
        top_p=np.take_along_axis(p, top, -1),
        top_pieces=tuple(_pieces(name, row) for row in top),
        loss=float(_losses(logits, ids).mean()),
        loss_centred=float(_centred_losses(model, ids).mean()),
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
def norm_cost(text: str, name: str = MODEL.name) -> NormCost:
    a = analyse(text, name)
    C = a.stream.shape[-1]
    x = torch.as_tensor(a.stream.reshape(-1, C))
    rms = RMSNorm(C)
    g, b, eps = torch.ones(C), torch.zeros(C), rms.eps

    def layer_norm_plain() -> torch.Tensor:
        centred = x - x.mean(-1, keepdim=True)
        return centred * torch.rsqrt(centred.pow(2).mean(-1, keepdim=True) + eps) * g + b

    start = time.perf_counter()
    with torch.inference_mode():
        layer_norm_plain()
        once = time.perf_counter() - start
        repeats = max(MIN_TIMING_REPEATS, min(TIMING_REPEATS, int(TIMING_BUDGET_S / (2.5 * once))))
        rms_us, ln_us, fused_us = _median_us(
            [lambda: rms(x), layer_norm_plain, lambda: F.layer_norm(x, (C,), g, b, eps)], repeats
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


# ---- query heads that share a key/value head, in the probed model ---------------------------------------------------


def kv_head_of(head: int, n_heads: int, n_kv_heads: int) -> int:
    """The key/value head query head ``head`` reads: ⌊h / (H/G)⌋ (models/layers/attention.py repeats each key/value
    head for H/G consecutive query heads)."""
    return head // (n_heads // n_kv_heads)


@dataclass(frozen=True)
class Heads:
    """What each query head of each layer does on the text, and how alike the heads that read one key/value head
    are. Scores are mean attention weights over the queries they apply to; arrays (L, H) unless said."""

    kv: np.ndarray  # (H,) the key/value head each query head reads
    previous: np.ndarray  # weight on the previous token
    induction: np.ndarray  # weight on the token after an earlier copy of the query's token (nan: the text repeats none)
    within: np.ndarray  # (L,) mean overlap Σ min(Aᵢ, Aⱼ) of two heads reading the same key/value head
    across: np.ndarray  # (L,) the same for two heads reading different key/value heads
    repeats: int  # queries whose token occurred earlier (the induction score's queries)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Share of attention two heads put on the same keys, averaged over the queries: Σₛ min(aₜₛ, bₜₛ), in [0, 1]."""
    return float(np.minimum(a, b).sum(-1).mean())


@st.cache_data(show_spinner=False, max_entries=64)
def heads(text: str, name: str = MODEL.name) -> Heads:
    a = analyse(text, name)
    P = a.pattern.astype(np.float64)  # (L, H, T, T)
    L, H, T, _ = P.shape
    s = shape(name)
    kv = np.array([kv_head_of(h, H, s.n_kv_heads) for h in range(H)])
    ids = a.ids
    previous = P[:, :, np.arange(1, T), np.arange(T - 1)].mean(-1) if T > 1 else np.zeros((L, H))
    targets = np.zeros((T, T))
    for q in range(T):
        for j in range(q - 1):
            if ids[j] == ids[q]:
                targets[q, j + 1] = 1.0
    rows = targets.sum(1) > 0
    if rows.any():
        induction = (P[:, :, rows] * targets[rows]).sum(-1).mean(-1)
    else:
        induction = np.full((L, H), np.nan)
    within, across = np.zeros(L), np.zeros(L)
    for layer in range(L):
        same, other = [], []
        for i in range(H):
            for j in range(i + 1, H):
                (same if kv[i] == kv[j] else other).append(_overlap(P[layer, i], P[layer, j]))
        within[layer] = np.mean(same) if same else np.nan
        across[layer] = np.mean(other) if other else np.nan
    return Heads(kv, previous, induction, within, across, int(rows.sum()))


@dataclass(frozen=True)
class Copying:
    """Where the model copies on REPEATED_TEXT (one sentence twice): the layer of its strongest induction head, the
    heads of that layer that reach half its score, and the key/value heads they read."""

    layer: int
    heads: tuple[int, ...]
    kv: tuple[int, ...]
    best: float


@st.cache_data(show_spinner=False, max_entries=8)
def copying(name: str = MODEL.name) -> Copying:
    h = heads(REPEATED_TEXT, name)
    layer = int(np.nanargmax(np.nanmax(h.induction, axis=1)))
    best = float(np.nanmax(h.induction[layer]))
    chosen = tuple(int(q) for q in np.flatnonzero(h.induction[layer] >= best / 2))
    return Copying(layer, chosen, tuple(sorted({int(h.kv[q]) for q in chosen})), best)


# ---- GQA on a real configuration: the cache it keeps against MHA and MQA ---------------------------------------------

REAL_CACHE_BYTES = 2  # float16 / bfloat16: what a real model's cache holds per number when it serves


@dataclass(frozen=True)
class Variant:
    """The real model's configuration with G key/value heads: what it would cache and weigh."""

    kind: str  # "mha", "gqa" (the model as released), "mqa"
    n_kv_heads: int
    params: int
    kv_per_token: int  # bytes, REAL_CACHE_BYTES per number
    kv_context: int  # bytes for one sequence of the full context


@dataclass(frozen=True)
class RealCache:
    name: str
    n_layers: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    context: int
    variants: tuple[Variant, ...]  # MHA, the model itself, MQA
    measured: int  # bytes per token in the model's own cache tensors after a cached forward (float32 here)
    measured_bytes: int  # bytes per cached number in those tensors


@st.cache_data(show_spinner=False, max_entries=8)
def real_cache(name: str) -> RealCache:
    """The checkpoint's KV cache per token and at its full context, as it is (G key/value heads) and as the same
    model with multi-head (G = H) and multi-query (G = 1) attention: ``models.llama.kv_bytes_per_token`` and
    ``param_count`` on its config; and the bytes per token measured from its cache tensors."""
    ck = services.checkpoint(name)
    c = llama.Config(**ck.config)
    variants = []
    for kind, g in (("mha", c.n_heads), ("gqa", c.n_kv_heads), ("mqa", 1)):
        v = replace(c, n_kv_heads=g)
        per = llama.kv_bytes_per_token(v, REAL_CACHE_BYTES)
        variants.append(Variant(kind, g, llama.param_count(v, tied=c.tied, qkv_bias=c.qkv_bias), per, per * c.max_len))
    model = ck.model
    measured = metrics.kv_cache_bytes_per_token(model)
    return RealCache(
        name=name,
        n_layers=c.n_layers,
        n_heads=c.n_heads,
        n_kv_heads=c.n_kv_heads,
        head_dim=c.dim // c.n_heads,
        context=c.max_len,
        variants=tuple(variants),
        measured=measured,
        measured_bytes=next(model.parameters()).element_size(),
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


# ---- knock-outs on held-out text (models/interventions.py), torch only -----------------------------------------------

KO_WINDOWS = 16  # held-out windows of the model's context (a real model: of its REAL_MAX_TOKENS)
REAL_KO_WINDOWS = 8


@services.computing
@st.cache_data(show_spinner=False, max_entries=64)
def knock_out(layer: int, part: str, mode: str, head: int = 0, name: str = MODEL.name) -> HeldOut:
    """The held-out loss by position with ``part`` (one head, the whole attention, the MLP) of block ``layer``
    replaced by ``mode`` (zeros, or at each position its mean over the window's positions up to there), beside the
    plain run. The override lives in this call's context only (``models.probe.intervene``): the shared model is
    never changed."""
    from models import interventions

    s = shape(name)
    check_knock_out(BLOCKS, layer, part, mode, head, {BLOCKS: s.n_layers}, s.n_heads)
    ck = services.checkpoint(name)
    ck.require()
    n = REAL_KO_WINDOWS if ck.real else KO_WINDOWS
    return decoder_change(name, shape(name).limit, n, interventions.knock_out(layer, part, mode, head))
