"""models/pretrained/vit.py: a tiny random three-channel ViT classifier saved by transformers, converted into
models.vit, computes the same logits as transformers' own forward."""

import pytest
import torch

transformers = pytest.importorskip("transformers")

from models import vit  # noqa: E402
from models.pretrained import vit as convert  # noqa: E402
from tests.models.tolerance import assert_close  # noqa: E402
from tests.real_models import converted  # noqa: E402
from tests.real_models import saved as _saved  # noqa: E402

CONFIG = dict(
    image_size=32,
    patch_size=8,
    num_channels=3,
    hidden_size=48,
    num_hidden_layers=2,
    num_attention_heads=3,
    intermediate_size=96,
    num_labels=7,
)


def _hf(path, **changes):
    torch.manual_seed(0)
    model = transformers.ViTForImageClassification(transformers.ViTConfig(**CONFIG | changes)).eval()
    return model, *_saved(model, path)


def _ours(hf_config, tensors):
    return converted(convert, hf_config, tensors)


def _pixels():
    return torch.randn(3, 3, 32, 32, generator=torch.Generator().manual_seed(2))  # (B, c, H, W), as normalised


@pytest.mark.parametrize("qkv_bias", [True, False])
def test_logits_equal_transformers(tmp_path, qkv_bias):
    model, hf_config, tensors = _hf(tmp_path, qkv_bias=qkv_bias)
    ours = _ours(hf_config, tensors)
    assert (ours.config.channels, ours.config.n_classes, ours.config.grid) == (3, 7, 4)
    with torch.no_grad():
        assert_close(ours(_pixels()), model(pixel_values=_pixels()).logits, 1e-4)


def test_patches_flatten_channel_by_channel():
    """A patch's values run over channel 0's P×P pixels row by row, then channel 1's, ... (a conv kernel's order)."""
    images = torch.arange(2 * 3 * 4 * 4).reshape(2, 3, 4, 4)
    patches = vit.patchify(images, 2)  # (B, N, c·P·P) = (2, 4, 12)
    assert torch.equal(patches[1, 1], images[1, :, 0:2, 2:4].reshape(-1))


def test_unsupported_configs_are_refused(tmp_path):
    _, hf_config, tensors = _hf(tmp_path)
    with pytest.raises(ValueError, match="quick_gelu"):
        convert.from_hf(dict(hf_config, hidden_act="quick_gelu"), tensors)
    with pytest.raises(ValueError, match="classifier"):
        convert.from_hf(hf_config, {k: v for k, v in tensors.items() if not k.startswith("classifier")})
    with pytest.raises(ValueError, match="non-square"):
        convert.from_hf(dict(hf_config, image_size=[32, 16]), tensors)
