"""The Mamba page's bridge to ``models.mamba``: task instances, one probe run per input, the Mamba-vs-LTI comparison,
the scan check (parallel vs sequential vs recurrent) and the live decoding-cost measurement."""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass

import numpy as np
import streamlit as st

from app.shared import assets, services
from app.shared.i18n import InputError
from app.shared.services import stack_layers
from models import mamba, metrics
from models.data import bpe, ssm_tasks

NAMES = {
    "copy": "mamba-selective-copy",
    "lti": "mamba-lti-selective-copy",
    "induction": "mamba-induction",
    "text": "mamba-lm",
}
MODELS = {source: services.checkpoint(name) for source, name in NAMES.items()}  # the handle of each source's model
GPT = services.checkpoint("gpt")  # the Transformer whose KV cache the decoding measurement sets against Mamba's state
SOURCES = ("copy", "induction", "text")
PROBES = (
    "layers.*.mixer.delta",
    "layers.*.mixer.A_bar",
    "layers.*.mixer.B",
    "layers.*.mixer.C",
    "layers.*.mixer.h_norm",
)
MAX_SEED = 9999
MAX_CHARS = 600
INDUCTION_LENGTHS = (64, 128, 256)  # the training length, 2× and 4×
DECODE_LENGTH = 256
COPY_LETTERS = "ABCDEFGH"
INDUCTION_LETTERS = "abcdefghijklmnop"
DEFAULT_TEXT = assets.lines("examples/mamba.txt")[0]  # the text box's default
TRY_SEEDS = 40  # instances 0 … TRY_SEEDS − 1 of selective copying back the guided experiment's numbers
PVH_ROWS = ("block", "tasks", "lm", "speed")  # the rows of "In the paper vs here"
PVH_DEPARTURES = ("small", "scan", "euler", "lti")


@dataclass(frozen=True)
class Analysis:
    """One forward pass with probes. L layers, l positions, d_in channels, n state size."""

    name: str
    labels: tuple[str, ...]  # what each position shows
    ids: np.ndarray  # (l,)
    delta: np.ndarray  # (L, l, d_in) Δ
    A_bar: np.ndarray  # (L, l, d_in) Ā = exp(ΔA), averaged over the n state entries of a channel
    A: np.ndarray  # (L, d_in, n) the learned A (negative)
    B: np.ndarray  # (L, l, n)
    C: np.ndarray  # (L, l, n)
    h_norm: np.ndarray  # (L, l) ‖h_t‖ over all d_in·n state numbers of a layer
    pred: np.ndarray  # (l,) argmax of the output at each position
    targets: np.ndarray  # (l,)
    mask: np.ndarray  # (l,) bool, the positions that are scored
    d_conv: int  # width of the causal convolution before the SSM
    backend: str
    device: str
    ms: float

    @property
    def accuracy(self) -> float | None:
        return float((self.pred[self.mask] == self.targets[self.mask]).mean()) if self.mask.any() else None

    @property
    def delta_per_token(self) -> np.ndarray:
        """(L, l) mean Δ over the channels."""
        return self.delta.mean(-1)

    @functools.cached_property  # the page reads it several times per rerun: computed once per analysis
    def delta_move(self) -> np.ndarray:
        """(L, l) how far Δ leaves its resting value at each token: mean over channels of |log(Δ_t / median_t Δ)|.

        Channels rest at very different Δ, so a plain mean is dominated by a few always-large channels; the log ratio
        to each channel's own median weighs every channel alike. It is exactly 0 for an LTI model."""
        rest = np.median(self.delta, axis=1, keepdims=True)
        return np.abs(np.log(self.delta / rest)).mean(-1)


def settled(a: Analysis) -> np.ndarray:
    """(l,) bool: the positions whose convolution window lies inside the sequence. At the first d_conv − 1 positions
    the window still holds the zero padding before the sequence, and Δ moves there whatever the token."""
    return np.arange(len(a.ids)) >= a.d_conv - 1


