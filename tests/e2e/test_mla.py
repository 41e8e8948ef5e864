"""The DeepSeek-V3 page in a real browser, in English: no exception, one interaction, a screenshot (test_shell visits
every page in both languages)."""

from __future__ import annotations

import pytest

from app.mla import service as svc
from bench.interactions import INTERACTIONS, SLIDERS
from tests.e2e.conftest import SHOTS, exceptions, goto

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(not svc.available(), reason="no mla checkpoint shipped")]
SLIDER = SLIDERS["mla"]
interact = INTERACTIONS["mla"]  # one widget change, as bench/ times it


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
