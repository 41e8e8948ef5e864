"""Knock-outs (models/interventions.py) on the encoders and encoder–decoders: BERT (the GPT's blocks), the original
Transformer and T5 (``encoder.layers`` / ``decoder.layers``, self- and cross-attention), ours and tiny random ones
converted from transformers as the real bert-base-uncased and t5-small are."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pytest
import torch

from models import bert, interventions, t5, transformer
from models.interventions import encoder_decoder_knock_out, knock_out
from models.probe import intervene, trace


def _tiny(module):
    torch.manual_seed(0)
    return module.build(asdict(module.PRESETS["tiny"])).eval()


def _bert_inputs(vocab: int) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(1)
    return torch.randint(5, vocab, (1, 9), generator=g), torch.zeros(1, 9, dtype=torch.long)


def _pair_inputs(vocab: int, first: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(src, tgt): ids at and above ``first`` (no padding, no specials), 7 source and 5 target positions."""
    g = torch.Generator().manual_seed(1)
    return torch.randint(first, vocab, (1, 7), generator=g), torch.randint(first, vocab, (1, 5), generator=g)


def _same_under_identity(model, *inputs) -> None:
    with torch.inference_mode():
        plain = model(*inputs)
        with intervene({"*": lambda x, name: x}):
            same = model(*inputs)
    for a, b in zip(plain if isinstance(plain, tuple) else (plain,), same if isinstance(same, tuple) else (same,)):
        assert torch.equal(a, b)


# ---- BERT: the blocks of models/layers/block.py ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_bert():
    return _tiny(bert)


def test_bert_identity_override_gives_the_plain_forward_exactly(tiny_bert):
    _same_under_identity(tiny_bert, *_bert_inputs(tiny_bert.config.vocab))


@pytest.mark.parametrize("part", interventions.PARTS)
@pytest.mark.parametrize("mode", interventions.MODES)
def test_bert_knock_outs_change_the_output_only_from_their_layer_on(tiny_bert, part, mode):
    inputs = _bert_inputs(tiny_bert.config.vocab)
    with torch.inference_mode():
        with trace("blocks.*.resid") as plain:
            tiny_bert(*inputs)
        with intervene(knock_out(1, part, mode, head=2)), trace("blocks.*.resid") as knocked:
            tiny_bert(*inputs)
    assert torch.equal(plain["blocks.0.resid"], knocked["blocks.0.resid"])
    assert not torch.allclose(plain["blocks.1.resid"], knocked["blocks.1.resid"])


# ---- the encoder–decoders --------------------------------------------------------------------------------------------

ENC_DEC = {"transformer": transformer, "t5": t5}
WHERE = [("encoder", p) for p in interventions.PARTS] + [
    ("decoder", p) for p in interventions.PARTS + interventions.CROSS_PARTS
]


@pytest.fixture(scope="module", params=sorted(ENC_DEC))
def tiny_pair(request):
    return _tiny(ENC_DEC[request.param])


def test_encoder_decoder_names_every_point_a_knock_out_needs(tiny_pair):
    c = tiny_pair.config
    with torch.inference_mode(), trace("*_out", "*.context") as t:
        tiny_pair(*_pair_inputs(c.vocab, 3))
    for i in range(c.n_enc_layers):
        for p in ("self_attn_out", "mlp_out", "self_attn.context"):
            assert f"encoder.layers.{i}.{p}" in t
    for i in range(c.n_dec_layers):
        for p in ("self_attn_out", "cross_attn_out", "mlp_out", "self_attn.context", "cross_attn.context"):
            assert f"decoder.layers.{i}.{p}" in t


def test_encoder_decoder_identity_override_gives_the_plain_forward_exactly(tiny_pair):
    _same_under_identity(tiny_pair, *_pair_inputs(tiny_pair.config.vocab, 3))


