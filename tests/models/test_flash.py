"""FlashAttention (2205.14135), Algorithms 1 and 4, on odd sizes (N=37, d=16, batch dims (3, 2)).

Exactness follows the flash-attention tests' rule: the tiled result's error against a float64 reference is at most
twice the error of eager float32 attention against that reference, plus a floor of a few float32 ulps of the
output's scale (both errors are rounding, and a single rounding more or less must not fail the test on another CPU).
"""

import math

import numpy as np
import pytest
import torch

from models.layers import (
    IOCount,
    block_sizes,
    flash_attention,
    flash_attention_forward,
    flash_io_theorem,
    measure_kernels,
    standard_attention,
    standard_io,
)

N, d = 37, 16
BLOCKS = [(1, 1), (3, 5), (16, 16), (37, 8), (64, 64)]
FLOOR_ULPS = 8


@pytest.fixture(autouse=True)
def _seed_and_one_thread():
    # The blocks are tiny: a second intra-op thread only adds waiting, most of all on a busy shared machine.
    threads = torch.get_num_threads()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def _qkv(*shape: int, dtype=torch.float32) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return tuple(torch.randn(*shape, dtype=dtype) for _ in range(3))


def assert_flash_rule(got: torch.Tensor, eager: torch.Tensor, ref64: torch.Tensor, what: str = "") -> None:
    """max|got − ref64| ≤ 2 · max|eager − ref64| + FLOOR_ULPS float32 ulps of max|ref64|."""
    got_err = (got.double() - ref64).abs().max().item()
    eager_err = (eager.double() - ref64).abs().max().item()
    floor = FLOOR_ULPS * torch.finfo(torch.float32).eps * max(1.0, ref64.abs().max().item())
    assert got_err <= 2 * eager_err + floor, f"{what}: {got_err:.3g} > 2 × {eager_err:.3g} + {floor:.3g}"


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("block_r, block_c", BLOCKS)
def test_output_equals_eager_attention(block_r, block_c, causal):
    q, k, v = _qkv(3, 2, N, d)
    ref64 = standard_attention(q.double(), k.double(), v.double(), causal=causal)
    eager = standard_attention(q, k, v, causal=causal)
    result = flash_attention_forward(q, k, v, block_r=block_r, block_c=block_c, causal=causal)
    assert result.O.shape == (3, 2, N, d) and result.O.dtype == torch.float32
    assert result.m.shape == result.l.shape == (3, 2, N) and result.steps == []
    assert torch.isfinite(result.O).all()
    assert_flash_rule(result.O, eager, ref64, f"O, blocks {block_r}×{block_c}")
    # m and ℓ are the softmax's row max and normaliser: ℓ = Σ exp(S − m) over the keys a row may see.
    S = q.double() @ k.double().transpose(-1, -2) / math.sqrt(d)
    if causal:
        S = S.masked_fill(torch.ones(N, N, dtype=torch.bool).triu(1), -math.inf)
    torch.testing.assert_close(result.m.double(), S.amax(-1), rtol=1e-6, atol=1e-6)
    torch.testing.assert_close(result.l.double(), torch.exp(S - S.amax(-1, keepdim=True)).sum(-1), rtol=1e-5, atol=0)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("block_r, block_c", [(1, 1), (3, 5), (37, 8), (64, 64)])
def test_gradients_equal_autograd_through_eager_attention(block_r, block_c, causal):
    q, k, v = _qkv(3, 2, N, d)
    dO = torch.randn(3, 2, N, d)

    def grads(fn, dtype):
        leaves = [x.detach().to(dtype).clone().requires_grad_() for x in (q, k, v)]
        fn(*leaves).backward(dO.to(dtype))
        return [x.grad for x in leaves]

    ours = grads(lambda *x: flash_attention(*x, block_r=block_r, block_c=block_c, causal=causal), torch.float32)
    eager = grads(lambda *x: standard_attention(*x, causal=causal), torch.float32)
    ref64 = grads(lambda *x: standard_attention(*x, causal=causal), torch.float64)
    for name, got, e, r in zip(("dQ", "dK", "dV"), ours, eager, ref64):
        assert got.shape == (3, 2, N, d)
        assert_flash_rule(got, e, r, f"{name}, blocks {block_r}×{block_c}, causal={causal}")


