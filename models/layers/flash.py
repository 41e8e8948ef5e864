"""FlashAttention (Dao, Fu, Ermon, Rudra, Ré 2022, arXiv 2205.14135): exact attention, computed block by block.

Standard attention (the paper's Algorithm 0) writes the N × N matrices S and P to HBM and reads them back.
FlashAttention never forms them: it walks over blocks of K, V (outer loop) and of Q (inner loop), and keeps for each
query row a running max m and a running sum ℓ of the softmax, so the output can be rescaled as new keys arrive.
The result equals softmax(τ Q Kᵀ) V, not an approximation of it.

Algorithm 1 (forward), as written in the paper, 1-based there, 0-based here:

    B_c = ⌈M / 4d⌉,  B_r = min(⌈M / 4d⌉, d)
    O = (0)_{N×d},  ℓ = (0)_N,  m = (−∞)_N                      in HBM
    split Q into T_r = ⌈N / B_r⌉ blocks Q_i; K, V into T_c = ⌈N / B_c⌉ blocks K_j, V_j; O, ℓ, m like Q
    for j = 1 .. T_c:
        load K_j, V_j to SRAM
        for i = 1 .. T_r:
            load Q_i, O_i, ℓ_i, m_i to SRAM
            S_ij  = τ Q_i K_jᵀ                                   (B_r × B_c)
            m̃_ij  = rowmax(S_ij),  P̃_ij = exp(S_ij − m̃_ij),  ℓ̃_ij = rowsum(P̃_ij)
            m_i^new = max(m_i, m̃_ij)
            ℓ_i^new = e^{m_i − m_i^new} ℓ_i + e^{m̃_ij − m_i^new} ℓ̃_ij
            O_i ← diag(ℓ_i^new)⁻¹ (diag(ℓ_i) e^{m_i − m_i^new} O_i + e^{m̃_ij − m_i^new} P̃_ij V_j)   write to HBM
            ℓ_i ← ℓ_i^new,  m_i ← m_i^new                                                        write to HBM
    return O

Causal masking follows Algorithm 2: entries whose key index is greater than the query index get S = −∞ (so P̃ = 0),
and a block where every entry is masked is skipped altogether. A row with nothing to see in a partly masked block
has m̃ = −∞ there; it contributes nothing (e^{m̃ − m^new} = 0) instead of a NaN.

Algorithm 4 (backward, appendix B; without dropout), from Q, K, V, O, dO and the saved ℓ, m — not the N × N matrix:

    dQ, dK, dV = 0
    for j = 1 .. T_c:
        load K_j, V_j;  dK̃_j = 0, dṼ_j = 0 in SRAM
        for i = 1 .. T_r:
            load Q_i, O_i, dO_i, dQ_i, ℓ_i, m_i
            S_ij = τ Q_i K_jᵀ,  P_ij = diag(ℓ_i)⁻¹ exp(S_ij − m_i)      recomputed, P exactly softmax's block
            dṼ_j += P_ijᵀ dO_i
            dP_ij = dO_i V_jᵀ
            D_i = rowsum(dO_i ∘ O_i)
            dS_ij = P_ij ∘ (dP_ij − D_i)
            dQ_i += τ dS_ij K_j                                          write to HBM
            dK̃_j += τ dS_ijᵀ Q_i
        write dK_j ← dK̃_j, dV_j ← dṼ_j to HBM

IO (Theorem 2): standard attention moves Θ(N d + N²) elements between HBM and SRAM, FlashAttention Θ(N² d² M⁻¹).
``flash_attention_forward`` counts the elements its loop loads and stores (``IOCount``); ``standard_io`` counts
Algorithm 0's.

Glossary (the paper's symbols, spelled the same in the code):

    N      sequence length (rows of Q, K, V)          d      head width (columns of Q, K, V)
    M      on-chip memory (SRAM), in elements         τ      softmax scale 1/√d
    B_r    rows in a query block Q_i                  B_c    rows in a key/value block K_j, V_j
    T_r    number of query blocks ⌈N / B_r⌉           T_c    number of key/value blocks ⌈N / B_c⌉
    m      running row max of S (N,)                  ℓ      running row sum of exp(S − m) (N,)
    O      the output (N, d), correct after the last key/value block
    S, P   scores and probabilities of one block;  P̃ unnormalised, m̃, ℓ̃ that block's own max and sum

Leading dimensions (batch, heads) ride along: q, k, v are (..., N, d), every block covers all of them at once.

This Python loop is slow — far slower than eager attention. FlashAttention's speed comes from running the loop as ONE
fused GPU kernel that keeps the blocks in SRAM and never writes S or P to HBM; here the loop shows the algorithm,
its IO count and its exactness. ``measure_kernels`` times it against eager attention and PyTorch's fused SDPA.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F

# Default on-chip memory for measure_kernels' tiled run, in elements: 64 Ki float32 = 256 KiB, the order of an SM's
# shared memory on an A100/H100 (the paper's "M around 100 KB" for fp16).
SRAM_ELEMENTS = 2**16


def block_sizes(M: int, d: int) -> tuple[int, int]:
    """(B_r, B_c) of Algorithm 1 line 1: B_c = ⌈M / 4d⌉, B_r = min(⌈M / 4d⌉, d)."""
    if M < 1 or d < 1:
        raise ValueError("M and d must be positive")
    B_c = math.ceil(M / (4 * d))
    return min(B_c, d), B_c


@dataclass(frozen=True)
class IOCount:
    """Elements moved between HBM (the full tensors) and SRAM (the blocks), as Algorithm 1 loads and stores them:
    per key/value block K_j, V_j are read (2·B_c·d); per inner iteration Q_i, O_i (2·B_r·d) and ℓ_i, m_i (2·B_r) are
    read and O_i, ℓ_i, m_i written (B_r·d + 2·B_r), with the real block sizes at a ragged edge. A causal block that
    is skipped moves nothing. Counted over every leading (batch, head) index."""

    reads: int
    writes: int

    @property
    def total(self) -> int:
        return self.reads + self.writes


@dataclass(frozen=True)
class Step:
    """The state after one inner iteration (key/value block j, query block i), as float64 numpy copies."""

    j: int  # key/value block (outer loop), 0-based
    i: int  # query block (inner loop), 0-based
    rows: tuple[int, int]  # query rows [start, stop) of Q_i
    cols: tuple[int, int]  # key columns [start, stop) of K_j
    m: np.ndarray  # (N,) running max, −inf where no key has been seen yet
    l: np.ndarray  # (N,) running sum
    O: np.ndarray  # (N, d) output so far
    P: np.ndarray  # (rows, cols) P̃_ij = exp(S_ij − m̃_ij), masked entries 0; smaller than B_r × B_c at a ragged edge
    skipped: bool  # the block was entirely masked (causal) and skipped


@dataclass(frozen=True)
class FlashResult:
    O: torch.Tensor  # (..., N, d)
    m: torch.Tensor  # (..., N)
    l: torch.Tensor  # (..., N)
    io: IOCount
    steps: list[Step] = field(default_factory=list)  # only with record=True, for a single head


def _spans(N: int, B: int) -> list[tuple[int, int]]:
    """[start, stop) of each block of B rows; the last one is shorter when B does not divide N."""
    return [(s, min(s + B, N)) for s in range(0, N, B)]


def _check(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, block_r: int, block_c: int) -> None:
    if q.ndim < 2 or q.shape != k.shape or q.shape != v.shape:
        raise ValueError(
            f"q, k, v must share one shape (..., N, d); got {tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}"
        )
    if block_r < 1 or block_c < 1:
        raise ValueError("block sizes must be positive")


def _fully_masked(rows: tuple[int, int], cols: tuple[int, int]) -> bool:
    """Causal: every key of the block comes after every query of it (the first key > the last query)."""
    return cols[0] > rows[1] - 1


def _causal_block_mask(rows: tuple[int, int], cols: tuple[int, int], device: torch.device) -> torch.Tensor:
    """(rows, cols) boolean, True where the key index is greater than the query index (masked out)."""
    r = torch.arange(rows[0], rows[1], device=device)[:, None]
    c = torch.arange(cols[0], cols[1], device=device)[None, :]
    return c > r


def _finite_or_zero(x: torch.Tensor) -> torch.Tensor:
    """−∞ → 0, so exp(S − m) and e^{m − m_new} stay 0 (not NaN) for rows that have seen no key yet."""
    return torch.where(torch.isneginf(x), torch.zeros_like(x), x)


def flash_attention_forward(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    block_r: int,
    block_c: int,
    causal: bool = False,
    record: bool = False,
) -> FlashResult:
    """Algorithm 1 on q, k, v (..., N, d) with blocks of B_r = block_r query rows and B_c = block_c key rows.

    Returns O, m, ℓ, the elements moved between HBM and SRAM (counted over every leading index), and with
    ``record=True`` (q of shape (N, d) only) one Step per inner iteration. Computes in float32 at least.
    """
    _check(q, k, v, block_r, block_c)
    if record and q.ndim != 2:
        raise ValueError("record=True needs a single head: q, k, v of shape (N, d)")
    *lead, N, d = q.shape
    heads = math.prod(lead)  # every count below is per head, times this
    dtype = torch.promote_types(q.dtype, torch.float32)
    Q, K, V = q.to(dtype), k.to(dtype), v.to(dtype)
    tau = 1.0 / math.sqrt(d)

    O = torch.zeros_like(Q)  # (..., N, d)
    l = torch.zeros(*lead, N, dtype=dtype, device=q.device)  # (..., N)
    m = torch.full((*lead, N), -math.inf, dtype=dtype, device=q.device)  # (..., N)
    reads = writes = 0
    steps: list[Step] = []

    for j, cols in enumerate(_spans(N, block_c)):
        c0, c1 = cols
        K_j, V_j = K[..., c0:c1, :], V[..., c0:c1, :]  # (..., B_c, d)
        reads += 2 * (c1 - c0) * d * heads
        for i, rows in enumerate(_spans(N, block_r)):
            r0, r1 = rows
            if causal and _fully_masked(rows, cols):
                if record:
                    steps.append(_step(j, i, rows, cols, m, l, O, torch.zeros(r1 - r0, c1 - c0), skipped=True))
                continue
            Q_i, O_i, l_i, m_i = Q[..., r0:r1, :], O[..., r0:r1, :], l[..., r0:r1], m[..., r0:r1]
            reads += (2 * (r1 - r0) * d + 2 * (r1 - r0)) * heads

            S_ij = tau * Q_i @ K_j.transpose(-1, -2)  # (..., B_r, B_c)
            if causal:
                S_ij = S_ij.masked_fill(_causal_block_mask(rows, cols, q.device), -math.inf)
            m_tilde = S_ij.amax(dim=-1)  # (..., B_r)
            P_tilde = torch.exp(S_ij - _finite_or_zero(m_tilde)[..., None])  # (..., B_r, B_c), masked entries 0
            l_tilde = P_tilde.sum(dim=-1)  # (..., B_r)

            m_new = torch.maximum(m_i, m_tilde)  # (..., B_r)
            m_ref = _finite_or_zero(m_new)
            alpha = torch.exp(m_i - m_ref)  # e^{m_i − m_i^new}, 0 where m_i = −∞
            beta = torch.exp(m_tilde - m_ref)  # e^{m̃_ij − m_i^new}, 0 where the row saw only masked keys
            l_new = alpha * l_i + beta * l_tilde
            safe_l_new = torch.where(l_new > 0, l_new, torch.ones_like(l_new))  # a row with no key yet keeps O = 0
            O_i = ((l_i * alpha)[..., None] * O_i + beta[..., None] * (P_tilde @ V_j)) / safe_l_new[..., None]

            O[..., r0:r1, :] = O_i
            l[..., r0:r1] = l_new
            m[..., r0:r1] = m_new
            writes += ((r1 - r0) * d + 2 * (r1 - r0)) * heads
            if record:
                steps.append(_step(j, i, rows, cols, m, l, O, P_tilde, skipped=False))

    return FlashResult(O=O.to(q.dtype), m=m, l=l, io=IOCount(reads=reads, writes=writes), steps=steps)


def _step(
    j: int,
    i: int,
    rows: tuple[int, int],
    cols: tuple[int, int],
    m: torch.Tensor,
    l: torch.Tensor,
    O: torch.Tensor,
    P: torch.Tensor,
    *,
    skipped: bool,
) -> Step:
    def copy(x: torch.Tensor) -> np.ndarray:
        return x.detach().to("cpu", torch.float64).numpy().copy()

    return Step(j=j, i=i, rows=rows, cols=cols, m=copy(m), l=copy(l), O=copy(O), P=copy(P), skipped=skipped)


def flash_attention_backward(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    O: torch.Tensor,
    dO: torch.Tensor,
    m: torch.Tensor,
    l: torch.Tensor,
    *,
    block_r: int,
    block_c: int,
    causal: bool = False,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Algorithm 4 (no dropout): dQ, dK, dV from the saved O, m, ℓ, recomputing S and P block by block."""
    *lead, N, d = q.shape
    dtype = torch.promote_types(q.dtype, torch.float32)
    Q, K, V, O, dO, m, l = (x.to(dtype) for x in (q, k, v, O, dO, m, l))
    tau = 1.0 / math.sqrt(d)
    m = _finite_or_zero(m)
    l = torch.where(l > 0, l, torch.ones_like(l))  # a row that saw no key has P = 0 either way

    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)
    for cols in _spans(N, block_c):
        c0, c1 = cols
        K_j, V_j = K[..., c0:c1, :], V[..., c0:c1, :]  # (..., B_c, d)
        dK_j, dV_j = torch.zeros_like(K_j), torch.zeros_like(V_j)  # dK̃_j, dṼ_j in SRAM
        for rows in _spans(N, block_r):
            r0, r1 = rows
            if causal and _fully_masked(rows, cols):
                continue
            Q_i, O_i, dO_i = Q[..., r0:r1, :], O[..., r0:r1, :], dO[..., r0:r1, :]
            l_i, m_i = l[..., r0:r1], m[..., r0:r1]
            S_ij = tau * Q_i @ K_j.transpose(-1, -2)  # (..., B_r, B_c)
            if causal:
                S_ij = S_ij.masked_fill(_causal_block_mask(rows, cols, q.device), -math.inf)
            P_ij = torch.exp(S_ij - m_i[..., None]) / l_i[..., None]  # (..., B_r, B_c)
            dV_j += P_ij.transpose(-1, -2) @ dO_i
            dP_ij = dO_i @ V_j.transpose(-1, -2)  # (..., B_r, B_c)
            D_i = (dO_i * O_i).sum(dim=-1)  # (..., B_r)
            dS_ij = P_ij * (dP_ij - D_i[..., None])
            dQ[..., r0:r1, :] += tau * dS_ij @ K_j
            dK_j += tau * dS_ij.transpose(-1, -2) @ Q_i
        dK[..., c0:c1, :] = dK_j
        dV[..., c0:c1, :] = dV_j
    return dQ.to(q.dtype), dK.to(k.dtype), dV.to(v.dtype)


