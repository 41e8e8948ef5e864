"""Every page in a real browser, in both languages: no exception, a screenshot each; the language switch works."""

import pytest

from app.catalog import available_papers, available_tools
from app.shared.i18n import translate
from tests.e2e.conftest import SHOTS, exceptions, free_port, goto, nudge, start_server, wait_idle

pytestmark = pytest.mark.e2e


def choose_language(page, name: str) -> None:
    """Pick a language in the sidebar as a reader does: open the selector, type, Enter. (Typing into it without
    opening it first stopped working once the full navigation put the selector at the window's bottom edge.)"""
    box = page.get_by_role("combobox", name="Language / 语言")
    box.scroll_into_view_if_needed()
    box.click()
    page.keyboard.type(name)
    page.keyboard.press("Enter")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_page_in_both_languages(server, page, lang):
    for path in ["", *(p.page for p in (*available_papers(), *available_tools()))]:
        goto(page, f"{server}/{path}?lang={lang}")
        assert exceptions(page) == 0, f"exception on /{path} ({lang})"
        page.screenshot(path=SHOTS / f"{path or 'home'}-{lang}.png", full_page=True)


def test_switching_language_in_the_sidebar(server, page):
    goto(page, server)
    assert page.get_by_role("heading", name="Transformer Explorer").count() == 1
    choose_language(page, "简体")
    wait_idle(page)
    page.get_by_role("heading", name="Transformer 探索器").wait_for()
    assert "lang=zh" in page.url
    assert exceptions(page) == 0
    # The link now opens the Chinese view for someone else.
    goto(page, page.url)
    assert page.get_by_role("heading", name="Transformer 探索器").count() == 1


def test_a_fragment_speaks_the_language_just_chosen(server, page):
    """A fragment's rerun (BERT's k slider) is in the language chosen in the sidebar since the page was opened, both
    ways: the shell notes the language once a full run (``i18n.remember_lang``) and fragments read that note."""
    goto(page, f"{server}/bert")
    for i, (name, lang) in enumerate((("简体", "zh"), ("English", "en"))):
        choose_language(page, name)
        wait_idle(page)
        nudge(page, page.get_by_role("slider").first, i)  # reruns the predictions' fragment alone
        caption = translate("bert.pred.caption", lang).split("。")[0].split(".")[0]
        other = translate("bert.pred.caption", "en" if lang == "zh" else "zh").split("。")[0].split(".")[0]
        assert page.get_by_text(caption).count() == 1 and page.get_by_text(other).count() == 0
        assert exceptions(page) == 0


def test_backend_choice_is_in_the_url(server, page):
    goto(page, f"{server}/?backend=onnx")
    assert page.get_by_role("combobox", name="Backend").input_value() == "onnx"


def test_the_link_in_the_sidebar_is_this_views_address(server, page):
    """The sidebar's "Link" shows the page's address with the controls the page wrote into the URL, and
    opening it shows the same view."""
    goto(page, f"{server}/bert?lang=zh&bert_k=3")
    page.get_by_role("button", name="链接").click()
    code = page.locator('[data-testid="stPopoverBody"] code')
    code.wait_for()
    assert code.inner_text().strip() == f"{server}/bert?lang=zh&bert_k=3"
    goto(page, code.inner_text().strip())
    assert exceptions(page) == 0 and "bert_k=3" in page.url


def test_the_link_follows_a_move_inside_a_fragment(server, page):
    """A control inside a fragment writes the URL without rerunning the sidebar; the link shows that address, not
    the one from before the move."""
    from playwright.sync_api import expect

    goto(page, f"{server}/attention")
    nudge(page, page.locator('.st-key-attention_step input[type="range"]'), 0)
    page.wait_for_url(lambda url: "attention_step=1" in url, timeout=60_000)
    page.get_by_role("button", name="Link").click()
    code = page.locator('[data-testid="stPopoverBody"] code')
    expect(code).to_contain_text("attention_step=1", timeout=60_000)
    assert code.inner_text().strip() == page.url


def test_every_page_is_one_click_away_in_the_sidebar(server, page):
    """The navigation lists every page, none folded behind a "View more" button."""
    from playwright.sync_api import expect

    goto(page, server)
    nav = page.locator('[data-testid="stSidebarNav"]')
    for paper in (*available_papers(), *available_tools()):  # the sidebar may draw a moment after the page
        expect(nav.locator(f'a[href$="/{paper.page}"]')).to_have_count(1, timeout=60_000)
    assert page.locator('[data-testid="stSidebarNavViewButton"]').count() == 0
    assert page.get_by_text("View ").filter(has_text="more").count() == 0


