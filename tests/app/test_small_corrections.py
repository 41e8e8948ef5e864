"""Small corrections of issue 61: what a reader met and was not told, or was told wrongly."""

from __future__ import annotations

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
