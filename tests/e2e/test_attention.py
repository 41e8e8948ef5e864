"""The Attention page in a real browser, in both languages: no exception, one interaction, a screenshot."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SHOTS, exceptions, goto, nudge

pytestmark = pytest.mark.e2e


def interact(page, i: int = 0) -> None:
    """One widget change: move the decoding-step slider one step (forward on even ``i``, back on odd ``i``, so that
    repeated calls from bench/ always change it)."""
    nudge(page, page.locator('.st-key-attention_step input[type="range"]'), i)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_attention_page(server, page, lang):
    goto(page, f"{server}/attention?lang={lang}")
    assert exceptions(page) == 0
    assert page.locator(".st-key-attention_step").count() == 1
    interact(page)
    assert exceptions(page) == 0
    assert page.locator('.st-key-attention_step [data-testid="stSliderThumbValue"]').inner_text() == "1"
    assert "attention_step=1" in page.url
    page.screenshot(path=SHOTS / f"attention-{lang}.png", full_page=True)
