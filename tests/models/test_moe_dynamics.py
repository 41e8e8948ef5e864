"""The recorded Switch runs (models/recipes/switch.py ``RUNS``): the per-step routing record is what the router did,
the shipped cards hold every step's loads (shares summing to 1), their snapshots are verified and small, and each run
clears its bar."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, replace

import numpy as np
import pytest
import torch

from models import switch, zoo
from models.probe import trace
from models.recipes import switch as recipe

RUNS = tuple(recipe.RUNS)


def test_the_three_runs_balance_three_ways():
    configs = {name: config for name, (config, _) in recipe.RUNS.items()}
    assert set(configs) == {"switch-run-aux", "switch-run-auxfree", "switch-run-none"}
    assert configs["switch-run-aux"].aux_weight == 0.01 and configs["switch-run-aux"].balance == "aux"
    auxfree = configs["switch-run-auxfree"]
    assert auxfree.aux_weight == 0.0 and auxfree.balance == "bias" and auxfree.bias_update == 1e-3
    none = configs["switch-run-none"]
    assert none.aux_weight == 0.0 and none.balance == "aux"
    # otherwise one model: only the balancing differs
    strip = lambda c: replace(c, aux_weight=0.0, balance="aux", bias_update=0.0)  # noqa: E731
    assert strip(auxfree) == strip(none) == strip(configs["switch-run-aux"])


@pytest.mark.parametrize("balance", ["aux", "bias"])
def test_batch_load_is_the_routing_of_the_training_batch(balance):
    """What the history records per step (each expert's share of the batch's tokens, the dropped share, the bias)
    equals what the router's probes show for that batch."""
    torch.manual_seed(0)
    config = replace(switch.PRESETS["tiny"], capacity_factor=1.0, balance=balance, bias_update=0.05)
    model = switch.build(asdict(config)).train()
    if balance == "bias":
        model.blocks[0].moe.selection_bias += torch.tensor([0.3, -0.1, 0.0, 0.2])
    tokens = torch.randint(0, config.vocab, (3, 20))
    with trace("expert_index", "dropped") as t:
        model(tokens)
    got = recipe.batch_load(model, tokens.numel())
    for i in range(config.n_layers):
        index = t[f"blocks.{i}.moe.expert_index"][..., 0].ravel().numpy()
        share = np.bincount(index, minlength=config.n_experts) / index.size
        np.testing.assert_allclose(got["load"][i], share, atol=1e-4)
        dropped = t[f"blocks.{i}.moe.dropped"][..., 0].numpy().mean()
        assert got["dropped"][i] == pytest.approx(dropped, abs=1e-4)
    assert max(got["dropped"]) > 0  # capacity 1.0 on an untrained router: the check above meets a real drop
    if balance == "bias":
        assert got["bias"][0] == pytest.approx([0.3, -0.1, 0.0, 0.2], abs=1e-4)
    else:
        assert "bias" not in got


def _card(name: str) -> dict:
    return json.loads((zoo.checkpoint_dir(name) / "card.json").read_text())


@pytest.mark.parametrize("name", RUNS)
def test_each_run_ships_verified_snapshots_and_every_steps_loads(name):
    card = _card(name)
    snaps = card["snapshots"]
    assert 6 <= len(snaps) <= 8
    assert snaps[0]["step"] == 0 and snaps[-1]["step"] == card["settings"]["steps"]
    for r in snaps:
        data = (zoo.checkpoint_dir(name) / r["file"]).read_bytes()
        assert len(data) == r["bytes"] and hashlib.sha256(data).hexdigest() == r["sha256"], (name, r["step"])
    history = card["history"]
    steps = card["settings"]["steps"]
    assert history["step"] == list(range(1, steps + 1))
    load = np.asarray(history["load"])  # (steps, layers, experts)
    config = json.loads((zoo.checkpoint_dir(name) / "config.json").read_text())["config"]
    assert load.shape == (steps, config["n_layers"], config["n_experts"])
    np.testing.assert_allclose(load.sum(-1), 1.0, atol=5e-4)  # shares rounded to 4 decimals, 6 of them
    dropped = np.asarray(history["dropped"])
    assert dropped.shape == (steps, config["n_layers"]) and (dropped >= 0).all() and (dropped <= 1).all()
    assert ("bias" in history) == (config["balance"] == "bias")


def test_the_runs_snapshots_fit_the_budget():
    total = sum(r["bytes"] for name in RUNS for r in _card(name)["snapshots"])
    assert total <= 12_000_000


@pytest.mark.parametrize("name", RUNS)
def test_each_run_beats_the_bigram_baseline(name):
    m = _card(name)["metrics"]
    assert m["val_loss"] < m["bigram_val_loss"]


def test_a_snapshot_holds_the_bias_its_step_was_routed_with():
    """The aux-free snapshot at step s is taken inside step s, before that step's bias update: its bias is the one
    the history records for step s."""
    name = "switch-run-auxfree"
    history = _card(name)["history"]
    for r in _card(name)["snapshots"][1:]:
        model = zoo.load(f"{name}@{r['step']}")
        got = [b.moe.selection_bias.tolist() for b in model.blocks]
        want = history["bias"][r["step"] - 1]
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=3e-4)  # float16 snapshot, 4-decimal history
