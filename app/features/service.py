"""The feature microscope's bridge to ``models.sae``, for the model the learner picked: ours (``gpt``, read by the
dictionary ``gpt-sae``: 4,096 TopK features on its stream after block 1) or SmolLM2-135M (``smollm2-sae``: 4,608
features after block 14 of 30). A learner's text read by the dictionary; a feature's card from the dictionary's
shipped index (how often it fires on held-out plays, its strongest contexts, its histogram) and from its decoder
direction (the tokens it promotes and suppresses through the unembedding); the next token with a feature switched off
or scaled inside the spliced model (``SAE.splice`` with the reconstruction error kept, so only the edit changes the
stream); and steering (``models.steering``): a prompt continued plainly and with a feature's decoder direction, or the
difference of two prompt lists' means, added to the stream at every position. Every function takes the model's name
first and is cached per model."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

from app.shared import services
from app.shared.i18n import InputError
from models import metrics, sae, zoo
from models.probe import intervene, trace

DICTIONARIES = {"gpt": "gpt-sae", "smollm2-135m": "smollm2-sae"}  # a model the page offers -> the dictionary it reads
MODELS = tuple(DICTIONARIES)  # ours first: the page's default
OWN, REAL = MODELS[:1], MODELS[1:]  # the picker's own checkpoints, and the real ones it may offer (when here)
MAX_CHARS = 400
MAX_TOKENS = 96
SHOWN = 6  # features listed per token
DENSE = 0.05  # a feature firing on more than this share of held-out tokens is dense: listed apart
CONTEXT = 10  # tokens shown each side of a top activation
EFFECT = 10  # tokens listed as promoted and as suppressed


def model(name: str) -> services.Checkpoint:
    """The handle of a model the page offers (ours or SmolLM2); any other name is refused."""
    if name not in DICTIONARIES:
        raise InputError("features.error.model", name=name)
    return services.checkpoint(name)


def dictionary(name: str) -> services.Checkpoint:
    """The handle of the dictionary trained on model ``name``'s stream."""
    model(name)  # refuses a model the page does not offer
    return services.checkpoint(DICTIONARIES[name])


def available(name: str) -> bool:
    return dictionary(name).available and model(name).available


def missing(name: str) -> InputError:
    d = dictionary(name)
    return (d if not d.available else model(name)).missing()


@st.cache_resource(show_spinner=False)
def _dictionary(name: str) -> sae.SAE:
    return zoo.load(DICTIONARIES[name]).eval()


@st.cache_resource(show_spinner=False)
def _index(name: str) -> dict[str, np.ndarray]:
    """The shipped index (models.sae.feature_index on the held-out plays), as numpy arrays."""
    from safetensors.numpy import load_file

    return load_file(str(dictionary(name).folder / "index.safetensors"))


def _piece(name: str, i: int) -> str:
    return model(name).tokenizer.decode([int(i)])


def _check(name: str, i: int) -> None:
    n = facts(name).n_features
    if not 0 <= i < n:
        raise InputError("features.error.index", max=n - 1)


@dataclass(frozen=True)
class Facts:
    n_features: int
    k: int
    hook: str
    layer: int  # the block whose output it reads
    n_layers: int
    tokens: int  # held-out tokens the index read
    metrics: dict
    dead: int  # features that fired on none of them
    real: bool  # the model is a real pretrained one (SmolLM2), not ours
    title: str  # its title ("SmolLM2-135M-Instruct"; ours: "gpt")
    norm: str  # its final norm: "LayerNorm" (ours) or "RMSNorm" (a LLaMA)
    passthrough: float  # states longer than this pass the dictionary unread (0: none)


