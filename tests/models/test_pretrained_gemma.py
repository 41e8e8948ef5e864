"""Gemma 3 text checkpoints through models/pretrained/gemma.py equal Hugging Face ``transformers`` on the same weights.

A tiny random ``Gemma3ForCausalLM`` (three layers: two local with a window of 5, one global; QK-norm; the norms
around each sub-block; GeGLU; the embedding scale; two RoPE bases; a head width apart from C / H), converted into
models/gemma.py: the logits agree relative to their scale on a text longer than the window, and our rolling caches
give the logits of the full forward token by token.
"""

from __future__ import annotations

import json

import pytest
import torch

from models import gemma
from models.pretrained import gemma as convert
from tests.models.tolerance import assert_close
from tests.real_models import randomise

transformers = pytest.importorskip("transformers")


def hf_gemma(**overrides):
    settings = dict(
        vocab_size=101,
        hidden_size=48,
        intermediate_size=72,
        num_hidden_layers=3,
        num_attention_heads=4,
        num_key_value_heads=2,
        head_dim=16,  # 4 × 16 = 64 ≠ 48: the head width is set apart, as Gemma 3 270M's (4 × 256, width 640)
        max_position_embeddings=64,
        sliding_window=5,
        layer_types=["sliding_attention", "sliding_attention", "full_attention"],
        query_pre_attn_scalar=12,  # not D: the score scale is its own setting
        rope_parameters={
            "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
            "full_attention": {"rope_type": "default", "rope_theta": 1000000.0},
        },
    )
    settings.update(overrides)
    config = transformers.Gemma3TextConfig(**settings)
    config._attn_implementation = "eager"
    torch.manual_seed(0)
    return randomise(transformers.Gemma3ForCausalLM(config), seed=0, scale=0.1)


def converted(theirs):
    config, state = convert.from_hf(json.loads(theirs.config.to_json_string()), theirs.state_dict())
    ours = gemma.build(config).eval()
    ours.load_state_dict(state, strict=True)
    return config, ours


def test_a_gemma3_checkpoint_converts_to_equal_logits():
    theirs = hf_gemma()
    config, ours = converted(theirs)
    assert config["local"] == [True, True, False] and config["window"] == 5 and config["head_dim"] == 16
    assert (config["rope_base"], config["rope_local_base"], config["query_scale"]) == (1e6, 1e4, 12.0)
    tokens = torch.randint(0, 101, (2, 23), generator=torch.Generator().manual_seed(1))  # 23 > the window of 5
    with torch.no_grad():
        want = theirs(tokens).logits
        assert_close(ours(tokens), want, 1e-4)
        # the window matters: the same model with every layer global gives other logits
        ours.config.local = [False, False, False]
        assert (ours(tokens) - want).abs().max() > 1e-2
    # and each of Gemma's options matters: with the norms after each sub-block left out, the logits move
    theirs_plain = hf_gemma()
    for layer in theirs_plain.model.layers:
        layer.post_attention_layernorm.weight.data.zero_()  # (1 + 0): the identity scale, not the trained one
    with torch.no_grad():
        assert (theirs_plain(tokens).logits - want).abs().max() > 1e-3


def test_rolling_caches_give_the_full_forwards_logits_token_by_token():
    _, ours = converted(hf_gemma())
    tokens = torch.randint(0, 101, (1, 17), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        full = ours(tokens)[0]
        cache = ours.new_cache()
        assert [type(c).__name__ for c in cache] == ["RollingKVCache", "RollingKVCache", "KVCache"]
        steps = torch.cat([ours(tokens[:, i : i + 1], cache)[0] for i in range(tokens.shape[1])])
    assert_close(steps, full, 1e-4)
    assert cache[0].filled == 5 and len(cache[2]) == 17  # the local layers keep W rows, the global one all


@pytest.mark.parametrize(
    "change",
    [
        {"final_logit_softcapping": 30.0},
        {"attn_logit_softcapping": 50.0},
        {"hidden_activation": "silu"},
        {"rope_parameters": {"full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6}}},
    ],
)
def test_what_our_class_lacks_is_refused_by_name(change):
    hf_config = json.loads(hf_gemma().config.to_json_string()) | change
    with pytest.raises(ValueError) as refused:
        convert.config_from_hf(hf_config)
    assert any(word in str(refused.value) for word in ("softcapping", "activation", "RoPE"))
