"""The BERT page's bridge to ``models.bert``: tokenise a sentence or a pair, fill in masked positions, read the NSP
head, build a training example with the paper's masking recipe, and collect the three embeddings and the attention.

Every function takes the checkpoint's name first: ours (``bert``) or a real one converted into our class
(``bert-base-uncased``); the special ids ([PAD] [UNK] [CLS] [SEP] [MASK]) come from the checkpoint's own
tokenizer.json. Every model call goes through the checkpoint's handle, ``checkpoint(name).run`` (torch or ONNX
Runtime).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import streamlit as st

from app.shared import assets
from app.shared import interventions as ko
from app.shared.i18n import InputError
from app.shared.numbers import softmax
from app.shared.services import checkpoint, stack_layers
from models.data import masking
from models.layers import causal_mask

NAME = "bert"  # ours, the page's default
MODEL = checkpoint(NAME)
MAX_CHARS = 200  # per sentence box
# A real BERT reads up to 512 tokens; here at most this many, so that its 12 × 12 attention maps stay readable.
REAL_MAX_TOKENS = 64
PROBES = ("token_embedding", "segment_embedding", "position_embedding", "blocks.*.attn.pattern")
_DEFAULTS = assets.data("examples/bert.json")
DEFAULT_A: str = _DEFAULTS["a"]  # the sentence boxes' defaults
DEFAULT_B: str = _DEFAULTS["b"]
DEFAULT_MASKS: tuple[int, ...] = tuple(_DEFAULTS["masks"])  # positions masked at first: the second "be" of A
EXAMPLES: tuple[str, ...] = tuple(_DEFAULTS["examples"])  # sentences A for the examples picker
# The guided experiment: one word after the mask differs (thou / you), and with it the verb forms the model guesses.
# Chosen by running the shipped model; tests/app/test_bert.py checks that they still hold.
TRY: dict = _DEFAULTS["try"]
# Next-sentence examples from held-out plays, each a pair (A, B) that really follows (is_next) or whose B comes from
# another play; chosen by running the shipped model, checked by tests/app/test_bert.py.
NSP_PAIRS: dict[str, dict] = _DEFAULTS["nsp"]


def real(name: str) -> bool:
    """A real pretrained checkpoint (not one we trained)."""
    return checkpoint(name).real


def backend(name: str, wanted: str) -> str:
    """The backend to run ``name`` on: the reader's; a real checkpoint has no ONNX graph, so it runs on torch (the
    readout says so)."""
    return checkpoint(name).backend(wanted) if real(name) else wanted


def tokenizer(name: str):
    """The checkpoint's tokenizer.json (shared; never mutate it)."""
    return checkpoint(name).tokenizer


@dataclass(frozen=True)
class Specials:
    """The special ids of a checkpoint's vocabulary, read from its tokenizer (ours: 0-4; bert-base-uncased:
    [PAD] 0, [UNK] 100, [CLS] 101, [SEP] 102, [MASK] 103)."""

    pad: int
    unk: int
    cls: int
    sep: int
    mask: int

    @property
    def framing(self) -> tuple[int, int, int]:
        """What a user cannot mask: [PAD], [CLS], [SEP]."""
        return (self.pad, self.cls, self.sep)


@st.cache_resource(show_spinner=False)
def specials(name: str) -> Specials:
    tok = tokenizer(name)
    ids = {s: tok.token_to_id(f"[{s.upper()}]") for s in ("pad", "unk", "cls", "sep", "mask")}
    missing = [s for s, i in ids.items() if i is None]
    if missing:
        raise InputError("bert.error.specials", name=name, tokens=", ".join(f"[{s.upper()}]" for s in missing))
    return Specials(**ids)


@st.cache_resource(show_spinner=False)
def vocabulary(name: str) -> tuple[str, ...]:
    """The piece of every id the model can output (an id past the tokenizer's end reads as ``[id]``)."""
    tok = tokenizer(name)
    n = max(int(checkpoint(name).config.get("vocab", 0)), tok.get_vocab_size())
    return tuple(tok.id_to_token(i) or f"[{i}]" for i in range(n))


def max_len(name: str) -> int:
    """The most tokens the page gives the model: its positions, and on a real model ``REAL_MAX_TOKENS``."""
    n = int(checkpoint(name).config["max_len"])
    return min(n, REAL_MAX_TOKENS) if real(name) else n


