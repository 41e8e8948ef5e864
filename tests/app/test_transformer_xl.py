"""AppTest of the Transformer-XL page: a query's keys are its memory and its segment, the memory lowers the loss, the
reach through the layers stays within (n + 1)·M + L − 1 and shrinks with a higher threshold, the four terms add up
to the scores whose softmax is the pattern, the absolute-position example, and a translated error for too long a
text."""

from __future__ import annotations

import json

import numpy as np
import pytest

from app.shared import numbers
from app.shared.i18n import translate
from app.shared.numbers import softmax
from app.shared.tokens import visible
from app.transformer_xl import service as svc
from tests.app.conftest import metric, open_app, rerun, spec, values

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

pytestmark = pytest.mark.skipif(not svc.available(), reason="no Transformer-XL checkpoint shipped")


def m(at, key: str, **fields) -> str:
    return metric(at, translate(key, LANG, **fields))


def readouts(at, key: str = "txl_attention") -> list[str]:
    """A figure's readout (its last trace, a text trace) at each query: the steps of its own slider."""
    return [frame["data"][-1]["text"][0] for frame in spec(at, key)["frames"]]


def test_a_query_sees_its_memory_then_its_segment():
    at = open_app("transformer-xl", lang=LANG)
    assert not at.exception and not at.error
    s = svc.shape()
    a = svc.analyse(svc.DEFAULT_TEXT, "torch")
    assert len(a.segments) >= 5  # enough text for the last layer's reach
    fig = spec(at, "txl_attention")
    assert fig["layout"]["sliders"][0]["active"] == 4  # segment 2, query 4
    lines = readouts(at)
    assert len(lines) == a.segments[2].pattern.shape[2]
    assert f"keys {s.memory} + 5 ·" in lines[4] and f"keys {s.memory} + 1 ·" in lines[0]
    seg = a.segments[2]
    frame = fig["frames"][7]["data"]  # query 7: memory bars, the 7 keys before it, itself
    assert len(values(frame[0]["y"])) == seg.n_memory and len(values(frame[1]["y"])) == 7
    weights = np.concatenate([values(frame[k]["y"]) for k in range(3)])
    assert np.allclose(weights, seg.pattern[0, 0, 7, : seg.n_memory + 8], atol=1e-5)
    share = float(lines[7].rsplit(" ", 1)[1].rstrip("%"))
    assert abs(share - 100 * weights[: seg.n_memory].sum()) < 0.06
    terms = readouts(at, "txl_terms")
    assert len(terms) == len(lines) and spec(at, "txl_terms")["layout"]["sliders"][0]["active"] == 4
    # a bar's hover label is the trace's customdata at the bar's index (a step sends x and y alone): at query 7 the
    # segment's bars are its keys 0 … 6 and the query's bar is key 7
    pieces = [visible(p) for p in a.pieces[seg.memory_start : seg.start + 8]]
    memory, current, query = fig["data"][:3]
    assert "customdata" not in frame[0] and "customdata" not in frame[1]
    assert memory["customdata"][: seg.n_memory] == pieces[: seg.n_memory]
    assert current["customdata"][:7] == pieces[seg.n_memory : seg.n_memory + 7]
    assert frame[2]["customdata"] == [pieces[seg.n_memory + 7]] and values(frame[2]["x"])[0] == seg.n_memory + 7
    assert spec(at, "txl_terms")["data"][0]["customdata"][: seg.n_memory + 8] == pieces

    at.slider(key="txl_segment").set_value(0)
    rerun(at, LANG)
    assert not at.exception
    lines = readouts(at)
    assert "keys 0 + 5 ·" in lines[4] and lines[4].endswith("0.0%")  # the first segment has no memory

    at.slider(key="txl_segment").set_value(1)
    at.button_group(key="txl_layer").set_value(s.n_layers - 1)
    at.button_group(key="txl_head").set_value(s.n_heads - 1)
    rerun(at, LANG)
    assert not at.exception
    seg = a.segments[1]
    frame = spec(at, "txl_attention")["frames"][0]["data"]
    assert np.allclose(values(frame[2]["y"]), seg.pattern[-1, -1, 0, seg.n_memory], atol=1e-5)
    for seg in a.segments:
        assert seg.pattern.shape[-1] == seg.n_memory + seg.pattern.shape[2]
        assert np.allclose(seg.pattern.sum(-1), 1, atol=1e-4)


def test_a_link_opens_both_figures_on_its_query():
    at = open_app("transformer-xl", lang=LANG, txl_segment="3", txl_query="11")
    assert not at.exception
    for key in ("txl_attention", "txl_terms"):
        assert spec(at, key)["layout"]["sliders"][0]["active"] == 11


