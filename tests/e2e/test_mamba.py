"""The Mamba page in a real browser, in English: no exception, one interaction, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from bench.interactions import INTERACTIONS, SLIDERS
from tests.e2e.conftest import SHOTS, exceptions, goto, wait_idle

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
SLIDER = SLIDERS["mamba"]
interact = INTERACTIONS["mamba"]  # one widget change, as bench/ times it


def test_mamba_page(server, page):
    goto(page, f"{server}/mamba?lang={LANG}")
    assert exceptions(page) == 0
    thumb = page.locator(SLIDER)
    thumb.wait_for(timeout=60_000)  # a first visit runs the models: the page can take a few seconds
    wait_idle(page)
    assert thumb.count() == 1 and thumb.input_value() == "0"
    interact(page, 0)
    assert exceptions(page) == 0
    assert thumb.input_value() == "1"
    page.screenshot(path=SHOTS / f"mamba-{LANG}.png", full_page=True)
