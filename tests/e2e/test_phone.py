"""What a phone (390 px) shows of the controls every page shares: a row of segmented buttons wider than the screen
wraps onto further lines, so every option stays visible and tappable (the encoder–decoder knock-out's five parts
scrolled sideways before the phone rule of html.TIP_CSS, their last options cut off at the right edge)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import exceptions, goto, wait_idle

pytestmark = pytest.mark.e2e

# Pages whose knock-out part row has five options, by url path: its control's key
PART_ROWS = {"t5": "t5_ko_part", "attention": "attention_ko_part"}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path", sorted(PART_ROWS))
def test_segmented_buttons_wrap_on_a_phone(server, browser, path, lang):
    page = browser.new_page(viewport={"width": 390, "height": 900})
    try:
        goto(page, f"{server}/{path}?lang={lang}")
        row = page.locator(f".st-key-{PART_ROWS[path]} [role='radiogroup']")
        row.locator("button").first.wait_for(timeout=120_000)
        wait_idle(page)
        assert exceptions(page) == 0
        box = row.evaluate(
            "e => { const r = e.getBoundingClientRect(); return [r.left, r.right, e.scrollWidth, e.clientWidth]; }"
        )
        left, right, scroll, client = box
        assert scroll <= client + 1, box  # nothing hidden past the row's edge
        buttons = row.locator("button").evaluate_all(
            "els => els.map(b => { const r = b.getBoundingClientRect(); return [r.left, r.right, r.top]; })"
        )
        assert len(buttons) == 5
        assert all(left - 1 <= b_left and b_right <= right + 1 for b_left, b_right, _ in buttons), (box, buttons)
        assert len({round(top) for *_, top in buttons}) > 1  # they did not fit one line at 390 px: a second line
    finally:
        page.close()