def test_the_memory_lowers_the_loss_most_on_the_first_tokens():
    at = open_app("transformer-xl", lang=LANG)
    with_memory = float(m(at, "txl.m.bpc_memory"))
    cleared = float(m(at, "txl.m.bpc_cleared"))
    assert with_memory < cleared
    assert float(m(at, "txl.m.gain_first", first=svc.FIRST)) > 0
    a = svc.analyse(svc.DEFAULT_TEXT, "torch")
    L = a.segment
    assert np.allclose(a.loss_memory[: L - 1], a.loss_cleared[: L - 1], atol=1e-4)  # segment 0: no memory either way
    places, w, c = a.by_place()
    assert places[0] == 0 and (c[:8] - w[:8]).mean() > (c[-8:] - w[-8:]).mean()


def test_reach_is_measured_within_its_bound():
    at = open_app("transformer-xl", lang=LANG)
    s = svc.shape()
    found = []
    for n in range(s.n_layers):
        reach, bound = (int(x) for x in m(at, "txl.m.reach", layer=f"layer {n}").split(" / "))
        assert bound == (n + 1) * s.memory + s.segment - 1 and 0 < reach <= bound
        found.append(reach)
    assert found == sorted(found) and found[-1] > s.memory + s.segment - 1  # deeper reaches past one window

    at.select_slider(key="txl_threshold").set_value(0.1)
    rerun(at, LANG)
    assert not at.exception
    strict = svc.reach(svc.DEFAULT_TEXT, "torch", 0.1)
    assert (strict.chained <= np.array(found)).all()
    assert (strict.direct <= s.memory + s.segment - 1).all()


def test_the_four_terms_add_up_to_the_pattern():
    s = svc.shape()
    for segment, query, layer, head in ((2, 4, 0, 0), (3, 63, s.n_layers - 1, 1), (0, 10, 1, 2)):
        terms = svc.terms(svc.DEFAULT_TEXT, "torch", segment, query, layer, head)
        assert np.allclose(softmax(terms.total), terms.weights, atol=1e-4)
        seg = svc.analyse(svc.DEFAULT_TEXT, "torch").segments[segment]
        assert len(terms.keys) == seg.n_memory + query + 1 and terms.keys[-1] == seg.start + query
    every = svc.terms_all(svc.DEFAULT_TEXT, "torch", 3, s.n_layers - 1, 1)
    one = svc.terms(svc.DEFAULT_TEXT, "torch", 3, 63, s.n_layers - 1, 1)
    assert all(np.allclose(getattr(every[63], k), getattr(one, k), atol=1e-5) for k in "abcd")
    at = open_app("transformer-xl", lang=LANG)
    fig = spec(at, "txl_terms")
    steps = svc.terms_all(svc.DEFAULT_TEXT, "torch", 2, 0, 0)
    for q in (0, 4, 9):
        frame = fig["frames"][q]["data"]
        for i, k in enumerate("abcd"):
            assert np.allclose(values(frame[i]["y"]), getattr(steps[q], k), atol=1e-4)
        top = int(steps[q].weights.argmax())
        assert f"(a) {steps[q].a[top]:+.2f} · (b) {steps[q].b[top]:+.2f}" in frame[-1]["text"][0]


def test_absolute_positions_collide_and_offsets_do_not():
    at = open_app("transformer-xl", lang=LANG)
    at.slider(key="txl_abs_query").set_value(1)
    rerun(at, LANG)
    assert not at.exception
    table = at.table[0].value  # the paper-vs-here table comes after it
    assert list(table.iloc[:, 1]) == ["0", "1", "2", "3"] * 2
    assert list(table.iloc[:, 2]) == ["5", "4", "3", "2", "1", "0", "–", "–"]


def test_too_long_input_gets_a_translated_message():
    at = open_app("transformer-xl", lang=LANG)
    text = "龘" * 800  # three bytes each: more tokens than ten segments hold
    at.text_area(key="txl_text").set_value(text)
    rerun(at, LANG)
    assert not at.exception
    from models import metrics, zoo

    n = len(metrics.encode_document(metrics.tokenizer(zoo.checkpoint_dir(svc.NAME)), text))
    limit = svc.MAX_SEGMENTS * svc.shape().segment
    assert [e.value for e in at.error] == [translate("txl.error.tokens", LANG, n=n, max=limit)]


def test_zh_says_putong_transformer_not_vanilla():
    """The zh page calls the paper's "vanilla Transformer" 普通 Transformer: "vanilla" appears once, as the gloss
    at its first mention (the intro), and nowhere else in the page's zh text."""
    from app.transformer_xl.strings import STRINGS

    with_vanilla = {key: zh for key, (_, zh) in STRINGS.items() if "vanilla" in zh.lower()}
    assert list(with_vanilla) == ["txl.intro"]
    assert (
        with_vanilla["txl.intro"].lower().count("vanilla") == 1
        and "普通（vanilla）Transformer" in with_vanilla["txl.intro"]
    )
    assert sum("普通 Transformer" in zh for _, zh in STRINGS.values()) >= 6


