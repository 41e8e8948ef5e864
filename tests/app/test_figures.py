"""app/shared/figures.py: figures built once per input and shared; their dicts built once per theme; and no page
changes a shared figure (a second run of every page sends the same charts)."""

from __future__ import annotations

import base64
import json

import numpy as np
import plotly.colors
import plotly.graph_objects as go
import plotly.io as pio
import plotly.tools
import pytest

from app.catalog import available_papers, available_tools
from app.shared import figures, theme
from tests.app.conftest import figures as drawn
from tests.app.conftest import open_app

built: list[tuple] = []


@figures.cached
def _bars(x: np.ndarray, title: str) -> go.Figure:
    built.append((x.tobytes(), title))
    fig = go.Figure(go.Bar(y=x, marker_color="#333"))
    fig.update_layout(title=title, plot_bgcolor="white", font_color="#111")
    return fig


@figures.cached
def _composed(x: np.ndarray) -> go.Figure:
    fig = _bars(x, "inner")  # a cached builder inside another: a fresh figure, which this one may change
    fig.update_layout(height=123)
    return fig


def _spec(fig) -> dict:
    """What Streamlit sends for ``fig`` (plotly_chart's own conversion), as plain JSON, each array written as its
    bytes (``{"dtype", "bdata"}``) read back as its numbers: what plotly.js draws."""
    return _numbers(json.loads(pio.to_json(plotly.tools.return_figure_from_figure_or_data(fig, True), validate=False)))


def _numbers(value):
    if isinstance(value, dict):
        if set(value) <= {"dtype", "bdata", "shape"} and "bdata" in value:
            return np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"]).astype(float).tolist()
        return {k: _numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_numbers(v) for v in value]
    return value


def test_a_builder_runs_once_per_distinct_arguments():
    built.clear()
    a, b = _bars(np.arange(4.0), "t"), _bars(np.arange(4.0), "t")
    c, d = _bars(np.arange(5.0), "t"), _bars(np.arange(4.0), "other")
    assert a is b and len({id(a), id(c), id(d)}) == 3
    assert len(built) == 3


def test_other_values_are_shared_too_and_not_taken_for_figures():
    calls: list[str] = []

    @figures.cached
    def strip(words: list[str], weights: np.ndarray) -> str:
        calls.append("x")
        return "".join(f"<b>{w}</b>{v:.1f}" for w, v in zip(words, weights))

    a = strip(["to", "be"], np.array([0.5, 1.5]))
    assert strip(["to", "be"], np.array([0.5, 1.5])) is a and len(calls) == 1
    assert strip(["to", "be"], np.array([0.5, 2.5])) != a and len(calls) == 2
    assert getattr(_bars(np.arange(3.0), "t"), "_te_cached", False)  # a figure is still marked for for_chart


def test_a_trace_is_never_shared():
    """Adding a trace to a figure takes its type out of its properties and puts it back: a trace shared between
    readers (ViT's patch weights were) was seen as a scatter by a second reader adding it at that moment, and 28 of
    128 readers got an exception in a load run. A builder of a trace is refused; its figure is cached instead."""

    @figures.cached
    def weights(z: np.ndarray) -> go.Heatmap:
        return go.Heatmap(z=z, colorbar={"thickness": 10})

    with pytest.raises(TypeError, match="trace"):
        weights(np.eye(2))


def test_arguments_that_differ_in_type_shape_or_content_get_figures_of_their_own():
    built.clear()
    x = np.arange(4.0) + 100  # arrays no other test passes
    figs = [
        _bars(x, "t"),
        _bars(x.astype(np.float32), "t"),  # same values, another dtype
        _bars(x.reshape(2, 2), "t"),  # same bytes, another shape
        _bars(x + np.array([0, 0, 0, 1e-9]), "t"),  # one value changed a little
        _bars(x, title="t"),  # as a keyword
    ]
    assert len({id(f) for f in figs}) == len(figs) == len(built)
    assert _bars(np.arange(4.0) + 100, "t") is figs[0] and len(built) == len(figs)  # equal arrays: the same figure
    assert figures._key((1, 1.0, True)) != figures._key((True, 1, 1.0))
    assert figures._key([float("nan")]) == figures._key([float("nan")])
    assert figures._key(np.array(["a", None], dtype=object)) != figures._key(np.array(["a", "None"], dtype=object))


def test_an_argument_of_another_type_is_keyed_by_streamlit():
    with pytest.raises(figures._Unkeyed):
        figures._key([range(3)])
    assert _other(range(3)) is _other(range(3)) and _other(range(4)) is not _other(range(3))


@figures.cached
def _other(values) -> go.Figure:
    return go.Figure(go.Bar(y=list(values)))


def test_a_cached_builder_inside_another_does_not_share_its_figure():
    shared = _bars(np.arange(7.0), "inner")
    composed = _composed(np.arange(7.0))
    assert composed is not shared and composed.layout.height == 123
    assert shared.layout.height is None  # the shared figure was not changed by the composition


