"""AppTest of the MoE routing page: capacity, k, the sample buttons and the layer change what the page reports; bad
input gets a translated message instead of a traceback."""

from __future__ import annotations

import pytest

from app.shared.i18n import translate
from tests.app.conftest import metric, open_app, rerun, spec, values

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
    assert at.button_group(key="moe_sample").value == "python"
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


def _prefix_dropped(at, n: int, layers: int) -> int:
    """Dropped slots among the first ``n`` tokens over every layer, read as a reader would: the router table's
    "dropped" column, layer by layer through the layer slider (left at layer 0 afterwards)."""
    column = translate("moe.col.dropped", LANG, rank=1)
    total = 0
    for layer in range(layers):
        at.slider(key="moe_layer").set_value(layer)
        rerun(at, LANG)
        table = next(d.value for d in at.dataframe if column in d.value.columns)
        total += int(table[column].iloc[:n].sum())
    at.slider(key="moe_layer").set_value(0)
    rerun(at, LANG)
    return total


def test_the_try_this_steps_give_the_numbers_it_promises():
    """The "Try this" box, done as it says on the page: keep the Mixed sample (the picker shows it) at the trained
    capacity factor, append the line it names on a new line; the capacity, the dropped-slot metric and the hatched
    slots among the sample's tokens then read what the box promises."""
    import re

    from app.moe import service as svc

    at = open_app("moe", lang=LANG)
    assert not at.exception
    m = lambda key: metric(at, translate(key, LANG))  # noqa: E731
    box = next(md.value for md in at.markdown if translate("view.try.title", LANG) in md.value)
    card = svc.card_numbers()
    layers = card["layers"]

    assert at.button_group(key="moe_sample").value == "mixed"  # the sample in use is the one shown selected
    assert at.slider(key="moe_capacity").value == card["cf"]
    n = int(m("moe.metric.tokens"))
    c0, t0 = int(m("moe.metric.capacity")), int(m("moe.metric.dropped"))
    d0 = _prefix_dropped(at, n, layers)

    line = re.search(r"`([^`]+)`", box).group(1)  # the line the box names
    at.text_area(key="moe_text").set_value(at.text_area(key="moe_text").value + "\n" + line)
    rerun(at, LANG)
    assert not at.exception
    assert at.button_group(key="moe_sample").value is None  # an edited text is no sample any more
    c1, t1 = int(m("moe.metric.capacity")), int(m("moe.metric.dropped"))
    d1 = _prefix_dropped(at, n, layers)

    assert c1 > c0 and d1 < d0  # more room per expert: the unchanged prefix keeps slots it had lost
    for key, before, after in (("moe.metric.capacity", c0, c1), ("moe.metric.dropped", t0, t1)):
        # the box names the metrics a reader sees change, with the numbers they show before and after
        assert re.search(rf"\*{re.escape(translate(key, LANG))}\*\D+{before}\D+{after}\b", box), (key, box)
    see = translate("moe.try.see", LANG, c0=c0, c1=c1, t0=t0, t1=t1, n=n, d0=d0, d1=d1, layers=layers)
    assert see in box, (see, box)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_aux_free_departures_are_stated(lang):
    """switch-auxfree takes DeepSeek-V3's bias balancing (2412.19437 §2.1.2) but keeps Switch's capacity, so it drops
    tokens, and has no sequence-wise balance loss; DeepSeek-V3 drops none and keeps that small loss. The page says so
    where it explains balancing, and links the page that shows switch-auxfree; the model's docstring says so too."""
    import models.switch
    from app.moe import service as svc

    at = open_app("moe", lang=lang)
    assert not at.exception
    note = translate("moe.explain.auxfree", lang, cf=svc.card()["config"]["capacity_factor"])
    assert note in [md.value for md in at.markdown]
    assert "2412.19437" in note and "1.25" in note
    links = [el.proto.label for el in at.main if el.type == "page_link" or getattr(el.proto, "page", "")]
    assert translate("moe.auxfree.link", lang) in links
    doc = " ".join(models.switch.__doc__.split())
    assert "drops no tokens" in doc and "sequence-wise balance loss" in doc


def _before_after(value: str) -> tuple[float, float]:
    before, after = value.split(" → ")
    return float(before), float(after)


