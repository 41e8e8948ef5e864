"""The watched alignment runs (``ppo-run``, ``dpo-run``: models/recipes/alignment.py ``SWEEPS``, weights not kept):
their cards hold every optimiser step's numbers and the greedy replies at the recorded steps; their metrics are
recomputed from runs.json; recording leaves a run what it is; and PPO, retrained with the card's seed for a few
steps, logs the card's first values."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from models import recipes as registry
from models import zoo
from models.recipes import Run
from models.recipes import alignment as recipe
from models.training import snapshot_steps

RUNS = ("ppo-run", "dpo-run")


def card(name: str) -> dict:
    path = zoo.checkpoint_dir(name) / "card.json"
    return json.loads(path.read_text()) if path.exists() else {}


needs = pytest.mark.skipif(not all("history" in card(n) for n in RUNS), reason="needs the ppo-run and dpo-run cards")
needs_models = pytest.mark.skipif(
    not {"sft", "reward"} <= set(zoo.available()), reason="needs the sft and reward checkpoints"
)


@needs
def test_ppo_run_records_every_step_and_replies_at_every_curve_step():
    c = card("ppo-run")
    hp, h = c["settings"], c["history"]
    assert h["step"] == list(range(1, hp["steps"] + 1))
    for key in recipe.PPO_KEYS:
        assert len(h[key]) == hp["steps"], key
    # the reward PPO maximises is the reward model's score minus β_KL times the sampled KL (to 4 decimals)
    want = np.array(h["score"]) - hp["kl_coef"] * np.array(h["kl"])
    assert np.allclose(h["reward"], want, atol=2e-4)
    assert [r["step"] for r in c["replies"]] == list(range(0, hp["steps"] + 1, hp["log_every"]))
    for r in c["replies"]:
        assert len(r["replies"]) == recipe.REPLY_PROMPTS
        assert all({"prompt", "reply", "rule_score", "reward"} <= x.keys() for x in r["replies"])
    assert c["replies"][0]["replies"][0]["prompt"] == c["replies"][-1]["replies"][0]["prompt"]  # the same prompts


@needs
def test_dpo_run_records_every_step_the_implicit_rewards_and_log_probabilities():
    c = card("dpo-run")
    h = c["history"]
    total = len(h["step"])
    assert h["step"] == list(range(1, total + 1))
    for key in ("loss", *recipe.DpoLog.KEYS):
        assert len(h[key]) == total, key
    beta = c["settings"]["beta"]
    for side in ("chosen", "rejected"):  # the implicit reward is β (log π − log π_ref), batch means to 4 decimals
        implicit = beta * (np.array(h[f"logp_{side}"]) - np.array(h[f"ref_{side}"]))
        assert np.allclose(h[f"{side}_reward"], implicit, atol=1e-3), side
    assert all(0 <= a <= 1 for a in h["reward_accuracy"])
    assert [r["step"] for r in c["replies"]] == snapshot_steps(total, 6, 4)


@needs
@pytest.mark.parametrize("name", RUNS)
def test_the_runs_metrics_are_recomputed_from_runs_json(name):
    sweep = registry.sweep_for_folder(name)
    assert sweep is not None
    assert sweep.evaluate(zoo.checkpoint_dir(name)) == card(name)["metrics"]
    assert not (zoo.checkpoint_dir(name) / "model.safetensors").exists()  # weights not kept


def _one_thread(train, run: Run, **kwargs):
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as the cards' runs (their "hardware")
    try:
        return train(run, **kwargs)
    finally:
        torch.set_num_threads(threads)


FEW = 2


@pytest.mark.slow
@needs
@needs_models
def test_ppo_retrained_with_the_seed_logs_the_cards_first_steps(tmp_path):
    c = card("ppo-run")
    hp = {**c["settings"], "steps": FEW}
    trained = _one_thread(recipe.train_ppo, Run(c["seed"], tmp_path, hp), record=True)
    h, want = trained.card["recorded"]["history"], c["history"]
    assert h["step"] == list(range(1, FEW + 1))
    for key in recipe.PPO_KEYS:
        assert np.allclose(h[key], want[key][:FEW], rtol=1e-3, atol=1e-3), key
    assert trained.card["recorded"]["replies"][0] == c["replies"][0]


@pytest.mark.slow
@needs_models
def test_recording_leaves_the_runs_unchanged(tmp_path):
    ppo = {**recipe.PPO, "steps": FEW, "log_every": 1}
    dpo = {**recipe.DPO, "prompts": 64, "epochs": 1, "batch": 8}
    for train, hp in ((recipe.train_ppo, ppo), (recipe.train_dpo, dpo)):
        watched = _one_thread(train, Run(0, tmp_path / "a", hp), record=True)
        plain = _one_thread(train, Run(0, tmp_path / "b", hp))
        for (name, a), (_, b) in zip(watched.model.state_dict().items(), plain.model.state_dict().items()):
            assert torch.equal(a, b), (train.__name__, name)
        assert "recorded" not in plain.card and watched.card["recorded"]["history"]["step"]
