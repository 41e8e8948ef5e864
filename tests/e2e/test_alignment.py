"""The Alignment page in a real browser, in English: no exception, one interaction, a screenshot (test_shell visits
every page in both languages)."""

from __future__ import annotations

import pytest

from app.alignment import service as svc
from bench.interactions import INTERACTIONS, SLIDERS
from tests.e2e.conftest import SHOTS, exceptions, goto

LANG = "en"
pytestmark = pytest.mark.e2e
SLIDER = SLIDERS["alignment"]
interact = INTERACTIONS["alignment"]  # one widget change, as bench/ times it


def test_alignment_page(server, page):
    goto(page, f"{server}/alignment?lang={LANG}")
    assert exceptions(page) == 0
    thumb = page.locator(SLIDER)
    thumb.wait_for(timeout=60_000)
    assert thumb.input_value() == "3"
    interact(page, 0)
    assert exceptions(page) == 0
    assert thumb.input_value() == "4"
    if all(svc.available(n) for n in (svc.SFT, svc.PPO, svc.DPO)):
        assert page.get_by_text("Samples side by side").count() == 1
    page.screenshot(path=SHOTS / f"alignment-{LANG}.png", full_page=True)