@pytest.mark.parametrize("causal", [False, True])
def test_gradcheck_in_float64(causal):
    q, k, v = (x.requires_grad_() for x in _qkv(2, 5, 3, dtype=torch.float64))
    assert torch.autograd.gradcheck(
        lambda q, k, v: flash_attention(q, k, v, block_r=2, block_c=3, causal=causal), (q, k, v)
    )


@pytest.mark.parametrize("causal", [False, True])
def test_recorded_steps_walk_algorithm_1(causal):
    block_r, block_c = 8, 5
    q, k, v = _qkv(N, d)
    result = flash_attention_forward(q, k, v, block_r=block_r, block_c=block_c, causal=causal, record=True)
    T_r, T_c = math.ceil(N / block_r), math.ceil(N / block_c)
    steps = result.steps
    assert len(steps) == T_r * T_c
    # outer loop over key/value blocks j, inner over query blocks i
    assert [(s.j, s.i) for s in steps] == [(j, i) for j in range(T_c) for i in range(T_r)]
    assert steps[-1].rows == (32, 37) and steps[-1].cols == (35, 37)  # ragged edges
    np.testing.assert_allclose(steps[-1].O, result.O.double().numpy(), rtol=0, atol=1e-6)
    np.testing.assert_array_equal(steps[-1].m, result.m.double().numpy())
    ms = np.stack([s.m for s in steps])  # (steps, N)
    assert (ms[1:] >= ms[:-1]).all()  # −inf to finite, then never down
    for s in steps:
        assert s.m.dtype == np.float64 and s.O.shape == (N, d) and s.l.shape == (N,)
        assert s.P.shape == (s.rows[1] - s.rows[0], s.cols[1] - s.cols[0])
        seen = np.isfinite(s.m)
        assert (s.l[seen] > 0).all() and (s.l[~seen] == 0).all()
        assert not np.isnan(s.O).any()
        if not s.skipped:
            assert (s.P >= 0).all() and (s.P <= 1).all()
            assert np.isclose(s.P.max(axis=1), 1).any()  # P̃ = exp(S − m̃): a row's max entry is 1
    skipped = [s for s in steps if s.skipped]
    if causal:
        # a block is skipped exactly when its first key comes after its last query
        assert {(s.j, s.i) for s in skipped} == {
            (j, i) for j in range(T_c) for i in range(T_r) if j * block_c > min((i + 1) * block_r, N) - 1
        }
        assert all((s.P == 0).all() for s in skipped)
        # within a partly masked block, entries with key > query are 0
        s = next(s for s in steps if s.j == 1 and s.i == 0)  # rows 0..7, cols 5..9
        r, c = np.arange(*s.rows)[:, None], np.arange(*s.cols)[None, :]
        assert (s.P[c > r] == 0).all() and (s.P[c <= r] > 0).all()
    else:
        assert skipped == []


def test_record_needs_a_single_head():
    with pytest.raises(ValueError):
        flash_attention_forward(*_qkv(2, N, d), block_r=4, block_c=4, record=True)


def test_block_sizes_follow_the_paper():
    assert block_sizes(1024, 16) == (16, 16)
    assert block_sizes(100, 64) == (1, 1)
    assert block_sizes(2**16, 64) == (64, 256)  # B_r is capped at d
    assert block_sizes(1000, 16) == (16, 16)  # ⌈1000 / 64⌉ = 16
    assert block_sizes(1000, 48) == (6, 6)  # ⌈1000 / 192⌉ = 6


