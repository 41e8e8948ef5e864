"""The Attention page's bridge to ``models.transformer``: greedy decoding, probes, and the step-by-step arithmetic.

``decode(text, backend)`` is the one model call (cached): it decodes greedily one token at a time, then runs the
finished decoder input once more with every attention probe recorded. Because the decoder is causal, row t of that
run is exactly what the model saw at step t, so every step of the slider is a slice of one result.
The rest are small pure functions on its arrays.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import streamlit as st

from app.shared import assets
from app.shared import interventions as ko
from app.shared.i18n import InputError
from app.shared.numbers import softmax
from app.shared.services import checkpoint, stack_layers
from models.data import seq2seq
from models.layers import sinusoidal_table
from models.transformer import greedy_steps

MODEL = checkpoint("transformer")  # the trained reversal model
MAX_CHARS = seq2seq.LONG_LENGTHS[1]  # 1.25 × the longest training input
TRAINED_CHARS = seq2seq.TRAIN_LENGTHS[1]
KINDS = ("enc_self", "dec_self", "cross")  # encoder self-, decoder masked self-, cross-attention
_PROBE_PREFIX = {
    "enc_self": "encoder.layers.{}.self_attn",
    "dec_self": "decoder.layers.{}.self_attn",
    "cross": "decoder.layers.{}.cross_attn",
}
PROBES = ("*_attn.pattern", "*_attn.scores", "*_attn.q", "*_attn.k", "*_attn.v")
EXAMPLES = assets.lines("examples/attention.txt")  # the input box's default is the first


@dataclass(frozen=True)
class Decoding:
    """One input, decoded greedily, with every attention map. Shapes: L layers, H heads, S source, T decoder."""

    text: str  # the input as the model read it (lowercased)
    source: tuple[str, ...]  # S source tokens: the symbols, then <eos>
    output: tuple[str, ...]  # T generated tokens, <eos> last when the model produced it
    answer: str  # the generated text (up to <eos>)
    decoder_in: tuple[str, ...]  # T decoder inputs: <bos>, then the output shifted right
    expected: str  # the correct answer: the input reversed
    patterns: dict  # kind -> (L, H, T_q, S_k) attention weights
    scores: dict  # kind -> (L, H, T_q, S_k) q·k/√d_k before the softmax (masked entries hold a huge negative)
    q: dict  # kind -> (L, H, T_q, D)
    k: dict  # kind -> (L, H, S_k, D)
    v: dict  # kind -> (L, H, S_k, D)
    backend: str
    device: str
    ms: float  # the probe run
    decode_ms: float  # all greedy steps together

    @property
    def steps(self) -> int:
        return len(self.output)


def readable(text: str) -> tuple[str, tuple[str, ...]]:
    """What the model can read of ``text``: lowercase, the characters outside its alphabet (a–z and the space)
    dropped, runs of spaces collapsed, outer spaces removed; and the dropped characters, each once, in order."""
    lowered = text.lower()
    dropped = tuple(dict.fromkeys(ch for ch in lowered if ch not in seq2seq.ALPHABET))
    kept = "".join(ch for ch in lowered if ch in seq2seq.ALPHABET)
    return " ".join(kept.split()), dropped


def normalise(text: str) -> str:
    """What the model reads (``readable``); raises ``InputError`` when nothing is left or it is too long."""
    text, _ = readable(text)
    if not text:
        raise InputError("attention.error.empty")
    if len(text) > MAX_CHARS:
        raise InputError("attention.error.too_long", n=len(text), max=MAX_CHARS, trained=TRAINED_CHARS)
    return text


@st.cache_data(show_spinner=False, max_entries=64)
def decode(text: str, backend: str = "torch") -> Decoding:
    """Greedy decoding of ``text`` on ``backend``, then one probe run over the finished decoder input."""
    text = normalise(text)
    src = seq2seq.source_ids(text)  # (1, S)
    start = time.perf_counter()
    out_ids = greedy_steps(
        lambda s, t: MODEL.run({"src": s, "tgt": t}, (), backend).outputs["logits"], src, max_new=len(text) + 4
    )
    decode_ms = (time.perf_counter() - start) * 1e3
    tgt = np.array([[seq2seq.BOS, *out_ids[:-1]]], dtype=np.int64)  # (1, T): what the decoder read at each step
    res = MODEL.run({"src": src, "tgt": tgt}, PROBES, backend)
    arrays = {
        what: {kind: stack_layers(res.probes, f"{_PROBE_PREFIX[kind]}.{what}") for kind in KINDS}
        for what in ("pattern", "scores", "q", "k", "v")
    }
    return Decoding(
        text=text,
        source=tuple(seq2seq.token_text(int(i)) for i in src[0]),
        output=tuple(seq2seq.token_text(int(i)) for i in out_ids),
        answer=seq2seq.decode(out_ids),
        decoder_in=tuple(seq2seq.token_text(int(i)) for i in tgt[0]),
        expected=text[::-1],
        patterns=arrays["pattern"],
        scores=arrays["scores"],
        q=arrays["q"],
        k=arrays["k"],
        v=arrays["v"],
        backend=res.backend,
        device=res.device,
        ms=res.ms,
        decode_ms=decode_ms,
    )


def labels(d: Decoding, kind: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(query labels, key labels) of one kind of attention."""
    if kind == "enc_self":
        return d.source, d.source
    if kind == "dec_self":
        return d.decoder_in, d.decoder_in
    return d.decoder_in, d.source


