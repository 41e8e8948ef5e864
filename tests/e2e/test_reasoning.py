"""The Reasoning page in a real browser, in English: no exception, one interaction, a screenshot (test_shell visits
every page in both languages)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.reasoning import service as svc
from bench.interactions import INTERACTIONS, SLIDERS
from tests.e2e.conftest import SHOTS, exceptions, goto, nudge, wait_idle

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.e2e
SLIDER = SLIDERS["reasoning"]
interact = INTERACTIONS["reasoning"]  # one widget change, as bench/ times it


def test_reasoning_page(server, page):
    goto(page, f"{server}/reasoning?lang={LANG}")
    assert exceptions(page) == 0
    thumb = page.locator(SLIDER)
    thumb.wait_for(timeout=60_000)
    assert thumb.input_value() == str(svc.GROUP)
    interact(page, 0)
    assert exceptions(page) == 0
    assert thumb.input_value() == str(svc.GROUP + 1)
    page.locator(".st-key-reasoning_r1").wait_for(timeout=60_000)
    page.screenshot(path=SHOTS / f"reasoning-{LANG}.png", full_page=True)


def test_the_pickers_put_a_problem_in_the_box_and_show_their_own_state(server, page):
    """The box, the pickers and chain of thought are keyed fragments that the pickers' callbacks rerun: another
    problem shows its number, an example goes into the box and its pill is cleared, the difficulty draws a problem
    of that length — and each time chain of thought answers the problem in the box."""
    goto(page, f"{server}/reasoning?lang={LANG}")
    box = page.locator(".st-key-reasoning_problem input")
    number = page.locator(".st-key-reasoning_index input")
    truth = page.locator('[data-testid="stMetricValue"]').first

    def answered(problem: str) -> None:
        expect(box).to_have_value(problem, timeout=30_000)
        expect(truth).to_have_text(str(svc.problem(problem).answer), timeout=30_000)

    page.locator(".st-key-reasoning_another button").click()
    wait_idle(page)
    expect(number).to_have_value("1", timeout=30_000)
    answered(svc.drawn(svc.DEFAULT_K, 1))

    pills = page.locator(".st-key-reasoning_example button")
    pills.nth(1).click()
    wait_idle(page)
    answered(svc.examples()[1])
    assert pills.count() == len(svc.examples())
    assert page.locator('.st-key-reasoning_example button[aria-checked="true"]').count() == 0  # cleared

    nudge(page, page.locator('.st-key-reasoning_k input[type="range"]'), 0)
    wait_idle(page)
    answered(svc.drawn(svc.DEFAULT_K + 1, 1))
    expect(number).to_have_value("1")
    assert exceptions(page) == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_tables_fit_a_phone(server, browser, lang):
    """At 390 px every visible static table fits its box (the GRPO group's eight columns were cut at the right edge
    before the phone rule of html.TIP_CSS tightened table cells)."""
    page = browser.new_page(viewport={"width": 390, "height": 900})
    try:
        goto(page, f"{server}/reasoning?lang={lang}")
        page.locator('[data-testid="stTable"]').first.wait_for(timeout=60_000)
        wait_idle(page)
        assert exceptions(page) == 0
        widths = page.locator('[data-testid="stTable"]').evaluate_all(
            "els => els.filter(e => e.offsetParent).map(e => [e.querySelector('table').scrollWidth, e.clientWidth])"
        )
        assert widths and all(table <= box + 1 for table, box in widths), widths
    finally:
        page.close()
