"""The Reasoning page in a real browser, in English: no exception, one interaction, a screenshot (test_shell visits
every page in both languages)."""

from __future__ import annotations

import pytest

from app.reasoning import service as svc
from tests.e2e.conftest import SHOTS, exceptions, goto, nudge

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
SLIDER = '.st-key-reasoning_group input[type="range"]'  # G, the size of the sampled group (a react-aria range input)


def interact(page, i: int = 0) -> None:
    """One widget change: G one step up on even calls, back down on odd ones (8 → 9 → 8 ...); the GRPO section is a
    fragment, so this samples and scores a new group without rerunning the rest of the page."""
    nudge(page, page.locator(SLIDER), i)


def test_reasoning_page(server, page):
    goto(page, f"{server}/reasoning?lang={LANG}")
    assert exceptions(page) == 0
    thumb = page.locator(SLIDER)
    thumb.wait_for(timeout=60_000)
    assert thumb.input_value() == str(svc.GROUP)
    interact(page, 0)
    assert exceptions(page) == 0
    assert thumb.input_value() == str(svc.GROUP + 1)
    page.locator(".st-key-reasoning_r1").wait_for(timeout=60_000)
    page.screenshot(path=SHOTS / f"reasoning-{LANG}.png", full_page=True)
