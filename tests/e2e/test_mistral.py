"""The Mistral page in a real browser, in English: no exception, one interaction, a generation, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from app.mistral import service as svc
from bench.interactions import INTERACTIONS, SLIDERS
from tests.e2e.conftest import SHOTS, exceptions, goto, wait_idle

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(not svc.available(), reason="no Mistral checkpoint shipped")]
SLIDER = SLIDERS["mistral"]
interact = INTERACTIONS["mistral"]  # one widget change, as bench/ times it


def test_mistral_page(server, page):
    goto(page, f"{server}/mistral?lang={LANG}")
    assert exceptions(page) == 0
    thumb = page.locator(SLIDER)
    thumb.wait_for(timeout=60_000)
    wait_idle(page)
    W = svc.shape().window
    assert thumb.count() == 1 and thumb.input_value() == str(W)
    interact(page, 0)
    assert exceptions(page) == 0
    assert thumb.input_value() == str(W - 1)
    page.locator(".st-key-mistral_generate button").click()
    wait_idle(page)
    page.locator('.st-key-mistral_step input[type="range"]').wait_for(timeout=60_000)
    assert exceptions(page) == 0
    page.screenshot(path=SHOTS / f"mistral-{LANG}.png", full_page=True)
