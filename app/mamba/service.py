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
ARCHS = ("mamba",)  # the real checkpoints the text input may run on (models/pretrained)
MAX_REAL_TOKENS = 128  # a real model's input here (24 layers of 1,536 channels: a few seconds on a CPU)
SCAN_CHECK_TOKENS = 16  # a real model's scan check runs on this many first tokens (the recurrence is one step each)
TOP_K = 5  # next tokens listed for a real model


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
    real: bool = False  # a released checkpoint (models/pretrained), not one of ours
    top: tuple[tuple[str, float], ...] = ()  # a real model's likeliest next tokens after the text, (token, p)

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


@services.computing
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


def real_models() -> list[str]:
    """The real Mamba checkpoints this machine has (converted, or in the Hugging Face cache)."""
    return services.choices(ARCHS, ())[0]


def sources() -> tuple[str, ...]:
    """The inputs this machine can run: a task whose model is installed; text when ours or a real model is."""
    return tuple(s for s in SOURCES if available(s) or (s == "text" and real_models()))


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


def _encode_text(text: str, name: str) -> tuple[np.ndarray, tuple[str, ...]]:
    if not text.strip():
        raise InputError("mamba.error.empty")
    if len(text) > MAX_CHARS:
        raise InputError("mamba.error.too_long_chars", max=MAX_CHARS)
    handle = services.checkpoint(name)
    tok = handle.tokenizer
    if handle.real:  # its own tokenizer (GPT-NeoX's BPE for mamba-130m), the text as it is: no separator first
        ids = np.array(tok.encode(text).ids, dtype=np.int64)
        if not len(ids):
            raise InputError("mamba.error.empty")
        if len(ids) > MAX_REAL_TOKENS:
            raise InputError("mamba.error.too_long_real", n=len(ids), max=MAX_REAL_TOKENS)
        return ids, tuple(_token_text(tok, ids))
    ids = metrics.encode_document(tok, text)
    limit = handle.config["max_len"]
    if len(ids) > limit:
        raise InputError("mamba.error.too_long", n=len(ids) - 1, max=limit - 1)
    labels = tuple(b.decode("utf-8", errors="replace") for b in bpe.token_bytes(tok, ids))
    return ids, ("⟨eot⟩", *labels[1:])


def _token_text(tok, ids) -> list[str]:
    """Each id as the text it stands for (a byte-level piece of a character shows as �)."""
    return [b.decode("utf-8", errors="replace") for b in bpe.token_bytes(tok, ids)]


def _analysis(
    name: str, ids: np.ndarray, labels: tuple[str, ...], targets: np.ndarray, mask: np.ndarray, backend: str
) -> Analysis:
    handle = services.checkpoint(name)
    real = handle.real
    # A real model's Ā (24 layers × l × 1,536 channels × 16) would be ~0.3 GB as a probe: it is exp(ΔA), computed
    # from Δ and A below, one layer at a time.
    probes = tuple(p for p in PROBES if not (real and p.endswith("A_bar")))
    res = handle.run({"tokens": ids[None]}, probes, backend)
    model = handle.model
    L = model.config.n_layers

    def stack(probe: str) -> np.ndarray:
        return stack_layers(res.probes, f"layers.{{}}.mixer.{probe}", L)

    A = np.stack([layer.mixer.A.detach().float().cpu().numpy() for layer in model.layers])
    delta = stack("delta")
    if real:
        A_bar = np.stack([np.exp(delta[i][..., None] * A[i]).mean(-1) for i in range(L)])
    else:
        A_bar = stack("A_bar").mean(-1)
    logits = res.outputs["logits"][0]
    top = ()
    if real:  # the likeliest next tokens after the text
        last = logits[-1].astype(np.float64)
        p = np.exp(last - last.max())
        p /= p.sum()
        order = np.argsort(-p)[:TOP_K]
        top = tuple(zip(_token_text(handle.tokenizer, order), (float(p[i]) for i in order)))
    return Analysis(
        name=name,
        labels=labels,
        ids=ids,
        delta=delta,
        A_bar=A_bar,
        A=A,
        B=stack("B"),
        C=stack("C"),
        h_norm=stack("h_norm"),
        pred=logits.argmax(-1),
        targets=targets,
        mask=mask,
        d_conv=model.config.d_conv,
        backend=res.backend,
        device=res.device,
        ms=res.ms,
        real=real,
        top=top,
    )