@st.cache_data(show_spinner=False)
def facts(name: str) -> Facts:
    d, lm = dictionary(name), model(name)
    c, card, index = d.config, d.card, _index(name)
    return Facts(
        c["n_features"],
        c["k"],
        c["hook"],
        int(c["hook"].split(".")[1]),
        lm.config["n_layers"],
        len(index["tokens"]),
        dict(card.get("metrics", {})),
        int((index["fired"] == 0).sum()),
        lm.real,
        str(lm.card.get("title", name)),
        "LayerNorm" if hasattr(lm.model, "ln_f") else "RMSNorm",  # as sae.logit_weights reads it
        float(c.get("passthrough_norm", 0.0)),
    )


@dataclass(frozen=True)
class Reading:
    """The text's tokens and, for each, the features that fire on it, strongest first."""

    pieces: tuple[str, ...]  # (T,) the text's tokens (the <|endoftext|> the model reads first left out)
    features: np.ndarray  # (T, SHOWN) the strongest features that are not dense, −1 where fewer fire
    values: np.ndarray  # (T, SHOWN) their activations
    active: np.ndarray  # (T,) how many fire (k by construction, fewer where pre-activations are ≤ 0)
    dense: tuple[int, ...]  # the dense features (firing on more than DENSE of held-out tokens) that fire on the text


def _encode(name: str, text: str) -> np.ndarray:
    """<|endoftext|> (id 0 in both tokenizers), then the text's ids: as the dictionary's documents were read, so the
    text's first token is not the first the model sees (SmolLM2's first token carries a massive activation that the
    dictionary passes through unread)."""
    if not text.strip():
        raise InputError("features.error.empty")
    if len(text) > MAX_CHARS:
        raise InputError("features.error.long", chars=MAX_CHARS)
    ids = metrics.encode_document(model(name).tokenizer, text)
    if len(ids) - 1 > MAX_TOKENS:
        raise InputError("features.error.tokens", n=len(ids) - 1, max=MAX_TOKENS)
    return ids


def _z(name: str, ids: np.ndarray) -> torch.Tensor:
    d = _dictionary(name)
    x = sae.activations(model(name).model, torch.as_tensor(ids)[None], d.config.hook)
    with torch.inference_mode():
        return d.encode(x)[0]  # (T, n)


@st.cache_data(show_spinner=False, max_entries=64)
def read(name: str, text: str) -> Reading:
    ids = _encode(name, text)
    z = _z(name, ids)[1:]  # the text's tokens
    index = _index(name)
    dense = torch.as_tensor(index["fired"] / len(index["tokens"]) > DENSE)  # (n,)
    values, features = z.masked_fill(dense, 0).topk(SHOWN, dim=-1)
    features = torch.where(values > 0, features, -1)
    return Reading(
        tuple(_piece(name, i) for i in ids[1:]),
        features.numpy(),
        values.numpy(),
        (z > 0).sum(-1).numpy(),
        tuple(int(i) for i in torch.nonzero(((z > 0) & dense).any(0)).flatten()),
    )


@dataclass(frozen=True)
class Feature:
    """One feature: how often it fires on held-out text, its strongest contexts there, and its decoder direction read
    through the unembedding."""

    index: int
    fired: int  # held-out tokens it fired on
    frequency: float  # fired / tokens read
    contexts: tuple[tuple[tuple[str, ...], int, float], ...]  # (pieces, where the strongest token is, activation)
    promoted: tuple[tuple[str, float], ...]  # (token, logit weight), largest first
    suppressed: tuple[tuple[str, float], ...]  # smallest first
    label: str  # the token it fires on in most of its strongest contexts ("" when it never fired)
    label_count: int  # in how many of them


