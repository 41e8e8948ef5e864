"""Every UI string, in English and 简体中文.

String tables: ``app/shared/strings.py`` for the shell and the shared views, and ``app/<page>/strings.py`` beside each
page, each defining ``STRINGS = {"key": ("English", "简体中文"), ...}``; keys of a page start with its name, and a key
defined twice raises at start-up.
``t("key", **fields)`` returns the string in the session's language, formatted with ``str.format``.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path

LANGS = ("en", "zh")
LANG_NAMES = {"en": "English", "zh": "简体中文"}
APP = Path(__file__).resolve().parents[1]


def string_modules() -> list[str]:
    """``app.shared.strings``, then every page's ``app.<page>.strings``, in folder order."""
    pages = sorted(p.parent.name for p in APP.glob("*/strings.py") if p.parent.name != "shared")
    return ["app.shared.strings", *(f"app.{name}.strings" for name in pages)]


@cache
def table() -> dict[str, tuple[str, str]]:
    merged: dict[str, tuple[str, str]] = {}
    for module in string_modules():
        strings = importlib.import_module(module).STRINGS
        clash = merged.keys() & strings.keys()
        if clash:
            raise KeyError(f"i18n keys defined twice: {sorted(clash)}")
        merged.update(strings)
    return merged


def translate(key: str, lang: str, **fields: object) -> str:
    en, zh = table()[key]
    text = zh if lang == "zh" else en
    return text.format(**fields) if fields else text


# The language each session's last full run read (session id -> language), written by the shell right after its
# language selector (``remember_lang``). A page calls ``t`` a hundred times a rerun, and each read of
# ``st.session_state`` takes its lock and looks through the widget states, a visible share of a rerun; the
# language changes only with the selector, which is outside every fragment, so a fragment's rerun reads the same.
_SESSION_LANG: dict[str, str] = {}
_SESSION_LANG_MAX = 20_000  # forgotten all at once past this many sessions (each then reads session state once more)


def remember_lang(lang: str) -> None:
    """The shell's note of this session's language for the rest of this run and its fragments' reruns."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None:
        return
    if len(_SESSION_LANG) >= _SESSION_LANG_MAX:
        _SESSION_LANG.clear()
    _SESSION_LANG[ctx.session_id] = lang if lang in LANGS else "en"


def current_lang() -> str:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    lang = _SESSION_LANG.get(ctx.session_id) if ctx is not None else None
    if lang is not None:
        return lang
    import streamlit as st

    lang = st.session_state.get("lang", "en")
    return lang if lang in LANGS else "en"


def t(key: str, **fields: object) -> str:
    """``key`` in the current session's language."""
    return translate(key, current_lang(), **fields)


def layer_head_label(layer: int | None = None, head: int | None = None) -> str:
    """A zero-based layer and/or head label in the session's language: "L1 · H3" / "层 1 · 头 3", or "layer 1" /
    "层 1" and "head 3" / "头 3" alone. Labels are indices, not ordinals: "第 0 层" would read as "the zeroth layer"."""
    if layer is not None and head is not None:
        return t("view.layer_head", layer=layer, head=head)
    if layer is not None:
        return t("view.layer_n", layer=layer)
    return t("view.head_n", head=head)


class InputError(ValueError):
    """Bad user input, carrying an i18n key (and fields) for the message the page shows instead of a traceback."""

    def __init__(self, key: str, **fields: object):
        super().__init__(translate(key, "en", **fields))
        self.key, self.fields = key, fields

    def message(self, lang: str) -> str:
        return translate(self.key, lang, **self.fields)