class FlashAttentionFunction(torch.autograd.Function):
    """Forward: Algorithm 1, saving O, m, ℓ (O(N) extra, not the N × N matrix). Backward: Algorithm 4."""

    @staticmethod
    def forward(ctx, q, k, v, block_r: int, block_c: int, causal: bool):  # type: ignore[override]
        result = flash_attention_forward(q, k, v, block_r=block_r, block_c=block_c, causal=causal)
        ctx.save_for_backward(q, k, v, result.O, result.m, result.l)
        ctx.blocks = (block_r, block_c, causal)
        return result.O

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, dO):  # type: ignore[override]
        q, k, v, O, m, l = ctx.saved_tensors
        block_r, block_c, causal = ctx.blocks
        dq, dk, dv = flash_attention_backward(q, k, v, O, dO, m, l, block_r=block_r, block_c=block_c, causal=causal)
        return dq, dk, dv, None, None, None


def flash_attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, block_r: int, block_c: int, causal: bool = False
) -> torch.Tensor:
    """softmax(τ q kᵀ) v by Algorithms 1 and 4: differentiable, and equal to ``standard_attention``."""
    _check(q, k, v, block_r, block_c)
    return FlashAttentionFunction.apply(q, k, v, block_r, block_c, causal)


def standard_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, causal: bool = False) -> torch.Tensor:
    """Algorithm 0, eager: S = τ Q Kᵀ, P = softmax(S) (key index > query index masked when causal), O = P V."""
    N, d = q.shape[-2], q.shape[-1]
    S = q @ k.transpose(-1, -2) / math.sqrt(d)  # (..., N, N)
    if causal:
        S = S.masked_fill(_causal_block_mask((0, N), (0, k.shape[-2]), q.device), -math.inf)
    P = torch.softmax(S, dim=-1)  # (..., N, N)
    return P @ v  # (..., N, d)


