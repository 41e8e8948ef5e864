"""The RoPE page's bridge to ``models.layers.positions`` and the trained ``llama`` checkpoint: rotations, the
relative property, RoFormer's decay bound, the decay measured from real q and k, five position schemes on one scale,
and extrapolation past the training context with plain RoPE, position interpolation, NTK scaling and YaRN."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

from app.shared import services
from app.shared.i18n import InputError
from app.shared.services import engine, needs_corpus
from models import llama, metrics
from models.data import shakespeare
from models.layers import (
    RotaryEmbedding,
    alibi_slopes,
    apply_rope,
    rope_decay_bound,
    rope_frequencies,
    sinusoidal_table,
    t5_relative_position_bucket,
)

MODEL = services.checkpoint("llama")  # the LLaMA-style model the page measures and extrapolates
GPT = services.checkpoint("gpt")  # its learned absolute positions, one of the schemes compared
BASES = (100, 500, 1_000, 10_000, 100_000, 1_000_000)
DIMS = (8, 16, 32, 48, 64, 128)
MAX_POSITION = 64  # the rotation slider: positions 0 … 64 (each step of a Plotly slider costs about 1 ms to draw)
SCORE_POSITIONS = 32  # the q_m·k_n matrix is SCORE_POSITIONS × SCORE_POSITIONS
DECAY_DISTANCES = 512
SCHEME_OFFSETS = 256
PLAYS = shakespeare.VALIDATION_PLAYS  # held out: the model never trained on them
SOURCES = (*PLAYS, "custom")
MAX_CHARS = 4000
MEASURE_WINDOWS = 16  # held-out windows averaged for the measured decay
SCHEMES = llama.SCHEMES
EXTRAPOLATE = llama.EXTRAPOLATE  # the longest input, in training contexts
PVH_ROWS = ("where", "model", "result", "longer")  # the rows of "In the paper vs here"
PVH_DEPARTURES = ("llama", "tied", "baseline")
OWN = ("llama",)  # our checkpoints the model picker offers
REAL_WINDOW = 128  # a real model's measured decay reads windows of this many tokens (its context is 8,192) …
REAL_WINDOWS = 2  # … this many of them: a forward of 256 tokens through 30 layers, ~2 s on a CPU


def available(name: str = MODEL.name) -> bool:
    return services.checkpoint(name).available


def _check(d: int, base: float) -> None:
    if d not in DIMS or base not in BASES:
        raise InputError("rope.error.choice")


# ---- the maths, no model -------------------------------------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=64)
def frequencies(d: int, base: float) -> np.ndarray:
    """(d/2,) θᵢ = base^(−2i/d)."""
    _check(d, base)
    return rope_frequencies(d, base).double().numpy()


@st.cache_data(show_spinner=False, max_entries=64)
def rotation(d: int, base: float, m: int, pair: int) -> np.ndarray:
    """(m + 1, 2): pair ``pair`` of the query (1, 0, 1, 0, …) rotated to positions 0 … m, via apply_rope."""
    _check(d, base)
    if not 0 <= m <= MAX_POSITION or not 0 <= pair < d // 2:
        raise InputError("rope.error.choice")
    cos, sin = RotaryEmbedding(d, base)(torch.arange(m + 1))
    q = torch.zeros(d)
    q[0::2] = 1.0
    rotated = apply_rope(q.expand(1, 1, m + 1, d), cos, sin)[0, 0]  # (m + 1, d)
    return rotated[:, 2 * pair : 2 * pair + 2].double().numpy()


@dataclass(frozen=True)
class Relative:
    rope: np.ndarray  # (n, n) q_m·k_n with RoPE
    absolute: np.ndarray  # (n, n) (q + p_m)·(k + p_n) with the sinusoidal table added instead
    rope_deviation: float  # largest |score − mean of its diagonal|
    absolute_deviation: float


def toeplitz_deviation(scores: np.ndarray) -> float:
    """Largest distance of any entry from the mean of its diagonal: 0 exactly when the matrix is Toeplitz."""
    n = scores.shape[0]
    return max(float(np.abs(np.diagonal(scores, o) - np.diagonal(scores, o).mean()).max()) for o in range(1 - n, n))


@st.cache_data(show_spinner=False, max_entries=64)
def relative(d: int, base: float, seed: int) -> Relative:
    """One random query and key (float32) placed at every position 0 … n − 1: scores with RoPE and with the
    sinusoidal table added to both instead."""
    _check(d, base)
    n = SCORE_POSITIONS
    g = torch.Generator().manual_seed(seed)
    q, k = torch.randn(d, generator=g), torch.randn(d, generator=g)
    cos, sin = RotaryEmbedding(d, base)(torch.arange(n))
    qs = apply_rope(q.expand(1, 1, n, d), cos, sin)[0, 0]
    ks = apply_rope(k.expand(1, 1, n, d), cos, sin)[0, 0]
    rope = (qs @ ks.T).double().numpy()
    pe = sinusoidal_table(n, d, base)
    absolute = ((q + pe) @ (k + pe).T).double().numpy()
    return Relative(rope, absolute, toeplitz_deviation(rope), toeplitz_deviation(absolute))


@st.cache_data(show_spinner=False, max_entries=64)
def decay_bound(d: int, base: float) -> np.ndarray:
    """(DECAY_DISTANCES,) RoFormer's relative upper bound at distances 0 … DECAY_DISTANCES − 1."""
    _check(d, base)
    return rope_decay_bound(d, torch.arange(DECAY_DISTANCES), base).numpy()


