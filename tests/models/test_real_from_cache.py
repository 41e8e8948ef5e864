"""The real ViT and Mamba through the whole loader: tiny random stand-ins written into a fake Hugging Face cache as
huggingface_hub keeps it, found offline, converted by ``pretrained.prepare`` into a zoo folder (the ViT's class
names and preprocessing kept), and ``zoo.load`` computes what transformers computes on the same model."""

from __future__ import annotations

import json

import pytest
import torch

pytest.importorskip("transformers")

from models import pretrained, zoo  # noqa: E402
from models.data import photos  # noqa: E402
from tests.models.tolerance import assert_close  # noqa: E402
from tests.real_models_vision import (  # noqa: E402
    MAMBA_KEY,
    MAMBA_REPO,
    TEXT,
    VIT_CONFIG,
    VIT_KEY,
    VIT_LABELS,
    VIT_REPO,
    labels_of,
    tiny_bpe,
    tiny_mamba,
    tiny_vit,
    write_hf_cache,
)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TE_PRETRAINED", str(tmp_path / "converted"))
    return tmp_path / "hub"


def test_vit_from_the_cache_equals_transformers(cache):
    theirs = tiny_vit()
    snapshot = write_hf_cache(cache, VIT_REPO, theirs)
    (snapshot / "preprocessor_config.json").write_text(
        json.dumps({"image_mean": [0.4, 0.5, 0.6], "image_std": [0.2] * 3})
    )
    assert pretrained.available("vit") == [VIT_KEY] and not pretrained.converted(VIT_KEY)
    folder = pretrained.prepare(VIT_KEY)
    assert labels_of(folder) == list(VIT_LABELS)  # id2label, kept in the checkpoint's order
    card = json.loads((folder / "card.json").read_text())
    side = VIT_CONFIG["image_size"]
    assert card["preprocess"]["size"] == side and card["preprocess"]["mean"] == [0.4, 0.5, 0.6]
    ours = zoo.load(VIT_KEY)
    pixels = photos.resized(photos.sample("china"), side)  # what the page feeds it
    x = torch.from_numpy(photos.normalise(pixels, [0.4, 0.5, 0.6], [0.2] * 3))[None]
    x = torch.cat([x, torch.randn(2, 3, side, side, generator=torch.Generator().manual_seed(0))])
    with torch.no_grad():
        assert_close(ours(x), theirs(pixel_values=x).logits, 1e-4)


def test_normalise_matches_the_image_processor():
    """photos.normalise is ViTImageProcessor's rescale and normalise, channels first (resize apart)."""
    from transformers import ViTImageProcessor

    pixels = photos.resized(photos.sample("flower"), 32)
    proc = ViTImageProcessor(do_resize=False)  # mean = std = 0.5, rescale 1/255
    theirs = proc(pixels, return_tensors="np")["pixel_values"][0]
    assert_close(photos.normalise(pixels, proc.image_mean, proc.image_std), theirs, 1e-6)


def test_mamba_from_the_cache_equals_transformers(cache):
    tok = tiny_bpe()
    theirs = tiny_mamba(tok.get_vocab_size())
    write_hf_cache(cache, MAMBA_REPO, theirs, tok)
    assert pretrained.available("mamba") == [MAMBA_KEY]
    folder = pretrained.prepare(MAMBA_KEY)
    assert (folder / "tokenizer.json").exists() and not (folder / "labels.json").exists()
    ours = zoo.load(MAMBA_KEY)
    ids = torch.tensor([tok.encode(TEXT).ids[:40]])
    with torch.no_grad():
        assert_close(ours(ids), theirs(ids, use_cache=False).logits, 1e-4)