def at_step(d: Decoding, kind: str, step: int) -> np.ndarray:
    """(L, H, rows, keys) what the model had computed by decoding step ``step`` (0-based).

    Encoder maps are complete from the start; decoder maps have one query row per step so far, and decoder
    self-attention only the keys that exist by then.
    """
    p = d.patterns[kind]
    if kind == "dec_self":
        p = p[:, :, : step + 1, : step + 1]
    elif kind == "cross":
        p = p[:, :, : step + 1, :]
    return np.ascontiguousarray(p)  # the JSON download needs a contiguous array


def alignment_agreement(d: Decoding, layer: int, head: int | None) -> float:
    """Share of the output symbols whose cross-attention argmax (one head, or the head average when None) is the
    source symbol they should copy (output i <- source n-1-i); teacher-forced on the model's own output."""
    p = d.patterns["cross"][layer]  # (H, T, S)
    p = p.mean(0) if head is None else p[head]
    n = len(d.text)
    rows = min(n, p.shape[0])
    return float((p[:rows].argmax(-1) == seq2seq.reverse_alignment(n)[:rows]).mean()) if rows else 0.0


@dataclass(frozen=True)
class DotProduct:
    """Scaled dot-product attention for one query, one head, every number shown. S keys, D = d_k."""

    q: np.ndarray  # (D,)
    k: np.ndarray  # (S, D)
    v: np.ndarray  # (S, D)
    qk: np.ndarray  # (S,) q·k
    scaled: np.ndarray  # (S,) q·k / √d_k
    allowed: np.ndarray  # (S,) bool: the mask (True = may attend)
    weights: np.ndarray  # (S,) softmax of the scaled, masked scores
    weights_unscaled: np.ndarray  # (S,) softmax without ÷√d_k (the saturation the paper avoids)
    context: np.ndarray  # (D,) Σ weights · v
    d_k: int
    model_weights: np.ndarray  # (S,) the model's own recorded pattern row, to check the arithmetic against


def dot_product(d: Decoding, kind: str, layer: int, head: int, query: int) -> DotProduct:
    """Recompute one row of one attention map from the recorded q, k, v (float64, so the page's numbers are ours)."""
    q = d.q[kind][layer, head, query].astype(np.float64)
    k = d.k[kind][layer, head].astype(np.float64)
    v = d.v[kind][layer, head].astype(np.float64)
    d_k = q.shape[-1]
    qk = k @ q
    scaled = qk / np.sqrt(d_k)
    allowed = np.arange(len(k)) <= query if kind == "dec_self" else np.ones(len(k), dtype=bool)
    weights = softmax(scaled, allowed=allowed)
    return DotProduct(
        q=q,
        k=k,
        v=v,
        qk=qk,
        scaled=scaled,
        allowed=allowed,
        weights=weights,
        weights_unscaled=softmax(qk, allowed=allowed),
        context=weights @ v,
        d_k=d_k,
        model_weights=d.patterns[kind][layer, head, query].astype(np.float64),
    )


def card() -> dict:
    """The checkpoint's card: metrics measured by ``python -m models.evaluate transformer``, params."""
    c = MODEL.card
    return {**c["metrics"], "params": c["params"], "wall_time_s": c["wall_time_s"]}


def config() -> dict:
    """The shipped model's sizes, read from its config (so the page's text and table follow the checkpoint)."""
    c = MODEL.config
    return {
        "enc_layers": c["n_enc_layers"],
        "dec_layers": c["n_dec_layers"],
        "d_model": c["dim"],
        "heads": c["n_heads"],
        "d_k": c["dim"] // c["n_heads"],
        "d_ff": c["ffn_dim"],
        "vocab": c["vocab"],
        "position_shift": seq2seq.POSITION_SHIFT,  # the training-only shift of the position rows
    }


@st.cache_data(show_spinner=False, max_entries=8)
def random_dot_spread(d_k: int, n: int = 20_000, seed: int = 0) -> tuple[float, float]:
    """(std of q·k, std of q·k / √d_k) for ``n`` pairs of random vectors whose d_k components are independent with
    mean 0 and variance 1: the paper's argument for the scaling (section 3.2.1, footnote 4) — q·k is a sum of d_k
    such products, so its variance is d_k, and ÷√d_k brings it back to 1 whatever d_k is."""
    rng = np.random.default_rng(seed)
    dots = (rng.standard_normal((n, d_k)) * rng.standard_normal((n, d_k))).sum(-1)
    return float(dots.std()), float((dots / np.sqrt(d_k)).std())


