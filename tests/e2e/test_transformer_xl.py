"""The Transformer-XL page in a real browser, in English: no exception, one interaction, a screenshot (test_shell
visits every page in both languages)."""

from __future__ import annotations

import pytest

from app.shared.i18n import translate
from app.transformer_xl import service as svc
from bench.interactions import FIGURE_SLIDERS, INTERACTIONS, figure_value
from tests.e2e.conftest import SHOTS, exceptions, goto

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(not svc.available(), reason="no Transformer-XL checkpoint shipped")]
FIGURE, DEFAULT, NEXT = FIGURE_SLIDERS["transformer-xl"]
interact = INTERACTIONS["transformer-xl"]  # one widget change, as bench/ times it


def test_transformer_xl_page(server, page):
    goto(page, f"{server}/transformer-xl?lang={LANG}")
    assert exceptions(page) == 0
    chart = page.locator(f".st-key-{FIGURE}")
    chart.wait_for(timeout=60_000)
    query = translate("txl.query", LANG)
    assert figure_value(page, FIGURE) == f"{query} {DEFAULT}"  # it opens on query 4
    chart.get_by_text("keys 64 + 5 ·", exact=False).first.wait_for(timeout=30_000)
    interact(page, 0)  # a step of the figure's own slider: drawn in the browser
    assert exceptions(page) == 0
    assert figure_value(page, FIGURE) == f"{query} {NEXT}"
    chart.get_by_text("keys 64 + 6 ·", exact=False).first.wait_for(timeout=30_000)  # segment 2: a full memory
    page.locator(".st-key-txl_terms").wait_for(timeout=60_000)
    page.screenshot(path=SHOTS / f"transformer-xl-{LANG}.png", full_page=True)
