"""Interventions on the MLA decoder (models/mla.py) through its probe points: the identity override, and keeping
every latent dimension, are the plain forward exactly; the knock-out points are where models/interventions.py looks
for them; on the shipped checkpoint fewer latent dimensions raise the held-out loss step by step, and the knock-outs
cost what the page says."""

from __future__ import annotations

import math
from dataclasses import asdict

import pytest
import torch
from torch import nn

from models import interventions, metrics, mla, zoo
from models.probe import intervene, trace

WINDOWS = 16  # held-out windows of the training context, as the page reads them


def tiny() -> mla.MLA:
    torch.manual_seed(0)
    return mla.build(asdict(mla.PRESETS["tiny"])).eval()


def test_identity_and_keeping_every_latent_dimension_give_the_plain_forward_exactly():
    model, tokens = tiny(), torch.randint(0, model_vocab(), (2, 11))
    K, L = model.config.kv_latent, model.config.n_layers
    with torch.inference_mode():
        plain = model(tokens)
        with intervene({"*": lambda x, name: x}):
            assert torch.equal(model(tokens), plain)
        with intervene({"blocks.*.attn.c_kv": mla.keep_latent([range(K)] * L)}):
            assert torch.equal(model(tokens), plain)


def model_vocab() -> int:
    return mla.PRESETS["tiny"].vocab