@st.cache_data(show_spinner=False, max_entries=256)
def feature(name: str, i: int) -> Feature:
    _check(name, i)
    index = _index(name)
    tokens, starts = index["tokens"], index["doc_starts"]
    contexts = []
    for pos, act in zip(index["top_position"][i], index["top_activation"][i]):
        if pos < 0:
            continue
        doc = int(np.searchsorted(starts, pos, side="right") - 1)
        end = int(starts[doc + 1]) if doc + 1 < len(starts) else len(tokens)
        lo, hi = max(int(starts[doc]), int(pos) - CONTEXT), min(end, int(pos) + CONTEXT + 1)
        contexts.append((tuple(_piece(name, t) for t in tokens[lo:hi]), int(pos) - lo, float(act)))
    d = _dictionary(name)
    with torch.inference_mode():  # in the stream's own units, through the final norm's gain and the output matrix
        weight = sae.logit_weights(model(name).model, d.direction(i) / d.config.scale).numpy()
    order = np.argsort(-weight, kind="stable")
    firing = [pieces[at] for pieces, at, _ in contexts]
    label = max(firing, key=firing.count) if firing else ""  # ties: the strongest context's
    return Feature(
        i,
        int(index["fired"][i]),
        float(index["fired"][i]) / len(tokens),
        tuple(contexts),
        tuple((_piece(name, t), float(weight[t])) for t in order[:EFFECT]),
        tuple((_piece(name, t), float(weight[t])) for t in order[::-1][:EFFECT]),
        label,
        firing.count(label),
    )


@dataclass(frozen=True)
class Edited:
    """The next token after the text, with the feature's activation multiplied by ``scale`` at every position."""

    pieces: tuple[str, ...]  # the likeliest next tokens of the clean model
    clean: np.ndarray  # their probabilities
    edited: np.ndarray  # their probabilities with the edit
    activation: float  # the feature's activation at the last token
    max_change: float  # the largest change in any token's probability


@st.cache_data(show_spinner=False, max_entries=64)
def edit(name: str, text: str, i: int, scale: float) -> Edited:
    """Feature ``i`` scaled by ``scale`` (0: off) in z before decoding, the reconstruction error of the unedited z
    kept: with scale 1 the model is exactly the clean one."""
    ids = _encode(name, text)
    _check(name, i)
    d, lm = _dictionary(name), model(name).model

    def scaled(z: torch.Tensor) -> torch.Tensor:
        z = z.clone()
        z[..., i] *= scale
        return z

    tokens = torch.as_tensor(ids)[None]
    with torch.inference_mode():
        with trace(d.config.hook) as stream:  # the clean run's stream: the feature's activation, no second run
            clean = torch.softmax(lm(tokens)[0, -1], -1)
        activation = float(d.encode(stream[d.config.hook])[0, -1, i])
        with intervene(d.splice(scaled, keep_error=True)):
            edited = torch.softmax(lm(tokens)[0, -1], -1)
    top = torch.argsort(-clean, stable=True)[:10].numpy()
    return Edited(
        tuple(_piece(name, t) for t in top),
        clean[top].numpy(),
        edited[top].numpy(),
        activation,
        float((edited - clean).abs().max()),
    )


def card(name: str) -> dict:
    return dictionary(name).card


# ---- steering: a vector added to the stream while the model writes (models/steering.py) -----------------------------

STEER_MAX_CHARS = 300  # the prompt
STEER_LIST_CHARS = 600  # each list of prompts
STEER_LIST_MAX = 8  # prompts per list
STEER_MAX_TOKENS = {"gpt": 96, "smollm2-135m": 48}  # tokens a prompt (and each listed prompt) may have
STEER_MAX_NEW = {"gpt": 48, "smollm2-135m": 24}  # new tokens per run (two runs: plain and steered)
ALPHA_MAX = 2.0  # |α|, in units of the stream's typical length
SOURCES = ("feature", "prompts")  # an SAE feature's decoder direction, or the difference of two lists' means


def steer_layers(name: str) -> int:
    return int(model(name).config["n_layers"])


def steer_default_layer(name: str) -> int:
    """For two prompt lists' direction: ours, the dictionary's layer; a real model, about a fifth of the way up
    (SmolLM2: block 6 of 30)."""
    return steer_layers(name) // 5 if model(name).real else facts(name).layer


def _steer_ids(ck: services.Checkpoint, text: str, name: str) -> list[int]:
    ids = ck.encode(text).tolist()
    if len(ids) > STEER_MAX_TOKENS[name]:
        raise InputError("features.error.steer_tokens", n=len(ids), max=STEER_MAX_TOKENS[name])
    return ids


