"""The Switch LM (models/switch.py, models/recipes/switch.py): shapes, parameter counts, the dense twin, causality,
the training loss, ONNX parity, and golden routing of the shipped checkpoint."""

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
from models.probe import trace
from models.recipes import switch as recipe
from tests.models.tolerance import assert_close

TINY = switch.PRESETS["tiny"]
SHIPPED = (zoo.checkpoint_dir("switch") / "model.safetensors").exists()
needs_checkpoint = pytest.mark.skipif(not SHIPPED, reason="switch checkpoint not trained")

# First-choice expert of every token of domains.SAMPLES["mixed"] in each layer, from the shipped checkpoint at its
# own capacity factor and k (recorded when the checkpoint was trained).
GOLDEN_ROUTING = [
    [0, 2, 2, 5, 2, 3, 0, 1, 1, 1, 5, 0, 3, 2, 2, 4, 3, 2, 2, 2, 3, 3, 5, 5, 3, 5, 5, 2, 5, 3, 3, 5, 5],
    [4, 3, 3, 3, 3, 4, 0, 4, 0, 4, 0, 4, 2, 3, 2, 5, 4, 0, 3, 3, 4, 3, 5, 5, 0, 4, 1, 0, 5, 0, 0, 5, 1],
    [2, 4, 0, 0, 0, 0, 4, 4, 1, 2, 1, 2, 3, 4, 4, 4, 0, 5, 3, 0, 2, 0, 1, 3, 2, 0, 2, 5, 4, 3, 4, 4, 4],
]
GOLDEN_DROPPED = 12  # first choices that found their expert full (33 tokens, capacity ⌈1.25 · 33 / 6⌉ = 7)


def tiny(**kw) -> switch.SwitchLM:
    torch.manual_seed(0)
    return switch.build(asdict(TINY) | kw).eval()


def test_shapes_and_probes():
    model = tiny()
    x = torch.randint(0, TINY.vocab, (3, 7))
    with trace("moe.router_probs", "moe.expert_index", "moe.combine", "moe.dropped") as t:
        logits = model(x)
    assert logits.shape == (3, 7, TINY.vocab)
    for i in range(TINY.n_layers):
        assert t[f"blocks.{i}.moe.router_probs"].shape == (3, 7, TINY.n_experts)
        assert t[f"blocks.{i}.moe.expert_index"].shape == (3, 7, 2)


def test_parameter_counts_and_the_dense_twin():
    moe, dense = tiny(), switch.build(asdict(switch.dense_twin(TINY)))
    per_expert = 2 * TINY.dim * TINY.hidden + TINY.hidden + TINY.dim
    router = TINY.dim * TINY.n_experts
    assert zoo.parameter_count(moe) - zoo.parameter_count(dense) == TINY.n_layers * (
        (TINY.n_experts - 1) * per_expert + router
    )
    assert switch.active_parameters(moe) == zoo.parameter_count(dense) + TINY.n_layers * router
    assert switch.active_parameters(dense) == zoo.parameter_count(dense)


def test_causal_without_capacity_limit():
    """With no capacity limit a later token cannot change an earlier token's output (with a limit it can: the
    earlier token may lose its slot — that coupling is the price of fixed-size expert buffers)."""
    model = tiny()
    x = torch.randint(0, TINY.vocab, (1, 12))
    y = x.clone()
    y[0, 8:] = (y[0, 8:] + 1) % TINY.vocab
    a, b = model(x, capacity_factor=0.0), model(y, capacity_factor=0.0)
    torch.testing.assert_close(a[0, :8], b[0, :8])


def test_aux_loss_enters_the_training_loss():
    model = tiny().train()
    chunk = torch.randint(0, TINY.vocab, (2, 9))
    logits, aux = model.forward_aux(chunk[:, :-1])
    assert aux.item() >= TINY.n_layers * 0.5
    assert (
        recipe.loss(model, chunk).item()
        > torch.nn.functional.cross_entropy(logits.flatten(0, 1), chunk[:, 1:].flatten()).item()
    )


