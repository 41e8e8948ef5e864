"""Mean ablation stays causal in a decoder (issue 61, item 11): position t gets the part's mean over positions 0..t
of this input, so a later token cannot change an earlier position's logits; zero ablation is what it was; an encoder
(``causal=False``, and an encoder–decoder's encoder) averages over its whole input."""

from __future__ import annotations

from dataclasses import asdict

import pytest
import torch

from models import gpt, interventions, llama, transformer
from models.interventions import encoder_decoder_knock_out, knock_out
from models.probe import intervene


def _tiny(module):
    torch.manual_seed(0)
    return module.build(asdict(module.PRESETS["tiny"])).eval()


@pytest.mark.parametrize("part", interventions.PARTS)
@pytest.mark.parametrize("name", ["gpt", "llama"])
def test_mean_ablation_keeps_a_decoder_causal(name, part):
    """Changing the last token leaves the logits at every earlier position as they were, mean-ablated as plain; the
    old mean over the whole input moved them all."""
    model = _tiny({"gpt": gpt, "llama": llama}[name])
    torch.manual_seed(1)
    tokens = torch.randint(0, model.config.vocab, (1, 12))
    later = tokens.clone()
    later[0, -1] = (tokens[0, -1] + 1) % model.config.vocab
    with torch.inference_mode(), intervene(knock_out(0, part, "mean", head=1)):
        a, b = model(tokens)[0], model(later)[0]  # (T, V)
    scale = a.abs().max()
    assert (a[:-1] - b[:-1]).abs().max() <= 1e-5 * scale  # earlier positions: untouched by the later token
    assert (a[-1] - b[-1]).abs().max() > 1e-3 * scale  # the changed position itself does change


def test_the_running_mean_averages_positions_up_to_each():
    x = torch.randn(2, 3, 5, 4)
    m = interventions.mean_head(2)(x, "")
    for t in range(5):
        want = x[:, 2, : t + 1].mean(1)
        assert torch.allclose(m[:, 2, t], want, rtol=1e-5, atol=1e-6 * want.abs().max())
    assert torch.equal(m[:, :2], x[:, :2])
    y = torch.randn(2, 5, 6)
    assert torch.allclose(interventions.mean()(y, "")[:, 3], y[:, :4].mean(1), atol=1e-6 * y.abs().max())
    assert torch.equal(interventions.mean()(y, "")[:, 0], y[:, 0])  # position 0: its own output


def test_an_encoder_averages_over_its_whole_input():
    x, y = torch.randn(2, 3, 5, 4), torch.randn(2, 5, 6)
    m = interventions.mean_head(1, causal=False)(x, "")
    assert torch.allclose(m[:, 1], x[:, 1].mean(1, keepdim=True).expand(2, 5, 4))
    assert torch.allclose(interventions.mean(causal=False)(y, ""), y.mean(1, keepdim=True).expand_as(y))


def test_an_encoder_decoder_averages_the_encoder_whole_and_the_decoder_causally():
    model = _tiny(transformer)
    torch.manual_seed(2)
    V = model.config.vocab
    src, tgt = torch.randint(3, V, (1, 9)), torch.randint(3, V, (1, 8))  # no <pad>
    later = tgt.clone()
    later[0, -1] = 3 + (tgt[0, -1] - 2) % (V - 3)
    for part in ("head", "attn", "cross_head", "cross", "mlp"):
        with torch.inference_mode(), intervene(encoder_decoder_knock_out("decoder", 0, part, "mean", head=1)):
            a, b = model(src, tgt)[0], model(src, later)[0]
        assert (a[:-1] - b[:-1]).abs().max() <= 1e-5 * a.abs().max(), part
    # the encoder's mean reads the whole source: its first position's output moves with the last source token
    src2 = src.clone()
    src2[0, -1] = 3 + (src[0, -1] - 2) % (V - 3)
    ko = encoder_decoder_knock_out("encoder", 0, "mlp", "mean")
    with torch.inference_mode(), intervene(ko):
        a, b = model(src, tgt)[0], model(src2, tgt)[0]
    assert (a - b).abs().max() > 1e-4 * a.abs().max()


@pytest.mark.parametrize("part", interventions.PARTS)
def test_zero_ablation_is_unchanged(part):
    """Zero ablation: the same probe names, and the part writes zeros (a head: its own slice only), as before."""
    x = torch.randn(2, 3, 5, 4)
    ((name, fn),) = knock_out(1, part, "zero", head=2).items()
    assert name == {"head": "blocks.1.attn.context", "attn": "blocks.1.attn_out", "mlp": "blocks.1.mlp_out"}[part]
    out = fn(x, name)
    if part == "head":
        assert torch.equal(out[:, 2], torch.zeros_like(x[:, 2])) and torch.equal(out[:, [0, 1]], x[:, [0, 1]])
    else:
        assert torch.equal(out, torch.zeros_like(x))


@pytest.mark.parametrize("part", interventions.PARTS)
def test_an_encoder_zero_ablation_is_the_same(part):
    x = torch.randn(2, 3, 5, 4)
    [(name, fn)], [(same, gn)] = (
        knock_out(1, part, "zero", head=2).items(),
        knock_out(1, part, "zero", 2, causal=False).items(),
    )
    assert name == same and torch.equal(fn(x, name), gn(x, name))
