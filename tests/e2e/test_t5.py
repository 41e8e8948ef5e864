"""The T5 page in a real browser, in English: no exception, one interaction (the noise density of the span
corruption), a screenshot (test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from app.t5 import service as svc
from bench.interactions import INTERACTIONS, SLIDERS
from tests.e2e.conftest import SHOTS, exceptions, goto

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(not svc.available(), reason="no t5 checkpoint shipped")]
SLIDER = SLIDERS["t5"]
interact = INTERACTIONS["t5"]  # one widget change, as bench/ times it


def test_t5_page(server, page):
    goto(page, f"{server}/t5?lang={LANG}")
    assert exceptions(page) == 0
    thumb = page.locator(SLIDER)
    thumb.wait_for(timeout=60_000)
    assert thumb.input_value() == "0.15"
    interact(page, 0)
    assert exceptions(page) == 0
    assert thumb.input_value() == "0.2"
    interact(page, 1)
    assert thumb.input_value() == "0.15"
    page.screenshot(path=SHOTS / f"t5-{LANG}.png", full_page=True)
