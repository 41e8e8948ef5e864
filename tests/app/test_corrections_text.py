"""Texts corrected after issue 61: each claim a page makes about a paper or about itself says what is true (the
fixed phrase is gone and the right one, computed where it can be, is there)."""

from __future__ import annotations

import numpy as np
import pytest

from app.shared.i18n import translate

LANGS = ("en", "zh")


@pytest.mark.parametrize("lang", LANGS)
def test_two_prompt_patching_is_not_called_causal_tracing(lang):
    """The GPT page patches a clean prompt's states into a second, corrupted prompt: activation patching. Meng et
    al.'s causal tracing corrupts the subject of one prompt with Gaussian noise; the caption tells them apart."""
    text = translate("gpt.patch.caption", lang, max=32)
    tracing, patching, noise = {
        "en": ("Causal tracing", "activation patching between two prompts", "Gaussian noise"),
        "zh": ("因果追踪", "两个提示词之间的激活修补", "高斯噪声"),
    }[lang]
    what_it_does, _, other = text.partition(tracing)
    assert other, "causal tracing is named, as the other method"
    assert patching in what_it_does and tracing.lower() not in what_it_does.lower()
    assert noise in other and "2202.05262" in other


@pytest.mark.parametrize("lang", LANGS)
def test_the_plain_lens_is_hedged_as_its_critics_do(lang):
    fields = dict(token="Paris", first="L20", p=0.9, n=3, inner_layers=28, inner="the", inner_p=0.4)
    text = translate("gpt.lens.real", lang, **fields)
    flat, hedged, doubt = {
        "en": ("That is not what those layers", "That need not be what those layers", "unreliable"),
        "zh": ("这并不是这些层", "这未必是这些层", "不可靠"),
    }[lang]
    assert flat not in text and hedged in text
    assert doubt in text.split("2303.08112")[1]  # the tuned lens's authors' own finding, credited to them


@pytest.mark.parametrize("lang", LANGS)
def test_home_says_not_every_model_is_ours_nor_every_number_a_forward_pass(lang):
    from models import pretrained

    text = translate("home.intro", lang)
    false, released, calculated = {
        "en": ("Every number on a page comes from a real forward pass", "released", "calculators"),
        "zh": ("页面上的每个数字都来自", "已发布", "计算器"),
    }[lang]
    assert false not in text
    assert pretrained.KNOWN and released in text  # the real checkpoints the app loads (models.pretrained)
    assert calculated in text


@pytest.mark.parametrize("lang", LANGS)
def test_mistral_says_how_its_count_differs_from_the_papers(lang):
    """Mistral 7B (§2): position i reads i − W .. i, so k × W (32 × 4,096 ≈ 131K); this page's band of W keys holds
    the query itself, so W − 1 per layer (models.mistral.MistralConfig.window: keys p − W + 1 .. p)."""
    from models import mistral

    text = translate("mistral.try.why", lang)
    assert "counts the same" not in text and "同样的计算" not in text
    paper, page = 32 * 4096, 32 * (4096 - 1)
    assert f"{paper:,}" in text and f"{page:,}" in text
    assert "k × W" in text and "W − 1" in text
    # the page's own model: a band of W keys, the query's own included, so the reach grows by W − 1 per layer
    W = mistral.Config().window
    band = mistral.window_mask(3 * W, W).cpu().numpy()
    last = np.flatnonzero(band[-1] if band.dtype == bool else band[-1] == 0)
    assert last.tolist() == list(range(2 * W, 3 * W))  # keys p − W + 1 .. p: W keys, p itself the last


@pytest.mark.parametrize("lang", LANGS)
def test_vit_occlusion_zero_is_the_preprocessings_mean(lang, tmp_path):
    """A real ViT's zero after normalisation is its preprocessing's mean (ViTImageProcessor's 0.5 per channel, as
    ViT-B/16's preprocessor_config.json has it), a mid-grey, not the training photos' mean colour."""
    from models import pretrained
    from models.data import photos

    pre = pretrained._image_preprocessing(tmp_path, {"channels": 3})  # no file: the processor's defaults
    mean = pre["mean"]
    grey = np.full((2, 2, 3), mean, dtype=np.float32) / pre["rescale"]  # a pixel at the mean, before rescaling
    assert np.abs(photos.normalise(grey, mean, pre["std"], pre["rescale"])).max() < 1e-6  # a fill of 0 is it
    text = translate("vit.occlusion.fill.help", lang)
    assert "training set's mean" not in text and "训练集的平均颜色" not in text
    assert set(mean) == {0.5} and "0.5" in text and ("mid-grey" if lang == "en" else "中灰色") in text