def test_reset_brings_every_control_back_to_its_default(server, page):
    """The sidebar's "Reset" reopens the page with only the language and backend, and every control shows
    its default again (the text box, a URL-bound layer, a view chosen in the session)."""
    from playwright.sync_api import expect

    goto(page, f"{server}/attention?lang=zh&backend=onnx&attention_text=hello&attention_layer=0&attention_view=model")
    box = page.locator(".st-key-attention_text input")
    expect(box).to_have_value("hello", timeout=60_000)
    page.get_by_role("link", name="重置").click()
    page.wait_for_url(f"{server}/attention?lang=zh&backend=onnx")
    wait_idle(page)
    expect(box).to_have_value("abcdefgh", timeout=60_000)
    # the controls below the text box are drawn by a fragment, which may show a moment after the box
    layer = page.locator(".st-key-attention_layer button")
    expect(layer.last).to_have_attribute("aria-checked", "true", timeout=60_000)  # the last layer, the default
    view = page.locator(".st-key-attention_view button")
    expect(view.first).to_have_attribute("aria-checked", "true", timeout=60_000)  # the head view, the default
    assert page.get_by_role("combobox", name="推理后端").input_value() == "onnx" and exceptions(page) == 0


def history_ready(page) -> None:
    """Wait until the app's history script runs in this document: Back and Forward reopen an entry's address only
    once it does. Right after a reload, before the sidebar has drawn it, the browser would step through the entries
    without reopening them (on a busy machine the next Back came that early)."""
    page.wait_for_function("window.__teHistory === true", timeout=60_000)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_back_and_forward_step_through_the_states(server, page, lang):
    """Each change of a control is a history entry; Back returns to the state before it (the URL and what
    the controls show), through a change of page too (one entry, however many writes Streamlit makes), and Forward
    comes back."""
    from playwright.sync_api import expect

    box = page.locator(".st-key-attention_text input")
    view = page.locator(".st-key-attention_view button")
    checked = page.locator('.st-key-attention_view button[aria-checked="true"]')

    def chosen() -> str:
        checked.wait_for(timeout=60_000)  # after a reload the control may be drawn a moment after the text box
        return checked.inner_text()

    goto(page, f"{server}/attention?lang={lang}")
    head_view = chosen()
    view.nth(1).click()  # a view chosen in the session
    # Wait for the state, not for a moment: the view's history entry exists once its rerun has written the URL. On a
    # busy machine that can be later than the frontend going idle again, and a text typed before it reruns with the
    # view in one run, one entry (Back then skipped the model view).
    page.wait_for_url(lambda url: "attention_view=model" in url, timeout=60_000)
    wait_idle(page)
    expect(checked).not_to_have_text(head_view, timeout=60_000)
    model_view = chosen()
    box.fill("hello there")  # a text box bound to the URL
    box.press("Enter")
    page.wait_for_url(lambda url: "attention_text=hello+there" in url and "attention_view=model" in url, timeout=60_000)
    wait_idle(page)
    page.locator('[data-testid="stSidebarNav"] a[href$="/gpt"]').click()  # another page
    page.wait_for_url(f"{server}/gpt**")
    wait_idle(page)

    steps = [  # what each Back shows: text, view
        ("hello there", model_view),
        ("abcdefgh", model_view),
        ("abcdefgh", head_view),
    ]
    for text, shown in steps:
        history_ready(page)
        page.go_back()
        page.wait_for_selector(".st-key-attention_text input", timeout=60_000)
        wait_idle(page)
        expect(box).to_have_value(text, timeout=60_000)
        expect(checked).to_have_text(shown, timeout=60_000)
        assert exceptions(page) == 0
    history_ready(page)
    page.go_forward()
    page.wait_for_selector(".st-key-attention_text input", timeout=60_000)
    wait_idle(page)
    expect(checked).to_have_text(model_view, timeout=60_000)
    assert "attention_view=model" in page.url
    assert (f"lang={lang}" in page.url) == (lang == "zh")  # the reader's language stays with every entry


