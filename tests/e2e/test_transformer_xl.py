"""The Transformer-XL page in a real browser, in English: no exception, one interaction, a screenshot (test_shell
visits every page in both languages)."""

from __future__ import annotations

import pytest

from app.transformer_xl import service as svc
from bench.interactions import INTERACTIONS, SLIDERS
from tests.e2e.conftest import SHOTS, exceptions, goto, wait_idle

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(not svc.available(), reason="no Transformer-XL checkpoint shipped")]
SLIDER = SLIDERS["transformer-xl"]
interact = INTERACTIONS["transformer-xl"]  # one widget change, as bench/ times it


def test_transformer_xl_page(server, page):
    goto(page, f"{server}/transformer-xl?lang={LANG}")
    assert exceptions(page) == 0
    thumb = page.locator(SLIDER)
    thumb.wait_for(timeout=60_000)
    wait_idle(page)
    assert thumb.count() == 1 and thumb.input_value() == "4"
    interact(page, 0)
    assert exceptions(page) == 0
    assert thumb.input_value() == "5"
    assert page.get_by_text("64 + 6").count() >= 1  # segment 2 reads a full memory, then its 6 first tokens
    page.screenshot(path=SHOTS / f"transformer-xl-{LANG}.png", full_page=True)