@dataclass(frozen=True)
class Tokens:
    """``[CLS] A [SEP]`` or ``[CLS] A [SEP] B [SEP]`` as the model reads it."""

    ids: tuple[int, ...]
    segments: tuple[int, ...]
    pieces: tuple[str, ...]
    has_b: bool
    specials: Specials

    @property
    def maskable(self) -> tuple[int, ...]:
        """Positions a user may mask: every word piece, not [CLS]/[SEP] and not an already written [MASK]."""
        s = self.specials
        return tuple(i for i, t in enumerate(self.ids) if t not in (*s.framing, s.mask))


def _encode(name: str, text: str, which: str) -> list[int]:
    if len(text) > MAX_CHARS:
        raise InputError("bert.error.too_long_chars", which=which, n=len(text), max=MAX_CHARS)
    ids = tokenizer(name).encode(text, add_special_tokens=False).ids  # a real tokenizer.json adds [CLS]/[SEP]
    if text.strip() and not ids:
        raise InputError("bert.error.nothing_left", which=which)
    if ids and all(i == specials(name).unk for i in ids):
        raise InputError("bert.error.unknown" if not real(name) else "bert.error.unknown_real", which=which)
    return ids


def _pair(s: Specials, a: list[int], b: list[int] | None) -> tuple[list[int], list[int]]:
    """(ids, segments) of ``[CLS] a [SEP]`` or ``[CLS] a [SEP] b [SEP]`` with the checkpoint's special ids."""
    ids = [s.cls, *a, s.sep]
    segments = [0] * len(ids)
    if b is not None:
        ids += [*b, s.sep]
        segments += [1] * (len(b) + 1)
    return ids, segments


@st.cache_data(show_spinner=False, max_entries=64)
def tokenize(name: str, a: str, b: str = "") -> Tokens:
    """The pair as ids and segments; ``InputError`` for empty, too long or unreadable input."""
    if not a or not a.strip():
        raise InputError("bert.error.empty")
    checkpoint(name).require()
    ids_a = _encode(name, a, "A")
    ids_b = _encode(name, b, "B") if b and b.strip() else None
    ids, segments = _pair(specials(name), ids_a, ids_b)
    limit = max_len(name)
    if len(ids) > limit:
        key = "bert.error.real_tokens" if real(name) else "bert.error.too_long_tokens"
        raise InputError(key, n=len(ids), max=limit)
    vocab = vocabulary(name)
    return Tokens(
        ids=tuple(ids),
        segments=tuple(segments),
        pieces=tuple(vocab[i] for i in ids),
        has_b=ids_b is not None,
        specials=specials(name),
    )


@dataclass(frozen=True)
class Analysis:
    """One forward pass with some positions replaced by [MASK]. Shapes: M masked positions, K shown predictions,
    L layers, H heads, T tokens, C width."""

    tokens: Tokens  # what the user typed
    inputs: tuple[int, ...]  # what the model read ([MASK] at the masked positions)
    masked: tuple[int, ...]  # (M,) positions
    top_ids: np.ndarray  # (M, K)
    top_probs: np.ndarray  # (M, K)
    original_prob: np.ndarray  # (M,) probability given to the token that was there ([MASK] typed: NaN)
    is_next: float  # NSP probability that B follows A
    patterns: np.ndarray  # (L, H, T, T)
    token_emb: np.ndarray  # (T, C)
    segment_emb: np.ndarray  # (T, C)
    position_emb: np.ndarray  # (T, C)
    backend: str
    device: str
    ms: float

    @property
    def later_attention(self) -> float:
        """Share of the attention (all layers and heads, mean over queries) that goes to keys after the query:
        what a decoder's causal mask forbids."""
        T = self.patterns.shape[-1]
        return float((self.patterns * np.triu(np.ones((T, T)), 1)).sum(-1).mean())


