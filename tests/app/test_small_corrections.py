"""Small corrections of issue 61: what a reader met and was not told, or was told wrongly."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from app.shared.i18n import translate
from tests.app.conftest import open_app


def test_the_sidebar_lists_the_pages_in_home_s_numbered_order():
    """The sidebar's papers, era after era, come in the order home's "Start here" numbers them (the timeline's order
    put GPT before the forward pass, 3 before 2)."""
    from app.catalog import start_here

    at = open_app(None, lang="en")
    assert not at.exception
    sections = at.session_state["_te_nav"][1]
    listed = [p.url_path for pages in sections.values() for p in pages]
    papers = [p.page for p in start_here()]
    assert [u for u in listed if u in papers] == papers


def test_t5_s_knocked_out_answer_is_shown_whole():
    """The default knock-out (decoder layer 0's cross-attention) writes an answer of 87 characters; the metric held
    it on one line and the browser cut it off. The metric now holds its start, and the whole answer is under it."""
    from app.shared.i18n import translate
    from app.t5 import service as svc

    text = svc.EXAMPLES["reverse_words"][0]
    whole = svc.knock_out(svc.NAME, "reverse_words", text, "decoder", 0, "cross", "zero").answer_after
    assert len(whole) > 40
    at = open_app("t5", lang="en")
    assert not at.exception
    shown = next(m.value for m in at.metric if m.label == translate("t5.ko.m.answer", "en"))
    assert len(shown) < 30 and shown.startswith(whole[:10])
    assert whole in [c.value for c in at.code]


def loading_page(lang: str):
    """The loading bar's words for SmolLM2 at one stage, in ``lang`` (as the shell sets it before a page)."""
    import streamlit as st

    from app.shared import ui
    from app.shared.i18n import remember_lang

    remember_lang(lang)
    st.text(ui.loading_text("smollm2-135m", "dequantising 3/30"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_loading_bar_names_the_model_and_its_stage_in_the_reader_s_language(lang):
    """The bar read "Loading smollm2-135m: dequantising 3/30": our key for the model and the converter's own word.
    It names the model's title and a translated stage, for every stage the converter and the loader report."""
    import re
    from pathlib import Path

    from app.shared.i18n import table
    from models import pretrained

    root = Path(__file__).resolve().parents[2]
    sources = [*(root / "models" / "pretrained").glob("*.py"), root / "app" / "shared" / "services.py"]
    stages = {w for f in sources for w in re.findall(r"(?:report|progress)\([^\n\"]*?,\s*f?\"([a-z]+)", f.read_text())}
    assert {"reading", "converting", "writing", "unpacking", "dequantising", "done", "loading"} <= stages
    assert [w for w in stages if f"picker.stage.{w}" not in table()] == []
    at = AppTest.from_function(loading_page, args=(lang,)).run()
    assert not at.exception
    text = at.text[0].value
    assert pretrained.KNOWN["smollm2-135m"].title in text and "smollm2-135m" not in text
    stage = translate("picker.stage.dequantising", lang)
    assert text == translate("picker.loading", lang, name=pretrained.KNOWN["smollm2-135m"].title, what=f"{stage} 3/30")


def test_the_link_popover_names_no_copy_button():
    """The popover shows the address as text (html.share_link: a <code>, no button; seen in a browser), and its
    help told the reader to press a copy button "at its right" that is not there."""
    from app.shared import html

    assert "<button" not in html.share_link("http://localhost/gpt?gpt_text=a")
    en, zh = translate("sidebar.link.help", "en"), translate("sidebar.link.help", "zh")
    assert "button" not in en and "按钮" not in zh
    assert "address bar" in en and "地址栏" in zh and "Select" in en and "选中" in zh


@pytest.mark.parametrize(("page", "key", "limit"), [("bert", "bert_a", 200), ("attention", "attention_text", 20)])
def test_a_single_line_box_cuts_a_long_paste_and_says_so(page, key, limit):
    """BERT's sentence A and the attention page's input gave the browser their limit (st.text_input's max_chars),
    which cut a longer paste to it without a word. They keep what fits and say that the text was cut, and to what."""
    at = open_app(page, lang="en")
    box = at.text_input(key=key)
    assert not box.max_chars  # no limit of the browser's: it would cut the paste before the page sees it
    box.set_value("ab " * 100).run()
    assert not at.exception
    assert at.text_input(key=key).value == ("ab " * 100)[:limit]
    assert translate("view.text.clipped", "en", n=300, max=limit) in [c.value for c in at.caption]


def test_gpt_refuses_a_long_paste_once_in_the_unit_that_binds():
    """A pasted text over 600 characters was cut to 600 (a note) and then refused as "197 tokens, at most 160": two
    refusals, the first in a unit that did not bind. The box keeps the paste and one message gives the token limit."""
    from app.gpt import service as svc

    paste = (svc.EXAMPLES[0] + " ") * (1 + 2 * svc.MAX_CHARS // len(svc.EXAMPLES[0]))
    assert len(paste) > 2 * svc.MAX_CHARS
    n = len(svc.prefix(svc.NAME)) + len(svc.handle(svc.NAME).tokenizer.encode(paste).ids)
    at = open_app("gpt", lang="en")
    at.text_area(key="gpt_text").set_value(paste).run()
    assert not at.exception
    assert at.text_area(key="gpt_text").value == paste
    assert [e.value for e in at.error] == [translate("gpt.error.too_long_tokens", "en", n=n, max=160)]
    assert not [c.value for c in at.caption if "characters" in c.value]


def _toasts(at) -> list[str]:
    return [x.value for x in at.toast]


def test_a_link_s_layer_the_model_lacks_is_named_in_a_notice():
    """``?gpt_layer=999``: Streamlit dropped the value without a word and the page showed the last layer. A notice
    names the parameter and the layer shown instead; the page runs."""
    at = open_app("gpt", lang="en", gpt_view="attention", gpt_layer="999")
    assert not at.exception
    last = at.session_state["gpt_layer"]
    assert _toasts(at) == [translate("link.ignored", "en", items=f"gpt_layer=999 → {last}")]


def test_a_valid_link_gets_no_notice():
    at = open_app("gpt", lang="zh", gpt_view="attention", gpt_layer="1", gpt_head="2", backend="torch")
    assert not at.exception and _toasts(at) == []
    assert (at.session_state["gpt_layer"], at.session_state["gpt_head"]) == (1, 2)


def test_an_unknown_language_is_named_and_the_page_runs_in_english():
    at = open_app(None, lang="xx")
    assert not at.exception and at.session_state["lang"] == "en"
    assert _toasts(at) == [translate("link.ignored", "en", items="lang=xx → en")]


def test_an_unknown_option_of_a_choice_is_named():
    at = open_app("gpt", lang="en", gpt_view="nowhere")
    assert not at.exception
    assert _toasts(at) == [translate("link.ignored", "en", items="gpt_view=nowhere → tokens")]
