"""Megatron's split layer equals the whole over real gloo processes; ZeRO's memory formula against the paper's
Figure 1 and against the bytes Adam and ZeroRedundancyOptimizer really allocate."""

from __future__ import annotations

import pytest
import torch

from models import gpt, parallel
from models.layers import causal_mask
from models.recipes import parallel as runs
from tests.models.tolerance import assert_close

CONFIG = dict(vocab=300, dim=48, n_heads=6, n_layers=2, max_len=64, mlp_ratio=4)


@pytest.fixture(scope="module")
def model():
    torch.manual_seed(0)
    return gpt.build(CONFIG).eval()


def test_zero_bytes_are_the_papers_figure_1():
    gb = {s: sum(parallel.zero_bytes(7.5e9, 64, s).values()) / 1e9 for s in parallel.ZERO_STAGES}
    assert gb[0] == pytest.approx(120.0)
    assert round(gb[1], 1) == 31.4 and round(gb[2], 1) == 16.6 and round(gb[3], 1) == 1.9
    one = {s: sum(parallel.zero_bytes(1e9, 1, s).values()) for s in parallel.ZERO_STAGES}
    assert len(set(one.values())) == 1  # one device: nothing to partition
    with pytest.raises(ValueError):
        parallel.zero_bytes(1e9, 8, 4)


def test_mixed_precision_bytes_are_2_2_4_8_psi(model):
    psi = sum(p.numel() for p in model.parameters())
    got = runs.mixed_precision_bytes(model)
    assert got["parameters_fp16"] == 2 * psi and got["gradients_fp16"] == 2 * psi
    assert got["master_fp32"] == 4 * psi
    # Adam's momentum and variance (+ a 4-byte step counter per parameter tensor): the paper's K = 12 is these 8
    # bytes and the 4 of the fp32 master copy
    n_tensors = len(list(model.parameters()))
    assert got["adam_states_fp32"] == 8 * psi + 4 * n_tensors


def test_megatron_layout_splits_every_matrix_once():
    rows = parallel.megatron_layout(dim=192, n_heads=6, mlp=768, t=3)
    for r in rows:
        whole = r.shape[0] * r.shape[1]
        assert r.per_device[0] * r.per_device[1] * 3 == whole
        assert (r.split == "column") == (r.per_device[1] < r.shape[1])
    assert {r.name: r.split for r in rows}["B (MLP out)"] == "row"
    with pytest.raises(ValueError):
        parallel.megatron_layout(dim=192, n_heads=6, mlp=768, t=4)


def test_unsplit_layer_is_the_models_own_block(model):
    x = torch.randn(2, 16, CONFIG["dim"], generator=torch.Generator().manual_seed(1))
    mlp, attn = parallel.unsplit(parallel.block_weights(model, 1), x, CONFIG["n_heads"])
    block = model.blocks[1]
    with torch.no_grad():
        assert_close(mlp, block.mlp(x), 1e-5)
        assert_close(attn, block.attn(x, mask=causal_mask(16)), 1e-5)


def test_shards_sum_to_the_whole_without_processes(model):
    """The arithmetic of the split, on one process: the t partial outputs sum to the whole layer's."""
    w = parallel.block_weights(model, 0)
    x = torch.randn(1, 10, CONFIG["dim"], generator=torch.Generator().manual_seed(2))
    mlp, attn = parallel.unsplit(w, x, CONFIG["n_heads"])
    for t in (2, 3, 6):
        parts = [parallel.mlp_shard(x, w["w1"], w["b1"], w["w2"], w["b2"], r, t) for r in range(t)]
        assert_close(sum(parts), mlp, 1e-5)
        heads = [parallel.attention_shard(x, w["wqkv"], w["bqkv"], w["wo"], w["bo"], 6, r, t) for r in range(t)]
        assert_close(sum(heads), attn, 1e-5)
        assert not torch.allclose(parts[0], mlp, atol=1e-3)  # one shard alone is not the answer


def test_tensor_parallel_over_gloo_equals_the_whole(model):
    x = torch.randn(2, 12, CONFIG["dim"], generator=torch.Generator().manual_seed(3))
    got = parallel.tensor_parallel_check(parallel.block_weights(model, 0), x, CONFIG["n_heads"], t=2)
    assert got["mlp_max_abs_diff"] <= 1e-5 * max(1.0, got["output_scale"])
    assert got["attention_max_abs_diff"] <= 1e-5 * max(1.0, got["output_scale"])
    assert got["allreduces_forward"] == 2 and got["allreduce_bytes"] == 2 * 12 * CONFIG["dim"] * 4
    assert got["ring_bytes_sent_per_device"] == got["allreduce_bytes"]  # 2·(t−1)/t = 1 for t = 2


def test_zero_redundancy_optimizer_holds_half_the_states_per_rank(model):
    got = runs.zero_check(model, CONFIG, world=2)
    full, per_rank = got["adam_state_bytes_one_process"], got["adam_state_bytes_per_rank"]
    assert sum(per_rank) == full
    assert all(0.25 * full < b < 0.75 * full for b in per_rank)  # each rank its shard, about half