def test_switching_an_expert_off_sends_its_tokens_elsewhere_and_costs_loss():
    """The intervention section's default: expert 1 of layer 0 switched off on the Mixed sample at the trained
    capacity. Measured: its 3 slots go elsewhere, dropped slots 12 → 17, this text 3.177 → 3.594 bits per character,
    held-out 2.277 → 2.791."""
    at = open_app("moe", lang=LANG)
    assert not at.exception
    m = lambda key, **f: metric(at, translate(key, LANG, **f))  # noqa: E731
    assert at.button_group(key="moe_ko_mode").value == "off"
    sent = m("moe.ko.m.sent", expert=1, layer=0)
    assert int(sent.split(" → ")[0]) > 0 and sent.endswith("→ 0")
    d0, d1 = (int(v) for v in _before_after(m("moe.ko.m.dropped")))
    assert d0 == int(m("moe.metric.dropped")) and d1 > d0  # five experts hold what six did, at the same capacity
    text = _before_after(m("moe.ko.m.text"))
    held = _before_after(m("moe.ko.m.held"))
    assert held[0] == pytest.approx(2.277, rel=0.01)  # the card's val_loss windows (3.2999 nats per token)
    assert held[1] - held[0] > 0.3  # measured +0.514 bits per character
    assert text[1] - text[0] > 0.2  # measured +0.417

    # a later layer's expert costs far less held out (models test: every one of them, against every one of layer 0)
    at.button_group(key="moe_ko_layer").set_value(2)
    rerun(at, LANG)
    assert not at.exception
    later = _before_after(m("moe.ko.m.held"))
    assert later[0] == held[0] and later[1] - later[0] < (held[1] - held[0]) / 4
    assert m("moe.ko.m.sent", expert=1, layer=2).endswith("→ 0")


def test_forcing_a_token_routes_it_to_the_chosen_expert():
    at = open_app("moe", lang=LANG)
    m = lambda key, **f: metric(at, translate(key, LANG, **f))  # noqa: E731
    at.button_group(key="moe_ko_mode").set_value("force")
    rerun(at, LANG)
    at.slider(key="moe_ko_pos").set_value(5)
    at.button_group(key="moe_ko_expert").set_value(4)
    rerun(at, LANG)
    assert not at.exception
    label = next(x.label for x in at.metric if x.label.startswith("Expert of") and "(position 5)" in x.label)
    before, after = metric(at, label).split(" → ")
    assert after == "4" and before != "4"
    labels = [x.label for x in at.metric]
    assert translate("moe.ko.m.held", LANG) not in labels  # a token of this text has no held-out counterpart
    text = _before_after(m("moe.ko.m.text"))
    assert text[0] != text[1]


def test_the_intervention_link_reproduces_it_and_onnx_says_torch():
    at = open_app("moe", lang=LANG, moe_ko_mode="force", moe_ko_layer="1", moe_ko_expert="3", moe_ko_pos="2")
    assert not at.exception
    assert at.button_group(key="moe_ko_mode").value == "force"
    assert at.button_group(key="moe_ko_layer").value == 1
    assert at.button_group(key="moe_ko_expert").value == 3
    assert at.slider(key="moe_ko_pos").value == 2
    assert metric(at, next(x.label for x in at.metric if "(position 2)" in x.label)).endswith("→ 3")
    at.session_state["backend"] = "onnx"
    rerun(at, LANG)
    assert not at.exception
    assert translate("moe.ko.torch_only", LANG) in [c.value for c in at.caption]


# ---- training: the recorded runs, step by step -----------------------------------------------------------------------

RUN_NONE = "switch-run-none"


def _routes(at):
    """The training section's table of each token's expert per layer (and whether it was dropped)."""
    column = translate("moe.train.col.expert", LANG, layer=0)
    return next(d.value for d in at.dataframe if column in d.value.columns)


def test_the_training_step_routes_the_text_through_that_steps_weights():
    """Moving the step slider routes the page's text through the snapshot of that step: the table equals a fresh
    ``zoo.load("NAME@STEP")`` run on the same tokens, the routing differs from the trained model's, and the link keeps
    the run and the step."""
    import torch

    from app.moe import service as svc
    from models import metrics, zoo
    from models.probe import trace

    at = open_app("moe", lang=LANG, moe_run=RUN_NONE)
    assert not at.exception
    assert at.button_group(key="moe_run").value == RUN_NONE
    trained = _routes(at)
    step = [r["step"] for r in zoo.snapshots(RUN_NONE)][3]
    at.select_slider(key="moe_step").set_value(step)
    rerun(at, LANG)
    assert not at.exception
    assert at.query_params["moe_step"] in (str(step), [str(step)])
    assert at.query_params["moe_run"] in (RUN_NONE, [RUN_NONE])
    table = _routes(at)
    assert not table.equals(trained)

    model = zoo.load(f"{RUN_NONE}@{step}").eval()
    ids = metrics.encode_document(metrics.tokenizer(zoo.checkpoint_dir(RUN_NONE)), svc.SAMPLES["mixed"])
    with torch.inference_mode(), trace("expert_index", "dropped") as t:
        model(torch.from_numpy(ids)[None])
    for i in range(model.config.n_layers):
        want = t[f"blocks.{i}.moe.expert_index"][0, :, 0].numpy()
        dropped = t[f"blocks.{i}.moe.dropped"][0, :, 0].numpy() > 0
        assert table[translate("moe.train.col.expert", LANG, layer=i)].tolist() == want.tolist()
        assert table[translate("moe.train.col.dropped", LANG, layer=i)].tolist() == dropped.tolist()

    again = open_app("moe", lang=LANG, moe_run=RUN_NONE, moe_step=str(step))  # the link reproduces the view
    assert again.select_slider(key="moe_step").value == step
    assert _routes(again).equals(table)


