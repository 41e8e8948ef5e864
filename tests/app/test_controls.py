"""Controls never lie: after a run that stopped on an input error, every segmented control drawn again
shows the option the page then shows, not an empty selection.

The browser draws a control from what the server sends with it: the value when the server set one for this run
(``set_value``), else the widget's default. A control whose state lives in the session (``ui.choice``) and was not
drawn in the failed run used to come back with neither, so Chromium showed no segment selected while the page drew
the default view (seen in Chromium on the Attention, GPT, BERT and Mamba pages)."""

from __future__ import annotations

import pytest

from tests.app.conftest import open_app, rerun

# page, the text widget, its kind, an input the page refuses, an input it takes, extra query parameters
CASES = [
    ("attention", "attention_text", "text_input", "!!!", "hello", {}),
    ("gpt", "gpt_text", "text_area", "", "To be", {}),
    ("bert", "bert_a", "text_input", "", "The cat sat on the [MASK].", {}),
    ("mamba", "mamba_text", "text_area", "", "To be, or not to be", {"mamba_source": "text"}),
]


def shown(widget) -> list[str]:
    """The labels Chromium selects for a segmented control, read from the element the server sent."""
    p = widget.proto
    if p.set_value:
        return list(p.raw_values)
    return [p.options[i].content for i in p.default]


@pytest.mark.parametrize(("page", "key", "kind", "bad", "good", "query"), CASES, ids=[c[0] for c in CASES])
def test_controls_show_the_view_after_an_input_error(page, key, kind, bad, good, query):
    at = open_app(page, **query)
    getattr(at, kind)(key=key).set_value(bad)
    rerun(at, "en")
    assert at.error, f"{bad!r} should be refused on {page}"
    getattr(at, kind)(key=key).set_value(good)
    rerun(at, "en")
    assert not at.exception and not at.error
    controls = [w for w in at.get("segmented_control") if w.value is not None]
    assert controls
    for w in controls:
        values = w.value if isinstance(w.value, list) else [w.value]
        assert shown(w) == [w.format_func(v) for v in values], w.key
