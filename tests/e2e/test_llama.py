"""The LLaMA-family page in a real browser, in English: no exception, one interaction, the three models writing, a
screenshot (test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from app.llama import service as svc
from bench.interactions import INTERACTIONS, SLIDERS
from tests.e2e.conftest import SHOTS, exceptions, goto, wait_idle

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(not svc.available(), reason="no llama checkpoint shipped")]
SLIDER = SLIDERS["llama"]
interact = INTERACTIONS["llama"]  # one widget change, as bench/ times it


def test_llama_page(server, page):
    goto(page, f"{server}/llama?lang={LANG}")
    assert exceptions(page) == 0
    thumb = page.locator(SLIDER)
    thumb.wait_for(timeout=60_000)
    wait_idle(page)
    assert thumb.input_value() == "8"
    interact(page, 0)
    assert exceptions(page) == 0
    assert thumb.input_value() == "9"
    page.locator(".st-key-llama_generate button").click()
    wait_idle(page)
    page.locator(".st-key-llama_growth").wait_for(timeout=60_000)
    assert exceptions(page) == 0
    page.screenshot(path=SHOTS / f"llama-{LANG}.png", full_page=True)
