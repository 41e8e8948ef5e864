"""models/pretrained/bert.py: tiny random BERTs saved by transformers (MLM head alone, and with NSP), converted into
models.bert, compute the same MLM and NSP logits as transformers' own forward, padding included."""

import pytest
import torch

transformers = pytest.importorskip("transformers")

from models.pretrained import bert as convert  # noqa: E402
from tests.models.tolerance import assert_close  # noqa: E402
from tests.real_models import converted  # noqa: E402
from tests.real_models import saved as _saved  # noqa: E402

VOCAB = 97
CONFIG = dict(
    vocab_size=VOCAB,
    hidden_size=48,
    num_hidden_layers=2,
    num_attention_heads=3,
    intermediate_size=96,
    max_position_embeddings=40,
)


def _hf(cls, path):
    torch.manual_seed(0)
    model = cls(transformers.BertConfig(**CONFIG)).eval()
    return model, *_saved(model, path)


@pytest.fixture(scope="module")
def mlm(tmp_path_factory):
    return _hf(transformers.BertForMaskedLM, tmp_path_factory.mktemp("bert"))


def _ours(hf_config, tensors):
    return converted(convert, hf_config, tensors)


def _inputs():
    g = torch.Generator().manual_seed(2)
    tokens = torch.randint(1, VOCAB, (3, 37), generator=g)
    tokens[1, 30:] = 0  # [PAD]: transformers is told by attention_mask, ours by the id
    return tokens, torch.randint(0, 2, (3, 37), generator=g)


def test_mlm_logits_equal_transformers(mlm):
    model, hf_config, tensors = mlm
    ours = _ours(hf_config, tensors)
    assert ours.config.norm_eps == 1e-12
    tokens, segments = _inputs()
    with torch.no_grad():
        theirs = model(input_ids=tokens, token_type_ids=segments, attention_mask=tokens != 0).logits
        got, nsp = ours(tokens, segments)
    assert_close(got, theirs, 1e-4)
    assert torch.equal(nsp, torch.zeros(3, 2))  # no NSP head in a BertForMaskedLM: zeros, no opinion


def test_pretraining_heads_and_tensorflow_names(tmp_path):
    """BertForPreTraining's MLM and NSP logits; LayerNorm.gamma / .beta (bert-base-uncased's names) load too."""
    model, hf_config, tensors = _hf(transformers.BertForPreTraining, tmp_path)
    renamed = {
        k.replace("LayerNorm.weight", "LayerNorm.gamma").replace("LayerNorm.bias", "LayerNorm.beta"): v
        for k, v in tensors.items()
    }
    assert any(k.endswith("gamma") for k in renamed)
    ours = _ours(hf_config, renamed)
    tokens, segments = _inputs()
    with torch.no_grad():
        out = model(input_ids=tokens, token_type_ids=segments, attention_mask=tokens != 0)
        got, nsp = ours(tokens, segments)
    assert_close(got, out.prediction_logits, 1e-4)
    assert_close(nsp, out.seq_relationship_logits, 1e-4)


def test_unsupported_configs_are_refused(mlm):
    _, hf_config, tensors = mlm
    with pytest.raises(ValueError, match="quick_gelu"):
        convert.from_hf(dict(hf_config, hidden_act="quick_gelu"), tensors)
    with pytest.raises(ValueError, match="MLM head"):
        convert.from_hf(hf_config, {k: v for k, v in tensors.items() if not k.startswith("cls.")})
    with pytest.raises(ValueError, match="decoder"):
        convert.from_hf(dict(hf_config, is_decoder=True), tensors)


def test_prepare_converts_bert_base_uncased_from_the_hugging_face_cache(tmp_path, monkeypatch):
    """bert-base-uncased as the pages get it: a tiny stand-in in a Hugging Face cache (tests/real_models.py), found
    offline, converted by ``prepare`` with its tokenizer.json, loaded by ``zoo.load``: the same MLM and NSP logits."""
    from models import pretrained, zoo
    from tests.real_models import fake_hub

    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TE_PRETRAINED", str(tmp_path / "converted"))
    theirs, tok = fake_hub(tmp_path / "hub", "bert-base-uncased")["bert-base-uncased"]
    assert pretrained.available("bert") == ["bert-base-uncased"]
    folder = pretrained.prepare("bert-base-uncased")
    assert (folder / "tokenizer.json").exists() and folder == zoo.checkpoint_dir("bert-base-uncased")
    ours = zoo.load("bert-base-uncased").eval()
    enc = tok.encode("To be, or not to [MASK], that is the question:", "Whether 'tis nobler in the mind to suffer")
    tokens, segments = torch.tensor([enc.ids]), torch.tensor([enc.type_ids])
    with torch.no_grad():
        out = theirs(input_ids=tokens, token_type_ids=segments)
        mlm, nsp = ours(tokens, segments)
    assert_close(mlm, out.prediction_logits, 1e-4)
    assert_close(nsp, out.seq_relationship_logits, 1e-4)
