"""The MoE layer: routing weights, capacity and dropping, the load-balancing loss, shared experts."""

import math

import pytest
import torch

from models.layers.moe import MoE, load_balancing_loss
from models.probe import name_probes, trace

B, T, C, H, E = 3, 7, 32, 16, 4


def layer(**kw) -> MoE:
    torch.manual_seed(0)
    return name_probes(MoE(C, H, E, **kw)).eval()


def run(moe: MoE, x: torch.Tensor, **kw):
    with trace("*") as t:
        y, aux = moe(x, **kw)
    return y, aux, {k.split(".")[-1]: v for k, v in t.items() if "experts" not in k and "shared" not in k}


@pytest.fixture
def x():
    torch.manual_seed(1)
    return torch.randn(B, T, C)


def test_shapes_and_probes(x):
    y, aux, p = run(layer(top_k=1), x)
    assert y.shape == (B, T, C) and aux.shape == ()
    assert p["router_probs"].shape == (B, T, E)
    assert p["expert_index"].shape == p["combine"].shape == p["dropped"].shape == (B, T, 2)
    torch.testing.assert_close(p["router_probs"].sum(-1), torch.ones(B, T))


def test_top2_weights_sum_to_one_and_follow_the_router(x):
    _, _, p = run(layer(top_k=2, capacity_factor=0.0), x)
    torch.testing.assert_close(p["combine"].sum(-1), torch.ones(B, T))
    top = p["router_probs"].topk(2, dim=-1)
    assert torch.equal(p["expert_index"], top.indices)
    torch.testing.assert_close(p["combine"], top.values / top.values.sum(-1, keepdim=True))


def test_top1_weight_is_the_router_probability(x):
    _, _, p = run(layer(top_k=1, capacity_factor=0.0), x)
    torch.testing.assert_close(p["combine"][..., 0], p["router_probs"].max(-1).values)
    assert torch.all(p["combine"][..., 1] == 0)


@pytest.mark.parametrize("k", [1, 2])
@pytest.mark.parametrize("cf", [0.25, 0.5, 1.0, 1.25, 2.0])
def test_capacity_is_respected_and_slots_add_up(x, k, cf):
    _, _, p = run(layer(top_k=k), x, capacity_factor=cf)
    n = B * T
    capacity = math.ceil(cf * n * k / E)
    assert p["capacity"].item() == capacity
    index, dropped = p["expert_index"][..., :k], p["dropped"][..., :k] > 0
    kept_per_expert = torch.bincount(index[~dropped], minlength=E)
    assert kept_per_expert.max() <= capacity
    assert (~dropped).sum() + dropped.sum() == n * k
    # a slot is dropped only when its expert is full
    routed = torch.bincount(index.flatten(), minlength=E)
    assert torch.equal(kept_per_expert, routed.clamp(max=capacity))


def test_first_choices_come_before_second_choices(x):
    _, _, p = run(layer(top_k=2), x, capacity_factor=0.5)
    index, dropped = p["expert_index"], p["dropped"] > 0
    for e in range(E):
        if dropped[..., 0][index[..., 0] == e].any():  # first choices of e overflowed: no second choice of e kept
            assert dropped[..., 1][index[..., 1] == e].all()


def test_dropped_tokens_get_nothing_and_weights_are_zero(x):
    moe = layer(top_k=1)
    y, _, p = run(moe, x, capacity_factor=0.25)
    dropped = p["dropped"][..., 0] > 0
    assert dropped.any()
    assert torch.all(y[dropped] == 0)
    assert torch.all(p["combine"][..., 0][dropped] == 0)


def test_sparse_dispatch_equals_the_dense_reference(x):
    """Eager mode runs each expert only on its kept tokens; the reference runs all experts on all tokens."""
    moe = layer(top_k=2, n_shared=1)
    y, _, p = run(moe, x, capacity_factor=1.0)
    flat = x.reshape(-1, C)
    ref = moe.shared[0](flat)
    index, weight = p["expert_index"].reshape(-1, 2), p["combine"].reshape(-1, 2)
    for e, expert in enumerate(moe.experts):
        gate = (weight * (index == e)).sum(-1, keepdim=True)
        ref = ref + gate * expert(flat)
    torch.testing.assert_close(y.reshape(-1, C), ref)


def test_shared_experts_see_every_token(x):
    moe = layer(top_k=1, n_shared=2)
    y, _, p = run(moe, x, capacity_factor=1e-6)  # capacity 1: each expert keeps one token, the rest are dropped
    flat = x.reshape(-1, C)
    shared = moe.shared[0](flat) + moe.shared[1](flat)
    dropped = p["dropped"][..., 0].flatten() > 0
    assert dropped.sum() >= B * T - E
    torch.testing.assert_close(y.reshape(-1, C)[dropped], shared[dropped])


def test_aux_loss_matches_the_formula_by_hand():
    probs = torch.tensor([[0.7, 0.2, 0.1], [0.6, 0.3, 0.1], [0.1, 0.1, 0.8], [0.2, 0.5, 0.3]])
    index = probs.argmax(-1, keepdim=True)
    used = torch.ones_like(index, dtype=torch.bool)
    f = torch.tensor([2 / 4, 1 / 4, 1 / 4])
    P = torch.tensor([1.6 / 4, 1.1 / 4, 1.3 / 4])
    expected = 3 * (f * P).sum()
    torch.testing.assert_close(load_balancing_loss(probs, index, used), expected)
    assert abs(expected.item() - 3 * (0.5 * 0.4 + 0.25 * 0.275 + 0.25 * 0.325)) < 1e-6


def test_aux_loss_is_one_at_uniform_routing_and_larger_when_imbalanced():
    n = 12
    uniform = torch.full((n, E), 1 / E)
    balanced = torch.arange(n)[:, None] % E  # every expert gets n / E tokens
    used = torch.ones(n, 1, dtype=torch.bool)
    assert load_balancing_loss(uniform, balanced, used).item() == pytest.approx(1.0)
    torch.manual_seed(0)
    for _ in range(20):  # hard routings: f = P, so E · Σ fᵢ² ≥ 1 with equality only when balanced
        choice = torch.randint(0, E, (n, 1))
        onehot = (choice == torch.arange(E)).float()
        assert load_balancing_loss(onehot, choice, used).item() >= 1.0 - 1e-6
    collapsed = torch.zeros(n, 1, dtype=torch.long)
    assert load_balancing_loss(torch.eye(E)[collapsed[:, 0]], collapsed, used).item() == pytest.approx(E)


def test_top_k_can_be_switched_at_run_time(x):
    moe = layer(top_k=1)
    _, _, one = run(moe, x, capacity_factor=0.0)
    _, _, two = run(moe, x, capacity_factor=0.0, top_k=2)
    assert torch.equal(one["expert_index"], two["expert_index"])
    torch.testing.assert_close(two["combine"].sum(-1), torch.ones(B, T))


def test_aux_loss_gets_gradient_to_the_router(x):
    moe = MoE(C, H, E, top_k=1).train()
    _, aux = moe(x)
    aux.backward()
    assert moe.router.weight.grad.abs().sum() > 0