@st.cache_data(show_spinner=False, max_entries=64)
def analyse(name: str, a: str, b: str, masks: tuple[int, ...], k: int = 5, backend: str = "torch") -> Analysis:
    """Mask ``masks`` (positions in the pair) and the written [MASK] tokens; predict each of them."""
    tokens = tokenize(name, a, b)
    mask_id = tokens.specials.mask
    if not 1 <= k <= 20:
        raise InputError("bert.error.k", max=20)
    bad = [m for m in masks if m not in tokens.maskable]
    if bad:
        raise InputError("bert.error.position", pos=bad[0])
    inputs = np.array(tokens.ids, dtype=np.int64)
    inputs[list(masks)] = mask_id
    masked = tuple(int(i) for i in np.flatnonzero(inputs == mask_id))
    if masked and len(masked) == len(inputs) - (3 if tokens.has_b else 2):
        raise InputError("bert.error.all_masked")
    segments = np.array([tokens.segments], dtype=np.int64)
    res = checkpoint(name).run({"tokens": inputs[None], "segments": segments}, PROBES, backend)
    probs = softmax(res.outputs["mlm_logits"][0])  # (T, V)
    order = np.argsort(-probs[list(masked)], axis=-1, kind="stable")[:, :k] if masked else np.zeros((0, k), int)
    top = np.take_along_axis(probs[list(masked)], order, -1) if masked else np.zeros((0, k))
    original = np.array([probs[m, tokens.ids[m]] if tokens.ids[m] != mask_id else np.nan for m in masked])
    patterns = stack_layers(res.probes, "blocks.{}.attn.pattern")
    return Analysis(
        tokens=tokens,
        inputs=tuple(int(i) for i in inputs),
        masked=masked,
        top_ids=order,
        top_probs=top,
        original_prob=original,
        is_next=float(softmax(res.outputs["nsp_logits"][0])[0]),
        patterns=patterns,
        token_emb=res.probes["token_embedding"][0],
        segment_emb=res.probes["segment_embedding"][0],
        position_emb=res.probes["position_embedding"],
        backend=res.backend,
        device=res.device,
        ms=res.ms,
    )


@st.cache_data(show_spinner=False, max_entries=64)
def is_next(name: str, a: str, b: str, backend: str = "torch") -> float:
    """P(IsNext) of the NSP head for ``[CLS] a [SEP] b [SEP]``, nothing masked."""
    tokens = tokenize(name, a, b)
    res = checkpoint(name).run({"tokens": np.array([tokens.ids]), "segments": np.array([tokens.segments])}, (), backend)
    return float(softmax(res.outputs["nsp_logits"][0])[0])


@dataclass(frozen=True)
class Example:
    """The input to one pre-training step, made from the user's text with the paper's recipe and a seed."""

    tokens: Tokens
    action: tuple[int, ...]  # per position: masking.NOT_CHOSEN, MASKED, RANDOM or KEPT
    inputs: tuple[int, ...]  # what the model reads
    labels: tuple[int, ...]  # what the loss compares with (masking.IGNORE where it looks away)

    def count(self, action: int) -> int:
        return sum(1 for x in self.action if x == action)

    @property
    def chosen(self) -> int:
        return sum(1 for x in self.action if x != masking.NOT_CHOSEN)


@st.cache_data(show_spinner=False, max_entries=64)
def training_example(name: str, a: str, b: str, seed: int) -> Example:
    tokens = tokenize(name, a, b)
    rng = np.random.default_rng(seed)
    s = tokens.specials
    ordinary = max(s.pad, s.unk, s.cls, s.sep, s.mask) + 1  # random replacements come from the ids after the specials
    inputs, labels, action = masking.mask_tokens(
        np.array(tokens.ids, dtype=np.int64),
        rng,
        len(vocabulary(name)),
        specials=s.framing,
        mask=s.mask,
        first_ordinary=ordinary,
    )
    return Example(
        tokens=tokens,
        action=tuple(int(x) for x in action),
        inputs=tuple(int(x) for x in inputs),
        labels=tuple(int(x) for x in labels),
    )


def decoder_mask(T: int) -> np.ndarray:
    """A decoder's causal mask (T, T) as 0/1: query i may look at keys 0..i only."""
    return causal_mask(T).numpy().astype(float)


def card(name: str = NAME) -> Mapping:
    """The checkpoint's card (read-only): metrics, params, wall time, hardware, settings."""
    return checkpoint(name).card


@st.cache_data(show_spinner=False)
def has_nsp(name: str) -> bool:
    """Whether the checkpoint has a next-sentence head (a converted ``BertForMaskedLM`` has zeros there)."""
    import torch

    nsp = checkpoint(name).model.nsp
    with torch.no_grad():
        return bool(nsp.weight.abs().sum() > 0 or nsp.bias.abs().sum() > 0)