def prompt_list(text: str) -> list[str]:
    """One prompt per line, blank lines left out."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def _steer_list(ck: services.Checkpoint, text: str, which: str, name: str) -> list[list[int]]:
    if len(text) > STEER_LIST_CHARS:
        raise InputError("features.error.steer_list_long", which=which, chars=STEER_LIST_CHARS)
    lines = prompt_list(text)
    if not lines:
        raise InputError("features.error.steer_list_empty", which=which)
    if len(lines) > STEER_LIST_MAX:
        raise InputError("features.error.steer_list_many", which=which, max=STEER_LIST_MAX)
    return [_steer_ids(ck, line, name) for line in lines]


@dataclass(frozen=True)
class Steered:
    """A prompt continued plainly and with α × ν × u added to the stream after block ``layer`` at every position."""

    plain: str  # the plain continuation
    steered: str  # the steered one
    same: bool  # the same ids (α = 0 always)
    norm: float  # ν: the median length of the stream there over the prompt's tokens, the unit of α
    alpha: float
    layer: int
    kl: float  # KL(plain ‖ steered) of the first new token's distribution, nats
    top_plain: str  # the first new token, plain
    top_steered: str  # and steered
    rises: tuple[tuple[str, float, float], ...]  # (token, p plain, p steered): the largest rises of probability
    falls: tuple[tuple[str, float, float], ...]  # the largest falls
    max_logit_change: float  # the largest |Δ logit| of any token at that step


def steer(
    name: str,
    prompt: str,
    n: int,
    alpha: float,
    source: str,
    feature: int = 0,
    positive: str = "",
    negative: str = "",
    layer: int | None = None,
) -> Steered:
    """``_steer``, with one run kept for every feature at α = 0: there the feature's direction is added times zero,
    so the two continuations do not depend on which feature is open (a token picked in section 1 then reruns no
    generation). Its number is still checked."""
    if source == "feature" and alpha == 0:
        _check(name, feature)
        feature = 0
    return _steer(name, prompt, n, alpha, source, feature, positive, negative, layer)


@st.cache_data(show_spinner=False, max_entries=32)
def _steer(
    name: str,
    prompt: str,
    n: int,
    alpha: float,
    source: str,
    feature: int = 0,
    positive: str = "",
    negative: str = "",
    layer: int | None = None,
) -> Steered:
    """Greedy continuations of ``prompt`` by checkpoint ``name``, plain and steered by ``source``: ``"feature"``
    (feature ``feature`` of the dictionary, at its layer) or ``"prompts"`` (the unit difference of the mean stream
    after block ``layer`` at the last token of the ``positive`` and the ``negative`` prompts, one per line)."""
    from models import steering

    ck = model(name)
    ck.require()
    if source not in SOURCES:
        raise InputError("features.error.steer_source")
    if not prompt.strip():
        raise InputError("features.error.steer_prompt_empty")
    if len(prompt) > STEER_MAX_CHARS:
        raise InputError("features.error.steer_prompt_long", chars=STEER_MAX_CHARS)
    if not 1 <= n <= STEER_MAX_NEW[name]:
        raise InputError("features.error.steer_n", max=STEER_MAX_NEW[name])
    if not abs(alpha) <= ALPHA_MAX:
        raise InputError("features.error.steer_alpha", max=ALPHA_MAX)
    ids = _steer_ids(ck, prompt, name)
    lm = ck.model
    if source == "feature":
        _check(name, feature)
        layer = facts(name).layer
        direction = steering.feature_direction(_dictionary(name), feature)
    else:
        layer = steer_default_layer(name) if layer is None else int(layer)
        if not 0 <= layer < steer_layers(name):
            raise InputError("features.error.steer_layer", max=steer_layers(name) - 1)
        a = _steer_list(ck, positive, "A", name)
        b = _steer_list(ck, negative, "B", name)
        try:
            direction = steering.difference_of_means(lm, a, b, layer)
        except ValueError:
            raise InputError("features.error.steer_same") from None
    s = steering.generate(lm, ids, n, layer, direction, float(alpha))
    ends = set(ck.stops)  # a real model's end of turn or text; ours writes on

    def text(new: tuple[int, ...]) -> str:
        cut = next((j for j, i in enumerate(new) if i in ends), len(new))  # a real model's end of turn ends it
        return ck.tokenizer.decode(list(new[:cut]), skip_special_tokens=not ck.real)

    piece = lambda i: ck.tokenizer.decode([int(i)])  # noqa: E731
    sh = s.shift
    return Steered(
        text(s.plain),
        text(s.steered),
        s.plain == s.steered,
        s.norm,
        s.alpha,
        layer,
        sh.kl,
        piece(s.plain[0]),
        piece(s.steered[0]),
        tuple((piece(i), p, q) for i, p, q in sh.promoted),
        tuple((piece(i), p, q) for i, p, q in sh.suppressed),
        float(np.abs(sh.logit_change).max()),
    )


# ---- a feature's activations over the held-out plays: the histogram ------------------------------------------------


@dataclass(frozen=True)
class Histogram:
    """How strongly a feature fires where it fires on the held-out plays, as the index counted it when the dictionary
    was trained (``models.sae.feature_index``): ``counts[j]`` tokens with an activation in [edges[j], edges[j + 1])
    (the last bar closed)."""

    index: int
    edges: np.ndarray  # (bars + 1,) from 0 to its largest activation
    counts: np.ndarray  # (bars,) int64; sums to fired
    fired: int  # tokens it fires on
    tokens: int  # held-out tokens read
    frequency: float  # fired / tokens
    median: tuple[float, float]  # the bar that holds its median activation where it fires ((0, 0) when it never does)


@st.cache_data(show_spinner=False, max_entries=256)
def histogram(name: str, i: int) -> Histogram:
    _check(name, i)
    index = _index(name)
    counts = index["histogram"][i].astype(np.int64)
    top = float(index["top_activation"][i][0])
    edges = np.linspace(0.0, top if top > 0 else 1.0, len(counts) + 1)
    fired, tokens = int(counts.sum()), len(index["tokens"])
    bar = int(np.searchsorted(np.cumsum(counts), fired / 2)) if fired else None
    return Histogram(
        i,
        edges,
        counts,
        fired,
        tokens,
        fired / tokens,
        (float(edges[bar]), float(edges[bar + 1])) if bar is not None else (0.0, 0.0),
    )


# ---- the price of interpretability: the card's sweep ----------------------------------------------------------------


@dataclass(frozen=True)
class Sweep:
    """The card's sweep over dictionary size and k (each run trained briefly on the same stream), and the shipped
    dictionary's own numbers."""

    sizes: tuple[int, ...]  # dictionary sizes, one line each
    k: tuple[tuple[int, ...], ...]  # per size: the k of its runs, increasing
    l0: tuple[tuple[float, ...], ...]  # per size: measured L0
    fve: tuple[tuple[float, ...], ...]  # per size: fraction of variance explained
    delta: tuple[tuple[float, ...], ...]  # per size: Δ nats with the reconstruction in place of the stream
    dead: tuple[tuple[float, ...], ...]  # per size: share of features that never fired
    steps: int  # each sweep run's training steps
    tokens: int  # held-out tokens the sweep measured on
    shipped: tuple[int, int, float, float, float]  # (size, k, l0, fve, Δ nats) of the shipped dictionary
    shipped_steps: int


