"""models/pretrained/gpt.py: a tiny random GPT-2 saved by transformers, converted into models.gpt, computes the same
logits as transformers' own forward."""

import pytest
import torch

transformers = pytest.importorskip("transformers")

from models.pretrained import gpt as convert  # noqa: E402
from tests.models.tolerance import assert_close  # noqa: E402
from tests.real_models import converted  # noqa: E402
from tests.real_models import saved as _saved  # noqa: E402


@pytest.fixture(scope="module")
def hf(tmp_path_factory):
    torch.manual_seed(0)
    config = transformers.GPT2Config(n_layer=2, n_embd=48, n_head=3, vocab_size=97, n_positions=40)
    model = transformers.GPT2LMHeadModel(config).eval()
    return model, *_saved(model, tmp_path_factory.mktemp("gpt2"))


def _ours(hf_config, tensors):
    return converted(convert, hf_config, tensors)


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
