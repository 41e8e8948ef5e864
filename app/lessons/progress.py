"""A reader's progress through the lessons, kept in their browser and nowhere else: one cookie (``te_lessons``) that
the server reads when a session starts (``st.context.cookies``) and a tiny static script writes whenever the progress
changes. Within a session the progress lives in ``st.session_state`` (the cookie the server saw is the one the
session started with). No accounts, nothing stored on the server."""

from __future__ import annotations

import json
from urllib.parse import quote, unquote

import streamlit as st

from app.shared import ui

COOKIE = "te_lessons"
MAX_AGE_S = 365 * 24 * 3600
STATE = "_te_lessons"  # {"seen": {path: [stop numbers]}, "solved": [pages]}
DIRTY = "_te_lessons_dirty"  # changed in this session: the cookie must be written
WRITTEN = "_te_lessons_written"  # the run that last drew the cookie script


def _empty() -> dict:
    return {"seen": {}, "solved": []}


def parse(raw: str | None) -> dict:
    """The cookie's value as progress; anything malformed reads as no progress (a cookie is the reader's to edit)."""
    try:
        value = json.loads(unquote(raw or ""))
        seen = {str(k): sorted({int(n) for n in v if 0 < int(n) < 100}) for k, v in value.get("seen", {}).items()}
        solved = sorted({str(p) for p in value.get("solved", [])})
    except (ValueError, TypeError, AttributeError):
        return _empty()
    return {"seen": {k: v for k, v in seen.items() if v}, "solved": solved}


def encode(state: dict) -> str:
    return quote(json.dumps(state, separators=(",", ":"), sort_keys=True), safe="")


def _cookie() -> str | None:
    try:
        return st.context.cookies.get(COOKIE)
    except Exception:  # no browser behind the session (a bare script run)
        return None


def state() -> dict:
    """This session's progress: the cookie's on the session's first look, then what the session did."""
    if STATE not in st.session_state:
        st.session_state[STATE] = parse(_cookie())
    return st.session_state[STATE]


def see(path: str, number: int) -> None:
    seen = state()["seen"].setdefault(path, [])
    if number not in seen:
        seen.append(number)
        seen.sort()
        st.session_state[DIRTY] = True


def solve(page: str) -> None:
    solved = state()["solved"]
    if page not in solved:
        solved.append(page)
        solved.sort()
        st.session_state[DIRTY] = True


def solved(page: str) -> bool:
    return page in state()["solved"]


def reset() -> None:
    st.session_state[STATE] = _empty()
    st.session_state[DIRTY] = True


def any_progress() -> bool:
    s = state()
    return bool(s["seen"] or s["solved"])


def script(state: dict) -> str:
    """Sets (or, with no progress, deletes) the cookie. Ours, static but for the value, which ``encode`` percent-
    escapes (no quote, no angle bracket can reach the script)."""
    empty = not (state["seen"] or state["solved"])
    value = "" if empty else encode(state)
    age = 0 if empty else MAX_AGE_S
    return f'<script>document.cookie = "{COOKIE}={value}; path=/; max-age={age}; SameSite=Lax";</script>'


def sync() -> None:
    """Once per run, after the progress changed in this session: the script that writes it into the browser."""
    if not st.session_state.get(DIRTY) or st.session_state.get(WRITTEN) == st.session_state.get(ui.RUN_TOKEN):
        return
    st.session_state[WRITTEN] = st.session_state.get(ui.RUN_TOKEN)
    st.html(script(state()), unsafe_allow_javascript=True)
