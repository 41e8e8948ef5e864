"""Figures of the RoPE page: a rotating pair, the frequency spectrum, decay curves, position schemes on one scale and
loss per position past the training context."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.colors import get_colorscale
from plotly.subplots import make_subplots

from app.shared.figures import cached
from app.shared.plots import legend_below, stepped, unchecked_labels

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
HEIGHT = 340


# The dots' colour scale: Blues up to the dot at m, transparent above it. A step of the figure's slider only moves the
# scale's top (``cmax`` = m + 1), so the dots past m vanish without sending every position's path again for each m.
TRAIL = [[0.997 * p, c] for p, c in get_colorscale("Blues")] + [[1.0, "rgba(0,0,0,0)"]]


@cached
def rotation(pairs: list[np.ndarray], titles: list[str], readouts: list[list[str]], m: int, prefix: str) -> go.Figure:
    """One unit-circle panel per pair (``pairs``: the pair's path at positions 0 … M), with a slider of its own over
    m = 0 … M (``plots.stepped``: the move happens in the browser): the path up to m (dots, coloured by position)
    and where the pair is at m (arrow); ``readouts[c][m]``, pair c's angle at m, above its circle. Everything a step
    changes is trace data (Plotly redraws only the traces, not the whole figure, as a layout change would)."""
    fig = make_subplots(rows=1, cols=len(pairs), subplot_titles=titles)
    ring = np.linspace(0, 2 * np.pi, 121)
    for c, xy in enumerate(pairs, start=1):
        fig.add_trace(
            go.Scatter(
                x=np.cos(ring), y=np.sin(ring), mode="lines", line={"color": "#ccc"}, hoverinfo="skip", showlegend=False
            ),
            row=1,
            col=c,
        )
        fig.add_trace(
            go.Scatter(
                x=xy[:, 0],
                y=xy[:, 1],
                mode="markers",
                showlegend=False,
                marker={"size": 5, "color": np.arange(len(xy)), "colorscale": TRAIL, "cmin": -3, "cmax": m + 1},
                hoverinfo="skip",  # the dots past m are there, transparent
            ),
            row=1,
            col=c,
        )
        fig.add_trace(
            go.Scatter(
                x=[0, xy[m, 0]],
                y=[0, xy[m, 1]],
                mode="lines+markers",
                showlegend=False,
                line={"color": COLOURS[1], "width": 3},
                marker={"size": [0, 10], "symbol": "arrow", "angleref": "previous"},
                hoverinfo="skip",
            ),
            row=1,
            col=c,
        )
        fig.add_trace(
            go.Scatter(
                x=[0],
                y=[READOUT_Y],
                mode="text",
                text=[readouts[c - 1][m]],
                textfont={"size": 13},
                showlegend=False,
                hoverinfo="skip",
            ),
            row=1,
            col=c,
        )
        fig.update_xaxes(range=[-1.25, 1.25], constrain="domain", zeroline=True, row=1, col=c)
        fig.update_yaxes(
            range=[-1.25, READOUT_Y + 0.2],
            tickvals=[-1, -0.5, 0, 0.5, 1],  # not up to the readout's row
            scaleanchor=f"x{'' if c == 1 else c}",
            zeroline=True,
            row=1,
            col=c,
        )
    unchecked_labels(legend_below(fig, HEIGHT, 56, y=-0.2))  # the panels' titles: two lines each
    steps = [
        {
            "data": [
                d
                for c, xy in enumerate(pairs)
                for d in (
                    {},
                    {"marker": {"cmax": k + 1}},
                    {"x": [0, xy[k, 0]], "y": [0, xy[k, 1]]},
                    {"text": [readouts[c][k]]},
                )
            ]
        }
        for k in range(len(pairs[0]))
    ]
    return stepped(fig, steps, active=m, prefix=prefix)


READOUT_Y = 1.45  # where a pair's angle at m is written, above its circle (radius 1)


@cached
def spectrum(
    theta: np.ndarray, context: int, *, pair_title: str, wavelength_title: str, context_name: str
) -> go.Figure:
    """Wavelength 2π/θᵢ of every pair on a log axis, with the training context as a line: pairs above it never turn
    a full circle inside one context."""
    wavelength = 2 * np.pi / theta
    fig = go.Figure(
        go.Bar(
            x=np.arange(len(theta)),
            y=wavelength,
            marker_color=COLOURS[0],
            customdata=theta,
            hovertemplate=pair_title
            + " %{x}<br>θ = %{customdata:.3g}<br>"
            + wavelength_title
            + " %{y:.3g}<extra></extra>",
            showlegend=False,
        )
    )
    # A line trace, not add_hline: a shape on a log axis takes log10 of its position.
    fig.add_trace(
        go.Scatter(
            x=[-0.5, len(theta) - 0.5],
            y=[context, context],
            mode="lines",
            name=context_name,
            line={"color": COLOURS[1], "dash": "dash"},
            hoverinfo="skip",
        )
    )
    fig.update_xaxes(title=pair_title)
    fig.update_yaxes(title=wavelength_title, type="log")
    return unchecked_labels(legend_below(fig, HEIGHT, 40, y=-0.2))


@cached
def score_matrix(
    scores: np.ndarray, *, query_title: str, key_title: str, value_title: str, height: int = 400
) -> go.Figure:
    """(n, n) scores, query position down, key position across; diverging colours centred on 0."""
    fig = go.Figure(
        go.Heatmap(
            z=scores,
            colorscale="RdBu",
            zmid=0,
            hovertemplate="m = %{y}, n = %{x}<br>" + value_title + ": %{z:.3f}<extra></extra>",
            colorbar={"thickness": 12, "title": {"text": value_title, "side": "right"}},
        )
    )
    fig.update_xaxes(title=key_title, side="top")
    fig.update_yaxes(title=query_title, autorange="reversed", scaleanchor="x", constrain="domain")
    return unchecked_labels(legend_below(fig, height, 40, y=-0.2))


@cached
def curves(
    x: np.ndarray,
    series: dict[str, np.ndarray],
    *,
    x_title: str,
    y_title: str,
    vline: float | None = None,
    vline_name: str = "",
    height: int = HEIGHT,
    dashed: tuple[str, ...] = (),
) -> go.Figure:
    """Lines sharing an x axis, one per named series."""
    fig = go.Figure()
    for i, (name, y) in enumerate(series.items()):
        fig.add_trace(
            go.Scatter(
                x=x,
                y=y,
                mode="lines",
                name=name,
                line={"color": COLOURS[i % len(COLOURS)], "dash": "dot" if name in dashed else None},
                hovertemplate=name + ": %{y:.3f}<extra>%{x}</extra>",
            )
        )
    if vline is not None:
        fig.add_vline(
            x=vline, line_dash="dash", line_color="#888", annotation_text=vline_name, annotation_position="top right"
        )
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title)
    return unchecked_labels(legend_below(fig, height, 40, y=-0.2))
