"""The ViT page in a real browser, in English: no exception, one interaction, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from app.shared.i18n import translate
from bench.interactions import FIGURE_SLIDERS, INTERACTIONS, figure_value
from tests.e2e.conftest import SHOTS, exceptions, goto

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
interact = INTERACTIONS["vit"]  # one widget change, as bench/ times it
FIGURE, LAST, NEXT = FIGURE_SLIDERS["vit"]


def test_vit_page(server, page):
    goto(page, f"{server}/vit?lang={LANG}")
    assert exceptions(page) == 0
    chart = page.locator(f".st-key-{FIGURE}")
    chart.wait_for(timeout=60_000)
    layer = translate("vit.layer", LANG)
    assert figure_value(page, FIGURE) == f"{layer} {LAST}"  # it opens on the last layer
    title = chart.locator(".gtitle").first
    assert f"layer {LAST}" in title.text_content()
    interact(page)  # a step of the map's own slider: drawn in the browser
    assert exceptions(page) == 0
    assert figure_value(page, FIGURE) == f"{layer} {NEXT}" and f"layer {NEXT}" in title.text_content()
    page.screenshot(path=SHOTS / f"vit-{LANG}.png", full_page=True)


def test_uploads_are_read_or_refused_on_the_page_in_the_readers_language(server, page, tmp_path):
    """A file that is not an image gets the page's own message in 中文 (not the browser's English tooltip), and a
    phone-sized photo (a 48-megapixel JPEG of several MB) is read and predicted."""
    import io

    import numpy as np
    from PIL import Image

    from app.shared.i18n import translate

    goto(page, f"{server}/vit?lang=zh&vit_source=upload")
    notes = tmp_path / "notes.pdf"
    notes.write_bytes(b"%PDF-1.4 not a picture")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(notes))
    message = translate("vit.error.not_an_image", "zh")
    page.get_by_text(message).wait_for(timeout=60_000)
    assert exceptions(page) == 0

    photo = np.full((6000, 8000), 215, dtype=np.uint8) + np.random.default_rng(0).integers(
        0, 30, (6000, 8000), dtype=np.uint8
    )
    photo[1500:4500, 3800:4300] = 20  # one dark stroke
    buf = io.BytesIO()
    Image.fromarray(photo).convert("RGB").save(buf, "JPEG", quality=90)
    assert len(buf.getvalue()) > 3 * 1024 * 1024
    jpeg = tmp_path / "photo.jpg"
    jpeg.write_bytes(buf.getvalue())
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(jpeg))
    page.get_by_text(translate("vit.metric.prediction", "zh"), exact=True).first.wait_for(timeout=60_000)
    assert page.get_by_text(message).count() == 0 and exceptions(page) == 0
    page.screenshot(path=SHOTS / "vit-upload-zh.png", full_page=True)
