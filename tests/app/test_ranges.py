"""A control whose range follows its input keeps working when the input shrinks.

A slider's range often follows the text (a position, a token, a segment): a reader who moves it far along a long
text and then types a shorter one must get the page at the new text, never "This app has encountered an error"
(Streamlit raises when a remembered value lies above the slider's new maximum). Each case types a long text, moves
the slider to its end, then types a short text; the slider must come back inside its new range."""

from __future__ import annotations

import pytest

from tests.app.conftest import open_app, rerun

LONG = " ".join(["To be, or not to be, that is the question: whether 'tis nobler in the mind to suffer"] * 8)
SHORT = "To be, or not to be"

# page, its text widget (kind, key, the long and the short text), the slider whose range follows it, query
CASES = [
    ("mistral", "text_area", "mistral_text", LONG[:590], SHORT, "mistral_position", {}),
    ("transformer-xl", "text_area", "txl_text", LONG[:840], LONG[:290], "txl_segment", {}),
    ("attention", "text_input", "attention_text", "attention is all you need", "attention", "attention_step", {}),
    ("forward-pass", "text_area", "forward_pass_text", LONG[:300], SHORT, "forward_pass_pos", {}),
    ("llama", "text_area", "llama_text", LONG[:250], SHORT, "llama_token", {}),
]


@pytest.mark.parametrize(
    ("page", "kind", "key", "long", "short", "slider", "query"),
    CASES,
    ids=[f"{c[0]}-{c[5]}" for c in CASES],
)
def test_a_shorter_input_keeps_the_slider_in_range(page, kind, key, long, short, slider, query):
    at = open_app(page, **query)
    getattr(at, kind)(key=key).set_value(long)
    rerun(at, "en")
    assert not at.exception and not at.error, at.error
    widget = at.slider(key=slider)
    widget.set_value(widget.max)
    rerun(at, "en")
    assert not at.exception
    far = at.slider(key=slider).value
    getattr(at, kind)(key=key).set_value(short)
    rerun(at, "en")
    assert not at.exception, at.exception
    assert not at.error, at.error
    after = at.slider(key=slider)
    assert after.min <= after.value <= after.max < far


@pytest.mark.parametrize(("page", "slider"), [("mistral", "mistral_position"), ("llama", "llama_token")])
def test_a_link_beyond_the_range_opens_the_page_at_its_end(page, slider):
    """A shared link whose position lies beyond the default text (made on a longer one) opens the page, with the
    slider at its last value."""
    at = open_app(page, **{slider: "999"})
    assert not at.exception, at.exception
    widget = at.slider(key=slider)
    assert widget.min <= widget.value <= widget.max