@st.cache_data(show_spinner=False)
def sweep(name: str) -> Sweep | None:
    """The sweep from the dictionary's card; None when its card has none."""
    c = card(name)
    runs = c.get("sweep", {}).get("runs", [])
    if not runs:
        return None
    sizes = tuple(sorted({int(r["n_features"]) for r in runs}))
    by = [sorted((r for r in runs if int(r["n_features"]) == s), key=lambda r: int(r["k"])) for s in sizes]
    field = lambda name, kind=float: tuple(tuple(kind(r[name]) for r in rows) for rows in by)  # noqa: E731
    m, cfg = c.get("metrics", {}), dictionary(name).config
    return Sweep(
        sizes,
        field("k", int),
        field("l0"),
        field("fve"),
        field("delta_nats"),
        tuple(tuple(float(r.get("dead_share", 0.0)) for r in rows) for rows in by),
        int(c["sweep"].get("steps", c.get("settings", {}).get("sweep_steps", 0))),
        int(c["sweep"].get("held_out_tokens", 0)),
        (int(cfg["n_features"]), int(cfg["k"]), float(m["l0"]), float(m["fve"]), float(m["delta_nats"])),
        int(c.get("settings", {}).get("steps", 0)),
    )


# ---- the exercise: a feature that fires on characters' names ------------------------------------------------------