def letters(a: Analysis) -> np.ndarray:
    """(l,) bool: the data tokens of a selective-copying input (the letters to remember; not noise, not markers)."""
    return (a.ids >= ssm_tasks.FIRST_VALUE) & ~a.mask


def near_letters(a: Analysis) -> np.ndarray:
    """(l,) bool: a letter and the d_conv − 1 positions after it (those whose convolution window holds the letter),
    copy markers left out."""
    near = np.zeros(len(a.ids), dtype=bool)
    for t in np.flatnonzero(letters(a)):
        near[t : t + a.d_conv] = True
    return near & ~a.mask


def movement_peak(a: Analysis, layer: int) -> int:
    """The settled position where Δ moves most in ``layer``."""
    move = np.where(settled(a), a.delta_move[layer], -np.inf)
    return int(move.argmax())


def share_near_letters(a: Analysis, layer: int) -> tuple[float, float]:
    """Of Δ's movement over the settled positions before the copy markers, the share near letters; and the share of
    those positions that are near letters (what the first would be if Δ moved alike everywhere)."""
    body = settled(a) & ~a.mask
    near = near_letters(a) & body
    move = a.delta_move[layer]
    return float(move[near].sum() / max(move[body].sum(), 1e-12)), float(near.sum() / body.sum())


def letter_before(a: Analysis, t: int) -> int | None:
    """The position of the letter whose convolution window holds position ``t`` (the latest one), or None."""
    for s in range(t, max(t - a.d_conv, -1), -1):
        if letters(a)[s]:
            return s
    return None


@dataclass(frozen=True)
class TryStats:
    """Selective copying, layer 0, over instances 0 … TRY_SEEDS − 1: what the guided experiment states."""

    instances: int
    share_low: float  # smallest share of Δ movement near letters
    share_median: float
    positions: float  # mean share of positions that are near letters
    accuracy: float  # Mamba's mean accuracy on these instances
    lti: float  # the LTI baseline's


@st.cache_data(show_spinner=False)
def try_stats(backend: str = "torch") -> TryStats:
    shares, positions, acc, lti = [], [], [], []
    for seed in range(TRY_SEEDS):
        a = analyse("copy", seed, 0, "", backend)
        share, where = share_near_letters(a, 0)
        shares.append(share)
        positions.append(where)
        acc.append(a.accuracy)
        if available("lti"):
            lti.append(analyse_lti(seed, backend).accuracy)
    return TryStats(
        instances=TRY_SEEDS,
        share_low=float(np.min(shares)),
        share_median=float(np.median(shares)),
        positions=float(np.mean(positions)),
        accuracy=float(np.mean(acc)),
        lti=float(np.mean(lti)) if lti else float("nan"),
    )


def available(source: str) -> bool:
    return MODELS[source].available


def sources() -> tuple[str, ...]:
    return tuple(s for s in SOURCES if available(s))


def copy_label(i: int) -> str:
    if i == ssm_tasks.NOISE:
        return "·"
    if i == ssm_tasks.MARKER:
        return "?"
    return COPY_LETTERS[i - ssm_tasks.FIRST_VALUE]


def induction_label(i: int) -> str:
    return "#" if i == ssm_tasks.TRIGGER else INDUCTION_LETTERS[i - 1]


def _instance(source: str, seed: int, length: int) -> ssm_tasks.Batch:
    if not 0 <= seed <= MAX_SEED:
        raise InputError("mamba.error.seed", max=MAX_SEED)
    rng = np.random.default_rng(seed)
    if source == "copy":
        return ssm_tasks.copy_batch(rng, 1)
    if length not in INDUCTION_LENGTHS:
        raise InputError("mamba.error.length", lengths=", ".join(map(str, INDUCTION_LENGTHS)))
    return ssm_tasks.induction_batch(rng, 1, length)


