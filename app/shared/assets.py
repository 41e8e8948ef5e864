"""The static files the app serves, from the top-level ``assets/`` folder: example texts and default inputs
(``assets/examples/``), the papers of the home timeline (``assets/timeline.json``), published reference numbers.

Read once per process (cached); no Streamlit needed, so the catalog and the tests can use them too.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

ASSETS = Path(__file__).resolve().parents[2] / "assets"


@cache
def text(name: str) -> str:
    """The file ``assets/<name>`` as text (UTF-8)."""
    return (ASSETS / name).read_text(encoding="utf-8")


def lines(name: str) -> tuple[str, ...]:
    """The non-empty lines of ``assets/<name>``, one example each."""
    return tuple(line for line in text(name).splitlines() if line.strip())


def data(name: str):
    """``assets/<name>`` parsed as JSON (a fresh object each call: callers may keep or change it)."""
    return json.loads(text(name))
