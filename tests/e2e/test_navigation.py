"""Browser Back and Forward across an in-app link, one test per kind of link: a lesson stop's "Next stop →",
Compare's "Open …'s page", the home page's link to a page. Streamlit writes the new page's query string on the old
page's path before it writes the new path; the shell's history script makes that write the new page's entry, so Back
lands on the old page's own address (reopened as a shared link: every control, and a stop's banner, come back) and
Forward on the new page's."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from playwright.sync_api import expect

from app.compare import service as compare_svc
from app.lessons.paths import PATHS
from app.shared.i18n import translate
from tests.e2e.conftest import exceptions, goto, history_ready, wait_idle

pytestmark = pytest.mark.e2e

PATH = "scratch"  # its first stop is the attention page with a prepared step, its second the forward pass
FIRST, SECOND = PATHS[PATH][0], PATHS[PATH][1]
REAL = "smollm2-135m"


def _follow(link) -> None:
    """Click this very link (as tests/e2e/test_lessons.py does: the page may still move under a pointer click)."""
    link.wait_for(timeout=120_000)
    link.evaluate("a => a.click()")


def _banner(page, stop) -> None:
    """Wait for the banner of ``stop`` (English)."""
    words = translate("lessons.stop_of", "en", n=stop.number, total=len(PATHS[stop.path]))
    page.locator(".st-key-te_lesson_banner").get_by_text(words).wait_for(timeout=120_000)
    wait_idle(page, 120_000)


def _query(page, key: str) -> str | None:
    return parse_qs(urlsplit(page.url).query).get(key, [None])[0]


def _back(page, path: str) -> None:
    history_ready(page)
    page.go_back()
    page.wait_for_url(lambda url: url.split("?")[0].endswith(path), timeout=60_000)
    history_ready(page)  # Back reopens the address: the reloaded document has drawn the shell


def _forward(page, path: str) -> None:
    history_ready(page)
    page.go_forward()
    page.wait_for_url(lambda url: url.split("?")[0].endswith(path), timeout=60_000)
    history_ready(page)


def test_back_from_a_lessons_next_stop_shows_the_stop_as_it_was(server, page):
    """Stop 1 (the attention page, its step prepared at 2) → "Next stop →" → Back: stop 1's banner and its prepared
    step again, on stop 1's own address; Forward: stop 2 with its banner."""
    step = dict(FIRST.params)["attention_step"]
    goto(page, f"{server}/{FIRST.page}?{urlencode(FIRST.query('en'))}")
    _banner(page, FIRST)
    thumb = page.locator('.st-key-attention_step input[type="range"]')
    expect(thumb).to_have_value(step, timeout=60_000)
    first_url = page.url
    history_ready(page)
    _follow(page.get_by_role("link", name=translate("lessons.next", "en")))
    page.wait_for_url(f"{server}/{SECOND.page}?**", timeout=60_000)
    _banner(page, SECOND)

    _back(page, f"/{FIRST.page}")
    assert page.url == first_url  # the stop's own address, not stop 2's query string on it
    _banner(page, FIRST)
    expect(thumb).to_have_value(step, timeout=60_000)
    assert exceptions(page) == 0

    _forward(page, f"/{SECOND.page}")
    _banner(page, SECOND)
    assert exceptions(page) == 0


@pytest.mark.skipif(REAL not in compare_svc.offered()[0], reason=f"needs {REAL} (setup converts it)")
def test_back_from_a_page_compare_opened_keeps_compares_models(server, page):
    """Compare with SmolLM2 beside our GPT → "Open smollm2-135m's page" (the Llama page on SmolLM2) → Back: Compare
    still compares SmolLM2; Forward: the Llama page with SmolLM2 picked."""
    page_of = compare_svc.page_of(REAL)
    # A short text: SmolLM2 on a busy CPU. Nothing here waits for a page to finish its run, only for what it checks.
    page.goto(f"{server}/compare?compare_models=gpt,{REAL}&compare_text=To+be+or+not")
    models = page.locator(".st-key-compare_models")
    expect(models).to_contain_text(REAL, timeout=120_000)
    history_ready(page)
    _follow(page.get_by_role("link", name=translate("compare.open", "en", name=REAL)))  # drawn once it has run
    page.wait_for_url(f"{server}/{page_of}?**", timeout=120_000)
    picker = page.locator(f".st-key-{page_of}_model input")  # the select box shows its choice in its input
    expect(picker).to_have_value(re.compile("SmolLM2"), timeout=120_000)

    _back(page, "/compare")
    assert _query(page, "compare_models") == f"gpt,{REAL}"  # Compare's own address, not the link's query on it
    expect(models).to_contain_text(REAL, timeout=120_000)
    assert exceptions(page) == 0

    _forward(page, f"/{page_of}")
    assert _query(page, f"{page_of}_model") == REAL
    expect(picker).to_have_value(re.compile("SmolLM2"), timeout=120_000)
    assert exceptions(page) == 0


def test_back_from_a_page_the_home_page_opened_lands_on_home(server, page):
    """The home page (in Chinese) → its link that starts a path → Back: the home page on its own address, not the
    stop's query string on it; Forward: the stop with its banner."""
    goto(page, f"{server}/?lang=zh")
    home = page.url
    history_ready(page)
    start = page.get_by_role("link", name=translate("home.paths.start", "zh", n=len(PATHS[PATH])))
    _follow(start.and_(page.locator(f'a[href*="lesson={PATH}"]')).first)  # two paths may have as many stops
    page.wait_for_url(f"{server}/{FIRST.page}?**", timeout=60_000)
    wait_idle(page, 120_000)

    _back(page, "/")
    assert page.url == home
    page.get_by_role("heading", name=translate("home.title", "zh")).wait_for(timeout=60_000)
    assert exceptions(page) == 0

    _forward(page, f"/{FIRST.page}")
    assert "lang=zh" in page.url and f"{PATH}" in page.url
    words = translate("lessons.stop_of", "zh", n=1, total=len(PATHS[PATH]))
    page.locator(".st-key-te_lesson_banner").get_by_text(words).wait_for(timeout=120_000)
    assert exceptions(page) == 0


def test_a_link_followed_right_after_a_page_change_is_an_entry_of_its_own(server, page):
    """The history script alone, driven with Streamlit's writes: a page change (its new path), then at once an in-app
    link followed with no query string to write first (only its new path): two entries, not the second merged into
    the first as one page change's writes are. (A reader who follows a link the moment a page appears.)"""
    goto(page, f"{server}/?lang=zh")
    history_ready(page)
    length = page.evaluate(
        """() => {
          const before = history.length;
          history.pushState({}, "", "/te-first?lang=zh");  // a page change arrives
          const a = document.createElement("a");  // an in-app link, which Streamlit follows without a reload
          a.href = "/te-second?lang=zh";
          a.addEventListener("click", (event) => event.preventDefault());
          document.body.appendChild(a);
          a.click();
          history.pushState({}, "", "/te-second?lang=zh");
          a.remove();
          return history.length - before;
        }"""
    )
    assert length == 2