def test_for_chart_sends_what_the_builder_drew_in_each_theme():
    fig = _bars(np.arange(6.0), "x")
    fresh = _bars.uncached(np.arange(6.0), "x")
    light, dark = figures.for_chart(fig, False), figures.for_chart(fig, True)
    assert figures.for_chart(fig, False) is light and figures.for_chart(fig, True) is dark  # built once per theme
    assert _spec(light) == _spec(fresh)
    assert _spec(dark) == _spec(theme.for_dark(_bars.uncached(np.arange(6.0), "x")))
    assert _spec(dark) != _spec(light) and fig.layout.plot_bgcolor == "white"  # the shared figure stays light
    for ready in (light, dark):  # the JSON written once with the dict is the JSON of the dict
        spec = ready.to_dict()
        assert pio.to_json(spec, validate=False) == pio.to_json(dict(spec), validate=False)
        assert pio.to_json(spec, validate=False, engine="json") == pio.to_json(dict(spec), validate=False)


def test_arrays_go_out_as_float32_where_that_holds_them_exactly():
    """A cached figure's float64 arrays that float32 holds exactly go out as float32 (half the bytes), the others as
    they are; either way plotly.js reads the same numbers."""
    exact = np.linspace(0, 1, 9, dtype=np.float32).astype(np.float64)
    fig = _bars(exact, "exact")
    sent = json.loads(pio.to_json(figures.for_chart(fig, False).to_dict(), validate=False))
    assert sent["data"][0]["y"]["dtype"] == "f4"
    assert _spec(figures.for_chart(fig, False)) == _spec(_bars.uncached(exact, "exact"))
    inexact = np.linspace(0, 1, 9) / 3
    sent = json.loads(pio.to_json(figures.for_chart(_bars(inexact, "inexact"), False).to_dict(), validate=False))
    assert sent["data"][0]["y"]["dtype"] == "f8"
    assert (
        figures.compact({"y": {"dtype": "f8", "bdata": base64.b64encode(inexact.tobytes()).decode()}})["y"]["dtype"]
        == "f8"
    )


def test_an_uncached_figure_goes_through():
    fig = _bars.uncached(np.arange(3.0), "y")
    assert figures.for_chart(fig, False) is fig


@pytest.mark.parametrize("paper", [p.page for p in (*available_papers(), *available_tools())])
def test_a_second_run_of_every_page_sends_the_same_charts(paper):
    """A page that changed a shared figure after building it (a trace or a shape added each run) would send more
    on its second run."""
    at = open_app(paper)
    first = list(drawn(at).values())
    at.run()
    assert not at.exception
    assert list(drawn(at).values()) == first


@pytest.mark.parametrize("paper", ["transformer-xl", "gpt"])
def test_a_dark_reader_first_leaves_the_light_figures_as_built(paper, monkeypatch):
    """The dark dict is built from a copy: a light reader after a dark one gets the builder's own figure (the
    check in figures.for_chart raises if the shared figure changed)."""
    from app.shared import ui

    monkeypatch.setattr(ui, "dark_theme", lambda: True)
    dark = open_app(paper)
    assert not dark.exception
    monkeypatch.setattr(ui, "dark_theme", lambda: False)
    light = open_app(paper)
    assert not light.exception
    assert list(drawn(light).values()) != list(drawn(dark).values())


def test_a_figure_from_dicts_refuses_a_colour_scale_by_name():
    """``from_dicts`` sends its dicts unchanged: a named scale would reach plotly.js, whose "Blues" runs the other way
    from the "Blues" that graph_objects expands (the MoE router heatmap came out dark for 0 that way)."""
    heat = {"type": "heatmap", "z": [[0.0, 1.0]], "colorscale": "Blues"}
    with pytest.raises(ValueError, match="get_colorscale"):
        figures.from_dicts([heat], {})
    heat["colorscale"] = plotly.colors.get_colorscale("Blues")
    assert figures.from_dicts([heat], {}).data[0].colorscale == go.Heatmap(colorscale="Blues").colorscale


@pytest.mark.parametrize("cached", [False, True])
def test_a_kept_charts_json_is_what_plotly_chart_would_send(cached):
    """``spec_json`` (what a kept chart sends) holds the same figure as ``st.plotly_chart``'s conversion, arrays
    compacted to float32 where that loses nothing; a cached figure's is written once per theme."""
    x = np.array([0.5, 1.25, 3.0])
    fig = _composed(x) if cached else go.Figure(go.Bar(y=x, marker_color="#333"), {"font_color": "#111"})
    sent = figures.spec_json(fig, False)
    assert _numbers(json.loads(sent)) == _spec(figures.for_chart(fig, False))
    assert (figures.spec_json(fig, False) is sent) == cached
    assert json.loads(figures.spec_json(fig, True)) != json.loads(sent)  # the dark theme's ink


def test_the_kept_charts_script_marks_its_plots_as_the_tests_find_them():
    """kept_chart.js is served as a file (Streamlit sends only a loader with each chart); it sets the data-testid the
    browser tests and the benches look for, and the loader names this very version of it."""
    from app.shared import kept_chart

    assert f'"data-testid", "{kept_chart.TEST_ID}"' in kept_chart.SCRIPT.read_text()
    assert kept_chart.VERSION in kept_chart._JS and len(kept_chart._JS) < 200
