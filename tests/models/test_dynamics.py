"""The dynamics model (gpt-induction): its recorded run is reproducible — retrained with its seed, the induction
head forms at about the card's step — and the live trainer's worker computes what the recipe does."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from models import dynamics, zoo

NAME = "gpt-induction"


def test_the_formation_step_is_the_middle_of_the_rise():
    measured = [0, 50, 100, 150, 200]
    scores = [[[0.02]], [[0.05]], [[0.2]], [[0.6]], [[0.9]]]
    assert dynamics.formation_step(measured, scores) == 150  # the first at half the final 0.9


def test_the_card_records_the_run_it_ships():
    card = zoo.read_card(NAME)
    h = card["history"]
    assert len(h["step"]) == len(h["loss"]) == card["stages"][0]["steps"]
    assert h["measured"][0] == 0 and h["measured"][-1] == card["stages"][0]["steps"]
    assert dynamics.formation_step(h["measured"], h["induction"]) == card["formation_step"]
    layers, heads = card["settings"]["n_layers"], card["settings"]["n_heads"]
    assert np.asarray(h["induction"]).shape == (len(h["measured"]), layers, heads)
    # each snapshot's measures are those of the history at its step
    for r in card["snapshots"]:
        if r["step"] in h["measured"]:
            i = h["measured"].index(r["step"])
            got, want = np.asarray(r["metrics"]["induction"]), np.asarray(h["induction"][i])
            assert np.abs(got - want).max() < 5e-3  # the snapshot is measured in float16, the history in float32


@pytest.mark.slow
def test_retrained_with_its_seed_the_head_forms_near_the_cards_step(tmp_path):
    """The whole recorded run again (minutes on one core): the formation step within 25% of the card's (another
    CPU's float rounding moves a run, not where its phase change falls), every bar met."""
    card = zoo.read_card(NAME)
    env = {**os.environ, "TE_CHECKPOINTS": str(tmp_path), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "models.train", NAME, "--seed", str(card["seed"])],
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    again = json.loads((tmp_path / NAME / "card.json").read_text())
    assert abs(again["formation_step"] - card["formation_step"]) <= 0.25 * card["formation_step"]
    assert [r["step"] for r in again["snapshots"]] == [r["step"] for r in card["snapshots"]]
