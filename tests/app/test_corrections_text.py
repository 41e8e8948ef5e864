"""Texts corrected after issue 61: each claim a page makes about a paper or about itself says what is true (the
fixed phrase is gone and the right one, computed where it can be, is there)."""

from __future__ import annotations

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
