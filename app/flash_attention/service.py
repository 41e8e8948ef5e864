"""The FlashAttention page's bridge to ``models.layers.flash`` and the trained ``gpt`` checkpoint: Algorithm 1 step by
step on one real head, the HBM accesses it counts against standard attention, and live kernel timings.

q, k, v are read with the engine's probes ``blocks.{layer}.attn.{q,k,v}`` on the torch backend: the exported ONNX
graph does not output them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

from app.shared import assets, services
from app.shared.i18n import InputError
from models import metrics
from models.data import bpe
from models.layers import flash

MODEL = services.checkpoint("gpt")  # the trained model whose heads Algorithm 1 walks through
MAX_CHARS = 200
# N for the step-through, <|endoftext|> included (the model's context is 256): every step of Algorithm 1 rides in the
# figure, and at 4 × 4 blocks 64 tokens make 16 × 16 = 256 steps (about 1 MB of figure); 128 would make 1,024
MAX_TOKENS = 64
DEFAULT_TEXT = assets.lines("examples/flash_attention.txt")[0]  # the text box's default (the model reads English)
BLOCKS = (4, 8, 16, 32, 64)  # B_r, B_c choices: at least 4 rows keeps T_r × T_c (the step slider) below ~1,100
MEMORY = (512, 1024, 2048, 4096, 8192)  # M choices (elements) for the GPT head, d = 32: blocks of 4 … 64
IO_D = 64  # head width of the IO and kernel sections, the paper's typical d
IO_NS = (128, 256, 512, 1024, 2048)
IO_MEMORY = (4096, 8192, 16384, 32768, 65536)  # elements, from d² = 4096 up; B_c = 16 … 256
KERNEL_NS = (128, 256, 512, 1024, 2048)


def available() -> bool:
    return MODEL.available


@st.cache_data(show_spinner=False, max_entries=64)
def shape() -> tuple[int, int, int]:
    """(layers, heads, head width d) of the GPT checkpoint."""
    MODEL.require()
    cfg = MODEL.config
    return cfg["n_layers"], cfg["n_heads"], cfg["dim"] // cfg["n_heads"]


def head_width() -> int:
    return shape()[2]


def blocks_from_memory(M: int) -> tuple[int, int]:
    """(B_r, B_c) = block_sizes(M, d) for the GPT head; ``InputError`` when M is out of range."""
    d = head_width()
    lo, hi = 4 * d * BLOCKS[0], MEMORY[-1]
    if not lo <= M <= hi:
        raise InputError("flash.error.memory", M=M, d=d, min=lo, max=hi, b=BLOCKS[0])
    return flash.block_sizes(M, d)


@dataclass(frozen=True)
class Heads:
    """q, k, v of one head for a text. N positions (<|endoftext|> first), d head width."""

    pieces: tuple[str, ...]  # (N,) each token as text
    q: np.ndarray  # (N, d)
    k: np.ndarray  # (N, d)
    v: np.ndarray  # (N, d)
    backend: str
    device: str
    ms: float


def _pieces(ids: np.ndarray) -> tuple[str, ...]:
    raw = bpe.token_bytes(MODEL.tokenizer, ids)
    return tuple(bpe.EOT if i == 0 else b.decode("utf-8", errors="replace") for i, b in zip(ids, raw))


@services.computing
@st.cache_data(show_spinner=False, max_entries=64)
def heads(text: str, layer: int, head: int) -> Heads:
    """q, k, v of ``head`` in block ``layer`` of the GPT for ``text``."""
    if not text or not text.strip():
        raise InputError("flash.error.empty")
    if len(text) > MAX_CHARS:
        raise InputError("flash.error.too_long", n=len(text), max=MAX_CHARS)
    n_layers, n_heads, _ = shape()
    if not (0 <= layer < n_layers and 0 <= head < n_heads):
        raise InputError("flash.error.choice")
    ids = metrics.encode_document(MODEL.tokenizer, text)
    if len(ids) > MAX_TOKENS:
        raise InputError("flash.error.tokens", n=len(ids), max=MAX_TOKENS)
    names = tuple(f"blocks.{layer}.attn.{x}" for x in "qkv")
    res = MODEL.run({"tokens": ids[None]}, names, backend="torch")
    q, k, v = (np.asarray(res.probes[n][0, head], dtype=np.float32) for n in names)  # (N, d) each
    return Heads(_pieces(ids), q, k, v, res.backend, res.device, res.ms)


@dataclass(frozen=True)
class Walk:
    """Algorithm 1 on one head, one entry per inner iteration s (T_c × T_r of them, key block j outer)."""

    pieces: tuple[str, ...]  # (N,)
    d: int
    block_r: int
    block_c: int
    t_r: int  # ⌈N / B_r⌉ query blocks
    t_c: int  # ⌈N / B_c⌉ key/value blocks
    causal: bool
    scores: np.ndarray  # (N, N) q kᵀ / √d, NaN where the causal mask hides the key
    j: np.ndarray  # (S,) key block, 0-based
    i: np.ndarray  # (S,) query block, 0-based
    skipped: np.ndarray  # (S,) the tile was wholly masked and skipped
    m: np.ndarray  # (S, N) running max after the step, −inf before a row has seen a key
    l: np.ndarray  # (S, N) running sum after the step
    P: tuple[np.ndarray, ...]  # (S,) of (rows, cols): P̃_ij = exp(S_ij − m̃_ij)
    O_before: tuple[np.ndarray, ...]  # (S,) of (rows, d): O_i before the step
    O_after: tuple[np.ndarray, ...]  # (S,) of (rows, d): O_i after it
    kept: tuple[np.ndarray, ...]  # (S,) of (rows,): ℓ_i e^(m_i − m_new) / ℓ_new, the weight left on the old O_i
    finished: np.ndarray  # (S,) query rows whose O is final after the step
    error: np.ndarray  # (S,) max |O − standard| over those rows (NaN while none)
    final_error: float  # max |O − standard| after the last step, all rows
    scale: float  # max |standard O|, the outputs' scale
    O: np.ndarray  # (N, d) the final output
    backend: str
    device: str
    ms: float

    @property
    def rows(self) -> list[tuple[int, int]]:
        N = len(self.pieces)
        return [(s, min(s + self.block_r, N)) for s in range(0, N, self.block_r)]

    @property
    def cols(self) -> list[tuple[int, int]]:
        N = len(self.pieces)
        return [(s, min(s + self.block_c, N)) for s in range(0, N, self.block_c)]


@st.cache_data(show_spinner=False, max_entries=64)
def walk(text: str, layer: int, head: int, block_r: int, block_c: int, causal: bool) -> Walk:
    """Run ``flash_attention_forward(record=True)`` on the head's q, k, v and keep what the page draws."""
    if block_r not in BLOCKS or block_c not in BLOCKS:
        raise InputError("flash.error.blocks", choices=", ".join(map(str, BLOCKS)), br=block_r, bc=block_c)
    h = heads(text, layer, head)
    q, k, v = (torch.from_numpy(x) for x in (h.q, h.k, h.v))
    N, d = h.q.shape
    res = flash.flash_attention_forward(q, k, v, block_r=block_r, block_c=block_c, causal=causal, record=True)
    ref = flash.standard_attention(q, k, v, causal=causal).double().numpy()  # (N, d)

    scores = (h.q.astype(np.float64) @ h.k.T.astype(np.float64)) / np.sqrt(d)  # (N, N)
    if causal:
        scores[np.triu_indices(N, 1)] = np.nan

    steps = res.steps
    last = np.full(N, -1)  # the last step that updates each row
    for s, st_ in enumerate(steps):
        if not st_.skipped:
            last[st_.rows[0] : st_.rows[1]] = s
    O_prev = np.zeros((N, d))
    m_prev, l_prev = np.full(N, -np.inf), np.zeros(N)
    P, before, after, kept, error, finished = [], [], [], [], [], []
    for s, st_ in enumerate(steps):
        r0, r1 = st_.rows
        P.append(st_.P.astype(np.float32))
        before.append(O_prev[r0:r1].astype(np.float32))
        after.append(st_.O[r0:r1].astype(np.float32))
        with np.errstate(invalid="ignore", over="ignore"):
            m_old = np.where(np.isneginf(m_prev[r0:r1]), st_.m[r0:r1], m_prev[r0:r1])
            w = l_prev[r0:r1] * np.exp(m_old - st_.m[r0:r1]) / np.where(st_.l[r0:r1] > 0, st_.l[r0:r1], 1.0)
        kept.append(np.nan_to_num(w).astype(np.float32))
        done = last <= s
        finished.append(int(done.sum()))
        error.append(float(np.abs(st_.O[done] - ref[done]).max()) if done.any() else np.nan)
        O_prev, m_prev, l_prev = st_.O, st_.m, st_.l

    O = res.O.double().numpy()
    return Walk(
        pieces=h.pieces,
        d=d,
        block_r=block_r,
        block_c=block_c,
        t_r=-(-N // block_r),
        t_c=-(-N // block_c),
        causal=causal,
        scores=scores.astype(np.float32),
        j=np.array([x.j for x in steps]),
        i=np.array([x.i for x in steps]),
        skipped=np.array([x.skipped for x in steps]),
        m=np.stack([x.m for x in steps]).astype(np.float32),
        l=np.stack([x.l for x in steps]).astype(np.float32),
        P=tuple(P),
        O_before=tuple(before),
        O_after=tuple(after),
        kept=tuple(kept),
        finished=np.array(finished),
        error=np.array(error),
        final_error=float(np.abs(O - ref).max()),
        scale=float(np.abs(ref).max()),
        O=O.astype(np.float32),
        backend=h.backend,
        device=h.device,
        ms=h.ms,
    )


# ---- IO accounting --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class IO:
    """HBM accesses (elements) for one head of width d."""

    N: int
    M: int
    d: int
    block_r: int
    block_c: int
    standard: int  # Algorithm 0, counted by standard_io
    flash: int  # Algorithm 1, counted by the instrumented tiled loop
    theorem: float  # N² d² / M


@st.cache_data(show_spinner=False, max_entries=64)
def io(N: int, M: int) -> IO:
    """Run the tiled loop once on random q, k, v (N, IO_D) with the blocks M gives, and read its IO count."""
    if N not in IO_NS or M not in IO_MEMORY:
        raise InputError("flash.error.io")
    d = IO_D
    B_r, B_c = flash.block_sizes(M, d)
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(N, d, generator=g) for _ in range(3))
    counted = flash.flash_attention_forward(q, k, v, block_r=B_r, block_c=B_c).io
    return IO(N, M, d, B_r, B_c, flash.standard_io(N, d).total, counted.total, flash.flash_io_theorem(N, d, M))


# ---- live kernels ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    kernel: str  # "eager", "tiled", "sdpa"
    backend: str  # what ran (for SDPA the backend PyTorch chose)
    device: str
    N: int
    ms: float
    peak_mb: float
    memory_source: str


KERNELS = {"eager": "eager", "tiled (ours, Python)": "tiled", "sdpa": "sdpa"}


def device() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


def measure(N: int) -> tuple[Timing, ...]:
    """Time the three kernels at one N (not cached: it is a live measurement, run on a button press)."""
    if N not in KERNEL_NS:
        raise InputError("flash.error.io")
    out = flash.measure_kernels(N, IO_D, device=device(), repeats=3, causal=True)
    return tuple(
        Timing(KERNELS.get(x.kernel, x.kernel), x.backend, x.device, x.N, x.ms, x.peak_bytes / 2**20, x.memory_source)
        for x in out
    )
