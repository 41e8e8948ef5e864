"""The Compare page in a real browser, in English: two models from the link, a third picked in the multiselect, one
line per model in the chart, one interaction (the character position), the mixing section and its links following the
position to the text's end, a screenshot."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.compare import service as svc
from bench.interactions import INTERACTIONS, SLIDERS
from tests.e2e.conftest import SHOTS, exceptions, goto, wait_idle

LANG = "en"

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        not {"gpt", "mamba-lm", "llama"} <= set(svc.offered()[0]), reason="needs gpt, mamba-lm and llama"
    ),
]
interact = INTERACTIONS["compare"]  # one widget change (the character position), as bench/ times it


def lines(page) -> int:
    """The traces of the bits-per-character chart: one line per model."""
    return page.locator(".st-key-compare_bits .scatterlayer .trace").count()


def test_compare_page(server, page):
    goto(page, f"{server}/compare?lang={LANG}&compare_models=gpt,mamba-lm")
    assert exceptions(page) == 0
    page.locator(".st-key-compare_bits .scatterlayer .trace").first.wait_for(timeout=120_000)
    wait_idle(page)
    assert lines(page) == 2
    assert page.get_by_text("gpt: bits/char").count() == 1

    page.locator(".st-key-compare_models").click()  # pick a third model
    page.get_by_role("option", name="llama · ", exact=False).first.click()
    page.keyboard.press("Escape")
    page.get_by_text("llama: bits/char").wait_for(timeout=120_000)
    wait_idle(page)
    assert exceptions(page) == 0
    assert lines(page) == 3

    thumb = page.locator(SLIDERS["compare"])
    before = thumb.input_value()
    interact(page, 0)
    assert exceptions(page) == 0
    assert thumb.input_value() != before

    keys = page.get_by_test_id("stMetric").filter(has_text="gpt: keys it reads").get_by_test_id("stMetricValue")
    held = page.get_by_test_id("stMetric").filter(has_text="mamba-lm: state it holds").get_by_test_id("stMetricValue")
    read, state = keys.inner_text(), held.inner_text()
    thumb.focus()
    thumb.press("End")  # the last character: the query moves to the last token
    expect(keys).not_to_have_text(read, timeout=60_000)
    wait_idle(page)
    assert exceptions(page) == 0
    assert int(keys.inner_text()) > int(read)  # GPT's row grew
    assert held.inner_text() == state  # Mamba's state did not
    link = page.locator('a[href*="llama_token="]')
    assert f"llama_token={int(keys.inner_text()) - 1}" in link.get_attribute("href")  # the link follows the query
    page.screenshot(path=SHOTS / f"compare-{LANG}.png", full_page=True)
