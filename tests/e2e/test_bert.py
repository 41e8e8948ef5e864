"""The BERT page in a real browser, in English: no exception, one interaction, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from bench.interactions import INTERACTIONS
from tests.e2e.conftest import SHOTS, exceptions, goto

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
interact = INTERACTIONS["bert"]  # one widget change, as bench/ times it


def test_bert_page(server, page):
    goto(page, f"{server}/bert?lang={LANG}")
    assert exceptions(page) == 0
    # the predictions table (the first table on the page, "In the paper vs here", is in a collapsed expander)
    page.locator('[data-testid="stTable"]:visible').first.wait_for()
    interact(page)
    assert exceptions(page) == 0
    assert "bert_masks=1%2C6" in page.url or "bert_masks=1,6" in page.url
    # the second metric, "Masked positions", shows the click's effect (and the screenshot the page after it)
    expect(page.locator('[data-testid="stMetricValue"]').nth(1)).to_have_text("2", timeout=30_000)
    page.screenshot(path=SHOTS / f"bert-{LANG}.png", full_page=True)