SPEAKER_SHARE = 0.75  # of a feature's strongest held-out contexts, the share that must be on a speaker's name
SPEAKER_MIN = 4  # contexts a feature needs to be judged at all
_SPEAKER_LINE = re.compile(r"[A-Z][A-Z' .\-]*\.")  # "BRUTUS.", "LADY MACBETH.", "SIR TOBY."


def speaker_line(line: str) -> bool:
    """A line that names who speaks in the plays' text: upper-case letters (with spaces, apostrophes, hyphens and
    full stops) ending in a full stop, alone on its line; "ACT I." is a heading, not a speaker."""
    s = line.strip()
    return bool(_SPEAKER_LINE.fullmatch(s)) and not s.startswith("ACT ")


@st.cache_resource(show_spinner=False)
def _on_names(name: str) -> np.ndarray:
    """(N,) bool over the index's held-out tokens: the token has a letter and lies in a speaker's line."""
    index = _index(name)
    vocab = {int(t): _piece(name, int(t)) for t in np.unique(index["tokens"])}
    pieces = [vocab[int(t)] for t in index["tokens"]]
    out = np.zeros(len(pieces), dtype=bool)
    line: list[int] = []  # the tokens of the current line
    text = ""

    def close() -> None:
        if speaker_line(text):
            for j in line:
                out[j] = any(ch.isalpha() for ch in pieces[j])

    for j, p in enumerate(pieces):  # a token holding a newline closes the line before its newline
        while "\n" in p:
            head, p = p.split("\n", 1)
            text += head
            line.append(j)
            close()
            line, text = [], ""
        if p:
            line.append(j)
            text += p
    close()
    return out


@dataclass(frozen=True)
class OnNames:
    index: int
    on_names: int  # of its strongest held-out contexts, those whose firing token is on a speaker's name
    shown: int  # its strongest held-out contexts (up to the index's top)
    ok: bool  # on_names ≥ SPEAKER_SHARE × shown and shown ≥ SPEAKER_MIN


@st.cache_resource(show_spinner=False)
def _name_hits(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per feature: (its strongest held-out contexts whose firing token is on a speaker's name, its contexts shown,
    whether it passes: enough contexts, and SPEAKER_SHARE of them on names)."""
    top = _index(name)["top_position"]
    hits = np.where(top >= 0, _on_names(name)[np.maximum(top, 0)], False).sum(1)
    shown = (top >= 0).sum(1)
    return hits, shown, (shown >= SPEAKER_MIN) & (hits >= SPEAKER_SHARE * shown)


def on_names(name: str, i: int) -> OnNames:
    _check(name, i)
    hits, shown, ok = _name_hits(name)
    return OnNames(i, int(hits[i]), int(shown[i]), bool(ok[i]))


@st.cache_data(show_spinner=False)
def name_features(name: str) -> tuple[int, ...]:
    """Every feature that passes ``on_names``, the most often firing first."""
    ok = np.nonzero(_name_hits(name)[2])[0]
    fired = _index(name)["fired"]
    return tuple(int(i) for i in sorted(ok, key=lambda i: (-int(fired[i]), int(i))))
