"""A real `streamlit run` on a free port, and Debian's Chromium driven by Playwright.

Waiting rule (from Streamlit's own e2e tests): after an action, wait until the app reports it is idle
(`data-test-script-state="notRunning"`) — no sleeps.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from deploy.launch import free_port, healthy, streamlit_command  # the launcher's: one way to start the app

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
MAIN_ELEMENT = '[data-testid="stMain"] [data-testid="stElementContainer"]'
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def start_server(port: int, extra: list[str] | None = None, env: dict[str, str] | None = None) -> subprocess.Popen:
    """Start the app and return once /_stcore/health answers (or raise with the server's output); ``env`` adds to
    this process's environment."""
    # A clean checkout has no artifacts/, and the first test to start a server may not be an e2e one.
    (ROOT / "artifacts").mkdir(exist_ok=True)
    log = open(ROOT / "artifacts" / f"server-{port}.log", "w")  # noqa: SIM115 (closed with the process)
    proc = subprocess.Popen(
        streamlit_command(port, extra),
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, **(env or {})},
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {proc.returncode}; see {log.name}")
        if healthy(f"http://127.0.0.1:{port}"):
            return proc
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError("streamlit did not become healthy within 60 s")


def chromium_path() -> str:
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(path):
        pytest.fail("Debian's chromium is not installed (apt-get install chromium)")
    return path


def wait_idle(page, timeout: float = 60_000) -> None:
    """Wait for the rerun that an action started to finish."""
    page.wait_for_timeout(100)  # let the frontend flip to "running" before we wait for "notRunning"
    page.wait_for_selector(IDLE, timeout=timeout)


def nudge(page, thumb, i: int, first: str = "ArrowRight") -> None:
    """One step of a slider (a react-aria range input): ``first`` on even ``i``, the other way on odd ``i``, so
    repeated calls (bench/) always change the value and stay next to the default; returns after the rerun."""
    thumb.focus()
    thumb.press(first if i % 2 == 0 else {"ArrowRight": "ArrowLeft", "ArrowLeft": "ArrowRight"}[first])
    wait_idle(page)


def goto(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(MAIN_ELEMENT, timeout=60_000)
    wait_idle(page)


def exceptions(page) -> int:
    return page.locator('[data-testid="stException"]').count()


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
