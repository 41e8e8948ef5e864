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
    asked = [p for _, p in bert_hub.requests]
    assert asked[0] == f"/api/models/{REPO}" and not [p for p in asked if p.endswith("model.safetensors")]
    at.button(key=GO).click()
    rerun(at, lang)
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.selectbox(key="bert_model").value == REAL  # offered, and now the page's model
    assert pretrained.hf_snapshot(REPO) is not None and pretrained.converted(REAL)
    assert translate("picker.full", lang, dtype="float32") in "\n".join(c.value for c in at.caption)
    assert pretrained.card(REAL)["license"] == "apache-2.0"  # the Hub's card said it; the config.json did not


def test_a_refused_download_says_why_in_the_readers_language_and_keeps_the_page(bert_hub):
    from models import pretrained

    bert_hub.repos[REPO].gated = True
    at = open_app("bert", lang="zh")
    at.button(key=ASK).click()
    rerun(at, "zh")  # its config.json is refused too: the check says so before any download button
    assert not at.exception and not [b for b in at.button if b.key == GO]
    title = pretrained.KNOWN[REAL].title
    assert [e.value for e in at.error] == [translate("error.hub.gated", "zh", repo=REPO, name=title)]
    assert at.selectbox(key="bert_model").value == "bert" and pretrained.hf_snapshot(REPO) is None


def test_a_model_larger_than_free_memory_is_refused_before_the_download_button(bert_hub, monkeypatch):
    from models import pretrained
    from models.pretrained import hub

    monkeypatch.setattr(hub, "memory_available", lambda: 1000)
    at = open_app("bert", lang="en")
    at.button(key=ASK).click()
    rerun(at, "en")
    assert not at.exception
    assert len(at.error) == 1 and at.error[0].value.startswith(pretrained.KNOWN[REAL].title)
    assert "1 kB free" in at.error[0].value  # error.hub.memory, with the sizes in decimal units
    assert not [b for b in at.button if b.key == GO]


def test_an_offline_host_lists_the_commands_and_no_download_button(bert_hub, monkeypatch):
    from models import pretrained

    assert [b for b in open_app("bert", lang="en").button if b.key == ASK]  # where downloads are allowed
    monkeypatch.setenv("TE_OFFLINE", "1")
    at = open_app("bert", lang="en")
    assert not at.exception
    assert not [b for b in at.button if b.key == ASK]
    assert any(pretrained.how_to_get(REAL) in m.value for m in at.markdown)
    assert bert_hub.requests == []


# ---- any compatible checkpoint by its repository id ---------------------------------------------------------------

TINY = "learner/tiny-bert"


def _by_id(at, repo: str, lang: str = "en"):
    at.text_input(key="bert_model_hub_repo").set_value(repo)
    rerun(at, lang)
    at.button(key="bert_model_hub_check").click()
    return rerun(at, lang)


def test_a_repository_id_is_checked_then_fetched_and_served_and_its_link_works_in_a_new_process(bert_hub, tmp_path):
    from models import pretrained
    from tests.real_models import build

    model, tok = build(REAL)
    bert_hub.add(TINY, save_repo(model, tmp_path / "tiny", tokenizer=tok), license="mit")
    at = _by_id(open_app("bert", lang="en"), TINY)
    assert not at.exception and not at.error, [e.value for e in at.error]
    about = [c.value for c in at.caption if TINY in c.value]
    assert about and "mit" in about[0] and "bert" in about[0]
    assert not [p for _, p in bert_hub.requests if p.endswith("model.safetensors")]  # judged before the weights
    at.button(key="bert_model_hub_go").click()
    rerun(at, "en")
    assert not at.exception and not at.error, [e.value for e in at.error]
    key = pretrained.repo_key(TINY)
    assert at.selectbox(key="bert_model").value == key and at.query_params["bert_model"] == key
    pretrained.unregister(key)  # as in a fresh process, where only the link names it
    again = open_app("bert", lang="en", bert_model=key)
    assert not again.exception and again.selectbox(key="bert_model").value == key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_repository_id_of_another_architecture_is_refused_naming_it(bert_hub, tmp_path, lang):
    import json

    from tests.fake_hub import tiny_llama

    folder = save_repo(tiny_llama(), tmp_path / "llama")
    bert_hub.add("learner/llama", folder)
    config = {**json.loads((folder / "config.json").read_text()), "architectures": ["FalconForCausalLM"]}
    bert_hub.add("learner/falcon", files={"config.json": json.dumps(config).encode(), "model.safetensors": b"x"})
    at = _by_id(open_app("bert", lang=lang), "learner/llama", lang)
    assert [e.value for e in at.error] == [translate("error.hub.other_page", lang, repo="learner/llama", arch="llama")]
    at = _by_id(at, "learner/falcon", lang)
    from models import pretrained

    ours = ", ".join(sorted(a for m in pretrained.conversions().values() for a in m.HF_ARCHITECTURES))
    assert "BertForMaskedLM" in ours
    want = translate("error.hub.architecture", lang, repo="learner/falcon", found="FalconForCausalLM", ours=ours)
    assert [e.value for e in at.error] == [want]
    assert not [b for b in at.button if b.key == "bert_model_hub_go"] and not at.exception
