"""models/pretrained/gpt.py: a tiny random GPT-2 saved by transformers, converted into models.gpt, computes the same
logits as transformers' own forward."""

import json

import pytest
import torch

transformers = pytest.importorskip("transformers")
from safetensors.torch import load_file  # noqa: E402

from models import gpt  # noqa: E402
from models.pretrained import gpt as convert  # noqa: E402
from tests.models.tolerance import assert_close  # noqa: E402


def _saved(model, path) -> tuple[dict, dict]:
    """Every parameter nudged off its initial value (LayerNorm's 1 and 0 would hide a mix-up), saved as safetensors,
    read back from disk as the loader will: (config.json as a dict, tensors by name)."""
    torch.manual_seed(1)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn_like(p) * 0.1)
    model.save_pretrained(path)
    return json.loads((path / "config.json").read_text()), load_file(path / "model.safetensors")


@pytest.fixture(scope="module")
def hf(tmp_path_factory):
    torch.manual_seed(0)
    config = transformers.GPT2Config(n_layer=2, n_embd=48, n_head=3, vocab_size=97, n_positions=40)
    model = transformers.GPT2LMHeadModel(config).eval()
    return model, *_saved(model, tmp_path_factory.mktemp("gpt2"))


def _ours(hf_config, tensors):
    config, state = convert.from_hf(hf_config, tensors)
    model = gpt.build(config).eval()
    model.load_state_dict(state, strict=True)
    return model


def test_logits_equal_transformers(hf):
    model, hf_config, tensors = hf
    ours = _ours(hf_config, tensors)
    assert ours.config.activation == "gelu_tanh" and ours.config.max_len == 40
    tokens = torch.randint(0, 97, (3, 37), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        assert_close(ours(tokens), model(tokens).logits, 1e-4)


def test_prefixless_names_and_folded_scaling(hf, tmp_path):
    """Names without ``transformer.`` (as the ``gpt2`` checkpoint has them, with each layer's causal-mask buffer and a
    copy of the tied head) load the same; the inverse-layer-index scaling is folded into W_q."""
    model, hf_config, tensors = hf
    bare = {k.removeprefix("transformer."): v for k, v in tensors.items()}
    bare |= {f"h.{i}.attn.bias": torch.ones(1, 1, 40, 40).tril() for i in range(2)}
    bare["lm_head.weight"] = bare["wte.weight"].clone()
    tokens = torch.randint(0, 97, (2, 11), generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        assert_close(_ours(hf_config, bare)(tokens), model(tokens).logits, 1e-4)
    scaled = dict(hf_config, scale_attn_by_inverse_layer_idx=True)
    other = transformers.GPT2LMHeadModel(transformers.GPT2Config(**scaled)).eval()
    other.load_state_dict(model.state_dict())
    with torch.no_grad():
        assert_close(_ours(scaled, tensors)(tokens), other(tokens).logits, 1e-4)


def test_unsupported_configs_are_refused(hf):
    _, hf_config, tensors = hf
    with pytest.raises(ValueError, match="quick_gelu"):
        convert.from_hf(dict(hf_config, activation_function="quick_gelu"), tensors)
    with pytest.raises(ValueError, match="no place"):
        convert.from_hf(hf_config, {**tensors, "transformer.h.0.crossattention.c_attn.weight": torch.zeros(1)})
    with pytest.raises(ValueError, match="untied"):
        convert.from_hf(hf_config, {**tensors, "lm_head.weight": torch.zeros_like(tensors["transformer.wte.weight"])})