def standard_io(N: int, d: int) -> IOCount:
    """Algorithm 0's HBM traffic: read Q, K (2Nd), write S (N²), read S (N²), write P (N²), read P, V (N² + Nd),
    write O (Nd)."""
    return IOCount(reads=2 * N * d + N * N + N * N + N * d, writes=2 * N * N + N * d)


def flash_io_theorem(N: int, d: int, M: int) -> float:
    """Theorem 2's Θ(N² d² / M) with the constant taken as 1: the shape of the curve, not a count."""
    return N * N * d * d / M


# ---------------------------------------------------------------------------------------------------------------
# Live kernel timings: eager attention, the tiled loop above, and PyTorch's fused scaled_dot_product_attention.


@dataclass(frozen=True)
class KernelTiming:
    kernel: str  # "eager", "tiled (ours, Python)", "sdpa"
    backend: str  # what actually ran, read from the profiler's op names (for sdpa the kernel PyTorch chose)
    device: str
    N: int
    ms: float  # median of repeats
    peak_bytes: int  # allocator peak over the call, above what was allocated before it
    memory_source: str  # which counter peak_bytes comes from


# aten op name -> the SDPA backend it belongs to (the most specific op found wins, so order matters).
_SDPA_OPS = (
    ("_scaled_dot_product_flash_attention_for_cpu", "flash (CPU)"),
    ("_scaled_dot_product_fused_attention_overrideable", "overrideable"),
    ("_scaled_dot_product_flash_attention", "flash"),
    ("_flash_attention_forward", "flash"),
    ("_scaled_dot_product_efficient_attention", "efficient"),
    ("_efficient_attention_forward", "efficient"),
    ("_scaled_dot_product_cudnn_attention", "cudnn"),
    ("_cudnn_attention_forward", "cudnn"),
    ("_scaled_dot_product_attention_math", "math"),
)


