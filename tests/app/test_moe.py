"""AppTest of the MoE routing page: capacity, k, the sample buttons and the layer change what the page reports; bad
input gets a translated message instead of a traceback."""

from __future__ import annotations

from app.shared.i18n import translate
from tests.app.conftest import metric, open_app, rerun

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both


def test_capacity_and_k_change_the_metrics():
    at = open_app("moe", lang=LANG)
    assert not at.exception
    m = lambda key, **f: metric(at, translate(key, LANG, **f))  # noqa: E731
    dropped = int(m("moe.metric.dropped"))
    capacity = int(m("moe.metric.capacity"))

    at.slider(key="moe_capacity").set_value(0.5)
    rerun(at, LANG)
    assert not at.exception
    assert int(m("moe.metric.capacity")) < capacity
    assert int(m("moe.metric.dropped")) > dropped

    at.slider(key="moe_capacity").set_value(0.0)  # no limit: nothing is dropped
    rerun(at, LANG)
    assert not at.exception
    assert int(m("moe.metric.dropped")) == 0
    assert m("moe.metric.capacity") == translate("moe.unlimited", LANG)

    at.slider(key="moe_capacity").set_value(1.0)
    rerun(at, LANG)
    one = int(m("moe.metric.capacity"))
    at.button_group(key="moe_topk").set_value(2)
    rerun(at, LANG)
    assert not at.exception
    assert int(m("moe.metric.capacity")) == 2 * one or int(m("moe.metric.capacity")) == 2 * one - 1


def test_samples_and_layer():
    at = open_app("moe", lang=LANG)
    m = lambda key, **f: metric(at, translate(key, LANG, **f))  # noqa: E731
    tokens = m("moe.metric.tokens")
    at.button_group(key="moe_sample").set_value("python")
    rerun(at, LANG)
    assert not at.exception
    assert at.text_area(key="moe_text").value.startswith("def parse")
    assert m("moe.metric.tokens") != tokens

    # the capacity, balance and specialisation sections show every layer; the slider picks the router's layer
    for layer in range(3):
        m("moe.metric.aux_layer", layer=layer)
        m("moe.metric.layer_dropped", layer=layer)
    combine = at.dataframe[0].value
    at.slider(key="moe_layer").set_value(2)
    rerun(at, LANG)
    assert not at.exception
    assert not at.dataframe[0].value.equals(combine)  # the router's choices in layer 2, not layer 0


def test_bad_input_gets_a_message():
    at = open_app("moe", lang=LANG)
    at.text_area(key="moe_text").set_value("   ")
    rerun(at, LANG)
    assert not at.exception
    assert [e.value for e in at.error] == [translate("moe.error.empty", LANG)]


def test_the_url_reproduces_the_view():
    at = open_app("moe", lang=LANG, moe_capacity="0.5", moe_layer="1", moe_topk="2")
    assert not at.exception
    assert at.slider(key="moe_capacity").value == 0.5
    assert at.slider(key="moe_layer").value == 1
    assert at.button_group(key="moe_topk").value == 2


def test_the_page_loss_is_the_models_load_balancing_loss():
    """The service computes the loss term by term for the page once; it is the one models/ trains with."""
    import numpy as np
    import torch

    from app.moe import service as svc
    from models.layers.moe import load_balancing_loss

    res = svc.analyse(svc.SAMPLES["mixed"], 2, 1.0, "torch")
    for layer in range(res.probs.shape[0]):
        used = torch.zeros(res.index.shape[1:], dtype=torch.bool)
        used[:, : res.top_k] = True
        expected = load_balancing_loss(
            torch.from_numpy(res.probs[layer]).double(), torch.from_numpy(res.index[layer]), used
        )
        assert np.isclose(res.aux_loss[layer], float(expected), rtol=1e-5)
        assert np.allclose(res.f[layer].sum(), 1.0)


def test_the_guided_experiment():
    """The "Try this" box: appending a line to the mixed sample at the trained capacity factor enlarges every
    expert's buffer, and tokens of the unchanged prefix that were dropped keep their slots: the prefix's output
    changes with what comes after it."""
    from app.moe import service as svc

    at = open_app("moe", lang=LANG)
    m = lambda key: metric(at, translate(key, LANG))  # noqa: E731
    demo = svc.appended()
    assert demo.capacity[1] > demo.capacity[0] and demo.dropped[1] < demo.dropped[0]
    assert int(m("moe.metric.capacity")) == demo.capacity[0]

    def prefix_dropped() -> int:  # the table shows layer 0 (the slider's default)
        table = next(d.value for d in at.dataframe if translate("moe.col.dropped", LANG, rank=1) in d.value.columns)
        return int(table[translate("moe.col.dropped", LANG, rank=1)].iloc[: demo.tokens].sum())

    before = prefix_dropped()
    at.text_area(key="moe_text").set_value(demo.text)
    rerun(at, LANG)
    assert not at.exception
    assert int(m("moe.metric.capacity")) == demo.capacity[1]
    assert prefix_dropped() < before
    box = next(md.value for md in at.markdown if translate("view.try.title", LANG) in md.value)
    assert f"from {demo.capacity[0]} to {demo.capacity[1]} slots" in box
    assert f"{demo.dropped[0]} of their slots were dropped" in box and f"only {demo.dropped[1]} now" in box
