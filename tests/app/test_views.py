"""The shared views are pure functions: numbers in, figures or escaped HTML out."""

import csv
import io
import json

import numpy as np
import plotly.graph_objects as go

from app.shared import theme
from app.shared.heatmaps import attention_heatmap, grid_cell, head_grid, tile
from app.shared.numbers import to_csv, to_json
from app.shared.tokens import token_strip


def test_heatmap_keeps_repeated_tokens_apart():
    labels = ["the", "cat", "the", "end"]
    fig = attention_heatmap(np.eye(4), labels, labels)
    z = np.asarray(fig.data[0].z)
    assert z.shape == (4, 4)  # two "the" rows stay two rows
    assert list(fig.layout.xaxis.ticktext) == labels
    assert fig.data[0].customdata[2][0] == "the → the"


def test_tile_and_grid_cell_round_trip():
    rng = np.random.default_rng(0)
    patterns = rng.random((3, 4, 5, 6))
    big = tile(patterns)
    assert big.shape == (3 * 6 - 1, 4 * 7 - 1)
    for layer in range(3):
        for head in range(4):
            y, x = layer * 6 + 2, head * 7 + 3
            assert grid_cell(x, y, patterns.shape) == (layer, head)
            assert big[y, x] == patterns[layer, head, 2, 3]
    assert np.isnan(big[5, 0])  # the gap between layer 0 and layer 1
    fig = head_grid(patterns, selected=(1, 2))
    assert len(fig.data) == 1 and len(fig.layout.shapes) == 1


def test_token_strip_escapes_user_text():
    html = token_strip(["<script>alert(1)</script>", 'a"b', " x"], np.array([0.1, 0.5, 0.9]))
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "a&quot;b" in html
    assert "·x" in html  # whitespace made visible
    assert html.count("<span") == 3


def test_token_strip_handles_constant_and_nan_values():
    html = token_strip(["a", "b"], np.array([1.0, np.nan]))
    assert html.count("<span") == 2


def test_numbers_download_formats():
    rows = list(csv.reader(io.StringIO(to_csv(np.array([[1, 2], [3, 4]]), ["q0", "q1"], ["k0", "k1"]).decode())))
    assert rows == [["", "k0", "k1"], ["q0", "1", "2"], ["q1", "3", "4"]]
    data = json.loads(to_json({"pattern": np.arange(3), "name": "x"}))
    assert data == {"pattern": [0, 1, 2], "name": "x"}
    assert json.loads(to_json({"t": np.arange(6).reshape(2, 3).T})) == {"t": [[0, 3], [1, 4], [2, 5]]}


def test_softmax_matches_the_definition_and_masks():
    from app.shared.numbers import entropy_bits, log_softmax, softmax

    x = np.array([[1.0, 2.0, 3.0], [1000.0, 1000.0, -1000.0]])
    p = softmax(x)
    assert np.allclose(p.sum(-1), 1.0) and np.allclose(p[0], np.exp(x[0]) / np.exp(x[0]).sum())
    assert np.allclose(np.exp(log_softmax(x)), p)
    masked = softmax(np.array([5.0, 1.0, 1.0]), allowed=np.array([False, True, True]))
    assert masked.tolist() == [0.0, 0.5, 0.5]
    assert entropy_bits(np.array([0.5, 0.5, 0.0])) == 1.0 and entropy_bits(np.array([1.0])) == 0.0


def test_tick_helpers_label_positions_and_grid_cells():
    from app.shared.heatmaps import centres, grid_ticks, ticks

    t = ticks([str(i) for i in range(100)], max_ticks=10)
    assert t["tickvals"] == list(range(0, 100, 10)) and t["ticktext"][1] == "10"
    assert centres(3, 4) == [1.5, 6.5, 11.5]  # maps of 4 cells with one blank cell between them
    assert grid_ticks(None, 4) == {"showticklabels": False}
    assert grid_ticks(["a", "b"], 4, "top") == {
        "tickmode": "array",
        "tickvals": [1.5, 6.5],
        "ticktext": ["a", "b"],
        "side": "top",
    }


