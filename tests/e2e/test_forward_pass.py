"""The forward-pass page in a real browser, in English: no exception, one interaction, each step picked in turn with a
screenshot of its figures, and one of the page (test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from app.shared.i18n import translate
from tests.e2e.conftest import SHOTS, exceptions, goto, nudge, wait_idle

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e

FIGURES = {  # each step's figures
    "embed": ("embed",),
    "ln": ("ln",),
    "qkv": ("wq", "qkv"),
    "attention": ("attention",),
    "out": ("wo",),
    "mlp": ("mlp", "mlp_out"),
    "layers": ("stream",),
    "predict": ("top",),
    "dla": ("dla",),
}


def pick(page, step: str) -> None:
    page.locator(".st-key-forward_pass_step button").filter(
        has_text=translate(f"forward_pass.tab.{step}", LANG)
    ).click()
    wait_idle(page)


def interact(page, i: int = 0) -> None:
    """One widget change for bench/: the layer slider one step up (even i) or back (odd i), with the MLP step picked
    (the first call, not timed, picks it): the step a layer move redraws with the most elements (as bench.load)."""
    if i == 0:
        pick(page, "mlp")
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
    n = 0
    for step, keys in FIGURES.items():
        pick(page, step)
        assert exceptions(page) == 0, step
        if step != "embed":
            assert f"forward_pass_step={step}" in page.url  # the picked step goes into the link
        for key in keys:
            n += 1
            chart = page.locator(f".st-key-forward_pass_{key} .js-plotly-plot").first
            chart.wait_for(state="visible")
            chart.screenshot(path=SHOTS / f"forward-pass-{LANG}-{n:02d}-{key}.png")
    page.screenshot(path=SHOTS / f"forward-pass-{LANG}.png", full_page=True)