def test_io_counts_match_a_hand_count():
    # N=5, d=2, B_r=2, B_c=3: T_c = 2 key blocks (3 and 2 rows), T_r = 3 query blocks (2, 2, 1 rows).
    # reads: K_j, V_j 2·(3+2)·2 = 20; per j, Q_i, O_i, ℓ_i, m_i 2·r·d + 2·r = 6r over r = 5 rows -> 30, twice = 60.
    # writes: per j, O_i, ℓ_i, m_i r·d + 2·r = 4r -> 20, twice = 40.
    q, k, v = _qkv(5, 2)
    assert flash_attention_forward(q, k, v, block_r=2, block_c=3).io == IOCount(reads=80, writes=40)
    # causal: block (j=1: keys 3..4, i=0: queries 0..1) is skipped, 6·2 reads and 4·2 writes fewer
    io = flash_attention_forward(q, k, v, block_r=2, block_c=3, causal=True).io
    assert io == IOCount(reads=68, writes=32) and io.total == 100
    # leading dimensions multiply every count
    assert flash_attention_forward(*_qkv(3, 2, 5, 2), block_r=2, block_c=3).io == IOCount(reads=480, writes=240)


def test_standard_io_formula():
    io = standard_io(N, d)
    assert io.reads == 2 * N * d + N * N + N * N + N * d
    assert io.writes == 2 * N * N + N * d
    assert io.total == 4 * N * N + 4 * N * d


def test_flash_io_follows_theorem_2():
    d_ = 32
    ratios = []
    for M in (2**13, 2**15):
        for n in (512, 1024, 2048):
            B_r, B_c = block_sizes(M, d_)
            q, k, v = _qkv(n, d_)
            io = flash_attention_forward(q, k, v, block_r=B_r, block_c=B_c).io
            ratios.append(io.total / flash_io_theorem(n, d_, M))
    # Θ(N² d² / M): the count over N² d² / M stays in a constant band as N and M vary
    assert 1 < min(ratios) and max(ratios) < 1.5 * min(ratios), ratios


def test_flash_moves_less_than_standard_attention():
    n, d_, M = 1024, 64, 2**16
    B_r, B_c = block_sizes(M, d_)
    q, k, v = _qkv(n, d_)
    flash = flash_attention_forward(q, k, v, block_r=B_r, block_c=B_c).io
    assert flash.total < standard_io(n, d_).total / 2


def test_measure_kernels_on_cpu():
    small, large = (measure_kernels(n, 16, repeats=1) for n in (64, 512))
    for timings, n in ((small, 64), (large, 512)):
        assert [t.kernel for t in timings] == ["eager", "tiled (ours, Python)", "sdpa"]
        for t in timings:
            assert t.ms > 0 and t.peak_bytes > 0 and t.N == n and t.device == "cpu" and t.memory_source
        assert timings[2].backend != "unknown"  # read from the profiler, e.g. "flash (CPU)" or "math"
    eager_small, eager_large = small[0].peak_bytes, large[0].peak_bytes
    assert eager_large > 16 * eager_small  # the N × N matrices: (512 / 64)² = 64 times the elements
    assert large[0].peak_bytes >= 512 * 512 * 4  # at least one float32 N × N matrix


@pytest.mark.gpu
def test_on_cuda_sdpa_is_fused_and_equals_eager():
    q, k, v = (x.cuda() for x in _qkv(2, 4, 1024, 64))
    for causal in (False, True):
        ref64 = standard_attention(q.double(), k.double(), v.double(), causal=causal)
        eager = standard_attention(q, k, v, causal=causal)
        ours = flash_attention_forward(q, k, v, block_r=64, block_c=256, causal=causal).O
        assert_flash_rule(ours, eager, ref64, "tiled on CUDA")
        half = [x.half() for x in (q, k, v)]
        eager16 = standard_attention(*half, causal=causal)
        sdpa16 = torch.nn.functional.scaled_dot_product_attention(*half, is_causal=causal)
        assert_flash_rule(sdpa16, eager16, ref64, "sdpa on CUDA, float16")
    timings = measure_kernels(1024, 64, device="cuda", repeats=3)
    assert [t.kernel for t in timings] == ["eager", "tiled (ours, Python)", "sdpa"]
    assert all(t.ms > 0 and t.peak_bytes > 0 and t.device == "cuda" for t in timings)
    assert timings[2].backend in {"flash", "efficient", "cudnn"}, timings[2].backend
    assert timings[2].peak_bytes < timings[0].peak_bytes
