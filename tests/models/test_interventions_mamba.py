"""Interventions on Mamba's Δ (2312.00752) through the probe the scan reads: the identity override is the plain forward
exactly, a clamp changes the output, and on the shipped selective-copying checkpoint clamping Δ of a layer to 0
makes copying collapse to a guess."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pytest
import torch

from models import mamba, zoo
from models.data import ssm_tasks
from models.probe import intervene, trace

HELD_OUT_SEED = 12345  # the card's held-out instances (models/recipes/mamba.py)


def tiny() -> mamba.Mamba:
    torch.manual_seed(0)
    return mamba.build(asdict(mamba.PRESETS["tiny"])).eval()


def test_identity_override_equals_the_plain_forward_exactly():
    model, tokens = tiny(), torch.randint(0, 7, (2, 23))
    with torch.inference_mode():
        plain = model(tokens)
        with intervene({"layers.*.mixer.delta": lambda x, name: x}):
            same = model(tokens)
    assert torch.equal(plain, same)


def test_a_clamp_reaches_the_scan_and_only_the_chosen_channels():
    model, tokens = tiny(), torch.randint(0, 7, (2, 23))
    with torch.inference_mode():
        plain = model(tokens)
        with intervene({"layers.1.mixer.delta": mamba.clamp_delta(0.0, (0, 3))}), trace("mixer.delta") as t:
            clamped = model(tokens)
    delta = t["layers.1.mixer.delta"]
    assert torch.all(delta[..., [0, 3]] == 0) and torch.all(delta[..., 1] > 0)
    assert not torch.allclose(plain, clamped)  # the scan read the clamped Δ
    assert torch.all(t["layers.0.mixer.delta"] > 0)  # another layer untouched


@pytest.mark.skipif("mamba-selective-copy" not in zoo.available(), reason="no Mamba checkpoint shipped")
def test_clamping_delta_collapses_selective_copying():
    model = zoo.load("mamba-selective-copy")
    batch = ssm_tasks.copy_batch(np.random.default_rng(HELD_OUT_SEED), 128)
    tokens, targets, mask = (torch.from_numpy(v) for v in (batch.tokens, batch.targets, batch.mask))

    def accuracy(overrides: dict) -> float:
        with torch.inference_mode(), intervene(overrides):
            pred = model(tokens).argmax(-1)
        return float((pred[mask] == targets[mask]).float().mean())

    chance = 1 / 8  # eight letters
    # Measured: 0.996 unchanged; Δ → 0 on every channel of layer 0: 0.119, of layer 1: 0.146 (chance 0.125).
    assert accuracy({}) > 0.95
    for layer in (0, 1):
        assert accuracy({f"layers.{layer}.mixer.delta": mamba.clamp_delta(0.0)}) < chance + 0.1