def analyse(source: str, seed: int, length: int, text: str, backend: str = "torch", lm: str = "") -> Analysis:
    """Run the model of ``source`` (copy / induction / text) on its input, recording Δ, Ā, B, C and ‖h_t‖. A text
    runs on ``lm``: ours (``mamba-lm``, the default) or a real Mamba of the model picker."""
    if source == "text" and lm and services.checkpoint(lm).real:
        if lm not in real_models():
            raise services.checkpoint(lm).missing()
        return _analyse_real(text, backend, lm)
    return _analyse_ours(source, seed, length, text, backend)


@st.cache_resource(show_spinner=False, max_entries=4)
def _analyse_real(text: str, backend: str, name: str) -> Analysis:
    """A real model on a text: its Δ and Ā are tens of MB (24 layers × 1,536 channels), shared read-only by every
    reader instead of copied for each (``st.cache_data`` would pickle them on every call)."""
    ids, labels = _encode_text(text, name)
    none = np.zeros(len(ids), dtype=np.int64)
    return services.read_only(_analysis(name, ids, labels, none, none.astype(bool), backend))


@st.cache_data(show_spinner=False, max_entries=64)
def _analyse_ours(source: str, seed: int, length: int, text: str, backend: str) -> Analysis:
    if source not in SOURCES:
        raise InputError("mamba.error.source")
    MODELS[source].require()
    if source == "text":
        ids, labels = _encode_text(text, NAMES["text"])
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


def output_label(source: str, i: int, lm: str = "") -> str:
    if source == "copy":
        return copy_label(i) if i < ssm_tasks.selective_copy_vocab(len(COPY_LETTERS)) else "?"
    if source == "induction":
        return induction_label(i)
    tok = services.checkpoint(lm or NAMES["text"]).tokenizer
    return bpe.token_bytes(tok, [i])[0].decode("utf-8", errors="replace")


def moving_channels(a: Analysis, layer: int, k: int = 3) -> list[int]:
    """The ``k`` channels of ``layer`` whose Δ moves most over the settled positions (mean |log(Δ_t / median Δ)|)."""
    d = a.delta[layer][settled(a)]  # (l', d_in)
    if not len(d):
        d = a.delta[layer]
    move = np.abs(np.log(d / np.median(d, axis=0, keepdims=True))).mean(0)
    return [int(c) for c in np.argsort(-move)[:k]]


def scan_tokens(a: Analysis) -> tuple[int, ...]:
    """The tokens the scan check runs on: all of them for ours, the first SCAN_CHECK_TOKENS for a real model."""
    ids = a.ids[:SCAN_CHECK_TOKENS] if a.real else a.ids
    return tuple(int(i) for i in ids)


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


# ---- intervention: Δ clamped on chosen channels of one layer, on held-out selective-copying instances --------------

HELD_OUT_SEED = 12345  # the held-out instances of the checkpoint's card (models/recipes/mamba.py's EVAL_SEED)
HELD_OUT = 128  # instances the clamp is measured on
CLAMP_VALUES = (0.0, 0.001, 0.01, 0.1, 1.0, 10.0, 100.0)
CHANNEL_MODES = ("all", "top", "range")


@dataclass(frozen=True)
class Clamp:
    """Selective copying with Δ of ``layer`` clamped to ``value`` on ``channels``, against the unchanged run."""

    layer: int
    channels: tuple[int, ...]
    value: float
    instances: int
    chance: float  # accuracy of a uniform guess among the data values
    acc_before: float
    acc_after: float
    loss_before: float  # mean cross-entropy (nats) over the scored positions
    loss_after: float
    labels: tuple[str, ...]  # the page's instance (its seed): what the strips show
    delta_before: np.ndarray  # (l, d_in) Δ of ``layer`` on the page's instance, unchanged
    delta_after: np.ndarray  # (l, d_in) after clamping
    acc_instance_before: float
    acc_instance_after: float
    backend: str  # always torch: interventions run on the torch model
    device: str
    ms: float