def test_nmi_and_cv():
    a = np.array([0, 0, 1, 1, 2, 2])
    assert recipe.normalised_mutual_information(a, a) == pytest.approx(1.0)
    assert recipe.normalised_mutual_information(a, np.zeros(6, dtype=int)) == pytest.approx(0.0)
    assert recipe.cv(np.array([5, 5, 5, 5])) == 0.0


def test_tiny_onnx_export_follows_length_capacity_and_k():
    """The capacity and dispatch logic trace to ONNX: other lengths, capacity factors and k give the same answers."""
    import onnxruntime as ort

    model = tiny()
    wrapper = _WithProbes(model, ["tokens", "capacity_factor", "top_k"], registry.recipe("switch").probes)
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
        wrapper,
        args,
        f,
        input_names=["tokens", "capacity_factor", "top_k"],
        output_names=names,
        dynamic_axes=dynamic,
        dynamo=False,
        opset_version=17,
    )
    session = ort.InferenceSession(f.getvalue(), providers=["CPUExecutionProvider"])
    for B, T, cf, k in [(1, 9, 1.0, 1), (2, 17, 0.5, 2), (3, 5, 0.0, 1), (1, 30, 1.25, 2)]:
        inputs = (torch.randint(0, TINY.vocab, (B, T)), torch.tensor([cf]), torch.tensor([k]))
        with torch.no_grad():
            ref = wrapper(*inputs)
        got = session.run(None, {n: a.numpy() for n, a in zip(["tokens", "capacity_factor", "top_k"], inputs)})
        for name, r, g in zip(names, ref, got):
            assert_close(g, r.numpy(), 2e-5, rtol=1e-4, err_msg=name)


@needs_checkpoint
def test_shipped_onnx_matches_torch_on_other_inputs():
    engine = Engine(device="cpu")
    tok = metrics.tokenizer(zoo.checkpoint_dir("switch"))
    probes = registry.recipe("switch").probes
    for text, cf, k in [(domains.SAMPLES["python"], 0.5, 2), (domains.SAMPLES["arithmetic"], 0.0, 1)]:
        inputs = {
            "tokens": metrics.encode_document(tok, text)[None],
            "capacity_factor": np.array([cf], np.float32),
            "top_k": np.array([k]),
        }
        a = engine.run("switch", inputs, probes, backend="torch")
        b = engine.run("switch", inputs, probes, backend="onnx")
        assert_close(b.outputs["logits"], a.outputs["logits"], 2e-4, rtol=1e-3)
        for key in a.probes:
            assert_close(b.probes[key], a.probes[key], 2e-4, rtol=1e-3, err_msg=key)


@needs_checkpoint
def test_golden_routing_of_the_shipped_checkpoint():
    model = zoo.load("switch")
    tok = metrics.tokenizer(zoo.checkpoint_dir("switch"))
    x = torch.from_numpy(metrics.encode_document(tok, domains.SAMPLES["mixed"]))[None]
    with torch.inference_mode(), trace("expert_index", "dropped") as t:
        model(x)
    routing = [t[f"blocks.{i}.moe.expert_index"][0, :, 0].tolist() for i in range(model.config.n_layers)]
    dropped = sum(int(t[f"blocks.{i}.moe.dropped"][..., :1].sum()) for i in range(model.config.n_layers))
    assert routing == GOLDEN_ROUTING, json.dumps(routing)
    assert dropped == GOLDEN_DROPPED


@needs_checkpoint
def test_card_holds_the_moe_metrics():
    card = zoo.read_card("switch")
    for key in ("val_loss", "dense_val_loss", "load_cv_max", "domain_expert_nmi"):
        assert key in card["metrics"]
    assert len(card["metrics"]["domain_expert_nmi"]) == zoo.read_config("switch")["n_layers"]
    assert card["active_params"] < card["params"]
