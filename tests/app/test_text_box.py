"""A text longer than a page's box holds is cut to the limit, with a note naming the limit — typed, pasted or from a
link — instead of being dropped without a word."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from app.shared.i18n import translate


def box_page():
    from app.shared import ui
    from app.shared.i18n import remember_lang

    remember_lang("en")  # as the shell does before a page runs

    text = ui.text_box("Text", "short", key="demo_text", max_chars=20)
    import streamlit as st

    st.metric("length", len(text))


def test_a_paste_over_the_limit_keeps_what_fits_and_says_so():
    at = AppTest.from_function(box_page).run()
    assert not at.exception and at.metric[0].value == "5" and not at.caption
    at.text_area(key="demo_text").set_value("x" * 50).run()
    assert not at.exception
    assert at.metric[0].value == "20"
    assert at.text_area(key="demo_text").value == "x" * 20
    assert [c.value for c in at.caption] == [translate("view.text.clipped", "en", n=50, max=20)]
    at.text_area(key="demo_text").set_value("y" * 10).run()  # the note goes with the text it was about
    assert at.metric[0].value == "10" and not at.caption


def test_a_link_over_the_limit_opens_with_what_fits():
    at = AppTest.from_function(box_page)
    at.query_params["demo_text"] = "z" * 30
    at.run()
    assert not at.exception
    assert at.metric[0].value == "20"
    assert [c.value for c in at.caption] == [translate("view.text.clipped", "en", n=30, max=20)]


def line_page():
    from app.shared import ui
    from app.shared.i18n import remember_lang

    remember_lang("en")
    text = ui.text_line("Text", "short", key="demo_line", max_chars=20)
    import streamlit as st

    st.metric("length", len(text))


def test_a_single_line_box_cuts_like_the_text_area():
    """``ui.text_line``: the same cut and note on one line, and no browser limit that would cut the paste first."""
    at = AppTest.from_function(line_page).run()
    assert not at.exception and not at.text_input(key="demo_line").max_chars
    at.text_input(key="demo_line").set_value("x" * 50).run()
    assert at.metric[0].value == "20" and at.text_input(key="demo_line").value == "x" * 20
    assert [c.value for c in at.caption] == [translate("view.text.clipped", "en", n=50, max=20)]
    at = AppTest.from_function(line_page)
    at.query_params["demo_line"] = "z" * 30
    at.run()
    assert at.metric[0].value == "20"
    assert [c.value for c in at.caption] == [translate("view.text.clipped", "en", n=30, max=20)]