def test_dark_theme_recolours_ink_and_paper_but_not_data():
    fig = go.Figure(go.Heatmap(z=[[0, 1]], colorscale=[[0, "#111"], [1, "#fff"]]))
    fig.add_scatter(x=[0, 1], y=[0, 1], marker={"color": ["#111", "#d62728"], "line": {"color": "white"}})
    fig.add_vline(x=0.5, line={"color": "#555"})
    fig.add_annotation(x=0, y=0, text="ink", font={"color": "#222222"})
    fig.add_annotation(x=1, y=1, text="on a fill", font={"color": theme.ON_FILL})
    fig.add_scatter(x=[0], y=[0], fill="tozeroy", fillcolor="rgba(0,0,0,0.35)")
    fig.update_layout(plot_bgcolor="white", legend={"bgcolor": "rgba(255,255,255,0.8)"})
    theme.for_dark(fig)
    assert fig.data[0].colorscale[0][1] == "#111"  # a colour scale is data
    assert list(fig.data[1].marker.color) == ["#fafafa", "#d62728"]
    assert fig.data[1].marker.line.color == "white"  # white ink is not dark ink
    assert fig.data[2].fillcolor == "rgba(250,250,250,0.35)"
    assert fig.layout.shapes[0].line.color == "#bdbdbd"
    assert [a.font.color for a in fig.layout.annotations] == ["#fafafa", theme.ON_FILL]
    assert fig.layout.plot_bgcolor == "rgba(0,0,0,0)"
    assert fig.layout.legend.bgcolor != "rgba(255,255,255,0.8)"


def test_theme_css_defines_every_palette_colour_for_both_themes():
    for name, (light, dark) in theme.PALETTE.items():
        assert f"--te-{name}: light-dark({light}, {dark});" in theme.THEME_CSS
        assert theme.var(name) == f"var(--te-{name})"
    style = theme.svg_style({"text": ("fill", "ink")})
    assert f"text{{fill:{theme.PALETTE['ink'][0]}}}" in style
    assert f"@media (prefers-color-scheme: dark){{text{{fill:{theme.PALETTE['ink'][1]}}}}}" in style


def test_markup_sends_the_html_as_a_string_would():
    """ui.markup hands st.html the HTML through _repr_html_ (no dedent pass over a long strip on every rerun); what
    reaches the page is what st.html makes of the same string: stripped, and nothing indented to remove."""
    import textwrap

    from app.shared import ui
    from app.transformer_xl.views import segments_strip_html

    pieces = [f"tok{i} <&>" for i in range(300)]
    for html in (
        token_strip(pieces[:40], np.linspace(0, 1, 40), label="a <label>"),
        segments_strip_html(pieces, 64, segment_name="segment"),
        "\n  <b>x</b>\n",
    ):
        assert ui._Markup(html)._repr_html_() == textwrap.dedent(html).strip()


def test_a_stepped_figure_carries_each_steps_numbers_in_its_frames():
    from app.shared.plots import MARGIN, SLIDER_HEIGHT, stepped

    fig = go.Figure([go.Scatter(x=[0, 1], y=[0, 0], line={"color": "#444"}), go.Scatter(x=[0], y=[1], mode="text")])
    fig.update_layout(height=300, margin={"b": MARGIN})
    steps = [{"data": [{"y": [0, k]}, {"text": [f"step {k}"]}]} for k in range(3)]
    out = stepped(fig, steps, active=1, prefix="k = ")
    assert [f.name for f in out.frames] == ["0", "1", "2"]
    assert out.frames[2].data[0].y == (0, 2) and out.frames[2].data[1].text == ("step 2",)
    assert out.frames[2].data[0].line.color is None  # only what moves is in a frame; the rest is sent once
    (slider,) = out.layout.sliders
    assert (
        slider.active == 1 and slider.currentvalue.prefix == "k = " and [s.label for s in slider.steps] == list("012")
    )
    assert list(slider.steps[2].args[0]) == ["2"] and slider.steps[2].args[1]["frame"]["redraw"] is False
    assert out.layout.height == 300 + SLIDER_HEIGHT and out.layout.margin.b == MARGIN + SLIDER_HEIGHT
    assert fig.layout.sliders == ()  # the figure it was given is left as it was
    dark = theme.for_dark(go.Figure(out))
    assert dark.frames[2].data[1].text == ("step 2",)  # recoloured alike, numbers untouched
    # an image no step changes stays out of the frames (nothing of it is sent per step); its index is skipped
    still = go.Figure([go.Image(z=[[[0, 0, 0]]]), go.Scatter(x=[0], y=[0])])
    out = stepped(still, [{"data": [{}, {"y": [k]}]} for k in range(2)], active=0, prefix="")
    assert out.frames[1].traces == (1,) and out.frames[1].data[0].y == (1,)
    try:
        stepped(fig, [{"data": [{}]}], active=0, prefix="")
    except ValueError:
        pass
    else:
        raise AssertionError("a step without a dict for every trace must be refused")
