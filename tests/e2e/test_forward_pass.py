"""The forward-pass page in a real browser, in English: no exception, one interaction, a screenshot of the page and
one of each stage's figure (test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SHOTS, exceptions, goto, nudge, wait_idle

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e

FIGURES = (
    "embed",
    "ln",
    "wq",
    "qkv",
    "attention",
    "wo",
    "mlp",
    "mlp_out",
    "stream",
    "top",
    "dla",
)


def interact(page, i: int = 0) -> None:
    """One widget change for bench/: the layer slider one step up (even i) or back (odd i); stages 2–7 redraw."""
    nudge(page, page.locator('.st-key-forward_pass_layer input[type="range"]'), i)


def test_forward_pass_page(server, page):
    goto(page, f"{server}/forward-pass?lang={LANG}")
    assert exceptions(page) == 0
    interact(page)
    assert exceptions(page) == 0
    assert "forward_pass_layer=1" in page.url
    page.locator('.st-key-forward_pass_pos input[type="range"]').focus()
    page.keyboard.press("Home")
    wait_idle(page)
    assert exceptions(page) == 0
    assert "forward_pass_pos=0" in page.url
    for n, key in enumerate(FIGURES, start=1):
        chart = page.locator(f".st-key-forward_pass_{key} .js-plotly-plot").first
        chart.wait_for(state="visible")
        chart.screenshot(path=SHOTS / f"forward-pass-{LANG}-{n:02d}-{key}.png")
    page.screenshot(path=SHOTS / f"forward-pass-{LANG}.png", full_page=True)