@st.cache_data(show_spinner=False)
def facts(name: str) -> dict:
    """The model's sizes, norm placement and training, read from its config and card (the page's text and its
    paper-vs-here table state these, so they follow the checkpoint). A real checkpoint's card has no training or
    metrics of ours: ``real`` is then True and those fields are absent."""
    checkpoint(name).require()
    cfg, c = checkpoint(name).config, card(name)
    if c.get("real"):
        return {
            "real": True,
            "title": c.get("title", name),
            "layers": cfg["n_layers"],
            "dim": cfg["dim"],
            "heads": cfg["n_heads"],
            "vocab": cfg["vocab"],
            "max_len": cfg["max_len"],
            "norm": cfg.get("norm", "post"),
            "params": c.get("params", 0),
            "nsp": has_nsp(name),
            "read_len": max_len(name),
        }
    hp = c.get("settings", c.get("training", {}))  # the recipe's settings (older cards called them "training")
    return {
        "real": False,
        "nsp": True,
        "read_len": max_len(name),
        "layers": cfg["n_layers"],
        "dim": cfg["dim"],
        "heads": cfg["n_heads"],
        "vocab": cfg["vocab"],
        "max_len": cfg["max_len"],
        "norm": cfg.get("norm", "post"),  # models.bert.Config's default: post-LN, as the paper
        "params": c["params"],
        "minutes": c["wall_time_s"] / 60,
        "device": "gpu" if any(w in c.get("hardware", "") for w in ("NVIDIA", "GPU", "cuda")) else "cpu",
        "steps": hp.get("steps", 0),
        "batch": hp.get("batch", 0),
        "p_short": hp.get("p_short", float("nan")),
        **c["metrics"],
    }


# ---- knock-outs (models/interventions.py): torch only, the shared model never changed --------------------------------


@dataclass(frozen=True)
class KnockOut:
    """The masked words of one input, plain and with one part knocked out: the probability and the loss of the word
    that was there, at each masked position where a word was (a typed [MASK] has none)."""

    positions: tuple[int, ...]  # (M,) masked positions with a known word
    words: tuple[str, ...]  # (M,) that word
    p_before: np.ndarray  # (M,) its probability, plain
    p_after: np.ndarray  # (M,) knocked out
    top_after: tuple[int, ...]  # (M,) the most likely piece there, knocked out
    backend: str
    device: str
    ms: float  # the knocked-out run

    @property
    def loss_before(self) -> np.ndarray:
        return -np.log(self.p_before)

    @property
    def loss_after(self) -> np.ndarray:
        return -np.log(self.p_after)


@st.cache_data(show_spinner=False, max_entries=64)
def knock_out(
    name: str, a: str, b: str, masks: tuple[int, ...], layer: int, part: str, mode: str, head: int = 0
) -> KnockOut:
    """Mask ``masks`` as ``analyse`` does and run the model plainly and with ``part`` of block ``layer`` knocked out
    by ``mode`` (eager torch; the override lives in this call's context only, ``models.probe.intervene``)."""
    import torch

    from models import interventions
    from models.probe import intervene

    cfg = checkpoint(name).config
    ko.check(ko.BLOCKS, layer, part, mode, head, {ko.BLOCKS: cfg["n_layers"]}, cfg["n_heads"])
    tokens = tokenize(name, a, b)
    mask_id = tokens.specials.mask
    typed = {i for i, x in enumerate(tokens.ids) if x == mask_id}  # ``analyse``'s ``masked`` includes them
    bad = [m for m in masks if m not in tokens.maskable and m not in typed]
    if bad:
        raise InputError("bert.error.position", pos=bad[0])
    inputs = np.array(tokens.ids, dtype=np.int64)
    inputs[list(masks)] = mask_id
    known = [m for m in np.flatnonzero(inputs == mask_id) if tokens.ids[m] != mask_id]
    model = checkpoint(name).model
    device = next(model.parameters()).device
    x = torch.from_numpy(inputs[None]).to(device)
    s = torch.tensor([tokens.segments], device=device)

    def run() -> np.ndarray:
        with torch.inference_mode():
            return softmax(model(x, s)[0][0, known].double().cpu().numpy())  # (M, V)

    before = run()
    start = time.perf_counter()
    with intervene(interventions.knock_out(layer, part, mode, head, causal=False)):  # it reads both ways
        after = run()
    ms = (time.perf_counter() - start) * 1e3
    right = [tokens.ids[m] for m in known]
    rows = np.arange(len(known))
    return KnockOut(
        positions=tuple(int(m) for m in known),
        words=tuple(tokens.pieces[m] for m in known),
        p_before=before[rows, right],
        p_after=after[rows, right],
        top_after=tuple(int(i) for i in after.argmax(-1)),
        backend="torch",
        device=str(device.type),
        ms=ms,
    )
