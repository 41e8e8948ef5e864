"""models/pretrained/mamba.py: a tiny random Mamba saved by transformers, converted into models.mamba, computes the
same logits as transformers' own forward (its pure-torch path, the sequential scan), with either of our scans and
with the recurrent step."""

import pytest
import torch

transformers = pytest.importorskip("transformers")

from models import mamba  # noqa: E402
from models.pretrained import mamba as convert  # noqa: E402
from tests.models.tolerance import assert_close  # noqa: E402
from tests.real_models import converted  # noqa: E402
from tests.real_models import saved as _saved  # noqa: E402

VOCAB = 97
CONFIG = dict(vocab_size=VOCAB, hidden_size=40, num_hidden_layers=2, state_size=6, conv_kernel=3, time_step_rank=3)


def _hf(path, **changes):
    torch.manual_seed(0)
    model = transformers.MambaForCausalLM(transformers.MambaConfig(**CONFIG | changes)).eval()
    return model, *_saved(model, path)


def _ours(hf_config, tensors):
    return converted(convert, hf_config, tensors)


@pytest.mark.parametrize("conv_bias", [True, False])
def test_logits_equal_transformers(tmp_path, conv_bias):
    model, hf_config, tensors = _hf(tmp_path, use_conv_bias=conv_bias)
    ours = _ours(hf_config, tensors)
    assert (ours.config.norm_eps, ours.config.rank, ours.config.d_conv) == (1e-5, 3, 3)
    tokens = torch.randint(0, VOCAB, (3, 37), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        theirs = model(tokens, use_cache=False).logits
        for scan in mamba.SCANS:
            assert_close(ours(tokens, scan=scan), theirs, 1e-4, err_msg=scan)
    assert_close(mamba.recurrent_logits(ours, tokens), theirs, 1e-4)


def test_prefixless_names(tmp_path):
    model, hf_config, tensors = _hf(tmp_path)
    bare = {k.removeprefix("backbone."): v for k, v in tensors.items()} | {"lm_head.weight": model.lm_head.weight}
    tokens = torch.randint(0, VOCAB, (2, 9), generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        assert_close(_ours(hf_config, bare)(tokens), model(tokens, use_cache=False).logits, 1e-4)


def test_unsupported_configs_are_refused(tmp_path):
    _, hf_config, tensors = _hf(tmp_path)
    with pytest.raises(ValueError, match="gelu"):
        convert.from_hf(dict(hf_config, hidden_act="gelu"), tensors)
    with pytest.raises(ValueError, match="use_bias"):
        convert.from_hf(dict(hf_config, use_bias=True), tensors)
    with pytest.raises(ValueError, match="untied"):
        convert.from_hf(hf_config, tensors | {"lm_head.weight": torch.zeros(VOCAB, 40)})
