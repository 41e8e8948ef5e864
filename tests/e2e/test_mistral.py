"""The Mistral page in a real browser, in English: no exception, one interaction, a generation, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from app.mistral import service as svc
from app.shared.i18n import translate
from bench.interactions import FIGURE_SLIDERS, INTERACTIONS, figure_value
from tests.e2e.conftest import SHOTS, exceptions, goto, wait_idle

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(not svc.available(), reason="no Mistral checkpoint shipped")]
FIGURE, DEFAULT, NEXT = FIGURE_SLIDERS["mistral"]  # steps of the band map's own slider: w = step + 1
interact = INTERACTIONS["mistral"]  # one move, as bench/ times it


def test_mistral_page(server, page):
    goto(page, f"{server}/mistral?lang={LANG}")
    assert exceptions(page) == 0
    chart = page.locator(f".st-key-{FIGURE}")
    chart.wait_for(timeout=60_000)
    wait_idle(page)
    lo = svc.DISPLAY_WINDOWS[0]
    prefix = translate("mistral.window.prefix", LANG)
    assert DEFAULT + lo == svc.shape().window
    assert figure_value(page, FIGURE) == f"{prefix}{DEFAULT + lo}"  # it opens on the trained band
    shown = chart.locator(".textpoint").first
    assert "outside: 0.0%" in shown.text_content()
    interact(page, 0)  # a step of the map's own slider: drawn in the browser
    assert exceptions(page) == 0
    assert figure_value(page, FIGURE) == f"{prefix}{NEXT + lo}"
    assert f"{NEXT + lo} keys" in shown.text_content()
    page.locator(".st-key-mistral_generate button").click()
    wait_idle(page)
    page.locator('.st-key-mistral_step input[type="range"]').wait_for(timeout=60_000)
    assert exceptions(page) == 0
    page.screenshot(path=SHOTS / f"mistral-{LANG}.png", full_page=True)
