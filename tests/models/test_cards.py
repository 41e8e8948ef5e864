"""Every shipped card is checked by code: its metrics are recomputed from the weights and held-out data by the
recipe's own evaluation, and must equal the card's (to a tolerance relative to each value) and meet its bars.

The checkpoints whose evaluation reads a corpus or many windows take minutes on 2 cores: those are ``slow`` (CI
runs them in the second step of ``.ci/run``)."""

from __future__ import annotations

import json

import pytest

from models import recipes as registry
from models import zoo

CARDS = sorted(p.name for p in zoo.SHIPPED.iterdir() if (p / "card.json").exists())
SHIPPED = [n for n in CARDS if (zoo.SHIPPED / n / "model.safetensors").exists()]
SWEEPS = [n for n in CARDS if registry.sweep_for_folder(n)]  # tables of runs (the scaling sweep), no weights
FAST = {"demo", "vit", "transformer", "mamba-selective-copy", "mamba-lti-selective-copy", "mamba-induction"}
FIELDS = ("name", "data", "command", "seed", "params", "wall_time_s", "hardware", "metrics", "bars")


def _card(name: str) -> dict:
    return json.loads((zoo.SHIPPED / name / "card.json").read_text())


def _close(recomputed, stored, path: str) -> list[str]:
    """Differences between two metric trees; numbers may differ by 1% of their size, or two units of the card's
    fourth decimal (cards round to 4 places), whichever is larger."""
    if isinstance(stored, dict):
        if not isinstance(recomputed, dict) or recomputed.keys() != stored.keys():
            return [
                f"{path}: keys {sorted(recomputed) if isinstance(recomputed, dict) else recomputed} != {sorted(stored)}"
            ]
        return [d for k in stored for d in _close(recomputed[k], stored[k], f"{path}.{k}")]
    if isinstance(stored, list):
        if not isinstance(recomputed, list) or len(recomputed) != len(stored):
            return [f"{path}: {recomputed} != {stored}"]
        return [d for i, (a, b) in enumerate(zip(recomputed, stored)) for d in _close(a, b, f"{path}[{i}]")]
    if isinstance(stored, bool) or not isinstance(stored, (int, float)):
        return [] if recomputed == stored else [f"{path}: {recomputed!r} != {stored!r}"]
    tol = max(0.01 * abs(stored), 2e-4)
    return [] if abs(recomputed - stored) <= tol else [f"{path}: {recomputed} != {stored} (± {tol:.2g})"]


@pytest.mark.parametrize("name", SHIPPED)
def test_card_fields_and_bars_are_the_recipes(name):
    card = _card(name)
    recipe = registry.recipe(name)
    assert [f for f in FIELDS if f not in card] == []
    assert card["name"] == name and card["command"].startswith(f"python -m models.train {name}")
    assert card["bars"] == recipe.bars
    assert card["params"] == zoo.parameter_count(zoo.load(name))
    assert zoo.bars_missed(card["metrics"], card["bars"]) == []


@pytest.mark.parametrize("name", SHIPPED)
def test_config_json_says_what_serving_needs_of_the_recipe(name):
    """zoo.load and the engine read the architecture, the output names and the decoding step from config.json, never
    from the recipe: the two must agree."""
    spec = zoo.read_spec(name)
    recipe = registry.recipe(name)
    assert spec["recipe"] == name
    assert {k: spec[k] for k in ("arch", "outputs", "step")} == recipe.serving()


@pytest.mark.parametrize("name", [pytest.param(n, marks=() if n in FAST else pytest.mark.slow) for n in SHIPPED])
def test_card_metrics_are_recomputed_by_the_recipe(name):
    recipe = registry.recipe(name)
    card = _card(name)
    recomputed = recipe.evaluate(zoo.load(name), zoo.checkpoint_dir(name))
    untimed = {k: v for k, v in recomputed.items() if k not in recipe.timed}
    assert _close(untimed, {k: v for k, v in card["metrics"].items() if k not in recipe.timed}, "metrics") == []
    assert set(recipe.timed) <= card["metrics"].keys() & recomputed.keys()
    assert zoo.bars_missed(recomputed, recipe.bars) == []


def test_every_card_is_a_checkpoint_or_a_sweep():
    assert sorted(SHIPPED + SWEEPS) == CARDS


@pytest.mark.parametrize("name", SWEEPS)
def test_sweep_card_fields_and_bars(name):
    card, sweep = _card(name), registry.sweep_for_folder(name)
    assert [f for f in FIELDS if f not in card] == []
    assert card["command"].startswith(f"python -m models.train {sweep.name}")
    assert card["bars"] == sweep.bars and zoo.bars_missed(card["metrics"], card["bars"]) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", SWEEPS)
def test_sweep_metrics_are_recomputed_from_its_runs(name):
    sweep = registry.sweep_for_folder(name)
    assert _close(sweep.evaluate(zoo.SHIPPED / name), _card(name)["metrics"], "metrics") == []


def test_the_comparison_can_fail():
    assert _close({"a": 0.50}, {"a": 0.52}, "m") and _close({"a": [1.0, 2.0]}, {"a": [1.0]}, "m")
    assert not _close({"a": 0.0015, "b": [3.30, 4]}, {"a": 0.0016, "b": [3.31, 4]}, "m")
