"""The BERT page in a real browser, in English: no exception, one interaction, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import SHOTS, exceptions, goto, wait_idle

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e

# Pills of the default sentence that the interaction toggles, as labelled (piece + position): positions 1, 5, 9.
TOGGLED = ("to¹", "not⁵", "that⁹")


def interact(page, i: int = 0) -> None:
    """One widget change for bench/: click one token pill of the default sentence, which masks it (or unmasks it
    on the next round); the predictions are recomputed and redrawn."""
    label = TOGGLED[i % len(TOGGLED)]
    page.locator(".st-key-bert_masks button").filter(has_text=re.compile(f"^{label}$")).click()
    wait_idle(page)


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
