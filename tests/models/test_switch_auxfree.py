"""DeepSeek-V3's auxiliary-loss-free load balancing (2412.19437, §2.1.2) in the MoE layer (``balance="bias"``) and
the shipped ``switch-auxfree``: the bias picks experts but never weights them, the step-end update moves load toward
balance, the default layer is untouched, ONNX parity, and golden routing of the checkpoint."""

import io
import json
from dataclasses import asdict

import numpy as np
import pytest
import torch

from models import metrics, switch, zoo
from models import recipes as registry
from models.data import domains
from models.engine import Engine
from models.export import _WithProbes
from models.layers.moe import MoE
from models.probe import name_probes, trace
from models.recipes import switch as recipe
from tests.models.tolerance import assert_close

B, T, C, H, E = 3, 7, 32, 16, 4
TINY = switch.PRESETS["tiny"]
NAME = "switch-auxfree"
SHIPPED = (zoo.checkpoint_dir(NAME) / "model.safetensors").exists()
needs_checkpoint = pytest.mark.skipif(not SHIPPED, reason="switch-auxfree checkpoint not trained")

# First-choice expert of every token of domains.SAMPLES["mixed"] in each layer, from the shipped checkpoint at its
# own capacity factor and k (recorded when the checkpoint was trained).
GOLDEN_ROUTING = [
    [4, 4, 5, 1, 1, 3, 3, 0, 3, 1, 3, 1, 4, 5, 5, 2, 3, 5, 5, 5, 0, 2, 2, 2, 3, 3, 3, 5, 2, 3, 5, 2, 3],
    [5, 5, 1, 1, 1, 5, 5, 4, 5, 0, 5, 5, 4, 0, 0, 5, 1, 0, 0, 0, 4, 0, 3, 5, 4, 4, 0, 5, 3, 4, 3, 3, 3],
    [4, 3, 3, 3, 2, 5, 5, 4, 4, 0, 5, 5, 1, 2, 0, 1, 4, 3, 2, 0, 5, 2, 1, 1, 1, 5, 2, 2, 4, 1, 3, 1, 3],
]
GOLDEN_DROPPED = 8  # first choices that found their expert full (33 tokens, capacity ⌈1.25 · 33 / 6⌉ = 7)


def layer(**kw) -> MoE:
    torch.manual_seed(0)
    return name_probes(MoE(C, H, E, **kw)).eval()


def routed(moe: MoE, x: torch.Tensor):
    with trace("router_probs", "expert_index", "combine") as t:
        moe(x)
    return t["router_probs"], t["expert_index"], t["combine"]


@pytest.fixture
def x():
    torch.manual_seed(1)
    return torch.randn(B, T, C)


def test_the_bias_changes_selection_not_the_combine_weight(x):
    plain = layer(top_k=1, capacity_factor=0.0)
    biased = layer(top_k=1, capacity_factor=0.0, balance="bias")
    probs, index, _ = routed(plain, x)
    biased.selection_bias[:] = torch.tensor([0.0, 0.0, 0.0, 2.0])  # expert 3 wins every token's choice
    b_probs, b_index, b_combine = routed(biased, x)
    torch.testing.assert_close(b_probs, probs)  # the router is the same
    assert (b_index[..., 0] == 3).all() and (index[..., 0] != 3).any()
    # the weight of the chosen expert is its un-biased router probability, not probability + bias
    torch.testing.assert_close(b_combine[..., 0], probs[..., 3])
    assert (b_combine[..., 0] < 1).all()


def test_top2_with_bias_renormalises_the_unbiased_probabilities(x):
    moe = layer(top_k=2, capacity_factor=0.0, balance="bias")
    moe.selection_bias[:] = torch.tensor([1.0, 1.0, 0.0, 0.0])
    probs, index, combine = routed(moe, x)
    assert (index.sort(-1).values == torch.tensor([0, 1])).all()
    chosen = probs.gather(-1, index)  # in rank order
    torch.testing.assert_close(combine, chosen / chosen.sum(-1, keepdim=True))


def test_zero_bias_routes_as_the_default_layer(x):
    a, b = layer(top_k=1), layer(top_k=1, balance="bias")
    ya, _ = a(x)
    yb, _ = b(x)
    torch.testing.assert_close(yb, ya)


def test_the_update_moves_an_overloaded_expert_down_by_gamma(x):
    moe = layer(top_k=1, capacity_factor=0.0, balance="bias", bias_update=0.01).train()
    moe(x)
    load = moe.load.clone()
    assert int(load.sum()) == B * T
    moe.update_bias()
    mean = load.float().mean()
    expected = 0.01 * torch.sign(mean - load.float())  # over the mean: -γ; under: +γ
    torch.testing.assert_close(moe.selection_bias, expected)
    assert moe.selection_bias[load.argmax()] == pytest.approx(-0.01)
    # in eval mode nothing is counted and the update does nothing
    moe.eval()
    moe(x)
    moe.update_bias()
    torch.testing.assert_close(moe.selection_bias, expected)


def test_repeated_updates_balance_a_toy_router():
    """A router that sends most tokens to one expert: the bias alone (no gradient) evens the load out."""
    torch.manual_seed(2)
    moe = MoE(C, H, E, top_k=1, capacity_factor=0.0, balance="bias", bias_update=0.002).train()
    with torch.no_grad():
        moe.router.weight[0] += 0.05 * torch.ones(C)
    x = torch.randn(1, 256, C).abs()
    cvs = []
    for _ in range(200):
        moe(x)
        cvs.append(recipe.cv(moe.load.numpy().astype(float)))
        moe.update_bias()
    assert cvs[0] > 1.0 and np.mean(cvs[-20:]) < 0.1
    assert moe.selection_bias[0] < 0 and moe.selection_bias[0] == moe.selection_bias.min()


