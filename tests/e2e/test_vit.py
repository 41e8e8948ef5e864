"""The ViT page in a real browser, in English: no exception, one interaction, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SHOTS, exceptions, goto, nudge

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e


def layer_thumb(page):
    """The attention layer slider's thumb; the slider sits below the fold, so scroll to it first."""
    page.locator(".st-key-vit_layer").scroll_into_view_if_needed()
    thumb = page.locator(".st-key-vit_layer").get_by_role("slider")  # an <input type=range>: implicit role
    thumb.wait_for(timeout=30_000)
    return thumb


def interact(page, i: int = 0) -> None:
    """One widget change: move the attention layer slider one layer down (even i) or back up (odd i), so that
    repeated calls (bench/) always change something."""
    nudge(page, layer_thumb(page), i, first="ArrowLeft")


def test_vit_page(server, page):
    goto(page, f"{server}/vit?lang={LANG}")
    assert exceptions(page) == 0
    thumb = layer_thumb(page)
    assert thumb.count() == 1
    last = int(thumb.input_value())
    interact(page)
    assert exceptions(page) == 0
    assert layer_thumb(page).input_value() == str(last - 1)
    page.screenshot(path=SHOTS / f"vit-{LANG}.png", full_page=True)
