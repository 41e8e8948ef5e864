"""Mamba (2312.00752): the parallel scan equals the sequential reference, step() equals the full forward, the model is
causal, LTI means input-independent Δ/B/C, the shipped checkpoints give their golden outputs, and ONNX Runtime
agrees with torch on the shapes the page uses."""

from __future__ import annotations

from dataclasses import asdict, replace

import numpy as np
import pytest
import torch

from models import mamba, zoo
from models import recipes as registry
from models.data import ssm_tasks
from models.engine import Engine
from models.probe import trace
from models.recipes import mamba as recipe
from models.training import fast_kernels
from tests.models.tolerance import assert_close

# Odd sizes so that shape mix-ups cannot hide.
b, l, d_in, n = 3, 37, 10, 4


def random_scan_inputs(seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    u = torch.randn(b, l, d_in, generator=g)
    delta = torch.rand(b, l, d_in, generator=g) * 2
    A = -torch.rand(d_in, n, generator=g) * 5 - 0.1
    B, C = torch.randn(b, l, n, generator=g), torch.randn(b, l, n, generator=g)
    D = torch.randn(d_in, generator=g)
    return u, delta, A, B, C, D


def tiny(lti: bool = False) -> mamba.Mamba:
    torch.manual_seed(0)
    return mamba.build(asdict(replace(mamba.PRESETS["tiny"], lti=lti))).eval()


def test_parallel_scan_equals_the_reference():
    args = random_scan_inputs()
    y_ref, h_ref = mamba.selective_scan_ref(*args)
    y, h = mamba.selective_scan(*args)
    assert y.shape == (b, l, d_in) and h.shape == (b, l, d_in, n)
    # float32 on both sides; the products are formed in a different order, nothing more.
    assert_close(y, y_ref, 1e-5)
    assert_close(h, h_ref, 1e-5)
    y_more, _ = mamba.selective_scan(*args, steps=10)  # as exported: more doubling steps than l needs
    assert_close(y_more, y_ref, 1e-5)


def test_parallel_scan_gradients_equal_the_reference():
    grads = []
    for scan in (mamba.selective_scan_ref, mamba.selective_scan):
        args = [a.clone().requires_grad_() for a in random_scan_inputs(1)]
        scan(*args)[0].square().sum().backward()
        grads.append([a.grad for a in args])
    for g_ref, g in zip(*grads):
        assert_close(g, g_ref, 1e-4)


def test_scan_with_a_start_state_continues_a_sequence():
    u, delta, A, B, C, D = random_scan_inputs(2)
    y_all, h_all = mamba.selective_scan_ref(u, delta, A, B, C, D)
    k = 20
    y2, _ = mamba.selective_scan_ref(u[:, k:], delta[:, k:], A, B[:, k:], C[:, k:], D, h0=h_all[:, k - 1])
    assert_close(y2, y_all[:, k:], 1e-5)


@pytest.mark.parametrize("lti", [False, True])
def test_step_over_a_sequence_equals_the_full_forward(lti):
    model = tiny(lti)
    tokens = torch.randint(0, model.config.vocab, (2, 23))
    with torch.no_grad():
        full = model(tokens)
    torch.testing.assert_close(mamba.recurrent_logits(model, tokens), full, atol=1e-5, rtol=1e-4)
    diff = mamba.scan_difference(model, tokens)
    assert diff["parallel_vs_sequential"] < 1e-5 and diff["parallel_vs_recurrent"] < 1e-5
    with torch.no_grad():  # scan_difference never switches the shared model: its forward is the parallel one still
        assert torch.equal(model(tokens), full)


def test_the_state_has_a_constant_size():
    model = tiny()
    c = model.config
    assert mamba.state_bytes(model) == 4 * c.n_layers * c.d_in * (c.d_conv - 1 + c.d_state)


def test_causal_under_perturbation():
    model = tiny()
    tokens = torch.randint(0, model.config.vocab, (1, 19))
    changed = tokens.clone()
    changed[0, 11] = (changed[0, 11] + 1) % model.config.vocab
    with torch.no_grad():
        a, b_ = model(tokens), model(changed)
    torch.testing.assert_close(a[:, :11], b_[:, :11])
    assert (a[:, 11:] - b_[:, 11:]).abs().max() > 1e-4


def test_probes_and_their_shapes():
    model = tiny()
    c = model.config
    tokens = torch.randint(0, c.vocab, (2, 9))
    with torch.no_grad(), trace(*mamba.PROBES) as t:
        model(tokens)
    shapes = {
        "delta": (2, 9, c.d_in),
        "A_bar": (2, 9, c.d_in, c.d_state),
        "B": (2, 9, c.d_state),
        "C": (2, 9, c.d_state),
        "h_norm": (2, 9),
        "out": (2, 9, c.d_model),
    }
    for i in range(c.n_layers):
        for name, shape in shapes.items():
            assert tuple(t[f"layers.{i}.mixer.{name}"].shape) == shape
    A = model.layers[0].mixer.A
    torch.testing.assert_close(t["layers.0.mixer.A_bar"], torch.exp(t["layers.0.mixer.delta"][..., None] * A))
    assert (t["layers.0.mixer.delta"] > 0).all()  # softplus
    assert torch.equal(mamba.Mixer(c).A[3], -torch.arange(1.0, c.d_state + 1))  # S4D-real initialisation


def test_lti_delta_b_c_do_not_depend_on_the_input():
    model = tiny(lti=True)
    runs = []
    for seed in (0, 1):
        tokens = torch.randint(0, model.config.vocab, (1, 12), generator=torch.Generator().manual_seed(seed))
        with torch.no_grad(), trace("delta", "mixer.B", "mixer.C") as t:
            model(tokens)
        runs.append(dict(t.items()))
    for key in runs[0]:
        assert torch.equal(runs[0][key], runs[1][key])
    assert runs[0]["layers.0.mixer.delta"].std(dim=1).max() == 0  # the same Δ at every position


def test_training_asks_for_the_sequential_scan_by_argument_and_the_model_is_never_switched():
    model = tiny()
    tokens = torch.randint(0, model.config.vocab, (2, 13))
    with torch.no_grad():
        parallel = model(tokens)
        with fast_kernels(model):  # the training kernels leave Mamba's scan to its forward's argument
            sequential = model(tokens, scan="sequential")
            assert torch.equal(model(tokens), parallel)
        assert torch.equal(model(tokens), parallel)
    assert not any(hasattr(m, "parallel") for m in model.modules())  # no mode flag on the modules
    torch.testing.assert_close(sequential, parallel, atol=1e-5, rtol=1e-4)
    with pytest.raises(ValueError, match="scan"):
        model(tokens, scan="fast")


def test_the_task_presets_fit_the_tasks_vocabularies():
    assert mamba.PRESETS["copy"].vocab == ssm_tasks.selective_copy_vocab(recipe.COPY_TASK["n_values"])
    assert mamba.PRESETS["induction"].vocab == ssm_tasks.induction_vocab(recipe.INDUCTION_TASK["n_values"])


def test_tasks_are_deterministic_and_well_formed():
    a = ssm_tasks.selective_copy(np.random.default_rng(3), 5, length=20, n_memorize=4, n_values=6)
    again = ssm_tasks.selective_copy(np.random.default_rng(3), 5, length=20, n_memorize=4, n_values=6)
    assert np.array_equal(a.tokens, again.tokens)
    content = a.tokens[:, :20]
    data = content[content >= ssm_tasks.FIRST_VALUE].reshape(5, 4)  # in order of position
    assert np.array_equal(data, a.targets[:, 20:]) and a.mask[:, 20:].all() and not a.mask[:, :20].any()
    assert (a.tokens[:, 20:] == ssm_tasks.MARKER).all()
    ind = ssm_tasks.induction(np.random.default_rng(3), 50, length=16, n_values=5)
    for row, target in zip(ind.tokens, ind.targets[:, -1]):
        first = int(np.flatnonzero(row == ssm_tasks.TRIGGER)[0])
        assert first < 14 and row[first + 1] == target and row[-1] == ssm_tasks.TRIGGER
        assert (row == ssm_tasks.TRIGGER).sum() == 2


# ---- shipped checkpoints ----------------------------------------------------------------------------------------

SHIPPED = [
    n
    for n in ("mamba-selective-copy", "mamba-lti-selective-copy", "mamba-induction", "mamba-lm")
    if n in zoo.available()
]

# Greedy predictions at the scored positions of each recipe's example input (recorded from the shipped weights).
GOLDEN = {
    "mamba-selective-copy": [9, 7, 7, 9, 6, 8, 8, 3],
    "mamba-lti-selective-copy": [9, 9, 9, 9, 9, 9, 3, 3],
    "mamba-induction": [7],
}


@pytest.fixture(scope="module")
def engine():
    return Engine(device="cpu")


@pytest.mark.parametrize("name", [n for n in SHIPPED if n in GOLDEN])
def test_golden_outputs_of_the_shipped_task_models(engine, name):
    inputs = registry.recipe(name).example_inputs(zoo.checkpoint_dir(name))
    logits = engine.run(name, inputs).outputs["logits"][0]
    rng = np.random.default_rng(7)
    batch = recipe.copy_batch(rng, 1) if "copy" in name else recipe.induction_batch(rng, 1)
    assert np.array_equal(batch.tokens, inputs["tokens"])
    pred = logits.argmax(-1)[batch.mask[0]].tolist()
    assert pred == GOLDEN[name]
    if name != "mamba-lti-selective-copy":
        assert pred == batch.targets[0][batch.mask[0]].tolist()


@pytest.mark.skipif("mamba-lm" not in SHIPPED, reason="mamba-lm is not shipped")
def test_golden_next_tokens_of_the_language_model(engine):
    inputs = registry.recipe("mamba-lm").example_inputs(zoo.checkpoint_dir("mamba-lm"))
    assert inputs["tokens"].tolist() == [[0, 1206, 293, 867, 556, 422, 290, 259, 1836, 1675, 326, 716, 31]]
    pred = engine.run("mamba-lm", inputs).outputs["logits"][0].argmax(-1).tolist()
    assert pred == [614, 293, 306, 76, 268, 12, 268, 264, 1675, 326, 288, 14, 199]


@pytest.mark.parametrize("name", SHIPPED)
def test_card_reaches_its_bars(name):
    card = zoo.read_card(name)
    assert not zoo.bars_missed(card["metrics"], registry.recipe(name).bars)
    assert card["params"] == zoo.parameter_count(zoo.load(name))


def page_shapes(name: str) -> list[np.ndarray]:
    """Inputs like the page's: one task instance (and induction at 4× its training length), or a text."""
    rng = np.random.default_rng(11)
    if "copy" in name:
        return [recipe.copy_batch(rng, 1).tokens]
    if name == "mamba-induction":
        L = recipe.INDUCTION_TASK["length"]
        return [recipe.induction_batch(rng, 1, L).tokens, recipe.induction_batch(rng, 1, 4 * L).tokens]
    return [rng.integers(0, zoo.load(name).config.vocab, size=(1, k)) for k in (5, 120)]


@pytest.mark.parametrize("name", SHIPPED)
def test_onnx_parity_on_the_pages_shapes(engine, name):
    probes = registry.recipe(name).probes
    for tokens in page_shapes(name):
        a = engine.run(name, {"tokens": tokens}, probes, backend="torch")
        o = engine.run(name, {"tokens": tokens}, probes, backend="onnx")
        assert a.probes.keys() == o.probes.keys() and "layers.0.mixer.delta" in o.probes
        # float32 on both sides, summed in a different order; Ā and Δ pass through exp/softplus, hence rtol.
        assert_close(o.outputs["logits"], a.outputs["logits"], 2e-4, rtol=1e-3)
        for key in a.probes:
            assert_close(o.probes[key], a.probes[key], 2e-4, rtol=1e-3, err_msg=key)
