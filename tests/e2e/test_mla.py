"""The DeepSeek-V3 page in a real browser, in English: no exception, one interaction, a screenshot (test_shell visits
every page in both languages)."""

from __future__ import annotations

import pytest

from app.mla import service as svc
from app.shared.i18n import translate
from bench.interactions import FIGURE_SLIDERS, INTERACTIONS, figure_value
from tests.e2e.conftest import SHOTS, exceptions, goto

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(not svc.available(), reason="no mla checkpoint shipped")]
FIGURE, DEFAULT, NEXT = FIGURE_SLIDERS["mla"]
interact = INTERACTIONS["mla"]  # one widget change, as bench/ times it


def test_mla_page(server, page):
    goto(page, f"{server}/mla?lang={LANG}")
    assert exceptions(page) == 0
    chart = page.locator(f".st-key-{FIGURE}")
    chart.wait_for(timeout=60_000)
    token = translate("mla.token", LANG)
    assert figure_value(page, FIGURE) == f"{token} {DEFAULT}"  # it opens on token 5
    readout = chart.get_by_text(f"token {DEFAULT} (", exact=False).first
    readout.wait_for(timeout=30_000)
    interact(page, 0)  # a step of the figure's own slider: drawn in the browser
    assert exceptions(page) == 0
    assert figure_value(page, FIGURE) == f"{token} {NEXT}"
    chart.get_by_text(f"token {NEXT} (", exact=False).first.wait_for(timeout=30_000)
    page.locator(".st-key-mla_rope_scores").wait_for(timeout=60_000)
    page.screenshot(path=SHOTS / f"mla-{LANG}.png", full_page=True)
