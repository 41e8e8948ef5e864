"""AppTest of the MoE routing page: capacity, k, the sample buttons and the layer change what the page reports; bad
input gets a translated message instead of a traceback."""

from __future__ import annotations

import pytest

from app.i18n import translate
from tests.app.conftest import metric, open_app, rerun


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_capacity_and_k_change_the_metrics(lang):
    at = open_app("moe", lang=lang)
    assert not at.exception
    m = lambda key, **f: metric(at, translate(key, lang, **f))  # noqa: E731
    dropped = int(m("moe.metric.dropped"))
    capacity = int(m("moe.metric.capacity"))

    at.slider(key="moe_capacity").set_value(0.5)
    rerun(at, lang)
    assert not at.exception
    assert int(m("moe.metric.capacity")) < capacity
    assert int(m("moe.metric.dropped")) > dropped

    at.slider(key="moe_capacity").set_value(0.0)  # no limit: nothing is dropped
    rerun(at, lang)
    assert not at.exception
    assert int(m("moe.metric.dropped")) == 0
    assert m("moe.metric.capacity") == translate("moe.unlimited", lang)

    at.slider(key="moe_capacity").set_value(1.0)
    rerun(at, lang)
    one = int(m("moe.metric.capacity"))
    at.button_group(key="moe_topk").set_value(2)
    rerun(at, lang)
    assert not at.exception
    assert int(m("moe.metric.capacity")) == 2 * one or int(m("moe.metric.capacity")) == 2 * one - 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_samples_and_layer(lang):
    at = open_app("moe", lang=lang)
    m = lambda key, **f: metric(at, translate(key, lang, **f))  # noqa: E731
    tokens = m("moe.metric.tokens")
    at.button_group(key="moe_sample").set_value("python")
    rerun(at, lang)
    assert not at.exception
    assert at.text_area(key="moe_text").value.startswith("def parse")
    assert m("moe.metric.tokens") != tokens

    at.slider(key="moe_layer").set_value(2)
    rerun(at, lang)
    assert not at.exception
    m("moe.metric.aux_layer", layer=2)
    m("moe.metric.layer_dropped", layer=2)


def test_bad_input_gets_a_message():
    at = open_app("moe", lang="zh")
    at.text_area(key="moe_text").set_value("   ")
    rerun(at, "zh")
    assert not at.exception
    assert [e.value for e in at.error] == [translate("moe.error.empty", "zh")]


def test_the_url_reproduces_the_view():
    at = open_app("moe", lang="en", moe_capacity="0.5", moe_layer="1", moe_topk="2")
    assert not at.exception
    assert at.slider(key="moe_capacity").value == 0.5
    assert at.slider(key="moe_layer").value == 1
    assert at.button_group(key="moe_topk").value == 2