@dataclass(frozen=True)
class Positions:
    table: np.ndarray  # (P, C) PE[p, 2i] = sin(p / 10000^(2i/C)), PE[p, 2i+1] = cos(…)
    similarity: np.ndarray  # (P, P) cosine similarity of the position vectors


@st.cache_data(show_spinner=False, max_entries=8)
def positions(n_positions: int, dim: int = 64) -> Positions:
    table = sinusoidal_table(n_positions, dim).numpy().astype(np.float64)
    unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    return Positions(table=table, similarity=unit @ unit.T)


def offset_matrix(k: int, dim: int = 64) -> np.ndarray:
    """(C, C) M_k with PE(p + k) = M_k · PE(p) for every p: block-diagonal, one 2 × 2 rotation by k·ωᵢ per
    (sin, cos) pair, since sin(a + b) = sin a cos b + cos a sin b and cos(a + b) = cos a cos b − sin a sin b. It
    depends on the offset k only, never on p (section 3.5: the reason the paper chose sinusoids)."""
    omega = 10000.0 ** (-np.arange(0, dim, 2) / dim)  # (C/2,) the frequency of each pair
    c, s = np.cos(k * omega), np.sin(k * omega)
    m = np.zeros((dim, dim))
    m[0::2, 0::2], m[0::2, 1::2] = np.diag(c), np.diag(s)  # sin row: cos(kω)·sin + sin(kω)·cos
    m[1::2, 0::2], m[1::2, 1::2] = np.diag(-s), np.diag(c)  # cos row: −sin(kω)·sin + cos(kω)·cos
    return m


def offset_error(pos: Positions, k: int) -> float:
    """max over p and dimensions of |M_k · PE(p) − PE(p + k)| on the model's own table."""
    table = pos.table
    predicted = table[:-k] @ offset_matrix(k, table.shape[1]).T  # (P − k, C)
    return float(np.abs(predicted - table[k:]).max())


# ---- knock-outs (models/interventions.py): torch only, the shared model never changed --------------------------------


@dataclass(frozen=True)
class KnockOut:
    """The input reversed, plain and with one part knocked out: teacher-forced on the right answer (the loss of each
    of its characters and <eos>, and how many the model ranks first), and the greedy answer. T = characters + 1."""

    targets: tuple[str, ...]  # (T,) the right answer's characters, then <eos>
    loss_before: np.ndarray  # (T,) nats, plain
    loss_after: np.ndarray  # (T,) knocked out
    right_before: int  # targets ranked first, plain and knocked out
    right_after: int
    answer_after: str  # greedy decoding, knocked out
    backend: str
    device: str
    ms: float  # the knocked-out runs


@st.cache_data(show_spinner=False, max_entries=64)
def knock_out(text: str, stack: str, layer: int, part: str, mode: str, head: int = 0) -> KnockOut:
    """Knock out ``part`` of layer ``layer`` of the encoder or the decoder (``stack``) by ``mode``: the right answer
    read teacher-forced, and greedy decoding, beside the plain run (eager torch; the override lives in this call's
    context only, ``models.probe.intervene``)."""
    import torch

    from models import interventions
    from models.probe import intervene

    cfg = config()
    layers = {"encoder": cfg["enc_layers"], "decoder": cfg["dec_layers"]}
    ko.check(stack, layer, part, mode, head, layers, cfg["heads"])
    text = normalise(text)
    src = seq2seq.source_ids(text)  # (1, S)
    targets = np.array([*seq2seq.encode(text[::-1]), seq2seq.EOS], dtype=np.int64)
    tgt_in = np.array([[seq2seq.BOS, *targets[:-1]]], dtype=np.int64)
    model = MODEL.model
    device = next(model.parameters()).device

    def logits(s: np.ndarray, t: np.ndarray) -> np.ndarray:
        with torch.inference_mode():
            return model(torch.from_numpy(s).to(device), torch.from_numpy(t).to(device)).float().cpu().numpy()

    loss_before, top_before = interventions.teacher_forced(model, src, tgt_in, targets)
    start = time.perf_counter()
    with intervene(interventions.encoder_decoder_knock_out(stack, layer, part, mode, head)):
        loss_after, top_after = interventions.teacher_forced(model, src, tgt_in, targets)
        out_ids = greedy_steps(logits, src, max_new=len(text) + 4)
    ms = (time.perf_counter() - start) * 1e3
    return KnockOut(
        targets=tuple(seq2seq.token_text(int(i)) for i in targets),
        loss_before=loss_before,
        loss_after=loss_after,
        right_before=int((top_before == targets).sum()),
        right_after=int((top_after == targets).sum()),
        answer_after=seq2seq.decode(out_ids),
        backend="torch",
        device=str(device.type),
        ms=ms,
    )
