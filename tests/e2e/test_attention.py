"""The Attention page in a real browser, in English: no exception, one interaction, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SHOTS, exceptions, goto, nudge

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e


def interact(page, i: int = 0) -> None:
    """One widget change: move the decoding-step slider one step (forward on even ``i``, back on odd ``i``, so that
    repeated calls from bench/ always change it)."""
    nudge(page, page.locator('.st-key-attention_step input[type="range"]'), i)


def test_attention_page(server, page):
    goto(page, f"{server}/attention?lang={LANG}")
    assert exceptions(page) == 0
    assert page.locator(".st-key-attention_step").count() == 1
    interact(page)
    assert exceptions(page) == 0
    assert page.locator('.st-key-attention_step [data-testid="stSliderThumbValue"]').inner_text() == "1"
    assert "attention_step=1" in page.url
    page.screenshot(path=SHOTS / f"attention-{LANG}.png", full_page=True)
