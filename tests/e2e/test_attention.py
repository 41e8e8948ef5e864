"""The Attention page in a real browser, in English: no exception, one interaction, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from bench.interactions import INTERACTIONS
from tests.e2e.conftest import SHOTS, exceptions, goto

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
interact = INTERACTIONS["attention"]  # one widget change, as bench/ times it


def test_attention_page(server, page):
    goto(page, f"{server}/attention?lang={LANG}")
    assert exceptions(page) == 0
    assert page.locator(".st-key-attention_step").count() == 1
    interact(page)
    assert exceptions(page) == 0
    assert page.locator('.st-key-attention_step [data-testid="stSliderThumbValue"]').inner_text() == "1"
    assert "attention_step=1" in page.url
    page.screenshot(path=SHOTS / f"attention-{LANG}.png", full_page=True)


def test_a_cell_picked_in_the_model_grid_sets_the_layer_and_head_controls(server, page):
    """The layer and head controls are a fragment of their own; a cell clicked in the model view's grid (a callback
    of the views' fragment) must show in them, in the URL and in the enlarged map."""
    from playwright.sync_api import expect

    goto(page, f"{server}/attention?lang={LANG}&attention_view=model")
    grid = page.locator(".st-key-attention_grid .nsewdrag").first
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    # the grid's rows are layers (layer 0 on top), its columns heads: near the top right is layer 0, the last head
    page.mouse.click(box["x"] + box["width"] * 0.9, box["y"] + box["height"] * 0.1)
    expect(page.locator(".st-key-attention_big .gtitle").first).to_contain_text("L0 · H3", timeout=60_000)
    checked = lambda key: page.locator(f'.st-key-{key} button[aria-checked="true"]')  # noqa: E731
    expect(checked("attention_layer")).to_have_text("0", timeout=60_000)
    expect(checked("attention_head")).to_have_text("3", timeout=60_000)
    assert "attention_layer=0" in page.url and "attention_head=3" in page.url
    assert exceptions(page) == 0
