"""A real `streamlit run` on a free port, and Debian's Chromium driven by Playwright.

The server start, the waiting rule (after an action, wait until the app reports it is idle, no sleeps) and the
page helpers are bench/common.py's, so a test and a benchmark start and wait for the app the same way.
"""

from __future__ import annotations

import pytest

from bench.common import (  # noqa: F401 (re-exported: the e2e tests import these from here)
    CHROMIUM_ARGS,
    ROOT,
    find_chromium,
    free_port,
    goto,
    nudge,
    start_server,
    wait_idle,
)

SHOTS = ROOT / "artifacts" / "screenshots"


def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        pytest.fail("Debian's chromium is not installed (apt-get install chromium)")
    return path


def exceptions(page) -> int:
    return page.locator('[data-testid="stException"]').count()


def pick_real(page, key: str, lang: str, name: str = "smollm2-135m") -> None:
    """Pick the real checkpoint ``name`` in the page's model picker ``key`` (the test fails where it is not here),
    wait for the page to follow it, and check it did so without an exception and put the choice into the link."""
    from app.shared import services
    from app.shared.i18n import translate
    from models import pretrained

    if not services.checkpoint(name).available:
        pytest.fail(f"{name} is not on this machine: run `python -m models.data.pretrained`")
    page.locator(f'.st-key-{key} [role="combobox"]').click()
    page.get_by_role("option", name=translate("picker.real", lang, title=pretrained.KNOWN[name].title)).click()
    wait_idle(page, timeout=180_000)
    assert exceptions(page) == 0 and f"{key}={name}" in page.url


@pytest.fixture(scope="session")
def server():
    SHOTS.mkdir(parents=True, exist_ok=True)
    port = free_port()
    proc = start_server(port)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    yield pg
    context.close()


def history_ready(page) -> None:
    """Wait until the app's history script runs in this document: Back and Forward reopen an entry's address only
    once it does (right after a reload, before the sidebar has drawn it, the browser would step through the entries
    without reopening them)."""
    page.wait_for_function("window.__teHistory === true", timeout=60_000)
