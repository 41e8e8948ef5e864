"""Interventions on the sliding-window decoder (models/mistral.py) through the probe points: the identity override
and a window as wide as the trained one are the plain forward exactly; a narrower band changes only the positions
past it; on the shipped checkpoint a narrower band and the knock-outs raise the held-out loss by what the page says."""

from __future__ import annotations

import math
from dataclasses import asdict

import pytest
import torch

from models import interventions, metrics, mistral, zoo
from models.probe import intervene

WINDOWS = 16  # held-out windows of the training context, as the page reads them


def tiny() -> mistral.Mistral:
    torch.manual_seed(0)
    return mistral.build(asdict(mistral.PRESETS["tiny"])).eval()  # W = 5


def test_identity_and_the_trained_window_give_the_plain_forward_exactly():
    model, tokens = tiny(), torch.randint(0, 300, (2, 17))
    with torch.inference_mode():
        plain = model(tokens)
        with intervene({"*": lambda x, name: x}):
            assert torch.equal(model(tokens), plain)
        with intervene({"blocks.*.attn.scores": mistral.narrower_window(model.config.window)}):
            assert torch.equal(model(tokens), plain)


def test_a_narrower_window_changes_only_the_positions_past_it():
    model, tokens = tiny(), torch.randint(0, 300, (1, 17))
    with torch.inference_mode():
        plain = model(tokens)
        with intervene({"blocks.*.attn.scores": mistral.narrower_window(2)}):
            narrow = model(tokens)
    assert torch.equal(narrow[:, :2], plain[:, :2])  # positions 0 and 1 see every key either way
    assert (narrow[0, 2:] - plain[0, 2:]).abs().amax(-1).min() > 0


@pytest.fixture(scope="module")
def shipped():
    if "mistral" not in zoo.available():
        pytest.skip("no mistral checkpoint")
    model = zoo.load("mistral").eval()
    try:
        windows, chars = metrics.held_out_windows(
            metrics.tokenizer(zoo.checkpoint_dir("mistral")), model.config.max_len, WINDOWS
        )
    except (FileNotFoundError, OSError):
        pytest.skip("no corpus (data/)")

    def bpc(overrides: dict) -> float:
        with intervene(overrides):
            return float(metrics.position_losses(model, windows).mean() / chars / math.log(2))

    return model, bpc


def test_a_narrower_window_raises_the_held_out_loss(shipped):
    """Measured (W = 32, 16 windows of 256): 2.014 bpc; W' = 16 +0.019, 8 +0.135, 4 +0.214, 2 +0.378, 1 +0.615."""
    model, bpc = shipped
    before = bpc({})
    rise = {w: bpc({"blocks.*.attn.scores": mistral.narrower_window(w)}) - before for w in (1, 4, 16, 32)}
    assert 1.5 < before < 3 and rise[32] == 0
    assert 0 < rise[16] < 0.05 and 0.1 < rise[4] < 0.4 and 0.3 < rise[1] < 1.0
    assert rise[1] > rise[4] > rise[16]


def test_knock_outs_raise_the_held_out_loss_as_the_page_says(shipped):
    """Measured: block 0's MLP zeroed +2.27 bpc; block 1's attention +0.25 (the largest of the four); every single
    head at most +0.05."""
    model, bpc = shipped
    before = bpc({})
    rise = lambda layer, part, head=0: bpc(interventions.knock_out(layer, part, "zero", head)) - before  # noqa: E731
    assert rise(0, "mlp") > 1.5
    attn = [rise(i, "attn") for i in range(model.config.n_layers)]
    assert 0.12 < max(attn) < 0.5 and min(attn) > 0
    heads = [rise(i, "head", h) for i in range(model.config.n_layers) for h in range(model.config.n_heads)]
    assert 0 < min(heads) and max(heads) < 0.1