class _Pinned(nn.Module):
    """Sets latent dimension 0 to a constant 0.7 after the model's own norm: zero variance, a non-zero mean."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.clone()
        x[..., 0] = 0.7
        return x


def test_a_dropped_constant_dimension_filled_with_its_mean_changes_nothing():
    """A constant non-zero latent dimension has variance 0, so it is the first one dropped; filled with its mean the
    model gives the full output, filled with 0 (what the page did before) it does not."""
    model, tokens = tiny(), torch.randint(0, model_vocab(), (3, 11))
    for block in model.blocks:
        block.attn.kv_norm = nn.Sequential(block.attn.kv_norm, _Pinned())
    order, mean = mla.latent_stats(model, tokens)
    assert (order[:, -1] == 0).all() and torch.allclose(mean[:, 0], torch.full((len(model.blocks),), 0.7))
    with torch.inference_mode():
        full = model(tokens)
        with intervene({"blocks.*.attn.c_kv": mla.keep_latent(order[:, :-1], mean)}):
            filled = model(tokens)
        with intervene({"blocks.*.attn.c_kv": mla.keep_latent(order[:, :-1])}):
            zeroed = model(tokens)
    scale = full.abs().max()
    assert (filled - full).abs().max() <= 1e-5 * scale
    assert (zeroed - full).abs().max() > 1e-3 * scale


def test_keep_latent_zeroes_the_rest_and_latent_order_ranks_by_variance():
    model, tokens = tiny(), torch.randint(0, model_vocab(), (3, 11))
    order = mla.latent_order(model, tokens)
    K = model.config.kv_latent
    assert order.shape == (model.config.n_layers, K)
    with torch.inference_mode(), intervene({"blocks.*.attn.c_kv": mla.keep_latent(order[:, :3])}), trace("c_kv") as t:
        model(tokens)
    for i in range(model.config.n_layers):
        c = t[f"blocks.{i}.attn.c_kv"]
        dropped = [d for d in range(K) if d not in order[i, :3].tolist()]
        assert c[..., dropped].abs().max() == 0 and c[..., order[i, :3]].abs().max() > 0


@pytest.mark.parametrize("part", interventions.PARTS)
def test_every_knock_out_point_exists_and_changes_the_output(part):
    model, tokens = tiny(), torch.randint(0, model_vocab(), (1, 9))
    with torch.inference_mode():
        plain = model(tokens)
        with intervene(interventions.knock_out(1, part, "zero", head=1)):
            knocked = model(tokens)
    assert not torch.allclose(plain, knocked)


@pytest.fixture(scope="module")
def shipped():
    if "mla" not in zoo.available():
        pytest.skip("no mla checkpoint")
    model = zoo.load("mla").eval()
    try:
        windows, chars = metrics.held_out_windows(
            metrics.tokenizer(zoo.checkpoint_dir("mla")), model.config.max_len, WINDOWS
        )
    except (FileNotFoundError, OSError):
        pytest.skip("no corpus (data/)")

    def bpc(overrides: dict) -> float:
        with intervene(overrides):
            return float(metrics.position_losses(model, windows).mean() / chars / math.log(2))

    return model, windows, bpc


def test_fewer_latent_dimensions_raise_the_held_out_loss(shipped):
    """Measured (d_c = 64, 16 windows of 128): 2.084 bpc; keeping the r of largest variance, the rest filled with
    their means: 48 +0.019, 32 +0.075, 16 +0.221, 0 +0.523; the first 32 in index order +0.158. Filled with 0:
    48 +0.021, 32 +0.079, 16 +0.218, 0 +0.478."""
    model, windows, bpc = shipped
    before = bpc({})
    order, mean = mla.latent_stats(model, torch.from_numpy(windows))
    K = model.config.kv_latent
    keep = lambda r: {"blocks.*.attn.c_kv": mla.keep_latent(order[:, :r], mean)}  # noqa: E731
    rise = {r: bpc(keep(r)) - before for r in (K, 48, 32, 16, 0)}
    assert 1.5 < before < 3 and rise[K] == 0
    assert 0 < rise[48] < rise[32] < rise[16] < rise[0]  # loss rises as r falls
    assert 0.04 < rise[32] < 0.12 and 0.12 < rise[16] < 0.33 and 0.3 < rise[0] < 0.7
    first = bpc({"blocks.*.attn.c_kv": mla.keep_latent([range(32)] * model.config.n_layers, mean)}) - before
    assert first > rise[32] * 1.4 and 0.1 < first < 0.22


def test_at_the_page_default_the_mean_fill_hands_back_a_closer_cache_than_zeros(shipped):
    """r = 16 of 64 (the page opens on it): the cut cache's error, relative to the cache's size, is smaller filled
    with the means than with zeros (measured 0.663 against 0.698), and the loss about the same (+0.221 against
    +0.218 bpc, within 5% of the rise)."""
    model, windows, bpc = shipped
    tokens = torch.from_numpy(windows)
    order, mean = mla.latent_stats(model, tokens)
    with torch.inference_mode(), trace("blocks.*.attn.c_kv") as t:
        model(tokens)
    full = [t[f"blocks.{i}.attn.c_kv"] for i in range(model.config.n_layers)]
    size = sum(float((c**2).sum()) for c in full) ** 0.5

    def error(fill) -> float:
        cut = mla.keep_latent(order[:, :16], fill)
        return sum(float(((cut(c, f"blocks.{i}.attn.c_kv") - c) ** 2).sum()) for i, c in enumerate(full)) ** 0.5

    by_mean, by_zero = error(mean) / size, error(None) / size
    assert by_mean < by_zero * 0.98 and 0.4 < by_mean < 0.9
    before = bpc({})
    rise_mean = bpc({"blocks.*.attn.c_kv": mla.keep_latent(order[:, :16], mean)}) - before
    rise_zero = bpc({"blocks.*.attn.c_kv": mla.keep_latent(order[:, :16])}) - before
    assert abs(rise_mean - rise_zero) < 0.05 * rise_zero


def test_knock_outs_cost_what_the_page_says(shipped):
    """Measured: block 0's MLP zeroed +2.23 bpc; block 1's attention +0.22 (the largest); every head at most +0.046."""
    model, windows, bpc = shipped
    before = bpc({})
    rise = lambda layer, part, head=0: bpc(interventions.knock_out(layer, part, "zero", head)) - before  # noqa: E731
    assert rise(0, "mlp") > 1.5
    assert 0.12 < max(rise(i, "attn") for i in range(model.config.n_layers)) < 0.35
    heads = [rise(i, "head", h) for i in range(model.config.n_layers) for h in range(model.config.n_heads)]
    assert max(heads) < 0.1