def clamp_channels(layer: int, mode: str, k: int, lo: int, hi: int) -> tuple[int, ...]:
    """The channels a clamp touches: every one, the ``k`` whose Δ depends most on the input (held out), or lo…hi."""
    d_in = MODELS["copy"].config["expand"] * MODELS["copy"].config["d_model"]
    if mode == "all":
        return tuple(range(d_in))
    if mode == "top":
        return input_dependent_channels(layer)[: max(1, min(int(k), d_in))]
    if mode == "range":
        lo, hi = sorted((max(0, int(lo)), min(d_in - 1, int(hi))))
        return tuple(range(lo, hi + 1))
    raise InputError("mamba.error.source")


@st.cache_data(show_spinner=False, max_entries=8)
def input_dependent_channels(layer: int) -> tuple[int, ...]:
    """The channels of ``layer`` ordered by how much Δ moves with the input over the held-out instances (mean
    |log(Δ_t / the channel's median over t)|, the positions whose convolution window lies inside the sequence)."""
    import torch

    from models.probe import trace

    tokens, _, _ = _held_out()
    with torch.inference_mode(), trace(f"layers.{layer}.mixer.delta") as tr:
        MODELS["copy"].model(torch.from_numpy(tokens))
    d = tr[f"layers.{layer}.mixer.delta"].numpy()[:, MODELS["copy"].config["d_conv"] - 1 :]  # (N, l', d_in)
    move = np.abs(np.log(d / np.median(d, axis=1, keepdims=True))).mean((0, 1))
    return tuple(int(c) for c in np.argsort(-move))


def _held_out() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    batch = ssm_tasks.copy_batch(np.random.default_rng(HELD_OUT_SEED), HELD_OUT)
    return batch.tokens, batch.targets, batch.mask


def score(logits, targets, mask) -> tuple[float, float]:
    """Accuracy and mean cross-entropy (nats) of ``logits`` at the scored positions (torch tensors)."""
    import torch

    acc = float((logits.argmax(-1)[mask] == targets[mask]).float().mean())
    return acc, float(torch.nn.functional.cross_entropy(logits[mask], targets[mask]))


@st.cache_data(show_spinner=False)
def _held_out_score() -> tuple[float, float]:
    """The unchanged checkpoint on the held-out instances: (accuracy, loss)."""
    import torch

    tokens, targets, mask = (torch.from_numpy(v) for v in _held_out())
    with torch.inference_mode():
        return score(MODELS["copy"].model(tokens), targets, mask)


@services.computing
@st.cache_data(show_spinner=False, max_entries=32)
def clamp(layer: int, channels: tuple[int, ...], value: float, seed: int) -> Clamp:
    """Run the copy checkpoint on the held-out instances and on instance ``seed``, unchanged and with Δ of ``layer``
    clamped (``models.mamba.clamp_delta`` through the Δ probe the scan reads)."""
    import time

    import torch

    from models.probe import intervene, trace

    handle = MODELS["copy"]
    handle.require()
    model = handle.model
    if not 0 <= layer < model.config.n_layers:
        raise InputError("mamba.error.source")
    probe = f"layers.{layer}.mixer.delta"
    override = {probe: mamba.clamp_delta(float(value), tuple(channels))}
    tokens, targets, mask = (torch.from_numpy(v) for v in _held_out())
    one = _instance("copy", int(seed), 0)
    one_tokens = torch.from_numpy(one.tokens)

    start = time.perf_counter()
    before = _held_out_score()
    with torch.inference_mode():
        with intervene(override):
            after = score(model(tokens), targets, mask)
        with trace(probe) as plain:
            one_before = model(one_tokens)
        with intervene(override), trace(probe) as clamped:
            one_after = model(one_tokens)
    ms = (time.perf_counter() - start) * 1e3
    one_tg, one_mk = torch.from_numpy(one.targets), torch.from_numpy(one.mask)
    ids = one.tokens[0]
    return Clamp(
        layer=layer,
        channels=tuple(channels),
        value=float(value),
        instances=HELD_OUT,
        chance=1.0 / len(COPY_LETTERS),
        acc_before=before[0],
        acc_after=after[0],
        loss_before=before[1],
        loss_after=after[1],
        labels=tuple(copy_label(int(i)) for i in ids),
        delta_before=plain[probe][0].numpy(),
        delta_after=clamped[probe][0].numpy(),
        acc_instance_before=score(one_before, one_tg, one_mk)[0],
        acc_instance_after=score(one_after, one_tg, one_mk)[0],
        backend="torch",
        device=str(next(model.parameters()).device),
        ms=ms,
    )
