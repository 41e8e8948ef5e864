"""AppTest of the ViT page on a real checkpoint: a tiny random ViTForImageClassification stands in for Google's
ViT-B/16 in a fake Hugging Face cache. Picked in the model picker, it is converted, and every view renders, in both
languages: its class names (the checkpoint's id2label) listed, the layer and head controls spanning its sizes, a bad
upload refused with the translated message. Without the cache the picker offers ours and names the absent one."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("transformers")

from PIL import Image  # noqa: E402

from app.shared.i18n import translate  # noqa: E402
from tests.app.conftest import open_app, rerun  # noqa: E402
from tests.real_models_vision import VIT_CONFIG, VIT_KEY, VIT_LABELS, fake_cache  # noqa: E402

LAYERS, HEADS = VIT_CONFIG["num_hidden_layers"], VIT_CONFIG["num_attention_heads"]


@pytest.fixture(scope="module")
def real_cache(tmp_path_factory):
    """The fake cache and an empty conversion folder for this module; the engine forgets models of other runs."""
    from app.shared import services

    root = tmp_path_factory.mktemp("real-vit")
    cache = fake_cache(root)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_CACHE", str(cache["hub"]))
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("TE_PRETRAINED", str(root / "converted"))
        services.engine.clear()  # a model of this name loaded from another folder earlier in this process
        yield cache
    services.engine.clear()


def _open(lang: str, **query):
    at = open_app("vit", lang=lang, vit_model=VIT_KEY, **query)
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_view_renders_on_the_real_model(real_cache, lang):
    at = _open(lang)
    assert at.selectbox(key="vit_model").value == VIT_KEY
    assert not at.error
    subheaders = [h.value for h in at.subheader]
    for key in ("vit.h.prediction", "vit.h.sequence", "vit.h.embeddings", "vit.h.attention", "vit.real.h.distance",
                "vit.h.rollout", "vit.h.positions"):  # fmt: skip
        assert translate(key, lang) in subheaders, key
    predicted = next(m.value for m in at.metric if m.label == translate("vit.metric.prediction", lang))
    assert predicted in VIT_LABELS  # the checkpoint's own class names
    layer = at.slider(key="vit_real_layer")
    assert (layer.min, layer.max, layer.value) == (0, LAYERS - 1, LAYERS - 1)
    assert at.selectbox(key="vit_real_head").options == [translate("vit.head.mean", lang)] + [
        str(h) for h in range(HEADS)
    ]

    peak = lambda: next(m.value for m in at.metric if m.label == translate("vit.metric.cls_peak", lang))  # noqa: E731
    before = peak()
    at.slider(key="vit_real_layer").set_value(0)
    at.selectbox(key="vit_real_head").set_value(HEADS - 1)
    rerun(at, lang)
    assert not at.exception and peak() != before

    at.radio(key="vit_photo").set_value("flower")
    rerun(at, lang)
    assert not at.exception and not at.error


def test_uploads_on_the_real_model(real_cache):
    lang = "zh"
    at = _open(lang, vit_photo="upload")
    assert not at.exception and [i.icon for i in at.info if i.icon == ":material/upload:"]  # nothing uploaded yet
    at.file_uploader(key="vit_photo_upload").set_value(("notes.png", b"not a picture", "image/png"))
    rerun(at, lang)
    assert not at.exception
    assert [e.value for e in at.error] == [translate("vit.error.not_an_image", lang)]

    buf = io.BytesIO()
    Image.new("RGBA", (300, 120), (200, 40, 40, 128)).save(buf, format="PNG")  # wide, half transparent
    at.file_uploader(key="vit_photo_upload").set_value(("red.png", buf.getvalue(), "image/png"))
    rerun(at, lang)
    assert not at.exception and not at.error
    assert translate("vit.real.h.distance", lang) in [h.value for h in at.subheader]


def test_without_the_cache_the_picker_names_the_absent_model(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty"))
    monkeypatch.setenv("TE_PRETRAINED", str(tmp_path / "converted"))
    at = open_app("vit", lang="en", vit_model=VIT_KEY)
    assert not at.exception
    assert at.selectbox(key="vit_model").value == "vit"  # ours, as before
    assert any(VIT_KEY in m.value and "hf download" in m.value for m in at.markdown)  # the picker's expander


def test_the_exercise_under_a_released_vit_says_it_is_about_ours_and_switches_back(real_cache):
    """The page no longer stops before the shell draws the exercise: on a released ViT the exercise below the page
    says its question is about our digits, and its button switches the page back to our model."""
    at = _open("en")
    assert translate("lessons.ours_only", "en", name="vit") in [x.value for x in at.info]
    at.button(key="lessons_vit_ours").click()
    rerun(at, "en")
    assert not at.exception and at.session_state["vit_model"] == "vit"
    assert at.selectbox(key="lessons_vit_answer").options
