"""The Mamba page in a real browser, in English: no exception, one interaction, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from app.shared.i18n import translate
from bench.interactions import FIGURE_SLIDERS, INTERACTIONS, figure_value
from tests.e2e.conftest import SHOTS, exceptions, goto

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
FIGURE, DEFAULT, NEXT = FIGURE_SLIDERS["mamba"]
interact = INTERACTIONS["mamba"]  # one widget change, as bench/ times it


def test_mamba_page(server, page):
    goto(page, f"{server}/mamba?lang={LANG}")
    assert exceptions(page) == 0
    chart = page.locator(f".st-key-{FIGURE}")
    chart.wait_for(timeout=60_000)  # a first visit runs the models: the page can take a few seconds
    layer = translate("mamba.layer", LANG)
    chart.get_by_text(f"Δ of layer {DEFAULT}:", exact=False).first.wait_for(timeout=30_000)
    assert figure_value(page, FIGURE) == f"{layer} {DEFAULT}"
    interact(page, 0)  # a step of the figure's own slider: drawn in the browser
    assert exceptions(page) == 0
    assert figure_value(page, FIGURE) == f"{layer} {NEXT}"
    chart.get_by_text(f"Δ of layer {NEXT}:", exact=False).first.wait_for(timeout=30_000)
    page.screenshot(path=SHOTS / f"mamba-{LANG}.png", full_page=True)
