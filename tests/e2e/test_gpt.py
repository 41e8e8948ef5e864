"""The GPT page in a real browser, in both languages: no exception, one interaction, a screenshot."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SHOTS, exceptions, goto, wait_idle

pytestmark = pytest.mark.e2e


def interact(page) -> None:
    """One widget change: press Generate, which streams the continuation token by token (bench times it)."""
    page.locator(".st-key-gpt_generate button").click()
    wait_idle(page)


def tokens_per_second(page) -> float:
    """The page's tokens-per-second readout of the last generation (for bench/)."""
    return float(page.locator('.st-key-gpt_tps [data-testid="stMetricValue"]').inner_text())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_gpt_page(server, page, lang):
    goto(page, f"{server}/gpt?lang={lang}")
    assert exceptions(page) == 0
    assert page.locator(".st-key-gpt_generate").count() == 1
    interact(page)
    assert exceptions(page) == 0
    assert page.locator(".st-key-gpt_text textarea").input_value().startswith("Romeo.")
    assert tokens_per_second(page) > 0
    page.screenshot(path=SHOTS / f"gpt-{lang}.png", full_page=True)
