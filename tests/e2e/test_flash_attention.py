"""The FlashAttention page in a real browser, in English: no exception, one interaction, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SHOTS, exceptions, goto, nudge

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
SLIDER = '.st-key-flash_step input[type="range"]'  # the step slider of Algorithm 1


def interact(page, i: int = 0) -> None:
    """One widget change: move the step slider one iteration (right on even calls, left on odd ones: 1 → 2 → 1 ...)."""
    nudge(page, page.locator(SLIDER), i)


def test_flash_attention_page(server, page):
    goto(page, f"{server}/flash-attention?lang={LANG}")
    assert exceptions(page) == 0
    thumb = page.locator(SLIDER)
    thumb.wait_for(timeout=60_000)
    assert thumb.count() == 1 and thumb.input_value() == "1"
    interact(page, 0)
    assert exceptions(page) == 0
    assert thumb.input_value() == "2"
    page.screenshot(path=SHOTS / f"flash-attention-{LANG}.png", full_page=True)
