"""AppTest of the ViT page: the digit, layer, head, fusion and discard ratio change what the page reports; uploads
are preprocessed, and bad ones get a translated message instead of a traceback."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from app.shared.i18n import translate
from app.vit import service as svc
from tests.app.conftest import metric, open_app, rerun, spec

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both


def png_of_digit() -> bytes:
    """A held-out "0"-like ring drawn dark on white paper, 120×120 pixels."""
    yy, xx = np.mgrid[:120, :120]
    r = np.hypot((yy - 60) / 50, (xx - 60) / 32)
    paper = np.where(np.abs(r - 0.8) < 0.18, 0, 255).astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(paper).save(buf, format="PNG")
    return buf.getvalue()


def test_controls_change_the_metrics():
    at = open_app("vit", lang=LANG)
    assert not at.exception
    m = lambda key: metric(at, translate(key, LANG))  # noqa: E731
    assert m("vit.metric.prediction") == m("vit.metric.label")
    first = (m("vit.metric.label"), m("vit.metric.probability"))

    at.number_input(key="vit_index").set_value(7)

    rerun(at, LANG)
    assert not at.exception
    assert (m("vit.metric.label"), m("vit.metric.probability")) != first

    readouts = lambda: cls_titles(at)  # noqa: E731  (each layer's map and readout ride in the figure)
    mean = readouts()
    assert len(set(mean)) == len(mean) == svc.analyse(svc.image_key(svc.held_out(7).image)).patterns.shape[0]
    at.button_group(key="vit_head").set_value(2)
    rerun(at, LANG)
    assert not at.exception
    assert not set(readouts()) & set(mean)  # another head: every layer's readout changes

    roll = lambda: (m("vit.metric.rollout_peak"), m("vit.metric.rollout_cls"))  # noqa: E731
    mean = roll()
    at.button_group(key="vit_fusion").set_value("max")
    rerun(at, LANG)
    assert not at.exception
    fused_max = roll()
    at.slider(key="vit_discard").set_value(0.8)
    rerun(at, LANG)
    assert not at.exception
    assert len({mean, fused_max, roll()}) == 3
    # What the position section says: rows, not columns.
    assert float(m("vit.metric.horizontal")) > 0.3 > float(m("vit.metric.vertical"))
    assert float(m("vit.metric.same_row")) > float(m("vit.metric.same_col"))


def cls_titles(at) -> list[str]:
    """[CLS]'s map's title and readout at each layer: the steps of its own slider."""
    return [frame["layout"]["title"]["text"] for frame in spec(at, "vit_cls")["frames"]]


def test_the_guided_experiment():
    """The "Try this" box: layer 1, head 0 reads from the inked patches (well above their share) on the default
    digit and on others, and on every held-out digit; layer 3, head 0 less on average. The box states those
    held-out numbers."""
    from app.vit import service as svc

    at = open_app("vit", lang=LANG)
    stats = svc.ink_attention()
    assert stats.favoured == stats.images and stats.share > stats.inked + 0.2 and stats.other < stats.inked
    for index in (2, 7, 40):
        at.number_input(key="vit_index").set_value(index)
        at.button_group(key="vit_head").set_value(svc.TRY_HEAD)
        rerun(at, LANG)
        assert not at.exception
        res = svc.analyse(svc.image_key(svc.held_out(index).image))
        inked = svc.inked(res).mean()
        share = svc.ink_share(res, svc.TRY_LAYER, svc.TRY_HEAD)
        assert share > inked + 0.15, (index, share, inked)
        # the figure's step at that layer says so, above the map
        assert f"on inked patches {share:.0%}" in cls_titles(at)[svc.TRY_LAYER]
    box = next(md.value for md in at.markdown if translate("view.try.title", LANG) in md.value)
    assert f"{stats.share:.0%}" in box and f"{stats.favoured} of the {stats.images}" in box


def test_upload_good_and_bad():
    at = open_app("vit", lang=LANG)
    at.radio(key="vit_source").set_value("upload")
    rerun(at, LANG)
    assert not at.exception and len(at.info) == 1  # the hint: nothing uploaded yet

    at.file_uploader(key="vit_upload").set_value(("zero.png", png_of_digit(), "image/png"))

    rerun(at, LANG)
    assert not at.exception and not at.error
    assert metric(at, translate("vit.metric.prediction", LANG)) == "0"

    at.file_uploader(key="vit_upload").set_value(("fake.png", b"this is not a picture", "image/png"))

    rerun(at, LANG)
    assert not at.exception
    assert [e.value for e in at.error] == [translate("vit.error.not_an_image", LANG)]

    blank = io.BytesIO()
    Image.new("RGB", (50, 50), "white").save(blank, format="PNG")
    at.file_uploader(key="vit_upload").set_value(("blank.png", blank.getvalue(), "image/png"))
    rerun(at, LANG)
    assert not at.exception
    assert [e.value for e in at.error] == [translate("vit.error.no_ink", LANG)]


def test_draw_without_the_canvas_package_says_so():
    at = open_app("vit", lang=LANG)
    at.radio(key="vit_source").set_value("draw")
    rerun(at, LANG)
    assert not at.exception
    try:
        import streamlit_drawable_canvas  # noqa: F401
    except ImportError:
        assert [i.value for i in at.info] == [translate("vit.draw.unavailable", "en")]


def test_the_url_reproduces_the_view():
    at = open_app("vit", lang=LANG, vit_index="12", vit_layer="1", vit_fusion="min")
    assert not at.exception
    assert at.number_input(key="vit_index").value == 12
    assert spec(at, "vit_cls")["layout"]["sliders"][0]["active"] == 1  # the map opens on the link's layer


def test_the_probability_says_what_label_smoothing_caps_it_at():
    """Every prediction reads about 91 % because the model was trained with label smoothing 0.1; the page
    says so beside the number."""
    at = open_app("vit", lang=LANG)
    assert not at.exception
    note = translate("vit.metric.probability.note", LANG, smoothing=0.1, ceiling=0.91)
    assert note in [c.value for c in at.caption]
    assert "91%" in note


def test_occlusion_beside_rollout():
    at = open_app("vit", lang="en")
    assert not at.exception
    m = lambda key: metric(at, translate(key, "en"))  # noqa: E731
    intact = float(m("vit.occlusion.p").rstrip("%"))
    blanked = float(m("vit.occlusion.p_all").rstrip("%"))
    assert blanked < intact - 30  # held-out digit 2: 91.2% -> 1.2% with every patch blanked
    assert float(m("vit.occlusion.top")) > 0.1
    at.segmented_control(key="vit_occlusion_fill").set_value("mean").run()
    assert not at.exception
    assert float(m("vit.occlusion.top")) < 0.5  # the mean patch keeps more of the digit than zeros (0.905 -> 0.022)