def test_the_card_comes_as_plain_json_data_a_fresh_copy_each_time():
    """The downloads and figures take the card as it is: plain dicts, lists and scalars, and the page's own copy
    (the handle reads card.json afresh), so no converting is needed and changing it changes nothing after."""

    first = svc.card()

    def plain(value) -> bool:
        if isinstance(value, dict):
            return type(value) is dict and all(isinstance(k, str) and plain(v) for k, v in value.items())
        if isinstance(value, list):
            return all(plain(v) for v in value)
        return value is None or isinstance(value, (str, int, float, bool))

    assert plain(first)
    assert json.loads(json.dumps(first)) == first
    first["metrics"] = "changed"
    assert svc.card().get("metrics") != "changed"
    # what the speed and memory-sweep downloads write (orjson refuses read-only mappings)
    found = svc.card().get("metrics", {})
    for name in ("eval_speed", "memory_sweep"):
        if name in found:
            assert json.loads(numbers.to_json(found[name])) == found[name]
    at = open_app("transformer-xl", lang=LANG)
    assert not at.exception
    keys = {el.key for el in at.main if el.type == "download_button"}
    assert {"txl_speed_dl", "txl_sweep_dl"} <= keys or "eval_speed" not in found


def test_cutting_every_blocks_memory_raises_the_held_out_bits():
    """Measured: +0.094 bpc with every block's memory cut; one block's alone at most +0.022."""
    at = open_app("transformer_xl", lang="en")
    at.button_group(key="txl_ko_part").set_value("memory_all")
    rerun(at, "en")
    assert not at.exception
    before = float(metric(at, translate("ko.m.before", "en")))
    label = lambda key, **f: translate("ko.m.after", "en", what=translate(key, "en", **f))  # noqa: E731
    assert 0.05 < float(metric(at, label("txl.ko.what.memory_all"))) - before < 0.15
    at.button_group(key="txl_ko_part").set_value("memory")
    rerun(at, "en")  # the layer control is drawn again (every block's memory needs none)
    at.button_group(key="txl_ko_layer").set_value(2)
    rerun(at, "en")
    assert not at.exception
    assert 0 < float(metric(at, label("txl.ko.what.memory", layer=2))) - before < 0.04


def test_the_strip_is_drawn_once_and_a_segment_move_sends_only_its_marks():
    """The segments strip (every token as a box) is drawn once per text, outside the part the segment reruns; the
    part sends a style rule that colours the chosen segment and the memory it reads (positions memory_start up to
    the segment's start): a segment move re-sent the whole strip, 129 kB for the default text."""
    at = open_app("transformer-xl", lang=LANG)
    s = svc.shape()
    a = svc.analyse(svc.DEFAULT_TEXT, "torch")

    def html() -> list[str]:
        return [h.proto.body for h in at.get("html")]

    strips = [h for h in html() if "te-txl-strip" in h and "<span" in h]
    assert len(strips) == 1 and "background" not in strips[0].split("</span>", 1)[1]  # boxes take the marks' colours
    assert strips[0].count(' class="t s2 p') == s.segment and f"p{len(a.ids) - 1}" in strips[0]

    def marks() -> str:
        (rule,) = [h for h in html() if h.startswith("<style>") and "te-txl-strip" in h]
        return rule

    seg = a.segments[2]
    assert ".s2{" in marks() and f".p{seg.memory_start}," in marks() and f".p{seg.start - 1}{{" in marks()
    assert f".p{seg.start}," not in marks() and f".p{seg.start}{{" not in marks()
    at.slider(key="txl_segment").set_value(3)
    rerun(at, LANG)
    assert not at.exception
    seg = a.segments[3]
    assert ".s3{" in marks() and ".s2{" not in marks() and f".p{seg.memory_start}," in marks()


def test_the_figures_a_segment_move_redraws_skip_the_tick_label_overflow_check():
    """The memory bars and the four terms, which a segment, layer or head move redraws, draw their key labels (up
    to ``views.MAX_TICKS``) without Plotly's overflow check (``ticklabeloverflow`` "allow"), which measured every
    label of the axis again for each label drawn; the margins leave the labels their room."""
    at = open_app("transformer-xl", lang=LANG)
    for key in ("txl_attention", "txl_terms"):
        layout = spec(at, key)["layout"]
        assert layout["xaxis"]["ticklabeloverflow"] == layout["yaxis"]["ticklabeloverflow"] == "allow", key
