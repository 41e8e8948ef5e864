"""The MoE routing page in a real browser, in English: no exception, one interaction, a screenshot
(test_shell visits every page in both languages)."""

from __future__ import annotations

import pytest

from bench.interactions import INTERACTIONS, capacity_thumb
from tests.e2e.conftest import SHOTS, exceptions, goto

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
interact = INTERACTIONS["moe"]  # one widget change, as bench/ times it


def test_moe_page(server, page):
    goto(page, f"{server}/moe?lang={LANG}")
    assert exceptions(page) == 0
    before = float(capacity_thumb(page).input_value())
    interact(page)
    assert exceptions(page) == 0
    assert float(capacity_thumb(page).input_value()) == pytest.approx(before - 0.05)
    page.screenshot(path=SHOTS / f"moe-{LANG}.png", full_page=True)