def _encode_text(text: str) -> tuple[np.ndarray, tuple[str, ...]]:
    if not text.strip():
        raise InputError("mamba.error.empty")
    if len(text) > MAX_CHARS:
        raise InputError("mamba.error.too_long_chars", max=MAX_CHARS)
    tok = MODELS["text"].tokenizer
    ids = metrics.encode_document(tok, text)
    limit = MODELS["text"].config["max_len"]
    if len(ids) > limit:
        raise InputError("mamba.error.too_long", n=len(ids) - 1, max=limit - 1)
    labels = tuple(b.decode("utf-8", errors="replace") for b in bpe.token_bytes(tok, ids))
    return ids, ("⟨eot⟩", *labels[1:])


def _analysis(
    name: str, ids: np.ndarray, labels: tuple[str, ...], targets: np.ndarray, mask: np.ndarray, backend: str
) -> Analysis:
    handle = services.checkpoint(name)
    res = handle.run({"tokens": ids[None]}, PROBES, backend)
    model = handle.model
    L = model.config.n_layers

    def stack(probe: str) -> np.ndarray:
        return stack_layers(res.probes, f"layers.{{}}.mixer.{probe}", L)

    A = np.stack([layer.mixer.A.detach().float().cpu().numpy() for layer in model.layers])
    return Analysis(
        name=name,
        labels=labels,
        ids=ids,
        delta=stack("delta"),
        A_bar=stack("A_bar").mean(-1),
        A=A,
        B=stack("B"),
        C=stack("C"),
        h_norm=stack("h_norm"),
        pred=res.outputs["logits"][0].argmax(-1),
        targets=targets,
        mask=mask,
        d_conv=model.config.d_conv,
        backend=res.backend,
        device=res.device,
        ms=res.ms,
    )


@st.cache_data(show_spinner=False, max_entries=64)
def analyse(source: str, seed: int, length: int, text: str, backend: str = "torch") -> Analysis:
    """Run the model of ``source`` (copy / induction / text) on its input, recording Δ, Ā, B, C and ‖h_t‖."""
    if source not in SOURCES:
        raise InputError("mamba.error.source")
    MODELS[source].require()
    if source == "text":
        ids, labels = _encode_text(text)
        none = np.zeros(len(ids), dtype=np.int64)
        return _analysis(NAMES["text"], ids, labels, none, none.astype(bool), backend)
    batch = _instance(source, int(seed), int(length))
    label = copy_label if source == "copy" else induction_label
    ids = batch.tokens[0]
    return _analysis(NAMES[source], ids, tuple(label(int(i)) for i in ids), batch.targets[0], batch.mask[0], backend)


@st.cache_data(show_spinner=False, max_entries=64)
def analyse_lti(seed: int, backend: str = "torch") -> Analysis:
    """The LTI baseline on the same selective-copying instance."""
    MODELS["lti"].require()
    batch = _instance("copy", int(seed), 0)
    ids = batch.tokens[0]
    return _analysis(
        NAMES["lti"], ids, tuple(copy_label(int(i)) for i in ids), batch.targets[0], batch.mask[0], backend
    )


def output_label(source: str, i: int) -> str:
    if source == "copy":
        return copy_label(i) if i < ssm_tasks.selective_copy_vocab(len(COPY_LETTERS)) else "?"
    if source == "induction":
        return induction_label(i)
    return bpe.token_bytes(MODELS["text"].tokenizer, [i])[0].decode("utf-8", errors="replace")


@st.cache_data(show_spinner=False, max_entries=64)
def scan_check(name: str, ids: tuple[int, ...]) -> dict[str, float]:
    """Max |Δ logits| between the parallel scan, the sequential loop and step-by-step recurrence (torch), and the
    logits' own scale (max |logit|), which the differences are small against."""
    import torch  # the service, not the page, touches torch

    handle = services.checkpoint(name)
    diff = mamba.scan_difference(handle.model, torch.tensor([ids]))
    scale = float(np.abs(handle.run({"tokens": np.array([ids], dtype=np.int64)}).outputs["logits"]).max())
    return {**diff, "logit_scale": scale}


