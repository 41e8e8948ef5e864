"""Figures of the T5 page: the ``which play:`` label shares, the target lengths of four pre-training objectives, the
bucket of each relative offset, the biases the model learned per head, a bias matrix, and the attention masks of
the three architectures of the paper's §3.2.1. Pure functions: numpy in, Plotly out."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app.shared.figures import cached
from app.shared.plots import legend_above

BIDIRECTIONAL, CAUSAL = "#1f77b4", "#d62728"
HEADS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
EXACT_FILL = "rgba(44, 160, 44, 0.12)"
# The mask figure's cells: blocked, causal self-attention, fully-visible self-attention, cross-attention.
MASK_COLOURS = ("#f4f4f4", "#6baed6", "#08519c", "#fd8d3c")


def plot_text(label: str) -> str:
    """A token label as Plotly text: its "<" and ">" as entities, or Plotly reads </s> as a closing tag."""
    return label.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@cached
def label_shares(labels: list[str], shares: np.ndarray, chosen: str | None, *, value_title: str) -> go.Figure:
    """Horizontal bars: each label's share of P(label | input) among the labels; the model's own answer darker."""
    order = np.argsort(shares)
    colours = ["#08519c" if labels[i] == chosen else "#9ecae1" for i in order]
    fig = go.Figure(
        go.Bar(
            x=100 * shares[order],
            y=[labels[i] for i in order],
            orientation="h",
            marker_color=colours,
            text=[f"{100 * shares[i]:.1f}%" for i in order],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{y}: %{x:.2f}%<extra></extra>",
        )
    )
    fig.update_xaxes(title=value_title, range=[0, 115], ticksuffix="%")
    return legend_above(fig, 300, top=10, right=True)


@cached
def objective_lengths(
    names: list[str], inputs: list[int], targets: list[int], *, input_name: str, target_name: str, axis_title: str
) -> go.Figure:
    """Grouped bars: what the encoder (or BERT) reads and what the model must predict, per objective."""
    fig = go.Figure(
        [
            go.Bar(x=names, y=inputs, name=input_name, marker_color="#bdbdbd", text=inputs, textposition="outside"),
            go.Bar(x=names, y=targets, name=target_name, marker_color="#08519c", text=targets, textposition="outside"),
        ]
    )
    fig.update_traces(cliponaxis=False, hovertemplate="%{x}: %{y}<extra></extra>")
    fig.update_yaxes(title=axis_title, range=[0, 1.15 * max(*inputs, *targets, 1)])
    fig.update_layout(barmode="group")
    return legend_above(fig, 340, 30, right=True)


@cached
def bucket_chart(
    offsets: np.ndarray,
    bidirectional: np.ndarray,
    causal: np.ndarray,
    exact_bidirectional: int,
    exact_causal: int,
    max_distance: int,
    *,
    bidirectional_name: str,
    causal_name: str,
    exact_name: str,
    log_name: str,
    beyond_name: str,
    max_name: str,
    x_title: str,
    y_title: str,
) -> go.Figure:
    """Bucket index against the offset key − query for both directions, the exact regions shaded, ±max_distance
    dashed (beyond it every offset shares the last bucket of its side)."""
    fig = go.Figure()
    for lo, hi in ((-exact_bidirectional + 0.5, exact_bidirectional - 0.5), (-exact_causal + 0.5, 0.5)):
        fig.add_vrect(x0=lo, x1=hi, fillcolor=EXACT_FILL, line_width=0, layer="below")
    fig.add_trace(  # legend entry for the shading
        go.Scatter(
            x=[None],
            y=[None],
            mode="markers",
            marker={"color": EXACT_FILL, "size": 12, "symbol": "square"},
            name=exact_name,
        )
    )
    for y, name, colour in ((bidirectional, bidirectional_name, BIDIRECTIONAL), (causal, causal_name, CAUSAL)):
        fig.add_trace(
            go.Scatter(
                x=offsets,
                y=y,
                mode="lines",
                line={"shape": "hv", "color": colour, "width": 2},
                name=name,
                hovertemplate=x_title + " %{x}: " + y_title + " %{y}<extra>" + name + "</extra>",
            )
        )
    for x in (-max_distance, max_distance):
        fig.add_vline(x=x, line={"color": "#555", "dash": "dash", "width": 1})
    fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", line={"color": "#555", "dash": "dash"}, name=max_name))
    top = int(max(bidirectional.max(), causal.max())) + 2
    middle = (exact_causal + max_distance) / 2
    edge = (max_distance + abs(offsets).max()) / 2
    for x, text in (
        (0, exact_name),
        (-middle, log_name),
        (middle, log_name),
        (-edge, beyond_name),
        (edge, beyond_name),
    ):
        fig.add_annotation(x=x, y=top, text=text, showarrow=False, font={"size": 11, "color": "#555"}, yanchor="bottom")
    fig.update_xaxes(title=x_title, zeroline=False)
    fig.update_yaxes(title=y_title, range=[-1, top + 3])
    return legend_above(fig, 400, top=40, right=True)


@cached
def bias_curves(
    offsets: np.ndarray,
    bias: np.ndarray,
    max_distance: int,
    *,
    head_names: list[str],
    x_title: str,
    y_title: str,
    title: str,
) -> go.Figure:
    """(H, R) the learned bias each head adds to a score, against the offset key − query."""
    fig = go.Figure()
    for h, row in enumerate(bias):
        fig.add_trace(
            go.Scatter(
                x=offsets,
                y=row,
                mode="lines",
                line={"shape": "hv", "color": HEADS[h % len(HEADS)], "width": 1.6},
                name=head_names[h],
                hovertemplate=x_title + " %{x}: %{y:.3f}<extra>" + head_names[h] + "</extra>",
            )
        )
    for x in (-max_distance, max_distance):
        if offsets.min() <= x <= offsets.max():
            fig.add_vline(x=x, line={"color": "#555", "dash": "dash", "width": 1})
    fig.update_xaxes(title=x_title, zeroline=False)
    fig.update_yaxes(title=y_title)
    fig.update_layout(title={"text": title, "x": 0, "font": {"size": 14}})
    return legend_above(fig, 340, top=70, right=True)


@cached
def bias_matrix(
    bias: np.ndarray,
    query_labels: list[str],
    key_labels: list[str],
    *,
    query_title: str,
    key_title: str,
    value_title: str,
) -> go.Figure:
    """(T, S) one head's position bias as added to the scores; a diverging scale centred on 0. The labels must be
    unique (they are the categories of the axes, which keeps the figure light: no per-cell hover text)."""
    T = bias.shape[0]
    lim = float(np.abs(bias).max()) or 1.0
    fig = go.Figure(
        go.Heatmap(
            z=bias,
            x=key_labels,
            y=query_labels,
            colorscale="RdBu",
            zmin=-lim,
            zmax=lim,
            hovertemplate="%{y} → %{x}<br>" + value_title + ": %{z:.3f}<extra></extra>",
            colorbar={"thickness": 12, "title": {"text": value_title, "side": "right"}},
        )
    )
    fig.update_xaxes(title=key_title, side="top", tickangle=-60, type="category")
    fig.update_yaxes(title=query_title, autorange="reversed", type="category")
    fig.update_layout(height=int(min(640, max(300, 14 * T + 180))), margin={"l": 10, "r": 10, "t": 90, "b": 10})
    return fig


@cached
def architecture_masks(
    masks: list[np.ndarray],
    labels: list[str],
    n_in: int,
    *,
    titles: list[str],
    kind_names: list[str],
    query_title: str,
    key_title: str,
) -> go.Figure:
    """The three structures' masks side by side over the same input then target tokens: blocked, causal,
    fully-visible and cross-attention cells in four colours; a line between input and target."""
    n = len(labels)
    fig = make_subplots(rows=1, cols=len(masks), subplot_titles=titles, horizontal_spacing=0.04)
    k = len(MASK_COLOURS)
    scale = [[v / k, c] for i, c in enumerate(MASK_COLOURS) for v in (i, i + 1)]
    for col, mask in enumerate(masks, start=1):
        fig.add_trace(
            go.Heatmap(
                z=mask.astype(np.uint8),  # one byte a cell: the figure stays light for long inputs
                x=labels,
                y=labels,
                zmin=-0.5,
                zmax=k - 0.5,
                colorscale=scale,
                showscale=False,
                hovertemplate="%{y} → %{x}<extra></extra>",
                xgap=1,
                ygap=1,
            ),
            row=1,
            col=col,
        )
        for x0, y0, x1, y1 in ((n_in - 0.5, -0.5, n_in - 0.5, n - 0.5), (-0.5, n_in - 0.5, n - 0.5, n_in - 0.5)):
            fig.add_shape(type="line", x0=x0, y0=y0, x1=x1, y1=y1, line={"color": "#222", "width": 1.5}, row=1, col=col)
        fig.update_xaxes(tickangle=-90, tickfont={"size": 9}, type="category", row=1, col=col)
        fig.update_yaxes(
            autorange="reversed",
            tickfont={"size": 9},
            type="category",
            row=1,
            col=col,
            scaleanchor=f"x{col}",
            showticklabels=col == 1,
        )
    fig.update_xaxes(title=key_title, row=1, col=2)
    fig.update_yaxes(title=query_title, row=1, col=1)
    for name, colour in zip(kind_names, MASK_COLOURS):  # the legend
        fig.add_trace(
            go.Scatter(
                x=[None],
                y=[None],
                mode="markers",
                name=name,
                marker={"color": colour, "size": 12, "symbol": "square", "line": {"color": "#999", "width": 1}},
            ),
            row=1,
            col=1,
        )
    fig.update_layout(
        height=int(min(560, max(380, 9 * n + 220))),
        margin={"l": 10, "r": 10, "t": 90, "b": 10},
        legend={"orientation": "h", "y": 1.08, "yanchor": "bottom", "x": 0},
        plot_bgcolor="white",
    )
    return fig