def test_the_bias_is_a_buffer_and_the_default_layer_has_none(x):
    moe = layer(balance="bias")
    assert "selection_bias" in moe.state_dict()
    assert all(p is not moe.selection_bias for p in moe.parameters())
    default = layer()
    assert not hasattr(default, "selection_bias")
    assert default.state_dict().keys() == {k for k in moe.state_dict() if k != "selection_bias"}
    with pytest.raises(ValueError):
        layer(balance="loss")


def test_the_recipe_is_switch_without_the_aux_loss():
    assert recipe.AUXFREE.aux_weight == 0.0 and recipe.AUXFREE.balance == "bias"
    assert asdict(recipe.AUXFREE) | {"aux_weight": 0.01, "balance": "aux", "bias_update": 0.0} == asdict(recipe.SHIPPED)
    assert registry.recipe(NAME).defaults == registry.recipe("switch").defaults
    torch.manual_seed(0)
    model = switch.build(asdict(TINY) | {"aux_weight": 0.0, "balance": "bias", "bias_update": 1e-3}).train()
    chunk = torch.randint(0, TINY.vocab, (2, 9))
    logits, _ = model.forward_aux(chunk[:, :-1])
    ce = torch.nn.functional.cross_entropy(logits.flatten(0, 1), chunk[:, 1:].flatten())
    torch.testing.assert_close(recipe.loss(model, chunk), ce)


def test_tiny_onnx_export_carries_the_bias():
    import onnxruntime as ort

    torch.manual_seed(0)
    model = switch.build(asdict(TINY) | {"balance": "bias", "bias_update": 1e-3}).eval()
    for block in model.blocks:
        block.moe.selection_bias[:] = 0.3 * torch.randn(TINY.n_experts)
    names_in = ["tokens", "capacity_factor", "top_k"]
    wrapper = _WithProbes(model, names_in, registry.recipe(NAME).probes)
    args = (torch.randint(0, TINY.vocab, (1, 9)), torch.tensor([1.0]), torch.tensor([1]))
    with torch.no_grad():
        sample = wrapper(*args)
    names = ["logits", *wrapper.probe_names]
    dynamic = {
        "tokens": {0: "B", 1: "T"},
        **{n: {i: f"{n}.{i}" for i in range(s.dim())} for n, s in zip(names, sample)},
    }
    f = io.BytesIO()
    torch.onnx.export(
        wrapper, args, f, input_names=names_in, output_names=names, dynamic_axes=dynamic, dynamo=False, opset_version=17
    )
    session = ort.InferenceSession(f.getvalue(), providers=["CPUExecutionProvider"])
    for B_, T_, cf, k in [(1, 9, 1.0, 1), (2, 17, 0.5, 2), (3, 5, 0.0, 1)]:
        inputs = (torch.randint(0, TINY.vocab, (B_, T_)), torch.tensor([cf]), torch.tensor([k]))
        with torch.no_grad():
            ref = wrapper(*inputs)
        got = session.run(None, {n: a.numpy() for n, a in zip(names_in, inputs)})
        for name, r, g in zip(names, ref, got):
            assert_close(g, r.numpy(), 2e-5, rtol=1e-4, err_msg=name)


@needs_checkpoint
def test_shipped_onnx_matches_torch_on_other_inputs():
    engine = Engine(device="cpu")
    tok = metrics.tokenizer(zoo.checkpoint_dir(NAME))
    probes = registry.recipe(NAME).probes
    for text, cf, k in [(domains.SAMPLES["python"], 0.5, 2), (domains.SAMPLES["arithmetic"], 0.0, 1)]:
        inputs = {
            "tokens": metrics.encode_document(tok, text)[None],
            "capacity_factor": np.array([cf], np.float32),
            "top_k": np.array([k]),
        }
        a = engine.run(NAME, inputs, probes, backend="torch")
        b = engine.run(NAME, inputs, probes, backend="onnx")
        assert_close(b.outputs["logits"], a.outputs["logits"], 2e-4, rtol=1e-3)
        for key in a.probes:
            assert_close(b.probes[key], a.probes[key], 2e-4, rtol=1e-3, err_msg=key)


@needs_checkpoint
def test_golden_routing_of_the_shipped_checkpoint():
    model = zoo.load(NAME)
    tok = metrics.tokenizer(zoo.checkpoint_dir(NAME))
    x = torch.from_numpy(metrics.encode_document(tok, domains.SAMPLES["mixed"]))[None]
    with torch.inference_mode(), trace("expert_index", "dropped") as t:
        model(x)
    routing = [t[f"blocks.{i}.moe.expert_index"][0, :, 0].tolist() for i in range(model.config.n_layers)]
    dropped = sum(int(t[f"blocks.{i}.moe.dropped"][..., :1].sum()) for i in range(model.config.n_layers))
    assert routing == GOLDEN_ROUTING, json.dumps(routing)
    assert dropped == GOLDEN_DROPPED


@needs_checkpoint
def test_card_records_the_load_over_training_and_the_biases():
    card = zoo.read_card(NAME)
    m = card["metrics"]
    assert m["switch_val_loss"] == zoo.read_card("switch")["metrics"]["val_loss"]
    assert m["switch_load_cv_max"] == zoo.read_card("switch")["metrics"]["load_cv_max"]
    curve = card["load_over_training"]
    steps = card["settings"]["steps"]
    assert len(curve["load_cv"]) == 3 and all(len(c) == steps // curve["every_steps"] for c in curve["load_cv"])
    model = zoo.load(NAME)
    biases = [b.moe.selection_bias.tolist() for b in model.blocks]
    assert_close(np.array(card["selection_bias"]), np.array(biases), 1e-4)