@pytest.mark.parametrize(("stack", "part"), WHERE)
@pytest.mark.parametrize("mode", interventions.MODES)
def test_encoder_decoder_knock_outs_change_the_output_only_from_their_layer_on(tiny_pair, stack, part, mode):
    """The last layer of a side knocked out: the layers below it read the same; the logits change."""
    c = tiny_pair.config
    layer = (c.n_enc_layers if stack == "encoder" else c.n_dec_layers) - 1
    inputs = _pair_inputs(c.vocab, 3)
    points = (f"{stack}.layers.*.self_attn.pattern",)
    with torch.inference_mode():
        with trace(*points) as plain:
            before = tiny_pair(*inputs)
        with intervene(encoder_decoder_knock_out(stack, layer, part, mode, head=1)), trace(*points) as knocked:
            after = tiny_pair(*inputs)
    for name in plain:  # every self-attention map of this side up to the knocked-out layer's own reads the same
        assert torch.equal(plain[name], knocked[name])
    assert not torch.allclose(before, after)


def test_only_the_decoder_has_cross_attention_to_knock_out():
    with pytest.raises(ValueError):
        encoder_decoder_knock_out("encoder", 0, "cross")
    assert list(encoder_decoder_knock_out("decoder", 1, "cross_head", head=2)) == [
        "decoder.layers.1.cross_attn.context"
    ]
    assert list(encoder_decoder_knock_out("encoder", 0, "attn", "mean")) == ["encoder.layers.0.self_attn_out"]


# ---- tiny random models converted from transformers, as the real checkpoints are -------------------------------------


@pytest.fixture(scope="module")
def converted_models(tmp_path_factory):
    pytest.importorskip("transformers")
    from models.pretrained import bert as convert_bert
    from models.pretrained import t5 as convert_t5
    from tests.real_models import converted, saved, tiny_bert, tiny_t5

    root = tmp_path_factory.mktemp("converted")
    return {
        "bert": converted(convert_bert, *saved(tiny_bert(40), root / "bert")),
        "t5": converted(convert_t5, *saved(tiny_t5(40), root / "t5")),
    }


def test_converted_bert_knocks_out_and_the_identity_changes_nothing(converted_models):
    model = converted_models["bert"]
    inputs = _bert_inputs(40)
    _same_under_identity(model, *inputs)
    with torch.inference_mode():
        plain = model(*inputs)[0]
        with intervene(knock_out(2, "head", "zero", head=1)):
            knocked = model(*inputs)[0]
    assert not torch.allclose(plain, knocked)


def test_converted_t5_knocks_out_and_the_identity_changes_nothing(converted_models):
    model = converted_models["t5"]
    inputs = _pair_inputs(40, 3)
    _same_under_identity(model, *inputs)
    with torch.inference_mode():
        plain = model(*inputs)
        for stack, part in (("encoder", "attn"), ("decoder", "cross_head"), ("decoder", "mlp")):
            with intervene(encoder_decoder_knock_out(stack, 1, part, "zero", head=3)):
                assert not torch.allclose(plain, model(*inputs))


def test_teacher_forced_reads_the_forward_and_follows_a_knock_out(tiny_pair):
    src, tgt = _pair_inputs(tiny_pair.config.vocab, 3)
    targets = torch.roll(tgt, -1, 1)[0]
    loss, top = interventions.teacher_forced(tiny_pair, src.numpy(), tgt.numpy(), targets.numpy())
    with torch.inference_mode():
        logp = torch.log_softmax(tiny_pair(src, tgt)[0].double(), -1)
    assert np.allclose(loss, -logp[torch.arange(5), targets].numpy(), rtol=1e-12, atol=0)
    assert np.array_equal(top, logp.argmax(-1).numpy())
    with intervene(encoder_decoder_knock_out("decoder", 0, "cross", "zero")):
        knocked, _ = interventions.teacher_forced(tiny_pair, src.numpy(), tgt.numpy(), targets.numpy())
    assert not np.allclose(loss, knocked)