def _expected_numbers(name: str) -> list[str]:
    """The numbers the "what happened here" text must state, computed here from the run's card."""
    import json

    import numpy as np

    from models import zoo

    card = json.loads((zoo.checkpoint_dir(name) / "card.json").read_text())
    h = card["history"]
    load = np.asarray(h["load"], float)
    last = load[-100:].mean(0)
    numbers = [
        f"{last.min():.1%}",
        f"{last.max():.1%}",
        f"{np.asarray(h['dropped'], float)[-100:].mean():.1%}",
        f"{card['metrics']['val_loss']:.3f}",
        f"{card['metrics']['bigram_val_loss']:.3f}",
    ]
    windows = load[: len(load) // 10 * 10].reshape(-1, 10, *load.shape[1:]).mean(1)
    busiest = windows.max(axis=(1, 2))
    numbers += [f"{busiest.max():.0%}", f"{h['step'][(int(np.argmax(busiest)) + 1) * 10 - 1]:,}"]
    starved = (windows < 0.02).any(axis=(1, 2))
    if starved.any():
        numbers.append(f"{h['step'][(int(np.argmax(starved)) + 1) * 10 - 1]:,}")
    if "bias" in h:
        numbers += [f"{min(min(r) for r in h['bias'][-1]):+.3f}", f"{max(max(r) for r in h['bias'][-1]):+.3f}"]
    return numbers


def test_each_runs_text_states_its_recorded_numbers():
    at = open_app("moe", lang=LANG)
    assert not at.exception
    head = translate("moe.train.here", LANG, **dict.fromkeys(("steps", "min_share", "max_share", "dropped"), 0),
                     uniform=0, val=0, bigram=0).split("**")[1]  # fmt: skip
    for kind, name in (("aux", "switch-run-aux"), ("auxfree", "switch-run-auxfree"), ("none", RUN_NONE)):
        at.button_group(key="moe_run").set_value(name)
        rerun(at, LANG)
        assert not at.exception
        texts = [m.value for m in at.markdown]
        here = next(x for x in texts if head in x)
        for number in _expected_numbers(name):
            assert number in here, (name, number, here)
        paper = translate(f"moe.train.paper.{kind}", LANG)
        assert paper in texts


def test_a_bad_run_or_step_in_the_link_falls_back_to_the_trained_model():
    from models import zoo

    at = open_app("moe", lang=LANG, moe_run="switch", moe_step="7")  # not a recorded run; no snapshot at step 7
    assert not at.exception
    assert at.button_group(key="moe_run").value == "switch-run-aux"
    assert at.select_slider(key="moe_step").value == zoo.snapshots("switch-run-aux")[-1]["step"]


def test_the_curves_are_the_runs_history_with_the_step_marked():
    """The load figure draws every expert of every layer from the card's per-step loads (step 1 as recorded, later
    points as means of 10 steps), the bias figure appears for the aux-free run only, and the dotted line follows the
    step slider."""
    import json

    import numpy as np

    from models import zoo

    name = "switch-run-auxfree"
    at = open_app("moe", lang=LANG, moe_run=name, moe_step="241")
    assert not at.exception
    h = json.loads((zoo.checkpoint_dir(name) / "card.json").read_text())["history"]
    load = np.asarray(h["load"])
    fig = spec(at, "moe_train_shares")
    lines = [tr for tr in fig["data"] if tr["type"] == "scatter"]
    L, E = load.shape[1:]
    assert len(lines) == L * E
    for n, tr in enumerate(lines):
        x, y = values(tr["x"]), values(tr["y"])
        assert x[0] == 1 and y[0] == load[0, n // E, n % E]
        last = load[int(x[-1]) - 10 : int(x[-1]), n // E, n % E].mean()
        assert abs(y[-1] - last) < 1e-9
    marks = [s for s in fig["layout"]["shapes"] if s.get("x0") == s.get("x1") and s.get("x0") is not None]
    assert {round(s["x0"]) for s in marks} == {241}  # in steps: Plotly places a shape on a log axis itself
    spec(at, "moe_train_bias")  # drawn for the aux-free run

    at.select_slider(key="moe_step").set_value(500)
    at.button_group(key="moe_run").set_value("switch-run-aux")
    rerun(at, LANG)
    assert not at.exception
    marks = [s for s in spec(at, "moe_train_shares")["layout"]["shapes"] if s.get("x0") == s.get("x1")]
    assert {round(s["x0"]) for s in marks if s.get("x0") is not None} == {500}
    with pytest.raises(KeyError):
        spec(at, "moe_train_bias")
