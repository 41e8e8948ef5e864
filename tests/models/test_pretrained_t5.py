"""models/pretrained/t5.py: tiny random T5s saved by transformers (v1.0: ReLU, tied and rescaled output; v1.1:
gated GELU, H·D ≠ C; an untied output matrix), converted into models.t5, compute the same logits as transformers'
own forward: both stacks, padding in the source, position buckets past the exact range."""

import pytest
import torch

transformers = pytest.importorskip("transformers")

from models.pretrained import t5 as convert  # noqa: E402
from tests.models.tolerance import assert_close  # noqa: E402
from tests.real_models import converted  # noqa: E402
from tests.real_models import saved as _saved  # noqa: E402

VOCAB = 97
CONFIG = dict(
    vocab_size=VOCAB,
    d_model=48,
    d_kv=16,
    num_heads=3,
    d_ff=80,
    num_layers=2,
    num_decoder_layers=3,
    relative_attention_max_distance=20,  # offsets up to 28 here: exact, log-spaced and the last bucket all occur
)
V11 = dict(feed_forward_proj="gated-gelu", d_kv=10, num_heads=4)  # H·D = 40 ≠ C = 48


def _hf(path, **changes):
    torch.manual_seed(0)
    model = transformers.T5ForConditionalGeneration(transformers.T5Config(**CONFIG | changes)).eval()
    return model, *_saved(model, path)


def _ours(hf_config, tensors):
    return converted(convert, hf_config, tensors)


def _inputs():
    g = torch.Generator().manual_seed(2)
    src = torch.randint(2, VOCAB, (3, 29), generator=g)
    src[1, 21:] = 0  # <pad>: transformers is told by attention_mask, ours by the id
    tgt = torch.randint(2, VOCAB, (3, 13), generator=g)
    tgt[:, 0] = 0  # the decoder starts from <pad>
    return src, tgt


def _theirs(model, src, tgt):
    return model(input_ids=src, attention_mask=src != 0, decoder_input_ids=tgt, use_cache=False).logits


@pytest.mark.parametrize("changes", [{}, V11], ids=["v1.0", "v1.1"])
def test_logits_equal_transformers(tmp_path, changes):
    model, hf_config, tensors = _hf(tmp_path, **changes)
    ours = _ours(hf_config, tensors)
    assert ours.config.gated == bool(changes) and ours.config.head_dim == (10 if changes else 0)
    src, tgt = _inputs()
    with torch.no_grad():
        assert_close(ours(src, tgt), _theirs(model, src, tgt), 1e-4)
        # the cached greedy step sees the same logits as the full forward
        memory, cache = ours.encode(src), ours.new_cache()
        steps = torch.cat([ours.decode(tgt[:, i : i + 1], memory, src, cache) for i in range(tgt.shape[1])], dim=1)
        assert_close(steps, _theirs(model, src, tgt), 1e-4)


def test_untied_output_matrix(tmp_path):
    """An output matrix of its own (T5 v1.1's released checkpoints), unscaled."""
    model, hf_config, tensors = _hf(tmp_path, **V11)
    head = torch.randn(VOCAB, 48, generator=torch.Generator().manual_seed(3))
    model.lm_head.weight = torch.nn.Parameter(head)  # transformers 5 ties it on construction: untie by hand
    model.config.scale_decoder_outputs = False
    ours = _ours(dict(hf_config, scale_decoder_outputs=False), tensors | {"lm_head.weight": head})
    assert not ours.config.tied
    src, tgt = _inputs()
    with torch.no_grad():
        assert_close(ours(src, tgt), _theirs(model, src, tgt), 1e-4)


def test_unsupported_configs_are_refused(tmp_path):
    _, hf_config, tensors = _hf(tmp_path)
    with pytest.raises(ValueError, match="quick_gelu"):
        convert.from_hf(dict(hf_config, feed_forward_proj="quick_gelu"), tensors)
    with pytest.raises(ValueError, match="feed_forward_proj"):
        convert.from_hf(dict(hf_config, feed_forward_proj="double-gated-gelu"), tensors)
    with pytest.raises(ValueError, match="no place"):
        convert.from_hf(hf_config, tensors | {"encoder.block.0.layer.0.SelfAttention.q.bias": torch.zeros(48)})


def test_prepare_converts_t5_small_from_the_hugging_face_cache(tmp_path, monkeypatch):
    """t5-small as the pages get it: a tiny stand-in in a Hugging Face cache (tests/real_models.py), found offline,
    converted by ``prepare`` with its tokenizer.json, loaded by ``zoo.load``: the same logits."""
    from models import pretrained, zoo
    from tests.real_models import fake_hub

    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TE_PRETRAINED", str(tmp_path / "converted"))
    theirs, tok = fake_hub(tmp_path / "hub", "t5-small")["t5-small"]
    assert pretrained.available("t5") == ["t5-small"]
    folder = pretrained.prepare("t5-small")
    assert (folder / "tokenizer.json").exists() and folder == zoo.checkpoint_dir("t5-small")
    ours = zoo.load("t5-small").eval()
    src = torch.tensor([tok.encode("translate English to German: the dog walks in the park.").ids])
    tgt = torch.tensor([[0, *tok.encode("<extra_id_0> the dog", add_special_tokens=False).ids]])
    with torch.no_grad():
        assert_close(ours(src, tgt), _theirs(theirs, src, tgt), 1e-4)
