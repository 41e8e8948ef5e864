"""The T5 page in a real browser, in English: no exception, one interaction (the noise density of the span
corruption), a screenshot (test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from app.t5 import service as svc
from tests.e2e.conftest import SHOTS, exceptions, goto, nudge

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(not svc.available(), reason="no t5 checkpoint shipped")]
SLIDER = '.st-key-t5_density input[type="range"]'  # section 2's noise density (a react-aria range input)


def interact(page, i: int = 0) -> None:
    """One widget change: move the noise density one step (right on even calls, left on odd ones: 0.15 → 0.2 →
    0.15 ...); the span-corruption section reruns alone (a fragment)."""
    nudge(page, page.locator(SLIDER), i)


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