def half_distance(bound: np.ndarray) -> int:
    """The first distance at which the bound is below half its value at distance 0."""
    below = np.flatnonzero(bound < bound[0] / 2)
    return int(below[0]) if below.size else len(bound)


@st.cache_data(show_spinner=False, max_entries=16)
def schemes(d: int, base: float) -> dict[str, np.ndarray]:
    """What each scheme contributes to a score as a function of the offset Δ = 0 … SCHEME_OFFSETS − 1 (key Δ tokens
    before the query), each scaled to a largest magnitude of 1 so that the shapes compare on one axis."""
    _check(d, base)
    offsets = torch.arange(SCHEME_OFFSETS)
    width = 192  # the GPT checkpoint's model width, for the two absolute schemes
    pe = sinusoidal_table(SCHEME_OFFSETS, width).double()
    curves = {"sinusoidal": (pe[-1] * pe.flip(0)).sum(-1)}  # PE_m · PE_(m−Δ), m the last position
    if GPT.available:
        p = torch.nn.functional.normalize(GPT.model.pos.weight.detach().double(), dim=-1)
        n = min(len(p), SCHEME_OFFSETS)  # cosine of p_m and p_(m−Δ), averaged over m
        curves["learned"] = torch.stack([(p[o:n] * p[: n - o]).sum(-1).mean() for o in range(n)])
    curves["t5"] = -t5_relative_position_bucket(-offsets, bidirectional=False).double()  # one learned value a step
    curves["alibi"] = -alibi_slopes(8)[3].double() * offsets  # one head's penalty
    theta = rope_frequencies(d, base).double()
    curves["rope"] = torch.cos(offsets.double()[:, None] * theta).mean(-1)  # key = query, equal energy per pair
    return {name: (c / c.abs().max()).numpy() for name, c in curves.items()}


# ---- the trained model ---------------------------------------------------------------------------------------------


@st.cache_resource(show_spinner=False)
def _held_out(play: str, name: str = MODEL.name) -> np.ndarray:
    return services.checkpoint(name).encode(shakespeare.plays("validation")[play])


def context(name: str = MODEL.name) -> int:
    """The model's training context T (the shipped configuration's while no checkpoint is installed)."""
    return int(services.checkpoint(name).config.get("max_len", llama.PRESETS["shipped"].max_len))


def is_real(name: str) -> bool:
    return services.checkpoint(name).real


