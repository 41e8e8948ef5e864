"""Entry point: page config, the sidebar (language, backend, what ran) and the navigation by era.

streamlit run app/streamlit_app.py
"""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path
from urllib.parse import urlencode

# `streamlit run` puts only app/ on sys.path; the pages import the `app` and `models` packages from the root.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from app.catalog import APP_DIR, ERAS, HOME, available_papers, available_tools, era_papers  # noqa: E402
from app.lessons import hooks as lessons  # noqa: E402
from app.shared import html, theme, ui  # noqa: E402
from app.shared.i18n import LANG_NAMES, LANGS, remember_lang, t  # noqa: E402
from app.shared.services import (  # noqa: E402
    BACKENDS,
    WARM_UP_DELAY_S,
    begin_warm_up,
    import_page,
    reader_run,
    settle_heap,
    share_the_interpreter,
    warm_up,
)


def share_link() -> str | None:
    """This view's address: the page's URL in the browser and the query parameters the page has written."""
    if not st.context.url:
        return None
    query = urlencode(st.query_params.to_dict())
    return st.context.url + (f"?{query}" if query else "")


SHELL_KEYS = ("lang", "backend")  # what a reset keeps: the reader's language and backend


def reset_link() -> str | None:
    """This page's address with only the shell's query parameters. Opening it starts a fresh session, so every
    control starts from its default: the browser keeps the values of the controls it has drawn and sends them
    back on every rerun, which clearing the server's state cannot undo."""
    if not st.context.url:
        return None
    query = urlencode({k: st.query_params[k] for k in SHELL_KEYS if k in st.query_params})
    return st.context.url + (f"?{query}" if query else "")


PRESENT = "present"  # the presenter-mode toggle's key and query parameter
presenting = st.session_state.get(PRESENT, st.query_params.get(PRESENT) == "true")
st.set_page_config(
    page_title="Transformer Explorer",
    page_icon=":material/hub:",
    layout="wide",
    initial_sidebar_state="collapsed" if presenting else "auto",
)
st.session_state[ui.RUN_TOKEN] = uuid.uuid4().hex  # tells a timing measured in this run from a cached one
st.session_state["_blocks_this_run"] = 0  # ui._keyed numbers the page's explanation blocks from here
ui.note_link()  # the opening link's parameters, before a control reads one (ui.link_notice, below)

# The language is mirrored in the URL by hand (?lang=zh): a bound selectbox would write the display name.
if "lang" not in st.session_state:
    st.session_state["lang"] = st.query_params.get("lang") if st.query_params.get("lang") in LANGS else "en"

with st.sidebar:
    st.selectbox("Language / 语言", LANGS, format_func=LANG_NAMES.get, key="lang")
    remember_lang(st.session_state["lang"])  # every t() of this run and its fragments' reruns reads it from here
    st.selectbox(t("sidebar.backend"), BACKENDS, key="backend", bind="query-params", help=t("sidebar.backend.help"))
    c_reset, c_link = st.columns(2)
    reset_slot = c_reset.empty()
    if st.toggle(t("sidebar.present"), key=PRESENT, bind="query-params", help=t("sidebar.present.help")):
        st.html(html.PRESENTER_CSS)
        st.html(html.PRESENTER_SCRIPT, unsafe_allow_javascript=True)
    link_slot = c_link.empty()
    last_run = st.empty()
    st.html(html.history_script((*SHELL_KEYS, PRESENT)), unsafe_allow_javascript=True)
    st.html(html.TIP_CSS)
    st.html(
        html.connection_words(
            t("shell.reconnecting"), t("shell.connection_error.title"), t("shell.connection_error.body")
        ),
        unsafe_allow_javascript=True,
    )
    st.html(theme.THEME_CSS)  # the colours our HTML takes from the reader's light or dark theme
    share_the_interpreter()
    warming = warm_up()
    if not warming.finished:
        st.caption(t("sidebar.warming", done=warming.done, total=warming.total or "…"))

NAV = "_te_nav"  # this session's pages, built once per language: st.Page resolves its script's path (see below)


def navigation_sections() -> dict[str, list]:
    """The sidebar's sections and their pages, in the session's language. Built once per session and language and
    kept in its state: constructing the twenty-odd ``st.Page`` objects (each resolving its script's path) was 14% of
    the server's locked time in a rerun of the shell around an empty page. Not shared between sessions: running a
    page flips a flag on its ``st.Page``."""
    papers, tools = available_papers(), available_tools()
    keys = tuple(p.key for p in (*papers, *tools))
    wanted = (st.session_state["lang"], keys, os.environ.get("TE_BENCH_EMPTY_PAGE") == "1")
    held = st.session_state.get(NAV)
    if held is not None and held[0] == wanted:
        return held[1]
    home = st.Page(APP_DIR / HOME / "page.py", title=t("home.nav"), icon=":material/home:", default=True)
    sections: dict[str, list] = {t("era.home"): [home]}
    for era in ERAS:
        pages = [  # in home's numbered order (catalog.era_papers), not the timeline's
            st.Page(APP_DIR / p.script, title=t(f"paper.{p.key}.title"), icon=p.icon, url_path=p.page)
            for p in era_papers(era)
        ]
        if pages:
            sections[t(f"era.{era}")] = pages
    if tools:  # pages about no one paper, after the eras (never on the home timeline)
        sections[t("era.tools")] = [
            st.Page(APP_DIR / p.script, title=t(f"tool.{p.key}.title"), icon=p.icon, url_path=p.page) for p in tools
        ]
    if wanted[2]:  # bench.load's yardstick: the shell around a page that draws nothing
        sections[t("era.home")].append(st.Page(ROOT / "bench" / "empty_page.py", title="empty", url_path="empty"))
    st.session_state[NAV] = (wanted, sections)
    return sections


def page_folder(url_path: str) -> Path:
    """The folder of app/ that holds the page at ``url_path`` (home's for the home page and the benchmarks' empty
    page, whose script is not in app/)."""
    for p in (*available_papers(), *available_tools()):
        if p.page == url_path:
            return (APP_DIR / p.script).parent
    return APP_DIR / HOME


sections = navigation_sections()
page = st.navigation(sections, expanded=True)  # every page one click away, none behind "View more"
if st.session_state["lang"] == "en":
    st.query_params.pop("lang", None)
else:
    st.query_params["lang"] = st.session_state["lang"]
try:
    with reader_run():  # the warm-up waits for it (services)
        import_page(page_folder(page.url_path))  # a first visit in this process: a spinner, not a blank page
        lessons.before_page(page.url_path, presenting)  # a lesson's stop: its task at the top of the page
        page.run()
        lessons.after_page(page.url_path)  # the page's exercise, checked against the live model
finally:
    begin_warm_up(WARM_UP_DELAY_S)  # after the first run has drawn its page, not beside it (services)
settle_heap(page.url_path or HOME)  # once per page and process, after its first whole run: see services

reset = reset_link()
if reset:
    reset_slot.html(html.reset_link(reset, t("sidebar.reset"), t("sidebar.reset.help")))

link = share_link()
if link:  # after the page: its controls have written their values into the URL
    with link_slot.popover(t("sidebar.link"), icon=":material/link:"):
        st.caption(t("sidebar.link.help"))
        ui.markup(html.share_link(link))

ui.link_notice()  # after the page: its controls have taken what they could of the link

if ui.LAST_READOUT in st.session_state:
    key, backend, device, ms = st.session_state[ui.LAST_READOUT]
    last_run.caption(t("sidebar.last_run", readout=t(key, backend=backend, device=device, ms=ms)))
