"""What a reader sees when the server stops under their page: the connection status and, after a while,
Streamlit's "Connection error" dialog, both in the reader's language and without the developer's advice to run
``streamlit run yourscript.py`` (html.connection_words). A server of its own: this test stops it."""

from __future__ import annotations

import pytest

from app.shared.i18n import translate
from tests.e2e.conftest import free_port, goto, start_server

pytestmark = pytest.mark.e2e

AFTER = "e => getComputedStyle(e, '::after').content"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_lost_connection_speaks_the_readers_language(browser, lang):
    port = free_port()
    proc = start_server(port, env={"TE_WARM_UP": "0"})
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    try:
        goto(page, f"http://127.0.0.1:{port}/?lang={lang}")  # the home page: no model to load
        proc.kill()
        proc.wait(timeout=20)
        label = page.locator('[data-testid="stConnectionStatus"] label')
        label.wait_for(timeout=60_000)
        assert label.evaluate(AFTER) == f'"{translate("shell.reconnecting", lang)}"'
        assert label.evaluate("e => getComputedStyle(e).fontSize") == "0px"  # Streamlit's "Connecting" is not shown
        dialog = page.locator('section[role="dialog"].te-connection-dialog')
        dialog.wait_for(timeout=120_000)
        assert dialog.locator("h2").evaluate(AFTER) == f'"{translate("shell.connection_error.title", lang)}"'
        assert dialog.evaluate(AFTER) == f'"{translate("shell.connection_error.body", lang)}"'
        assert not dialog.locator("pre, code").first.is_visible()  # "streamlit run yourscript.py" is hidden
    finally:
        page.close()
        if proc.poll() is None:
            proc.kill()
