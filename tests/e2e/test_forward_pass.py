"""The forward-pass page in a real browser, in English: no exception, one interaction, each step picked in turn with a
screenshot of its figures, and one of the page (test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from bench.interactions import INTERACTIONS, pick_step
from tests.e2e.conftest import SHOTS, exceptions, goto, wait_idle

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
interact = INTERACTIONS["forward-pass"]  # one widget change, as bench/ times it

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
        pick_step(page, step, LANG)
        assert exceptions(page) == 0, step
        if step != "embed":
            assert f"forward_pass_step={step}" in page.url  # the picked step goes into the link
        for key in keys:
            n += 1
            chart = page.locator(f".st-key-forward_pass_{key} .js-plotly-plot").first
            chart.wait_for(state="visible")
            chart.screenshot(path=SHOTS / f"forward-pass-{LANG}-{n:02d}-{key}.png")
    page.screenshot(path=SHOTS / f"forward-pass-{LANG}.png", full_page=True)
