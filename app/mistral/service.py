"""The Mistral page's bridge to ``models.mistral`` and ``models.gemma``: the band each query attends through (the
probed attention patterns), the reach of the band through depth (measured with gradients), the rolling buffer cache
while the model writes, and the pre-fill in chunks of W checked against one full forward pass.

Every function takes the picked checkpoint's ``name``: ours (``mistral``, one window W in every layer) or a real
Gemma 3 (``gemma-3-270m``: local layers with a window W, and global ones that see every earlier token). A layer's
window is ``Shape.windows[l]`` (None: global). A real checkpoint reads its text as its own tokenizer encodes it
(``Checkpoint.prefix``); the interventions on held-out Shakespeare and the chunked pre-fill are ours only."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

from app.shared import assets, services
from app.shared.i18n import InputError
from app.shared.interventions import BLOCKS, HeldOut, decoder_change
from app.shared.interventions import check as check_knock_out
from app.shared.services import engine, stack_layers
from models import metrics, mistral, pretrained, zoo
from models.data import bpe

NAME = "mistral"
ARCHS = ("mistral", "gemma")  # what the model picker offers
MODEL = services.checkpoint(NAME)
MAX_CHARS = 600  # the text box
MAX_PROMPT_CHARS = 200  # the generation prompt
MAX_NEW = 128  # tokens one generation may add
# A real checkpoint reads texts a little longer than Gemma 3's window (W = 512), so its local layers' band binds on
# them: every layer's patterns of 640 tokens are (18, 4, 640, 640) float32, 118 MB, shared by every reader
MAX_REAL_TOKENS = 640
MAX_REAL_CHARS = 3000  # its text box (Shakespeare reads at about 0.27 Gemma tokens a character)
MAX_REAL_NEW = 48  # tokens one generation of a real checkpoint may add (it decodes twice: rolling and full)
DISPLAY_WINDOWS = (1, 64)  # the window slider's range on ours (the trained W sits inside it)
REAL_WINDOW_STEP = 32  # a real model's window slider: multiples of this up to the text, W among them
PROBES = ("blocks.*.attn.pattern",)
_EXAMPLES = assets.lines("examples/mistral.txt")
DEFAULT_TEXT, DEFAULT_PROMPT = _EXAMPLES[0], _EXAMPLES[1]
# A real model's text: Antony's speech from Julius Caesar (3.2), a play none of ours trained on, 593 Gemma 3 tokens
LONG_TEXT = assets.text("examples/mistral_long.txt").strip()


def handle(name: str = NAME) -> services.Checkpoint:
    return MODEL if name == NAME else services.checkpoint(name)


def available(name: str = NAME) -> bool:
    return handle(name).available


def model_missing(name: str = NAME) -> InputError:
    return handle(name).missing()


def is_real(name: str = NAME) -> bool:
    return handle(name).real


def title(name: str = NAME) -> str:
    """What the page calls the checkpoint: a real one by its authors' name, ours by our name."""
    return pretrained.KNOWN[name].title if is_real(name) else name


def max_new(name: str = NAME) -> int:
    return MAX_REAL_NEW if is_real(name) else MAX_NEW


def max_text_chars(name: str = NAME) -> int:
    return MAX_REAL_CHARS if is_real(name) else MAX_CHARS


def default_text(name: str = NAME) -> str:
    """A real model's text is longer than its window W (ours trains on texts longer than its W already)."""
    return LONG_TEXT if is_real(name) else DEFAULT_TEXT


def text_key(name: str = NAME) -> str:
    """The text box's key (and link parameter): a real model's texts are longer, so it keeps its own."""
    return "mistral_text_real" if is_real(name) else "mistral_text"


@dataclass(frozen=True)
class Shape:
    """The picked model's sizes the page talks about (all read from its config)."""

    window: int  # W (of the local layers)
    n_layers: int  # L
    n_heads: int  # H
    n_kv_heads: int  # G
    dim: int  # C
    max_len: int  # training context
    params: int
    hidden: int  # F, SwiGLU's width
    vocab: int  # V
    windows: tuple[int | None, ...] = ()  # per layer: W, or None for a global layer (every earlier key)
    head_dim: int = 0  # D
    real: bool = False
    limit: int = 0  # the tokens a text may make here: ours its training context, a real one MAX_REAL_TOKENS

    @property
    def local(self) -> tuple[int, ...]:
        return tuple(i for i, w in enumerate(self.windows) if w is not None)

    @property
    def global_(self) -> tuple[int, ...]:
        return tuple(i for i, w in enumerate(self.windows) if w is None)