def test_a_fresh_servers_first_request_can_be_a_deep_link(page):
    """A shared link (/page?lang=zh) opened first on a new server gets the whole shell, in Chinese."""
    papers = available_papers()
    if not papers:
        pytest.skip("no page yet")
    port = free_port()
    proc = start_server(port)
    try:
        goto(page, f"http://127.0.0.1:{port}/{papers[0].page}?lang=zh")
        assert exceptions(page) == 0
        assert page.get_by_role("combobox", name="Language / 语言").input_value() == "简体中文"
        assert page.get_by_role("combobox", name="推理后端").count() == 1
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.mark.parametrize("path", ["", "attention"])
def test_phone_width(server, browser, path):
    """At a 390 px phone width in 中文, the page is no wider than the screen (nothing scrolls sideways),
    and a help icon answers a tap, not only a hover."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    try:
        goto(phone, f"{server}/{path}?lang=zh")
        assert exceptions(phone) == 0
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        if path:
            icon = phone.locator('[data-testid="stMain"] [data-testid="stTooltipIcon"]').first
            icon.scroll_into_view_if_needed()
            icon.tap()
            phone.locator('[data-testid="stTooltipContent"]').first.wait_for(timeout=10_000)
        phone.screenshot(path=SHOTS / f"{path or 'home'}-zh-phone.png", full_page=True)
    finally:
        context.close()


def test_plotlys_toolbar_never_covers_a_title_on_a_phone(server, browser, page):
    """A tap on a figure shows Plotly's toolbar over its title on a phone: at 390 px the toolbar is hidden (each
    figure has its numbers' download below it); on a desktop a hover still shows it."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    hidden = "(el) => getComputedStyle(el).display"
    try:
        goto(phone, f"{server}/llama?lang=zh")
        chart = phone.locator(".js-plotly-plot").first
        chart.scroll_into_view_if_needed()
        chart.tap()
        assert phone.evaluate(hidden, chart.locator(".modebar-container").element_handle()) == "none"
    finally:
        context.close()
    goto(page, f"{server}/llama")
    chart = page.locator(".js-plotly-plot").first
    chart.hover()
    assert page.evaluate(hidden, chart.locator(".modebar-container").element_handle()) != "none"


def test_a_tap_on_a_token_shows_its_title(server, browser):
    """Phones have no hover, so a token's title (the MoE page's routing of each token) also shows on a tap,
    in a bar that fits the 390 px screen."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    try:
        goto(phone, f"{server}/moe?lang=zh")
        token = phone.locator(".te-tip").first
        token.scroll_into_view_if_needed()
        shown = "(el) => getComputedStyle(el, '::after').content"
        assert phone.evaluate(shown, token.element_handle()) in ("none", "normal", "")
        token.tap()
        text = phone.evaluate(shown, token.element_handle())
        assert "专家" in text and token.get_attribute("title") in text.replace("\\a ", "\n")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


def test_presenter_mode_steps_through_the_figures(server, page):
    """In presenter mode, Page Down / Page Up (a clicker's keys) bring the next / previous figure to the
    middle of the screen, one at a time; without presenter mode the keys scroll as usual."""
    figures = page.locator('[data-testid="stMain"] :is([data-testid="stPlotlyChart"], [data-testid="teKeptChart"])')

    def centres() -> list[float]:
        return [b["y"] + b["height"] / 2 for b in (f.bounding_box() for f in figures.all())]

    def settled() -> list[float]:
        """The figures' centres once the layout has stopped moving (a chart or block still being drawn above a
        figure shifts it after the script has centred it, on a loaded machine); at most 10 s."""
        before = centres()
        for _ in range(40):
            page.wait_for_timeout(250)
            now = centres()
            if now == before:
                return now
            before = now
        return before

    goto(page, f"{server}/gpt?present=true")
    figures.nth(1).wait_for(timeout=60_000)
    page.wait_for_function(
        '() => [...document.querySelectorAll(\'[data-testid="stMain"] :is([data-testid="stPlotlyChart"],'
        ' [data-testid="teKeptChart"])\')]'
        ".filter((f) => f.getBoundingClientRect().height > 50).length >= 2",
        timeout=60_000,
    )
    page.mouse.click(700, 200)
    middle = page.viewport_size["height"] / 2
    assert len(centres()) >= 2
    for i in range(2):
        settled()
        page.keyboard.press("PageDown")
        page.wait_for_timeout(400)
        assert abs(centres()[i] - middle) < 4, (i, centres())
    settled()
    page.keyboard.press("PageUp")
    page.wait_for_timeout(400)
    assert abs(centres()[0] - middle) < 4, centres()

    goto(page, f"{server}/gpt")  # presenter mode off: no marker, so the script leaves the keys alone
    assert page.locator(".te-present-on").count() == 0
