"""The DeepSeek-V3 page in a real browser, in English: no exception, one interaction, a screenshot (test_shell visits
every page in both languages)."""

from __future__ import annotations

import pytest

from app.mla import service as svc
from tests.e2e.conftest import SHOTS, exceptions, goto, nudge

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(not svc.available(), reason="no mla checkpoint shipped")]
SLIDER = '.st-key-mla_token input[type="range"]'  # the token whose latent section 1 shows (a react-aria range input)


def interact(page, i: int = 0) -> None:
    """One widget change: move the token one step (right on even calls, left on odd ones: 5 → 6 → 5 ...)."""
    nudge(page, page.locator(SLIDER), i)


def test_mla_page(server, page):
    goto(page, f"{server}/mla?lang={LANG}")
    assert exceptions(page) == 0
    thumb = page.locator(SLIDER)
    thumb.wait_for(timeout=60_000)
    assert thumb.input_value() == "5"
    interact(page, 0)
    assert exceptions(page) == 0
    assert thumb.input_value() == "6"
    page.locator(".st-key-mla_rope_scores").wait_for(timeout=60_000)
    page.screenshot(path=SHOTS / f"mla-{LANG}.png", full_page=True)
