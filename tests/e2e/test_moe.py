"""The MoE routing page in a real browser, in English: no exception, one interaction, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SHOTS, exceptions, goto, nudge

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e


def capacity_thumb(page):
    """The capacity-factor slider's thumb (an <input type=range>)."""
    page.locator(".st-key-moe_capacity").scroll_into_view_if_needed()
    thumb = page.locator(".st-key-moe_capacity").get_by_role("slider")
    thumb.wait_for(timeout=30_000)
    return thumb


def interact(page, i: int = 0) -> None:
    """One widget change: the capacity factor one step (0.05) down for even i, back up for odd i, so repeated calls
    (bench/) always change something and the view stays near the default."""
    nudge(page, capacity_thumb(page), i, first="ArrowLeft")


def test_moe_page(server, page):
    goto(page, f"{server}/moe?lang={LANG}")
    assert exceptions(page) == 0
    before = float(capacity_thumb(page).input_value())
    interact(page)
    assert exceptions(page) == 0
    assert float(capacity_thumb(page).input_value()) == pytest.approx(before - 0.05)
    page.screenshot(path=SHOTS / f"moe-{LANG}.png", full_page=True)
