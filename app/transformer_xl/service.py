"""The Transformer-XL page's bridge to ``models.transformer_xl``: the user's text run segment after segment with the
memory carried (and again with it cleared), the attention of every segment over [memory ∘ segment], the four score
terms of one query, the reach of the attention through the layers, and the card's measured numbers."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

from app.shared import assets
from app.shared.i18n import InputError
from app.shared.interventions import MODES as KNOCK_MODES
from app.shared.interventions import PARTS as KNOCK_PARTS
from app.shared.interventions import HeldOut, held_out_change
from app.shared.numbers import log_softmax
from app.shared.services import checkpoint, computing, needs_corpus
from models import metrics, transformer_xl, zoo
from models.data import bpe

NAME = "transformer-xl"
MODEL = checkpoint(NAME)
MAX_CHARS = 2400  # the text box
MAX_SEGMENTS = 10  # tokens: at most this many segments of L
PROBES = ("blocks.*.attn.pattern", "blocks.*.attn.q", "blocks.*.attn.k", "blocks.*.attn.r")
THRESHOLDS = (0.001, 0.01, 0.05, 0.1)  # "attended" means a weight at least this large (the reach section)
FIRST = 8  # the first tokens of a segment, as the card's first_tokens_bpc_gain
DEFAULT_TEXT = assets.text("examples/transformer_xl.txt").strip()


def available() -> bool:
    return MODEL.available


@dataclass(frozen=True)
class Shape:
    """The trained model's sizes the page talks about."""

    segment: int  # L
    memory: int  # M
    n_layers: int  # N
    n_heads: int  # H
    dim: int  # C
    params: int


@st.cache_data(show_spinner=False, max_entries=4)
def shape() -> Shape:
    c = MODEL.config
    params = zoo.parameter_count(MODEL.model)
    return Shape(c["segment"], c["memory"], c["n_layers"], c["n_heads"], c["dim"], params)


def _pieces(ids: np.ndarray) -> tuple[str, ...]:
    """What each id reads as (the leading <|endoftext|> as ⟨eot⟩)."""
    pieces = tuple(b.decode("utf-8", errors="replace") for b in bpe.token_bytes(MODEL.tokenizer, ids))
    return tuple("⟨eot⟩" if i == 0 else p for i, p in zip(ids, pieces))


def encode(text: str) -> np.ndarray:
    """<|endoftext|> then the ids of ``text`` (T,), at least two segments' worth is not required, at most
    MAX_SEGMENTS of them."""
    if not text.strip():
        raise InputError("txl.error.empty")
    if len(text) > MAX_CHARS:
        raise InputError("txl.error.chars", n=len(text), max=MAX_CHARS)
    MODEL.require()
    ids = metrics.encode_document(MODEL.tokenizer, text)
    limit = MAX_SEGMENTS * shape().segment
    if len(ids) > limit:
        raise InputError("txl.error.tokens", n=len(ids), max=limit)
    return ids


# ---- the text, segment after segment --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Segment:
    """One segment's forward pass with the memory carried."""

    start: int  # absolute position of its first token
    memory_start: int  # absolute position of its first memory key (start − M', M' the memory it read)
    pattern: np.ndarray  # (N, H, T, S) attention over [memory ∘ segment]
    q: np.ndarray  # (N, H, T, D)
    k: np.ndarray  # (N, H, S, D)
    r: np.ndarray  # (N, H, S, D) W_k,R R for distances S − 1 .. 0

    @property
    def n_memory(self) -> int:
        return self.start - self.memory_start


