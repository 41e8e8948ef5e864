"""The feature microscope in a real browser: SmolLM2 picked in the page's model box brings its own dictionary to
every section, and a token picked in section 1 (a fragment) opens that token's strongest feature."""

from __future__ import annotations

import pytest

from bench.interactions import INTERACTIONS
from tests.e2e.conftest import SHOTS, exceptions, goto, pick_real, wait_idle

LANG = "en"

pytestmark = pytest.mark.e2e


def feature_number(page) -> int:
    return int(page.locator(".st-key-features_id input").input_value())


def test_smollm2_picked_reads_its_own_dictionary_and_a_token_opens_its_feature(server, page):
    from playwright.sync_api import expect

    from app.features import service as svc

    goto(page, f"{server}/features?lang={LANG}")
    assert exceptions(page) == 0
    pick_real(page, "features_model", LANG)
    intro = page.locator('[data-testid="stMarkdownContainer"]').filter(has_text="2406.04093").first
    expect(intro).to_contain_text("4,608 features", timeout=120_000)
    expect(intro).to_contain_text("SmolLM2-135M-Instruct")
    wait_idle(page, timeout=180_000)
    text = page.locator(".st-key-features_text textarea").input_value()
    reading = svc.read("smollm2-135m", text)
    assert feature_number(page) == int(reading.features[0][0])  # the first token's strongest, opened
    INTERACTIONS["features"](page, 0)  # pick the fourth token, as bench/ times it
    assert exceptions(page) == 0
    expect(page.locator(".st-key-features_id input")).to_have_value(str(int(reading.features[3][0])))
    assert page.locator(".st-key-features_hist .js-plotly-plot").count() == 1
    page.screenshot(path=SHOTS / f"features-smollm2-{LANG}.png", full_page=True)
