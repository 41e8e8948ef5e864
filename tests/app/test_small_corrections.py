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