@st.cache_data(show_spinner=False, max_entries=4)
def shape(name: str = NAME) -> Shape:
    ck = handle(name)
    model = ck.model
    c = model.config
    windows = tuple(model.windows()) if hasattr(model, "windows") else (c.window,) * c.n_layers
    head_dim = getattr(c, "head_dim", 0) or c.dim // c.n_heads
    return Shape(
        c.window, c.n_layers, c.n_heads, c.n_kv_heads, c.dim, c.max_len, zoo.parameter_count(model), c.hidden,
        c.vocab, windows, head_dim, ck.real, MAX_REAL_TOKENS if ck.real else c.max_len,
    )  # fmt: skip


def bounds(windows: tuple[int | None, ...]) -> np.ndarray:
    """(L,) float: how far back the state after each layer can reach through the stack of ``windows``: a local
    layer adds W − 1 positions, a global one reaches the whole prefix (inf) from there on."""
    out, total = [], 0.0
    for w in windows:
        total = np.inf if w is None else total + (w - 1)
        out.append(total)
    return np.array(out, dtype=float)


def spans(layers: tuple[int, ...]) -> str:
    """Layer numbers as runs: (0, 1, 2, 3, 4, 6, 7) -> "0–4, 6, 7"."""
    runs: list[list[int]] = []
    for i in layers:
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def _pieces(ids: np.ndarray, name: str = NAME) -> tuple[str, ...]:
    """What each id reads as (our leading <|endoftext|> as ⟨eot⟩; a real SentencePiece ▁ as a space)."""
    tok = handle(name).tokenizer
    if is_real(name):
        return tuple((tok.id_to_token(int(i)) or "?").replace("▁", " ") for i in ids)
    pieces = tuple(b.decode("utf-8", errors="replace") for b in bpe.token_bytes(tok, ids))
    return tuple("⟨eot⟩" if i == 0 else p for i, p in zip(ids, pieces))


def encode(text: str, max_chars: int | None = None, name: str = NAME) -> np.ndarray:
    """The ids the model reads for ``text`` (ours: <|endoftext|> first): (T,), within the characters (the model's
    text box unless ``max_chars``) and tokens."""
    if not text.strip():
        raise InputError("mistral.error.empty")
    max_chars = max_chars or max_text_chars(name)
    if len(text) > max_chars:
        raise InputError("mistral.error.chars", n=len(text), max=max_chars)
    ck = handle(name)
    ck.require()
    if ck.real:
        ids = ck.encode(text)  # as its own tokenizer reads it (Gemma's starts with <bos>)
    else:
        ids = metrics.encode_document(ck.tokenizer, text)
    limit = shape(name).limit
    if len(ids) > limit:
        raise InputError("mistral.error.tokens.real" if ck.real else "mistral.error.tokens", n=len(ids), max=limit)
    if not len(ids):
        raise InputError("mistral.error.empty")
    return ids


