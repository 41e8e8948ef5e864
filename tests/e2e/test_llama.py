"""The LLaMA-family page in a real browser, in English: no exception, one interaction, the three models writing, a
screenshot (test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from app.llama import service as svc
from app.shared.i18n import translate
from bench.interactions import INTERACTIONS, SLIDERS, slider
from tests.e2e.conftest import SHOTS, exceptions, goto, nudge, pick_real, wait_idle

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(not svc.available(), reason="no llama checkpoint shipped")]
SLIDER = SLIDERS["llama"]
interact = INTERACTIONS["llama"]  # one widget change, as bench/ times it


def test_llama_page(server, page):
    goto(page, f"{server}/llama?lang={LANG}")
    assert exceptions(page) == 0
    thumb = page.locator(SLIDER)
    thumb.wait_for(timeout=60_000)
    wait_idle(page)
    assert thumb.input_value() == "8"
    interact(page, 0)
    assert exceptions(page) == 0
    assert thumb.input_value() == "9"
    page.locator(".st-key-llama_generate button").click()
    wait_idle(page)
    page.locator(".st-key-llama_growth").wait_for(timeout=60_000)
    assert exceptions(page) == 0
    page.screenshot(path=SHOTS / f"llama-{LANG}.png", full_page=True)


def test_llama_on_a_phone(server, browser):
    """At 390 px: every table fits its width (none scrolls sideways), and Plotly's toolbar, which a hover or a tap
    would show, stays hidden, so it covers no figure's title or legend."""
    page = browser.new_page(viewport={"width": 390, "height": 900})
    try:
        goto(page, f"{server}/llama?lang={LANG}")
        page.locator(".st-key-llama_group_2 .js-plotly-plot").wait_for(timeout=60_000)
        wait_idle(page)
        assert exceptions(page) == 0
        page.locator('[data-testid="stTable"]').first.wait_for(timeout=60_000)
        widths = page.locator('[data-testid="stTable"]').evaluate_all(
            "els => els.filter(e => e.offsetParent).map(e => [Math.max(e.scrollWidth, "
            "e.querySelector('table').scrollWidth), e.clientWidth])"
        )
        assert widths and all(scroll <= client + 1 for scroll, client in widths), widths
        for key in ("llama_group_4", "llama_group_2", "llama_group_1", "llama_channels", "llama_mean_share"):
            if key == "llama_mean_share":  # the norm part's other figure, a pick away
                page.locator(".st-key-llama_norm_view button").filter(
                    has_text=translate("llama.view.points", LANG)
                ).click()
                wait_idle(page)
            chart = page.locator(f".st-key-{key} .js-plotly-plot")
            chart.scroll_into_view_if_needed()
            chart.hover(position={"x": 20, "y": 60})
            texts = chart.locator(".gtitle, .legend").all()
            assert texts and all(text.bounding_box() for text in texts), key
            assert chart.locator(".modebar").bounding_box() is None, key  # hidden below 640 px (html.TIP_CSS)
    finally:
        page.close()


def test_llama_page_on_smollm2(server, page):
    """Switched to the real SmolLM2-135M-Instruct through the model picker: its GQA view (9 query heads on 3
    key/value heads) and its cache against MHA and MQA are drawn, a layer move in the heads view redraws without an
    exception."""
    from app.shared import services

    goto(page, f"{server}/llama?lang={LANG}")
    pick_real(page, "llama_model", LANG)
    grouping = page.locator(".st-key-llama_group_real .js-plotly-plot")
    grouping.wait_for(timeout=180_000)
    wait_idle(page)
    assert exceptions(page) == 0
    assert "H = 9 → G = 3" in grouping.inner_text()
    config = services.checkpoint("smollm2-135m").config
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * (config["dim"] // config["n_heads"]) * 2
    assert page.get_by_text(f"{per_token:,} B", exact=True).count() >= 1  # the metric and the table's row
    thumb = page.locator(slider("llama_layer"))
    start = int(thumb.input_value())
    nudge(page, thumb, 0)
    assert int(thumb.input_value()) == start + 1
    assert exceptions(page) == 0
    page.locator(".st-key-llama_head_scores .js-plotly-plot").wait_for(timeout=60_000)
    page.screenshot(path=SHOTS / f"llama-smollm2-{LANG}.png", full_page=True)
