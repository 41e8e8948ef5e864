"""The GPT page in a real browser, in English: no exception, one interaction, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from bench.interactions import INTERACTIONS
from tests.e2e.conftest import SHOTS, exceptions, goto, pick_real, wait_idle

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
interact = INTERACTIONS["gpt"]  # one widget change, as bench/ times it


def generate(page) -> None:
    """Press Generate, which streams the continuation token by token."""
    page.locator(".st-key-gpt_generate button").click()
    wait_idle(page)


def tokens_per_second(page) -> float:
    """The page's tokens-per-second readout of the last generation (for bench/)."""
    return float(page.locator('.st-key-gpt_tps [data-testid="stMetricValue"]').inner_text())


def test_gpt_page(server, page):
    goto(page, f"{server}/gpt?lang={LANG}")
    assert exceptions(page) == 0
    assert page.locator(".st-key-gpt_generate").count() == 1
    interact(page)
    assert exceptions(page) == 0
    assert "gpt_temperature=0.85" in page.url
    assert page.locator(".st-key-gpt_tps").count() == 0  # nothing generated until Generate is pressed
    generate(page)
    assert exceptions(page) == 0
    assert page.locator(".st-key-gpt_text textarea").input_value().startswith("Romeo.")
    assert tokens_per_second(page) > 0
    page.screenshot(path=SHOTS / f"gpt-{LANG}.png", full_page=True)


def test_gpt_page_switches_to_the_real_model(server, page):
    """Pick SmolLM2-135M-Instruct in the page's model box: the next-token view shows what the real model expects,
    and the choice goes into the link."""
    from playwright.sync_api import expect

    from app.shared.i18n import translate

    goto(page, f"{server}/gpt?lang={LANG}&gpt_text=The+capital+of+France+is")
    assert exceptions(page) == 0
    pick_real(page, "gpt_model", LANG)
    top = page.locator('[data-testid="stMetric"]').filter(has_text=translate("gpt.m.top", LANG))
    # the first visit loads the model (a progress bar) and may take a second rerun: wait for what it then shows
    expect(top.locator('[data-testid="stMetricValue"]')).to_have_text("·Paris", timeout=120_000)
    wait_idle(page, timeout=180_000)  # the run that drew it has finished: no element of the run before it is left
    assert page.locator(".st-key-gpt_next .js-plotly-plot").count() == 1
    page.screenshot(path=SHOTS / f"gpt-smollm2-{LANG}.png", full_page=True)