def title(name: str) -> str:
    """A real checkpoint by its authors' name, ours by our name."""
    return services.real_about(name).get("title", name) if is_real(name) else name


@dataclass(frozen=True)
class Measured:
    """Mean pre-softmax score q_m·k_n/√D by distance m − n, from the model's own rotated q and k."""

    scores: np.ndarray  # (L, H, T) mean score at distance 0 … T − 1
    windows: int  # held-out windows averaged
    backend: str
    device: str
    ms: float


@needs_corpus
@services.computing
@st.cache_data(show_spinner=False, max_entries=8)
def measured_decay(backend: str, name: str = MODEL.name) -> Measured:
    """Over held-out windows of the model's context (a real model: REAL_WINDOWS windows of REAL_WINDOW tokens)."""
    ck = services.checkpoint(name)
    T, n = (REAL_WINDOW, REAL_WINDOWS) if ck.real else (context(name), MEASURE_WINDOWS)
    ids = np.concatenate([_held_out(p, name) for p in PLAYS])
    starts = np.linspace(0, len(ids) - T - 1, n).astype(int)
    tokens = np.stack([ids[s : s + T] for s in starts])
    res = ck.run({"tokens": tokens}, ("blocks.*.attn.q", "blocks.*.attn.k"), ck.backend(backend))
    L = len([n for n in res.probes if n.endswith(".q")])
    out = []
    for layer in range(L):
        q, k = res.probes[f"blocks.{layer}.attn.q"], res.probes[f"blocks.{layer}.attn.k"]  # (B, H, T, D), (B, G, T, D)
        k = np.repeat(k, q.shape[1] // k.shape[1], axis=1)  # each key head serves H / G query heads
        scale = 1 / math.sqrt(q.shape[-1])
        out.append([(q[:, :, r:] * k[:, :, : T - r]).sum(-1).mean((0, 2)) * scale for r in range(T)])
    return Measured(np.array(out).transpose(0, 2, 1), n, res.backend, res.device, res.ms)


@dataclass(frozen=True)
class Spectrum:
    """One model's rotary frequencies from its config: the slowest pair's wavelength against its context."""

    name: str
    head_dim: int  # D: the width RoPE turns, D/2 pairs
    base: float
    context: int  # T
    slowest: float  # 2π / θ_(D/2 − 1), tokens
    fastest: float  # 2π / θ_0 = 2π
    unturned: int  # pairs whose wavelength exceeds the context: they never make a full turn inside it
    turns: float  # how much of a turn the slowest pair makes across the context


def _spectrum(name: str, D: int, base: float, T: int) -> Spectrum:
    theta = rope_frequencies(D, base).double().numpy()
    wavelength = 2 * np.pi / theta
    return Spectrum(
        name, D, base, T, float(wavelength[-1]), float(wavelength[0]), int((wavelength > T).sum()), T / wavelength[-1]
    )


@st.cache_data(show_spinner=False, max_entries=8)
def spectra(name: str) -> tuple[Spectrum, ...]:
    """Ours, the real model ``name``, and the real model with our base: what the larger base does to the slowest
    pair (θᵢ = base^(−2i/D) from ``models.layers.rope_frequencies``, each config's D, base and context)."""
    out = []
    for ck in (MODEL, services.checkpoint(name)):
        c = llama.Config(**ck.config)
        out.append(_spectrum(ck.name, c.dim // c.n_heads, c.rope_base, c.max_len))
    ours, real = out
    out.append(_spectrum(f"{name}@{ours.base:g}", real.head_dim, ours.base, real.context))
    return tuple(out)


@dataclass(frozen=True)
class Beside:
    """The measured decay of two models on one distance axis: the mean over every layer and head."""

    distances: np.ndarray  # (R,) 0 … R − 1
    ours: np.ndarray  # (R,) mean score q·k/√D
    real: np.ndarray  # (R,)
    near: tuple[float, float]  # (ours, real) mean score at distances 1 … NEAR
    far: tuple[float, float]  # (ours, real) mean score over the last half of the distances
    window: int  # tokens in the shorter of the two models' windows


NEAR = 8
BESIDE_SHARE = 3 / 4


def beside(backend: str, name: str) -> Beside:
    ours, real = measured_decay(backend).scores, measured_decay(backend, name).scores
    # The longest distances of a window are averaged over a few query positions only, whose keys are the window's
    # first tokens (where attention sinks): the curves stop at BESIDE_SHARE of the shorter window.
    R = int(BESIDE_SHARE * min(ours.shape[-1], real.shape[-1]))
    o, r = ours[..., :R].mean((0, 1)), real[..., :R].mean((0, 1))
    return Beside(
        np.arange(R),
        o,
        r,
        (float(o[1 : NEAR + 1].mean()), float(r[1 : NEAR + 1].mean())),
        (float(o[R // 2 :].mean()), float(r[R // 2 :].mean())),
        min(ours.shape[-1], real.shape[-1]),
    )


@dataclass(frozen=True)
class Extrapolation:
    losses: dict[str, np.ndarray]  # scheme -> (n,) loss (nats) at each position
    context: int  # training context T
    n_tokens: int
    backend: str
    device: str
    ms: float


def source_ids(source: str, start: float, text: str) -> np.ndarray:
    """The token window to score: ``start`` (0–1) of the way into a held-out play, or the user's text."""
    T = context()
    length = llama.EXTRAPOLATE * T + 1
    if source == "custom":
        if len(text) > MAX_CHARS:
            raise InputError("rope.error.long", n=MAX_CHARS)
        ids = metrics.encode_document(MODEL.tokenizer, text)[:length]
        if len(ids) < T + 32:
            raise InputError("rope.error.short", n=len(ids) - 1, need=T + 32)
        return ids
    if source not in PLAYS or not 0 <= start <= 1:
        raise InputError("rope.error.choice")
    ids = _held_out(source)
    s = int(start * (len(ids) - length))
    return ids[s : s + length]


@needs_corpus
@services.computing
@st.cache_data(show_spinner=False, max_entries=32)
def extrapolation(source: str, start: float, text: str, chosen: tuple[str, ...]) -> Extrapolation:
    """Per-position loss beyond the training context, for each chosen scheme (torch: the scaling is a forward
    argument, not an input of the exported graph)."""
    ids = source_ids(source, start, text)
    model = MODEL.model
    scale = (len(ids) - 1) / context()
    t0 = time.perf_counter()
    losses = {
        s: metrics.position_losses(model, ids[None], **llama.scheme_kwargs(s, max(1.0, scale)))
        for s in SCHEMES
        if s in chosen
    }
    ms = (time.perf_counter() - t0) * 1e3
    return Extrapolation(losses, context(), len(ids) - 1, "torch", engine().device, ms)


def card() -> Mapping:
    """The model's card (read-only; empty when it has none)."""
    return MODEL.card


@dataclass(frozen=True)
class CardExtrapolation:
    """What the card measured past the training context: the mean loss per bucket of positions, per scheme."""

    x: np.ndarray  # (B,) the centre of each bucket of positions
    losses: dict[str, np.ndarray]  # scheme -> (B,) mean loss (nats), for the schemes the card has
    context: int  # the training context T it was measured against
    windows: int  # held-out windows averaged
    length: int  # tokens in each window


def card_extrapolation() -> CardExtrapolation | None:
    """The card's extrapolation measurement, or None when it has none."""
    ext = MODEL.card.get("metrics", {}).get("extrapolation")
    if not ext:
        return None
    return CardExtrapolation(
        x=np.array(ext["bucket_start"]) + ext["bucket"] / 2,
        losses={s: np.array(ext[s]) for s in SCHEMES if s in ext},
        context=ext["train_context"],
        windows=ext["windows"],
        length=ext["length"],
    )


@st.cache_data(show_spinner=False)
def card_numbers() -> dict:
    """The llama model's architecture, training and results from its config and card, for the page's texts."""
    c = MODEL.config
    card = MODEL.card
    m = card.get("metrics", {})
    ext = m.get("extrapolation", {})
    out = {
        "layers": c["n_layers"],
        "dim": c["dim"],
        "heads": c["n_heads"],
        "kv": c["n_kv_heads"],
        "D": c["dim"] // c["n_heads"],
        "base": c["rope_base"],
        "T": c["max_len"],
        "x": llama.EXTRAPOLATE,
        "params": card.get("params", 0),
        "bpc": m.get("val_bpc", float("nan")),
        "base_bpc": m.get("baseline_val_bpc", float("nan")),
        "windows": ext.get("windows", 0),
    }
    for s in SCHEMES:
        out[f"{s}_within"] = ext.get(f"{s}_within", float("nan"))
        out[f"{s}_beyond"] = ext.get(f"{s}_beyond", float("nan"))
    return out


# ---- intervention: the rotation removed from one layer's q and k ----------------------------------------------------

ALL_LAYERS = -1  # the rotation removed from every layer at once


@dataclass(frozen=True)
class Unrotated:
    """Held-out loss by position with the rotation of ``layer``'s q and k undone (``llama.unrotate``), and unchanged."""

    layer: int  # ALL_LAYERS: every layer
    before: np.ndarray  # (T,) mean loss (nats) at each position, unchanged
    after: np.ndarray  # (T,) with the rotation removed
    per_layer: np.ndarray  # (L,) mean loss with the rotation removed from that layer alone
    every_layer: float  # mean loss with the rotation removed from every layer
    windows: int
    backend: str  # always torch: interventions run on the torch model
    device: str
    ms: float


def _windows(T: int, n: int) -> np.ndarray:
    """``n`` held-out windows of T + 1 tokens, spread over the validation plays (the measured decay's)."""
    ids = np.concatenate([_held_out(p) for p in PLAYS])
    starts = np.linspace(0, len(ids) - T - 2, n).astype(int)
    return np.stack([ids[s : s + T + 1] for s in starts])


def _unrotated_losses(model, windows: np.ndarray, layers: str) -> np.ndarray:
    from models.probe import intervene

    T = windows.shape[1] - 1
    with intervene({f"blocks.{layers}.attn.[qk]": llama.unrotate(model, T)}):
        return metrics.position_losses(model, windows)


@needs_corpus
@services.computing
@st.cache_data(show_spinner=False, max_entries=1)
def _unrotated_all() -> tuple[np.ndarray, np.ndarray, np.ndarray, str, float]:
    """Ours on MEASURE_WINDOWS held-out windows of its context: the loss at every position unchanged (T,), with the
    rotation removed from each layer alone (L, T) and from every layer (T,); the device, the milliseconds."""
    MODEL.require()
    model = MODEL.model
    windows = _windows(context(), MEASURE_WINDOWS)
    start = time.perf_counter()
    before = metrics.position_losses(model, windows)
    per_layer = np.stack([_unrotated_losses(model, windows, str(i)) for i in range(model.config.n_layers)])
    every = _unrotated_losses(model, windows, "*")
    ms = (time.perf_counter() - start) * 1e3
    return before, per_layer, every, str(model.embed.weight.device), ms


def unrotated(layer: int) -> Unrotated:
    """The loss at every position, unchanged and with the rotation removed from ``layer`` (ALL_LAYERS: from all),
    and the mean loss with each layer's removed alone (all computed once, for every choice)."""
    L = MODEL.config["n_layers"]
    if not (layer == ALL_LAYERS or 0 <= layer < L):
        raise InputError("rope.error.layer", max=L - 1)
    before, per_layer, every, device, ms = _unrotated_all()
    return Unrotated(
        layer=layer,
        before=before,
        after=every if layer == ALL_LAYERS else per_layer[layer],
        per_layer=per_layer.mean(1),
        every_layer=float(every.mean()),
        windows=MEASURE_WINDOWS,
        backend="torch",
        device=device,
        ms=ms,
    )
