"""AppTest of the Attention page: input, step, layer, head and view change what the page reports."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import numpy as np
import pytest

import tests.app.conftest as app_conftest
from app.attention import service as svc
from app.attention.views import MIN_WEIGHT, click_targets, head_view
from app.shared.heatmaps import grid_cell, head_grid
from app.shared.i18n import InputError, translate
from tests.app.conftest import metric, open_app, rerun

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _absolute_entry(monkeypatch):
    # AppTest resolves a relative script path against the calling file (tests/app/), not the working directory.
    monkeypatch.setattr(app_conftest, "ENTRY", str(ROOT / app_conftest.ENTRY))


def test_input_step_layer_head_change_the_metrics():
    at = open_app("attention", lang=LANG)
    assert not at.exception
    assert metric(at, translate("attention.m.output", LANG)) == "hgfedcba"
    assert metric(at, translate("attention.m.correct", LANG)) == translate("attention.yes", LANG)

    at.text_input(key="attention_text").set_value("hello")
    rerun(at, LANG)
    assert not at.exception
    assert metric(at, translate("attention.m.output", LANG)) == "olleh"
    predicts0 = metric(at, translate("attention.m.predicts", LANG, step=0))
    assert predicts0 == "o"

    at.slider(key="attention_step").set_value(3)
    rerun(at, LANG)
    assert metric(at, translate("attention.m.predicts", LANG, step=3)) == "e"
    # the last layer's head 0 of the shipped model: step 3 copies source position 5 - 1 - 3 = 1
    peak = lambda layer, head: metric(at, translate("attention.m.looks_at", LANG, lh=f"L{layer} · H{head}"))  # noqa: E731
    weight = lambda: metric(at, translate("attention.m.weight", LANG))  # noqa: E731
    before = (peak(1, 0), weight())

    at.button_group(key="attention_head").set_value(1)
    rerun(at, LANG)  # the head's callback reruns the views alone: AppTest's tree then holds only their elements
    assert not at.exception
    after_head = (peak(1, 1), weight())
    rerun(at, LANG)  # the whole page again, with the layer control
    at.button_group(key="attention_layer").set_value(0)
    rerun(at, LANG)
    assert not at.exception
    after_layer = (peak(0, 1), weight())
    assert len({before, after_head, after_layer}) == 3


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_try_this_holds_on_the_page_as_it_opens(lang):
    """The page's "Try this", done as it says on the page as it opens: the input it names is the default, and the
    default controls are the ones it names (cross-attention, the last layer's head 0). Moving the decoding step from
    0 to 7, the cross-attention peak walks backwards through the input (the first and last peaks it quotes), and the
    alignment agreement reads what it quotes, all read from the page's own metrics."""
    at = open_app("attention", lang=lang)
    assert not at.exception
    lh = translate("view.layer_head", lang, layer=1, head=0)  # the last layer of the shipped two-layer decoder
    box = next(md.value for md in at.markdown if translate("view.try.title", lang) in md.value)
    do, see = translate("attention.try.do", lang, lh=lh), translate("attention.try.see", lang)
    assert do in box and see in box
    example = re.search(r"`([a-z ]+)`", do).group(1)
    assert at.text_input(key="attention_text").value == example == svc.EXAMPLES[0]
    assert at.button_group(key="attention_kind").value == "cross"
    assert (at.button_group(key="attention_layer").value, at.button_group(key="attention_head").value) == (
        1,
        0,
    )
    quoted = re.findall(r"`(\d+: [a-z])`", see)  # step 0's peak, step 1's, …, the last step's
    steps = [int(n) for n in re.findall(r"(\d+)", do.split(lh)[-1])]  # "from 0 to 7"
    assert steps == [0, len(example) - 1]
    agreement = re.search(r"(\d+%)", see).group(1)
    assert metric(at, translate("attention.m.agreement", lang, lh=lh)) == agreement == "100%"
    peaks = []
    for step in range(steps[0], steps[1] + 1):
        at.slider(key="attention_step").set_value(step)
        rerun(at, lang)
        assert not at.exception
        peaks.append(metric(at, translate("attention.m.looks_at", lang, lh=lh)))
    assert peaks[: len(quoted) - 1] == quoted[:-1] and peaks[-1] == quoted[-1]
    assert peaks == [f"{len(example) - 1 - i}: {ch}" for i, ch in enumerate(example[::-1])]  # one letter per step


def test_positions_view_shows_the_offset_is_a_fixed_linear_map():
    """PE(p + k) = M_k · PE(p) on the model's own (float32) table, for every offset k the slider offers."""
    at = open_app("attention", lang=LANG)
    at.button_group(key="attention_view").set_value("positions").run()
    label = translate("attention.pos.m.offset", LANG)
    for k in (1, 7, 16):
        at.slider(key="attention_pos_k").set_value(k).run()
        assert not at.exception
        assert float(metric(at, label)) < 1e-5  # float32 rounding of values of size 1


@pytest.mark.parametrize("view", ["heads", "model", "dot", "mask", "positions"])
def test_every_view_renders(view):
    at = open_app("attention", lang=LANG)
    at.button_group(key="attention_view").set_value(view).run()
    assert not at.exception
    if view == "dot":
        before = metric(at, "Largest weight")
        at.toggle(key="attention_unscaled").set_value(True).run()
        assert not at.exception
        assert float(metric(at, "Largest weight without ÷√d_k")) >= float(before)
        # float64 arithmetic against the model's float32 map: equal up to rounding, relative to the weights' scale
        assert float(metric(at, "Differs from the model's own map by")) <= 1e-4 * float(before)
        for kind in ("enc_self", "dec_self"):
            at.button_group(key="attention_kind").set_value(kind).run()
            assert not at.exception


@pytest.mark.parametrize(
    ("text", "key", "fields"),
    [
        ("   ", "attention.error.empty", {}),
        ("?!", "attention.error.empty", {}),  # nothing readable left
    ],
)
def test_bad_input_gets_a_translated_message(text, key, fields):
    at = open_app("attention", lang=LANG)
    at.text_input(key="attention_text").set_value(text)
    rerun(at, LANG)
    assert not at.exception
    assert [e.value for e in at.error] == [translate(key, LANG, **fields)]


def test_head_view_escapes_labels_and_draws_one_line_per_visible_weight():
    weights = np.array([[[0.7, 0.3, 0.0], [0.01, 0.5, 0.49]]])  # (1 head, 2 queries, 3 keys)
    html = head_view(weights, [2], ["<script>", "a&b"], ["x", '"y"', "z"], current=1)
    assert "<script>" not in html
    svg = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", html).group(1)).decode()
    assert "&lt;script&gt;" in svg and "a&amp;b" in svg and "&quot;y&quot;" in svg
    assert svg.count("<line") == int((weights >= MIN_WEIGHT).sum())


def test_head_view_draws_agreeing_heads_side_by_side():
    """Two heads with the same weights draw parallel lines a line-width apart, not one over the other."""
    same = np.array([[[1.0, 0.0]], [[1.0, 0.0]]])  # 2 heads, 1 query, 2 keys: both look at key 0
    html = head_view(same, [0, 1], ["q"], ["a", "b"])
    svg = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", html).group(1)).decode()
    ys = [float(y) for y in re.findall(r'<line [^>]*y1="([\d.]+)"', svg)]
    assert len(ys) == 2 and abs(ys[0] - ys[1]) >= 2.0


@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (2, 4, 1, 17), (2, 4, 9, 9)])
def test_click_targets_cover_every_map_and_stay_inside_it(shape):
    """A click anywhere on a small map selects it (not only on one 14 px dot at its centre); one decoding
    step's single query row is drawn half as tall as it is wide, not a strip."""
    L, H, T, S = shape
    grid = head_grid(np.random.default_rng(0).random(shape))
    assert T * grid.layout.yaxis.scaleratio >= S / 2 - 1e-9
    fig = click_targets(grid, shape)
    points = fig.data[-1]
    cells = [grid_cell(x, y, shape) for x, y in zip(points.x, points.y)]
    assert set(cells) == {(layer, head) for layer in range(L) for head in range(H)}
    per_map = len(cells) // (L * H)
    assert per_map >= max(1, S // 3) and all(cells.count(c) == per_map for c in set(cells))
    # every marker lies within its map's cells (not in the gap, where grid_cell would name a neighbour)
    for x, y, (layer, head) in zip(points.x, points.y, cells):
        assert -0.5 <= x - head * (S + 1) <= S - 0.5 and -0.5 <= y - layer * (T + 1) <= T - 0.5


def test_picking_an_example_replaces_the_input():
    at = open_app("attention", lang=LANG)
    at.slider(key="attention_step").set_value(4).run()
    at.button_group(key="attention_example").set_value("banana split").run()
    assert not at.exception
    assert at.text_input(key="attention_text").value == "banana split"
    assert metric(at, "Model output") == "tilps·ananab"
    assert at.slider(key="attention_step").value == 0


def test_onnx_backend_gives_the_same_answer():
    at = open_app("attention", lang=LANG, backend="onnx")
    assert not at.exception
    assert metric(at, "Model output") == "hgfedcba"
    assert any("onnx" in c.value for c in at.caption)


def test_what_the_model_cannot_read_is_dropped_with_a_note():
    """The box keeps no more characters than the model reads (ui.text_line cuts a longer text with a note), and
    punctuation or digits are left out with a note naming them, instead of an error."""
    at = open_app("attention", lang=LANG)
    box = at.text_input(key="attention_text")
    assert svc.MAX_CHARS == 20
    box.set_value("Hello, World!")
    rerun(at, LANG)
    assert not at.exception and not at.error
    note = translate("attention.dropped", LANG, symbols="',' '!'", text="hello world")
    assert note in [c.value for c in at.caption]
    assert metric(at, translate("attention.m.expected", LANG)) == "dlrow·olleh"  # spaces shown as ·
    # the service still refuses what is too long for the model when called directly
    with pytest.raises(InputError) as e:
        svc.normalise("a" * 30)
    assert e.value.key == "attention.error.too_long"
    assert svc.readable("  A-b  C! ") == ("ab c", ("-", "!"))


# ---- knock-outs (app/attention/knockout.py) --------------------------------------------------------------------------


def _right(value: str) -> tuple[int, int, int]:
    """ "9/9 → 0/9" -> (9, 0, 9)."""
    (a, n), (b, _) = (tuple(map(int, x.strip().split("/"))) for x in value.split("→"))
    return a, b, n


def test_knocking_out_the_last_cross_attention_breaks_the_copy_and_one_head_does_not():
    """On the default input ("abcdefgh": 8 characters and <eos>), the section opens on decoder layer 1's whole
    cross-attention, zeroed: 9/9 characters ranked first -> 0/9 (measured), the loss from ~0 to ~5.9 nats, the
    greedy answer empty. Any single cross-attention head zeroed (either layer) leaves at least 7/9 (measured min 7,
    L0 · H1). The page's caption says both; this checks them."""
    text = svc.EXAMPLES[0]
    for layer in range(svc.config()["dec_layers"]):
        for head in range(svc.config()["heads"]):
            assert svc.knock_out(text, "decoder", layer, "cross_head", "zero", head).right_after >= 7, (layer, head)
    at = open_app("attention", lang=LANG)
    assert not at.exception
    m = lambda key, **f: metric(at, translate(key, LANG, **f))  # noqa: E731
    what = translate("view.ko.what.decoder.cross", LANG, layer=1)
    before, after, n = _right(m("attention.ko.m.right"))
    assert (before, n) == (9, 9) and after <= 1
    loss_before, loss_after = map(float, m("attention.ko.m.loss", what=what).split("→"))
    assert loss_before < 0.05 and loss_after > 3
    assert m("attention.ko.m.answer") != m("attention.m.expected")
    assert any(c.value == translate("attention.ko.read.default", LANG, n=9, lh_layer=1) for c in at.caption)

    at.button_group(key="attention_ko_part").set_value("cross_head")
    rerun(at, LANG)  # the head control shows for a head
    at.button_group(key="attention_ko_head").set_value(2)
    rerun(at, LANG)
    assert not at.exception
    assert _right(m("attention.ko.m.right"))[1] >= 7
    assert "→" in m("attention.ko.m.loss", what=translate("view.ko.what.decoder.cross_head", LANG, lh="L1 · H2"))


def test_the_encoder_knock_out_offers_no_cross_attention_and_a_bad_link_is_a_message():
    at = open_app("attention", lang=LANG, attention_ko_stack="encoder")
    assert not at.exception
    assert list(at.button_group(key="attention_ko_part").options) == [
        translate(f"view.ko.part.pair.{p}", LANG) for p in ("head", "attn", "mlp")
    ]
    at.button_group(key="attention_ko_part").set_value("mlp")
    at.button_group(key="attention_ko_mode").set_value("mean")
    rerun(at, LANG)
    assert not at.exception
    assert "→" in metric(
        at, translate("attention.ko.m.loss", LANG, what=translate("view.ko.what.encoder.mlp", LANG, layer=1))
    )
    with pytest.raises(InputError):
        svc.knock_out(svc.EXAMPLES[0], "encoder", 0, "cross", "zero", 0)
