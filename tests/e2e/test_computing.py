"""A view that a first visit waits for shows a spinner in the reader's language where it will appear, not a blank
area (``app.shared.services.computing``): a real Streamlit server runs a two-line script whose computation waits
until the test lets it finish, so the test waits on state only."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from bench.common import ROOT, free_port, healthy

pytestmark = pytest.mark.e2e

SCRIPT = """
import threading
from pathlib import Path

import streamlit as st

from app.shared import services

st.session_state["lang"] = st.query_params.get("lang", "en")  # what the shell's language picker sets
st.title("before")


@services.computing
def slow(flag: str) -> str:
    while not Path(flag).exists():
        threading.Event().wait(0.05)
    return "computed"


st.write(slow({flag!r}))
"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_slow_first_view_shows_what_it_waits_for(browser, tmp_path, lang):
    from app.shared.i18n import translate

    flag = tmp_path / "done"
    script = tmp_path / "script.py"
    script.write_text(SCRIPT.format(flag=str(flag)))
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(script),
            "--server.port",
            str(port),
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    page = browser.new_page()
    try:
        while not healthy(f"http://127.0.0.1:{port}"):
            assert proc.poll() is None, "streamlit exited"
            threading.Event().wait(0.2)  # polls the server's state
        page.goto(f"http://127.0.0.1:{port}/?lang={lang}")
        spinner = page.locator('[data-testid="stSpinner"]')
        spinner.wait_for(timeout=60_000)
        assert translate("shell.computing", lang)[:20] in spinner.inner_text()
        page.get_by_role("heading", name="before").wait_for()  # what came before stays drawn above it
        flag.touch()
        page.get_by_text("computed").wait_for(timeout=60_000)
        spinner.wait_for(state="detached", timeout=60_000)
    finally:
        page.close()
        proc.kill()
        proc.wait()
