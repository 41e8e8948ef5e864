"""Shared layers on tiny odd sizes (B=3, T=7, C=20, H=4) so shape bugs cannot hide."""

import math

import pytest
import torch

from models.layers import (
    MLP,
    KVCache,
    MultiHeadAttention,
    RMSNorm,
    RotaryEmbedding,
    SwiGLU,
    T5RelativeBias,
    alibi_bias,
    alibi_slopes,
    apply_rope,
    causal_mask,
    padding_mask,
    rope_decay_bound,
    rope_frequencies,
    sinusoidal_table,
    sliding_window_mask,
    t5_relative_position_bucket,
)
from models.probe import name_probes, trace

B, T, C, H = 3, 7, 20, 4


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)


def test_attention_shapes_and_probes():
    attn = name_probes(MultiHeadAttention(C, H))
    x = torch.randn(B, T, C)
    with trace("*") as t:
        y = attn(x, mask=causal_mask(T))
    assert y.shape == (B, T, C)
    assert t["pattern"].shape == (B, H, T, T)
    assert torch.allclose(t["pattern"].sum(-1), torch.ones(B, H, T))
    assert t["q"].shape == (B, H, T, C // H)


def test_cross_attention_shapes():
    attn = name_probes(MultiHeadAttention(C, H))
    with trace("pattern") as t:
        y = attn(torch.randn(B, T, C), source=torch.randn(B, 5, C))
    assert y.shape == (B, T, C) and t["pattern"].shape == (B, H, T, 5)


def test_causal_outputs_do_not_change_when_later_tokens_change():
    attn = MultiHeadAttention(C, H)
    x = torch.randn(B, T, C)
    y = attn(x, mask=causal_mask(T))
    x2 = x.clone()
    x2[:, 4:] = torch.randn(B, T - 4, C)
    y2 = attn(x2, mask=causal_mask(T))
    assert torch.allclose(y[:, :4], y2[:, :4], atol=1e-6)
    assert not torch.allclose(y[:, 4:], y2[:, 4:])


def test_fused_path_equals_eager():
    eager = MultiHeadAttention(C, H, n_kv_heads=2)
    fused = MultiHeadAttention(C, H, n_kv_heads=2, fused=True)
    fused.load_state_dict(eager.state_dict())
    x = torch.randn(B, T, C)
    bias = alibi_bias(H, T)
    for kw in ({}, {"mask": causal_mask(T)}, {"mask": sliding_window_mask(T, 3), "bias": bias}):
        assert torch.allclose(eager(x, **kw), fused(x, **kw), atol=1e-5)


def test_kv_cache_decoding_equals_full_forward():
    attn = MultiHeadAttention(C, H, n_kv_heads=1)
    x = torch.randn(B, T, C)
    full = attn(x, mask=causal_mask(T))
    cache = KVCache()
    steps = [attn(x[:, i : i + 1], cache=cache) for i in range(T)]
    assert len(cache) == T
    assert torch.allclose(full, torch.cat(steps, dim=1), atol=1e-5)


def test_gqa_with_as_many_kv_heads_as_query_heads_is_mha():
    mha = MultiHeadAttention(C, H)
    gqa = MultiHeadAttention(C, H, n_kv_heads=H)
    gqa.load_state_dict(mha.state_dict())
    x = torch.randn(B, T, C)
    assert torch.equal(mha(x), gqa(x))


def test_sliding_window_rows_see_min_w_t_plus_1_keys():
    for W in (1, 3, 5, 20):
        m = sliding_window_mask(11, W)
        assert m.sum(-1).tolist() == [min(W, t + 1) for t in range(11)]
        assert not torch.triu(m, diagonal=1).any()


def test_causal_mask_with_cache_offset():
    m = causal_mask(2, 5)
    assert m.tolist() == [[True, True, True, True, False], [True] * 5]


def test_padding_gets_no_attention():
    attn = name_probes(MultiHeadAttention(C, H))
    tokens = torch.tensor([[5, 6, 7, 0, 0], [1, 2, 3, 4, 5], [9, 0, 0, 0, 0]])
    with trace("pattern") as t:
        attn(torch.randn(3, 5, C), mask=padding_mask(tokens, pad_id=0))
    pattern = t["pattern"]
    assert pattern[0, :, :, 3:].abs().max() < 1e-12
    assert pattern[2, :, :, 1:].abs().max() < 1e-12


def test_rope_scores_depend_only_on_offset():
    D = 16
    rope = RotaryEmbedding(D)
    q, k = torch.randn(D), torch.randn(D)
    pos = torch.arange(12)
    cos, sin = rope(pos)
    qs = apply_rope(q.expand(1, 1, 12, D), cos, sin)[0, 0]
    ks = apply_rope(k.expand(1, 1, 12, D), cos, sin)[0, 0]
    scores = qs @ ks.T  # (m, n)
    for offset in range(-11, 12):
        diag = torch.diagonal(scores, offset)
        assert torch.allclose(diag, diag[0].expand_as(diag), atol=1e-4)


def test_rope_preserves_norms_and_matches_complex_form():
    D = 8
    cos, sin = RotaryEmbedding(D)(torch.arange(5))
    x = torch.randn(2, 3, 5, D)
    r = apply_rope(x, cos, sin)
    assert torch.allclose(r.norm(dim=-1), x.norm(dim=-1), atol=1e-5)
    z = torch.view_as_complex(x.reshape(2, 3, 5, D // 2, 2))
    rot = torch.polar(torch.ones_like(cos), torch.atan2(sin, cos))
    assert torch.allclose(torch.view_as_real(z * rot).flatten(-2), r, atol=1e-5)


def test_rope_scaling_options():
    rope = RotaryEmbedding(16, base=10000.0)
    pos = torch.arange(8)
    cos_pi, _ = rope(pos * 2, interpolation=2.0)
    cos, _ = rope(pos)
    assert torch.allclose(cos_pi, cos, atol=1e-6)
    far = torch.arange(0, 8000, 1000)
    _, sin = rope(far)
    _, sin_ntk = rope(far, ntk=4.0)
    assert torch.allclose(sin_ntk[:, 0], sin[:, 0])  # the fastest pair keeps its frequency under NTK scaling
    assert not torch.allclose(sin_ntk[:, -1], sin[:, -1], atol=1e-3)  # the slowest one is stretched


def test_rope_attention_is_unchanged_when_every_position_shifts():
    """Only offsets reach the scores, so moving the whole sequence by 100 positions changes nothing."""
    attn = MultiHeadAttention(24, H, n_kv_heads=2, bias=False)  # D = 6: RoPE needs pairs
    rope = RotaryEmbedding(24 // H)
    x = torch.randn(B, T, 24)
    near = attn(x, mask=causal_mask(T), rope=rope(torch.arange(T)))
    far = attn(x, mask=causal_mask(T), rope=rope(torch.arange(100, 100 + T)))
    assert torch.allclose(near, far, atol=1e-5)


def test_rope_decay_bound_formula_and_decay():
    D = 64
    r = torch.arange(0, 400)
    bound = rope_decay_bound(D, r)
    assert bound[0].item() == pytest.approx((D // 2 + 1) / 2)  # every Sⱼ = j at distance 0
    theta = rope_frequencies(D).double()
    j = 5  # one distance by hand: mean over j of |Σ_{k<j} e^{i·r·θₖ}|
    manual = sum(abs(sum(complex(math.cos(j * t), math.sin(j * t)) for t in theta[:n])) for n in range(1, D // 2 + 1))
    assert bound[j].item() == pytest.approx(manual / (D // 2))
    assert bound[200:].mean() < 0.5 * bound[:10].mean()  # long-term decay
    assert rope_decay_bound(D, r, base=100.0)[50:].mean() < bound[50:].mean()  # a small base decays sooner


def test_rope_scores_obey_roformer_abel_bound():
    """|q_m·k_n| ≤ max_i |h_{i+1} − h_i| · Σⱼ |Sⱼ| with hᵢ = q pair i · conj(k pair i) (2104.09864 eq. 36)."""
    D, n = 16, 64
    rope = RotaryEmbedding(D)
    cos, sin = rope(torch.arange(n))
    bound = rope_decay_bound(D, torch.arange(n)) * (D // 2)
    for _ in range(20):
        q, k = torch.randn(D, dtype=torch.float64), torch.randn(D, dtype=torch.float64)
        qs = apply_rope(q.float().expand(1, 1, n, D), cos, sin)[0, 0]
        ks = apply_rope(k.float().expand(1, 1, n, D), cos, sin)[0, 0]
        scores = (qs[n - 1] * ks).sum(-1).flip(0)  # query at n − 1, key at distance r = 0 … n − 1
        h = torch.view_as_complex(q.view(-1, 2)) * torch.view_as_complex(k.view(-1, 2)).conj()
        step = (torch.cat([h[1:], h.new_zeros(1)]) - h).abs().max()
        assert torch.all(scores.abs().double() <= step * bound + 1e-4)


def test_sinusoidal_table_matches_formula():
    table = sinusoidal_table(9, 6)
    p, i = 7, 1
    assert math.isclose(table[p, 2 * i].item(), math.sin(p / 10000 ** (2 * i / 6)), rel_tol=1e-5)
    assert math.isclose(table[p, 2 * i + 1].item(), math.cos(p / 10000 ** (2 * i / 6)), rel_tol=1e-5)


def test_t5_buckets():
    rel = torch.arange(-200, 201)
    b = t5_relative_position_bucket(rel, bidirectional=True, num_buckets=32, max_distance=128)
    assert b.min() >= 0 and b.max() <= 31
    assert b[200].item() == 0  # offset 0
    assert len(set(b[193:208].tolist())) == 15  # offsets -7..7 (below num_buckets/4) each get their own bucket
    c = t5_relative_position_bucket(rel, bidirectional=False, num_buckets=32, max_distance=128)
    assert (c[201:] == 0).all()  # the future shares bucket 0 in the causal form
    assert T5RelativeBias(H)(T).shape == (H, T, T)


def test_alibi():
    assert torch.allclose(alibi_slopes(8), torch.tensor([2.0 ** (-i) for i in range(1, 9)]))
    assert alibi_slopes(6).shape == (6,)
    bias = alibi_bias(4, 5)
    assert bias.shape == (4, 5, 5) and bias[0, 4, 0].item() == pytest.approx(-4 * 0.25)


def test_norms_and_ffns():
    x = torch.randn(B, T, C)
    y = RMSNorm(C)(x)
    assert torch.allclose(y.pow(2).mean(-1), torch.ones(B, T), atol=1e-3)
    assert MLP(C, 2 * C, activation="relu")(x).shape == x.shape
    assert SwiGLU(C, 2 * C)(x).shape == x.shape