@dataclass(frozen=True)
class Analysis:
    ids: np.ndarray  # (T,)
    pieces: tuple[str, ...]  # (T,)
    segment: int  # L
    segments: tuple[Segment, ...]
    loss_memory: np.ndarray  # (T − 1,) nats of predicting ids[1:], memory carried
    loss_cleared: np.ndarray  # (T − 1,) the same, memory cleared before every segment
    backend: str
    device: str
    ms: float

    @property
    def targets_in_segment(self) -> np.ndarray:
        """(T − 1,) the place of each target's input position in its segment (0 = the segment's first token)."""
        return np.arange(len(self.ids) - 1) % self.segment

    def by_place(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Mean loss at each place of a segment over the segments after the first (which has no memory either way):
        (places, with memory, memory cleared); a place no later segment reaches is left out."""
        place = self.targets_in_segment
        later = np.arange(len(place)) >= self.segment
        places = np.unique(place[later]) if later.any() else np.arange(0)
        mean = [
            np.array([loss[later & (place == p)].mean() for p in places])
            for loss in (self.loss_memory, self.loss_cleared)
        ]
        return places, mean[0], mean[1]

    def bpc(self, losses: np.ndarray, mask: np.ndarray | None = None) -> float:
        """Bits per character of the predicted tokens (those ``mask`` selects): nats / characters / ln 2."""
        mask = np.ones(len(losses), dtype=bool) if mask is None else mask
        chars = sum(len(p) for p, keep in zip(self.pieces[1:], mask) if keep)
        return float(losses[mask].sum() / max(chars, 1) / math.log(2))


def _losses(logits: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """(T, V) logits and (T,) ids -> (T,) nats."""
    return -log_softmax(logits.astype(np.float64), axis=-1)[np.arange(len(targets)), targets]


@st.cache_data(show_spinner=False, max_entries=64)
def analyse(text: str, backend: str) -> Analysis:
    ids = encode(text)
    s = shape()
    L, T = s.segment, len(ids)
    carried, cleared = [], []
    ms = 0.0
    memory = np.zeros((s.n_layers, 1, 0, s.dim), dtype=np.float32)
    empty = memory
    segs = []
    res = None
    for start in range(0, T, L):
        x = ids[None, start : start + L]
        res = MODEL.run({"tokens": x, "memory": memory}, PROBES, backend)
        plain = MODEL.run({"tokens": x, "memory": empty}, (), backend)
        ms += res.ms + plain.ms
        pick = {
            p: np.stack([res.probes[f"blocks.{n}.attn.{p}"][0] for n in range(s.n_layers)])
            for p in ("pattern", "q", "k")
        }
        r = np.stack([res.probes[f"blocks.{n}.attn.r"] for n in range(s.n_layers)])
        segs.append(Segment(start, start - memory.shape[2], pick["pattern"], pick["q"], pick["k"], r))
        carried.append(res.outputs["logits"][0])
        cleared.append(plain.outputs["logits"][0])
        memory = res.outputs["new_memory"]
    targets = ids[1:]
    loss_memory = _losses(np.concatenate(carried)[:-1], targets)
    loss_cleared = _losses(np.concatenate(cleared)[:-1], targets)
    return Analysis(ids, _pieces(ids), L, tuple(segs), loss_memory, loss_cleared, res.backend, res.device, ms)


# ---- the four terms of one score ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Terms:
    """A / √D of one query over its keys, split into (a) content–content, (b) content-dependent position, (c) global
    content bias, (d) global position bias (models.transformer_xl.score_terms)."""

    a: np.ndarray  # (K,) over the keys the query sees: its memory, then the segment up to itself
    b: np.ndarray
    c: np.ndarray
    d: np.ndarray
    keys: np.ndarray  # (K,) absolute positions of those keys
    weights: np.ndarray  # (K,) the attention pattern, softmax of a + b + c + d

    @property
    def total(self) -> np.ndarray:
        return self.a + self.b + self.c + self.d


@st.cache_data(show_spinner=False, max_entries=64)
def terms(text: str, backend: str, segment: int, query: int, layer: int, head: int) -> Terms:
    seg = analyse(text, backend).segments[segment]
    model = MODEL.model
    with torch.no_grad():
        split = transformer_xl.score_terms(
            *(torch.from_numpy(x[layer]) for x in (seg.q, seg.k, seg.r)), model.u.cpu(), model.v.cpu()
        )
    K = seg.n_memory + query + 1  # the keys the query sees
    parts = {name: split[name][head, query, :K].numpy() for name in "abcd"}
    keys = np.arange(seg.memory_start, seg.memory_start + K)
    return Terms(**parts, keys=keys, weights=seg.pattern[layer, head, query, :K])


@st.cache_data(show_spinner=False, max_entries=64)
def terms_all(text: str, backend: str, segment: int, layer: int, head: int) -> list[Terms]:
    """``terms`` for every query of the segment (the four-terms figure's steps), from one split of the scores."""
    seg = analyse(text, backend).segments[segment]
    model = MODEL.model
    with torch.no_grad():
        split = transformer_xl.score_terms(
            *(torch.from_numpy(x[layer]) for x in (seg.q, seg.k, seg.r)), model.u.cpu(), model.v.cpu()
        )
    out = []
    for query in range(seg.pattern.shape[2]):
        K = seg.n_memory + query + 1
        parts = {name: split[name][head, query, :K].numpy() for name in "abcd"}
        keys = np.arange(seg.memory_start, seg.memory_start + K)
        out.append(Terms(**parts, keys=keys, weights=seg.pattern[layer, head, query, :K]))
    return out


# ---- reach through the layers ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reach:
    """How far back the attention reaches, measured on the attention maps with a weight threshold."""

    threshold: float
    direct: np.ndarray  # (N,) the largest query − key offset any head of layer n attends with ≥ threshold
    chained: np.ndarray  # (N,) the largest offset from a position to the earliest input it reaches after layer n
    bound_direct: int  # M + L − 1
    bound_chained: np.ndarray  # (N,) (n + 1)·M + L − 1
    earliest: np.ndarray  # (N, T) the earliest input position each position reaches after layer n


@st.cache_data(show_spinner=False, max_entries=64)
def reach(text: str, backend: str, threshold: float) -> Reach:
    """Follow the attention edges of weight ≥ ``threshold`` (any head) through the layers and the memory; a
    position also keeps what it reached before (the residual stream)."""
    a = analyse(text, backend)
    s = shape()
    T = len(a.ids)
    earliest = np.arange(T)  # before layer 0: each position is itself
    direct = np.zeros(s.n_layers, dtype=int)
    chained = np.zeros(s.n_layers, dtype=int)
    rows = []
    for n in range(s.n_layers):
        after = np.empty(T, dtype=int)
        for seg in a.segments:
            seen = seg.pattern[n].max(0) >= threshold  # (T_seg, S) any head
            Tq = seen.shape[0]
            keys = np.arange(seg.memory_start, seg.memory_start + seen.shape[1])
            for i in range(Tq):
                p = seg.start + i
                hit = keys[seen[i]]
                if hit.size:
                    direct[n] = max(direct[n], p - hit.min())
                after[p] = min(earliest[p], earliest[hit].min(initial=p))  # the residual stream keeps p's own
        earliest = after
        chained[n] = int((np.arange(T) - earliest).max())
        rows.append(earliest.copy())
    bound = (np.arange(s.n_layers) + 1) * s.memory + s.segment - 1
    return Reach(threshold, direct, chained, s.memory + s.segment - 1, bound, np.stack(rows))


def card() -> dict:
    """The checkpoint's card ({} without one): metrics (the evaluation speed, the memory sweep), data, steps."""
    return MODEL.card  # a fresh plain dict from card.json, as the figures and downloads take it


# ---- knock-outs on held-out text, torch only: a head, attention, MLP, or the memory of one block or all --------------

KO_WINDOWS = 16  # held-out windows, each KO_SEGMENTS segments of L run with the memory carried
KO_SEGMENTS = 4
MEMORY_PARTS = ("memory", "memory_all")  # one block's memory cut (it attends to its own segment only), every block's
PARTS = KNOCK_PARTS + MEMORY_PARTS


@needs_corpus
@st.cache_data(show_spinner=False, max_entries=1)
def _held_out() -> tuple[np.ndarray, float, np.ndarray]:
    """Windows of the held-out plays, the characters per token, and their plain loss by segment (KO_SEGMENTS,)."""
    MODEL.require()
    windows, chars = metrics.held_out_windows(MODEL.tokenizer, KO_SEGMENTS * shape().segment, KO_WINDOWS)
    return windows, chars, _segment_losses(windows)


@torch.inference_mode()
def _segment_losses(windows: np.ndarray) -> np.ndarray:
    """Mean loss (nats) of each segment over the windows, run segment after segment with the memory carried."""
    import torch.nn.functional as F

    model, L = MODEL.model, shape().segment
    x = torch.from_numpy(windows).to(model.embed.weight.device)
    memory, out = model.empty_memory(len(windows)), []
    for start in range(0, x.shape[1] - 1, L):
        logits, memory = model(x[:, start : start + L], memory)
        out.append(F.cross_entropy(logits.transpose(1, 2), x[:, start + 1 : start + L + 1]).item())
    return np.array(out)


def _override(layer: int, part: str, mode: str, head: int) -> dict:
    from models import interventions

    if part == "memory":
        return {f"blocks.{layer}.attn.scores": transformer_xl.without_memory}
    if part == "memory_all":
        return {"blocks.*.attn.scores": transformer_xl.without_memory}
    return interventions.knock_out(layer, part, mode, head)


@computing
@st.cache_data(show_spinner=False, max_entries=64)
def knock_out(layer: int, part: str, mode: str, head: int = 0) -> HeldOut:
    """The held-out loss by segment with ``part`` of block ``layer`` knocked out (one head, the attention, the MLP,
    replaced by ``mode``: zeros or at each position its mean over the segment's positions up to there) or its memory
    cut (``memory``; every block's: ``memory_all``). The override lives in this call's context only
    (``models.probe.intervene``)."""
    s = shape()
    if part not in PARTS or mode not in KNOCK_MODES:
        raise InputError("txl.error.knock_part")
    if not (0 <= layer < s.n_layers and 0 <= head < s.n_heads):
        raise InputError("txl.error.knock_index", layers=s.n_layers, heads=s.n_heads)
    windows, chars, before = _held_out()
    device = str(MODEL.model.embed.weight.device.type)
    overrides = _override(layer, part, mode, head)
    return held_out_change(lambda: _segment_losses(windows), overrides, before, chars, len(windows), device)