@st.cache_resource(show_spinner=False)
def _transformer():
    """The GPT checkpoint when it is shipped; else a GPT of the same shape with untrained weights (timing only)."""
    from models import gpt

    if GPT.available:
        return GPT.model, True
    return gpt.build(asdict(gpt.PRESETS["shipped"])).eval(), False


@dataclass(frozen=True)
class DecodeCosts:
    position: np.ndarray  # (T,) 1 .. T
    mamba_ms: np.ndarray  # (T,) milliseconds of each step
    gpt_ms: np.ndarray
    mamba_bytes: np.ndarray  # (T,) memory carried after each step
    gpt_bytes: np.ndarray
    mamba_name: str
    gpt_trained: bool


def measure_decode_costs(length: int = DECODE_LENGTH, progress=None) -> DecodeCosts:
    """Generate ``length`` tokens one at a time with Mamba's constant state and with GPT's growing KV cache, timing
    every step — now, for the reader who asked (not cached: a timing belongs to the moment it was measured).
    ``progress(fraction)`` is called as the steps go (every 8 of the 2 · length)."""
    source = next(s for s in ("text", "copy", "induction") if available(s))
    name, model = NAMES[source], MODELS[source].model
    transformer, trained = _transformer()
    length = min(length, transformer.config.max_len)

    def reporter(offset: int):
        if progress is None:
            return None
        return lambda t: progress((offset + t + 1) / (2 * length)) if (t + 1) % 8 == 0 else None

    m_ms, m_bytes = mamba.decode_profile(model, length, reporter(0))
    g_ms, g_bytes = metrics.kv_decode_profile(transformer, length, reporter(length))
    return DecodeCosts(
        position=np.arange(1, length + 1),
        mamba_ms=m_ms,
        gpt_ms=g_ms,
        mamba_bytes=m_bytes,
        gpt_bytes=g_bytes,
        mamba_name=name,
        gpt_trained=trained,
    )


def _tokens_seen(card) -> int:
    """Training tokens of a card's (first) stage: steps × batch × context."""
    training = card.get("training", {})
    return int(training.get("steps", 0) * training.get("batch", 0) * training.get("context", 0))


@st.cache_data(show_spinner=False)
def card_numbers() -> dict:
    """Metrics, sizes and training tokens from the cards and configs, for the page's texts."""
    out = {}
    for source, model in MODELS.items():
        if model.available:
            card, c = model.card, model.config
            out[source] = {
                "params": card["params"],
                "tokens": _tokens_seen(card),
                "layers": c["n_layers"],
                "d_model": c["d_model"],
                "d_in": c["expand"] * c["d_model"],
                "d_state": c["d_state"],
                "d_conv": c["d_conv"],
                **card["metrics"],
            }
    if GPT.available:
        card = GPT.card
        out["gpt"] = {"params": card["params"], "tokens": _tokens_seen(card), **card.get("metrics", {})}
    return out


def pvh_fields(cards: dict) -> dict:
    """The numbers "In the paper vs here" states, from ``card_numbers()`` (NaN where a model is not shipped)."""
    nan = float("nan")
    copy, lm = cards.get("copy", {}), cards.get("text", {})
    return {
        "layers": copy.get("layers", 0),
        "d_model": copy.get("d_model", 0),
        "d_in": copy.get("d_in", 0),
        "d_state": copy.get("d_state", 0),
        "w": copy.get("d_conv", 0),
        "copy": copy.get("accuracy", nan),
        "lti": cards.get("lti", {}).get("accuracy", nan),
        "ind": cards.get("induction", {}).get("accuracy", nan),
        "ind4": cards.get("induction", {}).get("accuracy_4x", nan),
        "lm_params": lm.get("params", 0),
        "lm_tokens": lm.get("tokens", 0) / 1e6,
        "bpc": lm.get("val_bpc", nan),
    }
