"""A lesson path in a real browser, in each language: from the Lessons page through every stop of "Attention from
scratch" by its Next links (each stop's banner, no exception), the GPT stop's exercise answered wrong then right,
the end of the path back on the Lessons page with the progress counted, and the progress still on the home page in a
fresh session (read back from the browser's cookie). A worksheet downloads and opens."""

from __future__ import annotations

import pytest

from app.gpt import service as gpt_svc
from app.lessons.exercises import EXERCISES
from app.lessons.paths import PATHS, STOP
from app.shared.i18n import translate
from tests.e2e.conftest import SHOTS, exceptions, goto, wait_idle

pytestmark = pytest.mark.e2e

PATH = "scratch"
GPT_STOP = next(s.number for s in PATHS[PATH] if s.page == "gpt")


def _pick(page, key: str, label: str) -> None:
    """Choose ``label`` in the selectbox drawn with ``key``."""
    box = page.locator(f'.st-key-{key} [role="combobox"]')
    box.click()
    box.fill(label)  # filters the list to the one option (the page may still be drawing below the box)
    page.get_by_role("option", name=label, exact=True).click(timeout=60_000)
    wait_idle(page)


def _follow(link) -> None:
    """Click this very link. A pointer click lands where the link was when Playwright last found it still; on a busy
    machine the page can still move under it (a spinner above it going away), and the click then followed another
    stop's link (the walk ended on stop 3 while it waited for stop 1)."""
    link.wait_for(timeout=120_000)
    link.evaluate("a => a.click()")


def _to_stop(scope, stop) -> object:
    """The link in ``scope`` (a locator) that opens ``stop``, found by where it leads rather than by its place: a
    walk on a busy machine once ended on stop 3 after following "the first link" of the path, the page still
    drawing; a link's address and what a click on it opens come from the same element."""
    return scope.locator(f"a[href*='{stop.page}?'][href*='{STOP}={stop.number}']").first


def _check(page, key: str) -> None:
    page.locator(f".st-key-{key} button").click()
    wait_idle(page)


def _cookie_holds(page, text: str) -> None:
    """Wait until the browser's progress cookie holds ``text`` (its JSON, percent-decoded)."""
    page.wait_for_function("(text) => decodeURIComponent(document.cookie).includes(text)", arg=text, timeout=60_000)


def _banner(page, n: int, total: int, lang: str, walked: list[str]) -> None:
    """Wait for stop ``n``'s banner (the banner's own text, not a match elsewhere in the page); on a timeout, say
    which addresses the walk went through."""
    words = translate("lessons.stop_of", lang, n=n, total=total)
    try:
        page.locator(".st-key-te_lesson_banner").get_by_text(words).wait_for(timeout=120_000)
    except Exception as e:
        raise AssertionError(f"no banner {words!r} at {page.url}; the walk went through {walked}") from e
    wait_idle(page, 120_000)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_walk_a_path_and_see_the_progress(server, page, lang):
    stops = PATHS[PATH]
    walked: list[str] = []  # every address the page showed (the main frame's navigations, history writes included)
    page.on("framenavigated", lambda frame: walked.append(frame.url) if frame == page.main_frame else None)
    goto(page, f"{server}/lessons?lang={lang}")
    assert exceptions(page) == 0
    _follow(_to_stop(page.locator(f".st-key-lessons_path_{PATH}"), stops[0]))
    for stop in stops:
        _banner(page, stop.number, len(stops), lang, walked)
        assert exceptions(page) == 0, stop.page
        assert f"/{stop.page}" in page.url and f"stop={stop.number}" in page.url
        if stop.number == 1:
            page.screenshot(path=SHOTS / f"lessons-stop-{lang}.png")
        if stop.number == GPT_STOP:
            best = gpt_svc.induction(*gpt_svc.ICL_DEFAULT, "torch").best_head
            wrong = (0, 0) if best != (0, 0) else (0, 1)
            label = lambda h: translate("view.layer_head", lang, layer=h[0], head=h[1])  # noqa: E731
            _pick(page, "lessons_gpt_answer", label(wrong))
            _check(page, "lessons_gpt_check")
            page.locator("[data-testid='stAlertContentWarning']").first.wait_for()
            page.locator(".st-key-te_lesson_exercise").screenshot(path=SHOTS / f"lessons-wrong-{lang}.png")
            _pick(page, "lessons_gpt_answer", label(best))
            _check(page, "lessons_gpt_check")
            page.locator("[data-testid='stAlertContentSuccess']").first.wait_for()
            page.locator(".st-key-te_lesson_exercise").screenshot(path=SHOTS / f"lessons-right-{lang}.png")
            assert exceptions(page) == 0
        if stop.number < len(stops):
            nxt = _to_stop(page.locator(".st-key-te_lesson_banner"), stops[stop.number])
            assert translate("lessons.next", lang) in nxt.inner_text(timeout=120_000)
            _follow(nxt)
    _follow(page.get_by_role("link", name=translate("lessons.done", lang)))
    page.locator(f".st-key-lessons_path_{PATH}").wait_for()
    wait_idle(page)
    with_exercise = sum(1 for s in stops if s.page in EXERCISES)
    line = translate("lessons.progress.line", lang, seen=len(stops), stops=len(stops), solved=1, total=with_exercise)
    assert page.get_by_text(line).count() >= 1

    # A fresh session (the address opened anew): the server reads the progress back from the cookie, once the
    # browser has run the script that writes it.
    _cookie_holds(page, '"solved":["gpt"]')
    goto(page, f"{server}/?lang={lang}")
    progress = page.locator(".st-key-te_lesson_progress")
    progress.wait_for()
    assert line in progress.inner_text()
    assert exceptions(page) == 0
    page.screenshot(path=SHOTS / f"lessons-home-{lang}.png")

    # The worksheet of the path, in this language, as printable HTML.
    goto(page, f"{server}/lessons?lang={lang}")
    with page.expect_download() as download:
        page.locator(f".st-key-lessons_ws_{PATH}_html_{lang} button").click()
    html = download.value.path().read_text(encoding="utf-8")
    assert translate(f"lessons.path.{PATH}.title", lang) in html and translate("lessons.ws.key", lang) in html
    sheet = page.context.new_page()
    sheet.set_content(html)
    assert sheet.locator("h2").count() == len(stops) + 1  # a heading per stop, and the answer key
    sheet.screenshot(path=SHOTS / f"lessons-worksheet-{lang}.png", full_page=True)
    sheet.close()


def test_reset_forgets_the_progress(server, page):
    goto(page, f"{server}/gpt?lang=en&lesson={PATH}&stop={GPT_STOP}")
    _banner(page, GPT_STOP, len(PATHS[PATH]), "en", [])
    _cookie_holds(page, f'"{PATH}":[{GPT_STOP}]')
    goto(page, f"{server}/lessons?lang=en")
    page.get_by_role("button", name=translate("lessons.reset", "en")).click()
    wait_idle(page)
    goto(page, f"{server}/?lang=en")
    assert page.locator(".st-key-te_lesson_progress").count() == 0