def _sdpa_backend(op_names: set[str]) -> str:
    for op, backend in _SDPA_OPS:
        if f"aten::{op}" in op_names:
            return backend
    return "unknown"


def _sync(device: str) -> None:
    if device.startswith("cuda"):
        torch.cuda.synchronize(device)


def _profile(fn: Callable[[], object], device: str) -> tuple[set[str], int, str]:
    """Run fn once under torch.profiler: the aten op names it called, its peak memory and where that came from."""
    from torch.profiler import ProfilerActivity, profile

    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.startswith("cuda") else [])
    if device.startswith("cuda"):
        _sync(device)
        torch.cuda.reset_peak_memory_stats(device)
        before = torch.cuda.memory_allocated(device)
    with profile(activities=activities, profile_memory=not device.startswith("cuda")) as prof:
        fn()
        _sync(device)
    events = prof.profiler.kineto_results.events()
    names = {e.name() for e in events}
    if device.startswith("cuda"):
        return names, torch.cuda.max_memory_allocated(device) - before, "torch.cuda.max_memory_allocated"
    # CPU: replay the profiler's allocation (+) and free (−) events in time order and take the running peak.
    live = peak = 0
    for _, nbytes in sorted((e.start_ns(), e.nbytes()) for e in events if e.name() == "[memory]"):
        live += nbytes
        peak = max(peak, live)
    return names, peak, "torch.profiler memory events (CPU allocator)"


