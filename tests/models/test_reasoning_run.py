"""The watched GRPO run (``grpo-run``, models/recipes/reasoning.py ``RunLog``): its card holds every RL step's numbers,
the held-out accuracy by k and one sampled group at each recorded step, with the rewards and advantages the recipe
computes; its float16 snapshots are the ones its card lists; recording leaves the run what it is; and the recipe,
retrained with the card's seed for a few steps, logs the card's first values."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
import torch

from models import rl, zoo
from models.data import chains
from models.recipes import Run, reasoning

RUN = "grpo-run"
needs_run = pytest.mark.skipif(RUN not in zoo.available(), reason="needs grpo-run")
needs_start = pytest.mark.skipif("grpo-start" not in zoo.available(), reason="needs grpo-start")
FEW = 3  # RL steps retrained by the slow tests


@needs_run
def test_the_card_records_every_rl_step():
    card = zoo.read_card(RUN)
    steps = card["settings"]["steps"]
    h = card["history"]
    assert h["step"] == list(range(1, steps + 1))
    for key in ("loss", *reasoning.PER_STEP):
        assert len(h[key]) == steps and all(isinstance(v, float | int) for v in h[key]), key
    for key in ("accuracy", "writes_steps", "equal_rewards"):
        assert all(0 <= v <= 1 for v in h[key]), key
    # the reward is the rule's: 1 for a right answer plus the form's bonus, so it is accuracy + bonus × well-formed
    assert all(a - 1e-4 <= r <= a + chains.FORMAT_BONUS + 1e-4 for r, a in zip(h["reward"], h["accuracy"]))
    assert min(h["length"]) >= 2  # "=d." at the least


@needs_run
def test_each_recorded_step_has_accuracy_by_k_and_a_group_scored_as_the_recipe_does():
    card = zoo.read_card(RUN)
    hp = card["settings"]
    recorded = card["recorded"]["steps"]
    assert [r["step"] for r in recorded] == reasoning.record_steps(hp["steps"])
    for r in recorded:
        assert sorted(int(k) for k in r["accuracy_by_steps"]) == list(range(1, chains.MAX_STEPS + 1))
        acc = np.array(list(r["accuracy_by_steps"].values()))
        assert ((0 <= acc) & (acc <= 1)).all()
        assert np.allclose(acc * card["recorded"]["per_k"], np.round(acc * card["recorded"]["per_k"]), atol=1e-3)
        g = r["group"]
        problem = chains.parse(g["question"])
        assert g["answer"] == problem.answer and g["step"] == r["step"]
        assert len(g["completions"]) == len(g["rewards"]) == len(g["advantages"]) == hp["group"]
        assert g["rewards"] == [chains.judge(c, problem).reward for c in g["completions"]]
        want = rl.group_advantages(np.array([g["rewards"]]))[0]
        assert np.allclose(g["advantages"], want, atol=1e-4)
        assert g["lengths"] == [len(c) for c in g["completions"]]  # one token per character
    # the start mostly answers at once; by the end, the recorded group writes its steps
    first, last = recorded[0]["group"], recorded[-1]["group"]
    assert sum(c.startswith("=") for c in first["completions"]) > sum(c.startswith("=") for c in last["completions"])


@needs_run
def test_the_snapshots_are_the_scheduled_steps_in_float16_with_their_accuracy_by_k():
    card = zoo.read_card(RUN)
    records = sorted(card["snapshots"], key=lambda r: r["step"])
    assert [r["step"] for r in records] == card["settings"]["snapshots"]
    assert len(records) <= 6
    by_step = {r["step"]: r["accuracy_by_steps"] for r in card["recorded"]["steps"]}
    total = 0
    for r in records:
        data = (zoo.checkpoint_dir(RUN) / r["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == r["sha256"] and len(data) == r["bytes"]
        assert r["metrics"]["accuracy_by_steps"] == by_step[r["step"]]
        total += len(data)
    assert total < 8e6
    half = zoo.load(f"{RUN}@{records[-1]['step']}")
    assert next(half.parameters()).dtype == torch.float32  # float16 on disk, served in the model's dtype
    final = zoo.load(RUN)
    for (name, a), (_, b) in zip(half.state_dict().items(), final.state_dict().items()):
        assert torch.allclose(a, b, rtol=1e-3, atol=1e-3 * float(b.abs().max())), name  # the last one is the weights


def _train(tmp_path, record: bool, seed: int = 0):
    hp = {**reasoning.RUN_SETTINGS, "steps": FEW, "snapshots": [0, FEW]}
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as the card's run (its "hardware")
    try:
        return reasoning.train_grpo(Run(seed=seed, out=tmp_path, settings=hp), record=record)
    finally:
        torch.set_num_threads(threads)


@pytest.mark.slow
@needs_start
@needs_run
def test_retrained_with_the_seed_the_first_steps_log_the_cards_values(tmp_path):
    card = zoo.read_card(RUN)
    trained = _train(tmp_path, record=True, seed=card["seed"])
    h, want = trained.history, card["history"]
    assert h["step"] == list(range(1, FEW + 1))
    for key in ("reward", "accuracy", "length", "writes_steps", "equal_rewards"):
        assert h[key] == want[key][:FEW], key
    for key in ("loss", "kl", "clipped"):
        assert np.allclose(h[key], want[key][:FEW], rtol=1e-2, atol=1e-3), key
    got = trained.card["recorded"]["steps"]
    assert [r["step"] for r in got] == list(range(FEW)) + [FEW]
    for mine, theirs in zip(got[:FEW], card["recorded"]["steps"][:FEW]):
        assert mine["accuracy_by_steps"] == theirs["accuracy_by_steps"]
        assert mine["group"] == theirs["group"]
    assert trained.snapshots[0]["sha256"] == card["snapshots"][0]["sha256"]  # step 0: grpo-start in float16


@pytest.mark.slow
@needs_start
def test_recording_leaves_the_run_unchanged(tmp_path):
    watched = _train(tmp_path / "a", record=True)
    plain = _train(tmp_path / "b", record=False)
    for (name, a), (_, b) in zip(watched.model.state_dict().items(), plain.model.state_dict().items()):
        assert torch.equal(a, b), name
    assert watched.card["grpo_curves"] == plain.card["grpo_curves"]
    assert not plain.snapshots and not plain.history and "recorded" not in plain.card