def display_windows(T: int, name: str = NAME) -> tuple[int, ...]:
    """The widths the band map's slider draws: on ours 1 … 64; on a real model the multiples of
    ``REAL_WINDOW_STEP`` up to the first that covers the text's ``T`` tokens, with its W among them where W is
    shorter than that."""
    if not is_real(name):
        return tuple(range(DISPLAY_WINDOWS[0], DISPLAY_WINDOWS[1] + 1))
    step = REAL_WINDOW_STEP
    top = -(-T // step) * step
    return tuple(sorted({*range(step, top + 1, step), min(shape(name).window, top)}))


def band(T: int, window: int) -> np.ndarray:
    """(T, T) bool: query p may attend to keys p − window + 1 .. p (the mask ``models.mistral`` builds)."""
    if not DISPLAY_WINDOWS[0] <= window <= DISPLAY_WINDOWS[1]:
        raise InputError("mistral.error.window", lo=DISPLAY_WINDOWS[0], hi=DISPLAY_WINDOWS[1])
    return mistral.window_mask(T, window).numpy()


# ---- the band, probed -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Analysis:
    """One forward pass of the text with the attention patterns recorded."""

    ids: np.ndarray  # (T,)
    pieces: tuple[str, ...]  # (T,)
    patterns: np.ndarray  # (L, H, T, T)
    window: int  # the trained W (of the local layers)
    backend: str
    device: str
    ms: float

    def outside(self, window: int) -> np.ndarray:
        """(L, H): the largest attention weight any query puts outside the band of ``window`` keys."""
        peak = _by_distance(self.patterns, self.ids.tobytes(), self.backend)[1]
        return peak[window:].max(0) if window < len(peak) else np.zeros(self.patterns.shape[:2])

    def outside_share(self, window: int) -> np.ndarray:
        """(L, H): the mean over queries of the weight that falls outside the band of ``window`` keys."""
        share = _by_distance(self.patterns, self.ids.tobytes(), self.backend)[0]
        return share[window:].sum(0) if window < len(share) else np.zeros(self.patterns.shape[:2])

    def outside_own(self, windows: tuple[int | None, ...]) -> float:
        """The largest weight any query of a local layer puts outside that layer's own band (0 with no local one)."""
        local = [i for i, w in enumerate(windows) if w is not None]
        return float(self.outside(self.window)[local].max()) if local else 0.0


def band_pairs(T: int, window: int) -> int:
    """Query–key pairs inside the band of ``window`` keys over ``T`` tokens: Σₚ min(p + 1, window)."""
    w = min(window, T)
    return w * (w + 1) // 2 + (T - w) * w


@st.cache_resource(show_spinner=False, max_entries=64)
def _by_distance(_patterns: np.ndarray, ids: bytes, backend: str) -> tuple[np.ndarray, np.ndarray]:
    """(T, L, H) twice, by the distance d = query − key: the weight at d summed over queries / T, and its largest
    value. Every window's measures follow (outside a band of w keys: the distances d ≥ w), so a page run reads them
    instead of masking every pattern once per window drawn; kept once per process for every reader (keyed by the
    text's ids and the backend that computed the patterns), where a copy of the analysis per session would not."""
    T = _patterns.shape[-1]
    diagonals = [np.diagonal(_patterns, offset=-d, axis1=-2, axis2=-1) for d in range(T)]  # each (L, H, T − d)
    share = np.stack([g.sum(-1) / T for g in diagonals])
    peak = np.stack([g.max(-1) for g in diagonals])
    share.flags.writeable = peak.flags.writeable = False
    return share, peak


def _analysis(text: str, backend: str, name: str) -> Analysis:
    ids = encode(text, name=name)
    res = handle(name).run({"tokens": ids[None]}, PROBES, backend)
    patterns = stack_layers(res.probes, "blocks.{}.attn.pattern")
    return Analysis(ids, _pieces(ids, name), patterns, shape(name).window, res.backend, res.device, res.ms)


_ours = st.cache_data(show_spinner=False, max_entries=64)(_analysis)


# A real model's patterns of a long text are ~100 MB: one shared, read-only copy for every reader (``st.cache_data``
# would unpickle a copy on every run), and only the last few texts
@st.cache_resource(show_spinner=False, max_entries=4)
def _real(text: str, backend: str, name: str) -> Analysis:
    return services.read_only(_analysis(text, backend, name))


def analyse(text: str, backend: str, name: str = NAME) -> Analysis:
    return (_real if is_real(name) else _ours)(text, backend, name)


def forget() -> None:
    """Every cached result of a model's name gone (a test puts another checkpoint behind the name)."""
    for cached in (shape, _by_distance, _ours, _real, reach, generate, prefill):
        cached.clear()


# ---- reach through depth --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reach:
    """How far back the state at ``position`` after each layer depends on the input embeddings."""

    position: int
    layers: tuple[int, ...]  # the layers measured (``reach_layers``), one row each below
    influence: np.ndarray  # (n, position + 1) ‖∂‖x_{l+1}[position]‖ / ∂x₀[j]‖, j = 0 .. position
    bound: np.ndarray  # (n,) float: the farthest distance layers 0..l can carry (``bounds``; inf after a global one)
    farthest: np.ndarray  # (n,) the distance back to the farthest j with a non-zero influence
    beyond: np.ndarray  # (n,) the largest influence of any j farther back than the bound
    backend: str
    device: str
    ms: float


def reach_layers(position: int, name: str = NAME) -> tuple[int, ...]:
    """The layers whose reach is measured at ``position``: ours all; a real model (a backward pass through a long
    text costs seconds) the local layers before its first global one whose bound can still bind — each while the
    layers before it reach less than ``position`` back — and that global layer."""
    s = shape(name)
    if not s.real or not s.global_:
        return tuple(range(s.n_layers))
    first, before = s.global_[0], bounds(s.windows)
    return (*(i for i in range(first) if i == 0 or before[i - 1] < position), first)


@st.cache_data(show_spinner=False, max_entries=64)
def reach(text: str, position: int, name: str = NAME) -> Reach:
    ids = encode(text, name=name)
    if not 0 <= position < len(ids):
        raise InputError("mistral.error.position", max=len(ids) - 1)
    model, s = handle(name).model, shape(name)
    start = time.perf_counter()
    layers = reach_layers(position, name)
    with torch.enable_grad():  # gradients with respect to a detached copy of the embeddings, never the weights
        inf = mistral.influence(
            model, torch.as_tensor(ids[: position + 1])[None], position, layers
        )  # later inputs cannot matter
    ms = (time.perf_counter() - start) * 1e3
    distance = position - np.arange(position + 1)  # (position + 1,) how far back each input sits
    bound = bounds(s.windows)[list(layers)]
    farthest = np.array([distance[row > 0].max(initial=0) for row in inf])
    beyond = np.array([row[distance > b].max(initial=0.0) for row, b in zip(inf, bound)])
    return Reach(position, layers, inf, bound, farthest, beyond, "torch", engine().device, ms)


# ---- the rolling buffer ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rolling:
    """A greedy generation with the rolling buffer, and the same one with a full cache."""

    prompt: np.ndarray  # (P,) ids
    new_ids: np.ndarray  # (n,)
    pieces: tuple[str, ...]  # (P + n,) what every position reads as
    text: str  # the continuation
    slots: np.ndarray  # (n, W) the absolute position each slot holds after step s (−1: empty), the first local layer
    lengths: np.ndarray  # (n,) positions in the cache after step s
    rolling_bytes: np.ndarray  # (n,) bytes of keys and values, every layer, rolling buffer
    full_bytes: np.ndarray  # (n,) the same with a full cache
    local_bytes: np.ndarray  # (n,) of those rolling bytes, the local layers' buffers
    global_bytes: np.ndarray  # (n,) of those rolling bytes, the global layers' growing caches (0 on ours)
    local_rows: int  # positions one local layer's buffer holds at the end (≤ W)
    global_rows: int  # positions one global layer's cache holds at the end (0 with no global layer)
    same_tokens: bool  # the full cache chose the same ids
    tokens_per_s: float
    backend: str
    device: str
    ms: float


def _decode(model, prompt: list[int], n: int, rolling: bool) -> tuple[list[int], dict]:
    """Greedy decoding with ``model.new_cache(rolling)`` (ours: a buffer per layer; Gemma: a buffer per local
    layer, a growing cache per global one), logging the first local buffer's slots and the bytes held."""
    log: dict[str, list] = {"slots": [], "lengths": [], "bytes": [], "local": [], "global": [], "rows": []}

    def on_step(_id: int, caches: list) -> None:
        local = [c for c in caches if hasattr(c, "positions")]
        if rolling:
            log["slots"].append(local[0].positions.copy())
        log["lengths"].append(len(caches[0]))
        log["bytes"].append(mistral.cache_bytes(caches))
        log["local"].append(mistral.cache_bytes(local) if local else 0)
        log["global"].append(mistral.cache_bytes([c for c in caches if not hasattr(c, "positions")]))
        log["rows"] = [c.filled if hasattr(c, "positions") else len(c) for c in caches]

    ids = mistral.generate(model, prompt, n, rolling=rolling, on_step=on_step)
    return ids, log


@st.cache_data(show_spinner=False, max_entries=64)
def generate(prompt: str, n: int, name: str = NAME, max_chars: int = MAX_PROMPT_CHARS) -> Rolling:
    """Greedy decoding of ``n`` tokens after ``prompt`` (at most ``max_chars``: the prompt box's, or a real model's
    text box when it writes after the text of section 1), with the rolling buffers and with full caches."""
    ids = encode(prompt, max_chars, name=name)
    if not 1 <= n <= max_new(name):
        raise InputError("mistral.error.n", max=max_new(name))
    if len(ids) + n > shape(name).max_len:
        raise InputError("mistral.error.room", n=len(ids), new=n, max=shape(name).max_len)
    ck = handle(name)
    model = ck.model
    windows = shape(name).windows
    start = time.perf_counter()
    new, roll = _decode(model, ids.tolist(), n, rolling=True)
    seconds = time.perf_counter() - start
    full_ids, full = _decode(model, ids.tolist(), n, rolling=False)
    all_ids = np.array([*ids, *new])
    text = ck.tokenizer.decode(new)
    rows = roll["rows"]
    local_rows = max((r for r, w in zip(rows, windows) if w is not None), default=0)
    global_rows = max((r for r, w in zip(rows, windows) if w is None), default=0)
    return Rolling(
        prompt=ids,
        new_ids=np.array(new),
        pieces=_pieces(all_ids, name),
        text=text,
        slots=np.stack(roll["slots"]),
        lengths=np.array(roll["lengths"]),
        rolling_bytes=np.array(roll["bytes"]),
        full_bytes=np.array(full["bytes"]),
        local_bytes=np.array(roll["local"]),
        global_bytes=np.array(roll["global"]),
        local_rows=int(local_rows),
        global_rows=int(global_rows),
        same_tokens=full_ids == new,
        tokens_per_s=n / seconds,
        backend="torch",
        device=engine().device,
        ms=seconds * 1e3,
    )


# ---- pre-fill in chunks of W ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Prefill:
    """The prompt fed in chunks, against one forward pass of the whole of it."""

    chunk: int
    masks: tuple[np.ndarray, ...]  # per chunk, (T_chunk, S) bool: the keys it sees, oldest first
    first_key: tuple[int, ...]  # per chunk, the absolute position of its first key column
    starts: tuple[int, ...]  # per chunk, the absolute position of its first query
    max_diff: float  # max |chunked − full| over the last position's logits
    logit_scale: float  # max |logit| of the full forward, for a relative reading
    backend: str
    device: str
    ms: float


@st.cache_data(show_spinner=False, max_entries=64)
def prefill(text: str, name: str = NAME) -> Prefill:
    """``text`` fed in chunks of W into fresh caches (a real Gemma's local layers: rolling buffers of W; its global
    ones: caches that grow), against one forward pass of the whole. The masks are the first layer's."""
    ids = encode(text, name=name)
    model, W = handle(name).model, shape(name).window
    start = time.perf_counter()
    last, _, masks = mistral.prefill(model, ids.tolist(), W)
    ms = (time.perf_counter() - start) * 1e3
    with torch.inference_mode():
        full = model(torch.as_tensor(ids, device=model.embed.weight.device)[None])[0, -1]
    starts = tuple(range(0, len(ids), W))
    first_key = tuple(s - min(s, W - 1) for s in starts)
    return Prefill(
        chunk=W,
        masks=tuple(masks),
        first_key=first_key,
        starts=starts,
        max_diff=float((last - full).abs().max()),
        logit_scale=float(full.abs().max()),
        backend="torch",
        device=engine().device,
        ms=ms,
    )


def card() -> Mapping:
    """The checkpoint's card (read-only; empty when it has none)."""
    return MODEL.card


def llama_card() -> Mapping:
    """The card of ``llama``, the same block with a full causal mask, whose loss the page sets beside ours (empty when
    it has none): its training settings say how the two runs differ."""
    return services.checkpoint("llama").card


# ---- interventions on held-out text, torch only: knock-outs, and a narrower window than trained ----------------------

KO_WINDOWS = 16  # held-out windows of the training context


def _changed(overrides: dict) -> HeldOut:
    """The held-out loss with ``overrides`` beside the plain run."""
    MODEL.require()
    return decoder_change(MODEL.name, shape().max_len, KO_WINDOWS, overrides)


@services.computing
@st.cache_data(show_spinner=False, max_entries=64)
def knock_out(layer: int, part: str, mode: str, head: int = 0) -> HeldOut:
    """The held-out loss with ``part`` (one head, the whole attention, the MLP) of block ``layer`` replaced by
    ``mode`` (zeros, or at each position its mean over the window's positions up to there)."""
    from models import interventions

    s = shape()
    check_knock_out(BLOCKS, layer, part, mode, head, {BLOCKS: s.n_layers}, s.n_heads)
    return _changed(interventions.knock_out(layer, part, mode, head))


def narrower_windows() -> tuple[int, ...]:
    """The windows W' a reader may run with: powers of two from 1 up to the trained W (W itself included)."""
    W = shape().window
    return tuple(sorted({2**i for i in range(W.bit_length()) if 2**i <= W} | {W}))


@dataclass(frozen=True)
class Narrowed:
    """The held-out loss with every layer's band cut to ``window`` keys (``mistral.narrower_window``), and the bits
    per character at each window the page offers."""

    window: int  # W'
    held: HeldOut  # at W', beside the trained W
    windows: tuple[int, ...]  # every W' offered
    bpc: tuple[float, ...]  # the held-out bpc at each


@services.computing
@st.cache_data(show_spinner=False, max_entries=1)
def _narrowed_all() -> dict[int, HeldOut]:
    return {w: _changed({"blocks.*.attn.scores": mistral.narrower_window(w)}) for w in narrower_windows()}


def narrowed(window: int) -> Narrowed:
    """The model run with a band of ``window`` keys at inference, against its trained W (all computed once)."""
    options = narrower_windows()
    if window not in options:
        raise InputError("mistral.error.narrower", options=", ".join(map(str, options)))
    every = _narrowed_all()
    return Narrowed(window, every[window], options, tuple(every[w].bpc_after for w in options))
