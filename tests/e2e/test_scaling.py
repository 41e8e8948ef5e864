"""The Scaling page in a real browser, in English: no exception, one interaction (the compute budget), a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from app.scaling import service as svc
from bench.interactions import INTERACTIONS, SLIDERS
from tests.e2e.conftest import SHOTS, exceptions, goto

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
SLIDER = SLIDERS["scaling"]
interact = INTERACTIONS["scaling"]  # one widget change, as bench/ times it


def test_scaling_page(server, page):
    goto(page, f"{server}/scaling?lang={LANG}")
    assert exceptions(page) == 0
    thumb = page.locator(SLIDER)
    thumb.wait_for(state="attached", timeout=60_000)
    start = svc.BUDGETS.index(svc.DEFAULT_BUDGET)
    assert thumb.input_value() == str(start)
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="N_opt · Chinchilla")
    before = metric.locator('[data-testid="stMetricValue"]').inner_text()
    interact(page, 0)
    assert exceptions(page) == 0
    assert thumb.input_value() == str(start + 1)
    assert metric.locator('[data-testid="stMetricValue"]').inner_text() != before
    page.locator(".st-key-scaling_zero").wait_for(timeout=60_000)
    page.screenshot(path=SHOTS / f"scaling-{LANG}.png", full_page=True)
