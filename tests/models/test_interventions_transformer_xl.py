"""Interventions on Transformer-XL (models/transformer_xl.py) through its probe points: the identity override is the
plain forward exactly; masking every block's memory keys gives what an empty memory gives; the knock-out points are
where models/interventions.py looks for them; on the shipped checkpoint the memory cut and the knock-outs raise the
held-out loss by what the page says."""

from __future__ import annotations

import math
from dataclasses import asdict

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from models import interventions, metrics, transformer_xl, zoo
from models.probe import intervene

WINDOWS, SEGMENTS = 16, 4  # held-out windows of 4 segments, as the page reads them


def tiny() -> transformer_xl.TransformerXL:
    torch.manual_seed(0)
    return transformer_xl.build(asdict(transformer_xl.PRESETS["tiny"])).eval()


def test_identity_is_exact_and_masking_the_memory_keys_is_an_empty_memory():
    model = tiny()
    first, second = torch.randint(0, 300, (2, 7)), torch.randint(0, 300, (2, 7))
    with torch.inference_mode():
        _, memory = model(first)
        plain, _ = model(second, memory)
        with intervene({"*": lambda x, name: x}):
            assert torch.equal(model(second, memory)[0], plain)
        with intervene({"blocks.*.attn.scores": transformer_xl.without_memory}):
            cut, _ = model(second, memory)
        empty, _ = model(second)
    torch.testing.assert_close(cut, empty, rtol=1e-5, atol=1e-5)
    assert not torch.allclose(cut, plain, atol=1e-3)


@pytest.mark.parametrize("part", interventions.PARTS)
def test_every_knock_out_point_exists_and_changes_the_output(part):
    model, tokens = tiny(), torch.randint(0, 300, (1, 7))
    with torch.inference_mode():
        plain, _ = model(tokens)
        with intervene(interventions.knock_out(1, part, "zero", head=1)):
            knocked, _ = model(tokens)
    assert not torch.allclose(plain, knocked)


@pytest.fixture(scope="module")
def shipped():
    if "transformer-xl" not in zoo.available():
        pytest.skip("no transformer-xl checkpoint")
    model = zoo.load("transformer-xl").eval()
    L = model.config.segment
    try:
        tok = metrics.tokenizer(zoo.checkpoint_dir("transformer-xl"))
        windows, chars = metrics.held_out_windows(tok, SEGMENTS * L, WINDOWS)
    except (FileNotFoundError, OSError):
        pytest.skip("no corpus (data/)")

    @torch.inference_mode()
    def by_segment(overrides: dict) -> np.ndarray:
        x, memory, out = torch.from_numpy(windows), model.empty_memory(WINDOWS), []
        with intervene(overrides):
            for start in range(0, SEGMENTS * L, L):
                logits, memory = model(x[:, start : start + L], memory)
                out.append(F.cross_entropy(logits.transpose(1, 2), x[:, start + 1 : start + L + 1]).item())
        return np.array(out)

    bpc = lambda losses: float(losses.mean() / chars / math.log(2))  # noqa: E731
    return model, by_segment, bpc


def test_cutting_the_memory_costs_the_later_segments(shipped):
    """Measured: 1.992 bpc; every block's memory cut +0.094 (segments 2-4 +0.20, +0.25, +0.23 nats; segment 1 the
    same); one block's alone +0.015 to +0.022."""
    model, by_segment, bpc = shipped
    plain = by_segment({})
    cut = by_segment({"blocks.*.attn.scores": transformer_xl.without_memory})
    assert 1.5 < bpc(plain) < 3 and 0.05 < bpc(cut) - bpc(plain) < 0.15
    assert cut[0] == plain[0] and ((cut - plain)[1:] > 0.1).all() and ((cut - plain)[1:] < 0.4).all()
    one = [bpc(by_segment({f"blocks.{i}.attn.scores": transformer_xl.without_memory})) - bpc(plain) for i in range(4)]
    assert 0 < min(one) and max(one) < 0.04


def test_knock_outs_cost_what_the_page_says(shipped):
    """Measured: the MLPs of blocks 0 and 3 zeroed +0.55 and +0.63 bpc (the largest); every head at most +0.118."""
    model, by_segment, bpc = shipped
    before = bpc(by_segment({}))
    rise = lambda layer, part, head=0: bpc(by_segment(interventions.knock_out(layer, part, "zero", head))) - before  # noqa: E731
    mlp = [rise(i, "mlp") for i in range(model.config.n_layers)]
    assert mlp[0] > 0.35 and mlp[3] > 0.4 and max(mlp[1:3]) < min(mlp[0], mlp[3])
    heads = [rise(i, "head", h) for i in range(model.config.n_layers) for h in range(model.config.n_heads)]
    assert 0.06 < max(heads) < 0.2