def _median_ms(fn: Callable[[], object], device: str, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        _sync(device)
        start = time.perf_counter()
        fn()
        _sync(device)
        samples.append((time.perf_counter() - start) * 1e3)
    return statistics.median(samples)


def measure_kernels(
    N: int,
    d: int,
    *,
    device: str = "cpu",
    repeats: int = 3,
    heads: int = 1,
    causal: bool = True,
    M: int = SRAM_ELEMENTS,
) -> list[KernelTiming]:
    """Time eager attention, the tiled loop (blocks from M) and F.scaled_dot_product_attention on q, k, v
    (1, heads, N, d) float32 (float16 on CUDA, which the fused kernels need), with one warm-up call each."""
    dtype = torch.float16 if device.startswith("cuda") else torch.float32
    gen = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, heads, N, d, generator=gen).to(device=device, dtype=dtype) for _ in range(3))
    B_r, B_c = block_sizes(M, d)
    kernels: dict[str, Callable[[], torch.Tensor]] = {
        "eager": lambda: standard_attention(q, k, v, causal=causal),
        "tiled (ours, Python)": lambda: flash_attention_forward(q, k, v, block_r=B_r, block_c=B_c, causal=causal).O,
        "sdpa": lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal),
    }
    out = []
    with torch.inference_mode():
        for kernel, fn in kernels.items():
            fn()  # warm-up: first-call allocations and kernel selection are not what we measure
            names, peak, source = _profile(fn, device)
            backend = {"eager": "aten matmul + softmax", "tiled (ours, Python)": f"python loop, B_r={B_r} B_c={B_c}"}
            ms = _median_ms(fn, device, repeats)
            out.append(
                KernelTiming(
                    kernel=kernel,
                    backend=backend.get(kernel) or _sdpa_backend(names),
                    device=device,
                    N=N,
                    ms=ms,
                    peak_bytes=int(peak),
                    memory_source=source,
                )
            )
    return out
