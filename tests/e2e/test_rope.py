"""The RoPE page in a real browser, in English: no exception, one interaction, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from bench.interactions import INTERACTIONS, SLIDERS
from tests.e2e.conftest import SHOTS, exceptions, goto

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
SLIDER = SLIDERS["rope"]
interact = INTERACTIONS["rope"]  # one widget change, as bench/ times it


def test_rope_page(server, page):
    goto(page, f"{server}/rope?lang={LANG}")
    assert exceptions(page) == 0
    thumb = page.locator(SLIDER)
    thumb.wait_for(timeout=60_000)
    assert thumb.count() == 1 and thumb.input_value() == "10"
    interact(page, 0)
    assert exceptions(page) == 0
    assert thumb.input_value() == "11"
    page.screenshot(path=SHOTS / f"rope-{LANG}.png", full_page=True)
