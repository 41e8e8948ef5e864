"""A real model downloaded from the page (app/shared/ui.py ``download_button`` under the model picker), against a
Hugging Face Hub on loopback (tests/fake_hub.py) serving a tiny random stand-in for bert-base-uncased."""

from __future__ import annotations

import pytest

from app.shared.i18n import translate
from tests.app.conftest import open_app, rerun
from tests.fake_hub import fake_hub_fixture, save_repo  # noqa: F401 (the fixture)

REAL = "bert-base-uncased"
REPO = "google-bert/bert-base-uncased"
ASK, GO = f"bert_model_hub_{REAL}_ask", f"bert_model_hub_{REAL}_go"


@pytest.fixture
def bert_hub(fake_hub, tmp_path):
    """The fake Hub serving the stand-in as bert-base-uncased's first repository; every cached result (by model
    name, per process) dropped afterwards."""
    pytest.importorskip("transformers")
    import streamlit as st

    from tests.real_models import build

    model, tok = build(REAL)
    fake_hub.add(REPO, save_repo(model, tmp_path / "bert", tokenizer=tok))
    yield fake_hub
    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_download_shows_size_and_licence_then_makes_the_model_the_pages(bert_hub, lang):
    from models import pretrained

    at = open_app("bert", lang=lang)
    assert not at.exception and at.selectbox(key="bert_model").value == "bert"
    assert bert_hub.requests == []  # the picker asks the Hub nothing until a button is pressed
    at.button(key=ASK).click()
    rerun(at, lang)
    assert not at.exception
    about = [c.value for c in at.caption if REPO in c.value]
    assert about and "apache-2.0" in about[0] and "kB" in about[0], [c.value for c in at.caption]
    assert [p for _, p in bert_hub.requests] == [f"/api/models/{REPO}"]
    at.button(key=GO).click()
    rerun(at, lang)
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.selectbox(key="bert_model").value == REAL  # offered, and now the page's model
    assert pretrained.hf_snapshot(REPO) is not None and pretrained.converted(REAL)
    assert translate("picker.full", lang, dtype="float32") in "\n".join(c.value for c in at.caption)


def test_a_refused_download_says_why_in_the_readers_language_and_keeps_the_page(bert_hub):
    from models import pretrained

    bert_hub.repos[REPO].gated = True
    at = open_app("bert", lang="zh")
    at.button(key=ASK).click()
    rerun(at, "zh")
    assert translate("picker.download.gated", "zh") in [c.value for c in at.caption]
    at.button(key=GO).click()
    rerun(at, "zh")
    assert not at.exception
    title = pretrained.KNOWN[REAL].title
    assert [e.value for e in at.error] == [translate("error.hub.gated", "zh", repo=REPO, name=title)]
    assert at.selectbox(key="bert_model").value == "bert" and pretrained.hf_snapshot(REPO) is None


def test_an_offline_host_lists_the_commands_and_no_download_button(bert_hub, monkeypatch):
    from models import pretrained

    assert [b for b in open_app("bert", lang="en").button if b.key == ASK]  # where downloads are allowed
    monkeypatch.setenv("TE_OFFLINE", "1")
    at = open_app("bert", lang="en")
    assert not at.exception
    assert not [b for b in at.button if b.key == ASK]
    assert any(pretrained.how_to_get(REAL) in m.value for m in at.markdown)
    assert bert_hub.requests == []
