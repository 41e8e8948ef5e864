"""The RoPE page in a real browser, in English: no exception, one interaction, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from bench.interactions import FIGURE_SLIDERS, INTERACTIONS, figure_value
from tests.e2e.conftest import SHOTS, exceptions, goto

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
FIGURE, DEFAULT, NEXT = FIGURE_SLIDERS["rope"]
interact = INTERACTIONS["rope"]  # one widget change, as bench/ times it


def test_rope_page(server, page):
    goto(page, f"{server}/rope?lang={LANG}")
    assert exceptions(page) == 0
    chart = page.locator(f".st-key-{FIGURE}")
    chart.wait_for(timeout=60_000)
    assert figure_value(page, FIGURE) == f"m = {DEFAULT}"
    readout = chart.locator(".textpoint").first  # the fast pair's angle, above its circle
    before = readout.text_content()
    interact(page, 0)  # a step of the figure's own slider: drawn in the browser
    assert exceptions(page) == 0
    assert figure_value(page, FIGURE) == f"m = {NEXT}"
    assert "213°" in before and "270°" in readout.text_content()  # the fast pair: 10 rad, then 11 rad (mod 360°)
    page.screenshot(path=SHOTS / f"rope-{LANG}.png", full_page=True)
