"""The FlashAttention page in a real browser, in English: no exception, one step of the figure's own slider (drawn in
the browser), a screenshot (test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from app.shared.i18n import translate
from bench.interactions import FIGURE_SLIDERS, INTERACTIONS, figure_value
from tests.e2e.conftest import SHOTS, exceptions, goto

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
FIGURE, DEFAULT, NEXT = FIGURE_SLIDERS["flash-attention"]
interact = INTERACTIONS["flash-attention"]  # one widget change, as bench/ times it


def test_flash_attention_page(server, page):
    goto(page, f"{server}/flash-attention?lang={LANG}")
    assert exceptions(page) == 0
    chart = page.locator(f".st-key-{FIGURE}")
    chart.wait_for(timeout=60_000)
    prefix = translate("flash.step", LANG)
    assert figure_value(page, FIGURE) == f"{prefix} {DEFAULT}"  # it opens on the first iteration
    chart.get_by_text(f"s = {DEFAULT} ·", exact=False).first.wait_for(timeout=30_000)
    interact(page, 0)  # a step of the figure's own slider: drawn in the browser
    assert exceptions(page) == 0
    assert figure_value(page, FIGURE) == f"{prefix} {NEXT}"
    chart.get_by_text(f"s = {NEXT} ·", exact=False).first.wait_for(timeout=30_000)
    page.screenshot(path=SHOTS / f"flash-attention-{LANG}.png", full_page=True)
