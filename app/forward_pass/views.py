"""Figures of the forward-pass page: vectors as strips, a matrix times a vector, one head's scores and weights, the
MLP's pre-activations, the residual stream over layers, the top tokens and the direct logit attribution.
Pure functions: numpy and translated labels in, Plotly figures out.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app.shared.figures import cached
from app.shared.tokens import visible

BLUE, GREY, RED, GREEN = "#1f77b4", "#9aa5b1", "#d62728", "#2ca02c"
MARGIN = {"l": 10, "r": 20, "t": 30, "b": 40}


@cached
def vectors(
    rows: np.ndarray,
    labels: list[str],
    *,
    dim_title: str,
    head_size: int = 0,
    head: int = -1,
    box_rows: int = 0,
    height: int = 0,
) -> go.Figure:
    """Vectors (n, C) as rows of one heatmap (diverging, centred at 0); with ``head_size``, lines between heads and
    a box around ``head`` over the first ``box_rows`` rows (0: all). The colour range stops at the 99th percentile of
    |value|, so one outlier dimension (the stream has a few) does not wash out the rest; hover shows every value."""
    rows = np.asarray(rows, dtype=float)
    zmax = float(np.percentile(np.abs(rows), 99)) or 1.0
    fig = go.Figure(
        go.Heatmap(
            z=rows,
            y=labels,
            colorscale="RdBu",
            zmid=0,
            zmin=-zmax,
            zmax=zmax,
            hovertemplate="%{y} [%{x}] = %{z:.4f}<extra></extra>",
            colorbar={"thickness": 12},
        )
    )
    n, C = rows.shape
    if head_size:
        for x in range(head_size, C, head_size):
            fig.add_vline(x=x - 0.5, line_color="black", line_width=1)
        if head >= 0:
            fig.add_shape(
                type="rect",
                x0=head * head_size - 0.5,
                x1=(head + 1) * head_size - 0.5,
                y0=-0.5,
                y1=(box_rows or n) - 0.5,
                line={"color": GREEN, "width": 3},
            )
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(title=dim_title)
    fig.update_layout(height=height or int(90 + 34 * n), margin=MARGIN)
    return fig


@cached
def layer_norm_lines(
    x: np.ndarray, hat: np.ndarray, out: np.ndarray, *, names: tuple[str, str, str], dim_title: str
) -> go.Figure:
    """The stream before LayerNorm, normalised (mean 0, variance 1), and after γ, β, one point per dimension."""
    fig = make_subplots(rows=3, cols=1, shared_xaxes=True, vertical_spacing=0.06, subplot_titles=names)
    for i, (y, colour) in enumerate(((x, GREY), (hat, BLUE), (out, GREEN))):
        fig.add_bar(y=y, marker_color=colour, row=i + 1, col=1, showlegend=False, hovertemplate="[%{x}] %{y:.4f}")
    fig.update_xaxes(title=dim_title, row=3, col=1)
    fig.update_layout(height=420, margin=MARGIN, bargap=0)
    return fig


@cached
def matrix_times_vector(
    w: np.ndarray, x: np.ndarray, y: np.ndarray, *, titles: tuple[str, str, str], dim_title: str
) -> go.Figure:
    """y = W x: the matrix (D, C) as a heatmap, the input x (C) as a strip under it, the output y (D) on its right."""
    fig = make_subplots(
        rows=2,
        cols=2,
        column_widths=[0.92, 0.08],
        row_heights=[0.85, 0.15],
        horizontal_spacing=0.03,
        vertical_spacing=0.08,
        subplot_titles=(titles[0], titles[2], titles[1], ""),
    )
    wmax = float(np.abs(w).max()) or 1.0
    fig.add_heatmap(
        z=w, colorscale="RdBu", zmid=0, zmin=-wmax, zmax=wmax, showscale=False, row=1, col=1,
        hovertemplate="W[%{y}, %{x}] = %{z:.4f}<extra></extra>",
    )  # fmt: skip
    xmax = float(np.abs(x).max()) or 1.0
    fig.add_heatmap(
        z=x[None], colorscale="RdBu", zmid=0, zmin=-xmax, zmax=xmax, showscale=False, row=2, col=1,
        hovertemplate="x[%{x}] = %{z:.4f}<extra></extra>",
    )  # fmt: skip
    ymax = float(np.abs(y).max()) or 1.0
    fig.add_heatmap(
        z=y[:, None], colorscale="RdBu", zmid=0, zmin=-ymax, zmax=ymax, showscale=False, row=1, col=2,
        hovertemplate="y[%{y}] = %{z:.4f}<extra></extra>",
    )  # fmt: skip
    fig.update_yaxes(autorange="reversed")
    fig.update_yaxes(showticklabels=False, row=2, col=1)
    fig.update_xaxes(showticklabels=False, row=1, col=1)
    fig.update_xaxes(showticklabels=False, row=1, col=2)
    fig.update_xaxes(title=dim_title, row=2, col=1)
    fig.update_yaxes(showticklabels=False, row=1, col=2)
    fig.update_layout(height=430, margin=MARGIN)
    return fig


@cached
def attention_steps(
    pieces: list[str],
    scaled: np.ndarray,
    weights: np.ndarray,
    pattern: np.ndarray,
    *,
    titles: tuple[str, str],
    probe_name: str,
    masked_name: str,
    key_title: str,
) -> go.Figure:
    """Top: q·k ÷ √D for every key (masked keys marked); bottom: the softmax weights, with the model's probe."""
    labels = [f"{j}: {visible(p)}" for j, p in enumerate(pieces)]
    masked = np.isnan(scaled)
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.1, subplot_titles=titles)
    fig.add_bar(
        x=labels, y=np.where(masked, 0, scaled), marker_color=BLUE, row=1, col=1, showlegend=False,
        hovertemplate="%{x}: %{y:.4f}<extra></extra>",
    )  # fmt: skip
    if masked.any():
        fig.add_scatter(
            x=[labels[j] for j in np.flatnonzero(masked)], y=np.zeros(int(masked.sum())), mode="markers",
            marker={"symbol": "x", "color": RED, "size": 8}, name=masked_name, row=1, col=1,
        )  # fmt: skip
    fig.add_bar(
        x=labels, y=weights, marker_color=GREEN, row=2, col=1, showlegend=False,
        hovertemplate="%{x}: %{y:.4f}<extra></extra>",
    )  # fmt: skip
    fig.add_scatter(
        x=labels, y=pattern, mode="markers", marker={"symbol": "line-ew-open", "size": 14, "color": "black"},
        name=probe_name, row=2, col=1,
    )  # fmt: skip
    fig.update_xaxes(type="category", tickangle=-60, title=key_title, row=2, col=1)
    fig.update_layout(height=460, margin=MARGIN, legend={"orientation": "h", "y": 1.12, "x": 1, "xanchor": "right"})
    return fig


@cached
def gelu_histogram(
    pre: np.ndarray, *, count_title: str, gelu_name: str, value_title: str, silu: bool = False
) -> go.Figure:
    """Histogram of the MLP's pre-activations, with the GELU curve (``silu``: SiLU, x·σ(x), a SwiGLU's gate) over
    the same range."""
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    fig.add_histogram(x=pre, nbinsx=60, marker_color=BLUE, name=count_title, secondary_y=False)
    grid = np.linspace(float(pre.min()), float(pre.max()), 200)
    if silu:
        curve = grid / (1 + np.exp(-grid))
    else:
        curve = 0.5 * grid * (1 + np.vectorize(math.erf)(grid / math.sqrt(2)))
    fig.add_scatter(x=grid, y=curve, mode="lines", line={"color": RED}, name=gelu_name, secondary_y=True)
    fig.update_xaxes(title=value_title)
    fig.update_yaxes(title=count_title, secondary_y=False)
    fig.update_yaxes(title=gelu_name, secondary_y=True, showgrid=False)
    fig.update_layout(height=340, margin=MARGIN, legend={"orientation": "h", "y": 1.15, "x": 1, "xanchor": "right"})
    return fig


@cached
def stream_norms(
    labels: list[str], stream: np.ndarray, writes: np.ndarray, selected: list[int], *, stream_name: str, write_name: str
) -> go.Figure:
    """Bars: the norm of what each step writes; line: the norm of the residual stream after it. The chosen layer's
    steps in a darker colour."""
    colours = [BLUE if i in selected else GREY for i in range(len(labels))]
    fig = go.Figure()
    fig.add_bar(x=labels, y=writes, marker_color=colours, name=write_name, hovertemplate="%{x}: %{y:.2f}")
    fig.add_scatter(x=labels, y=stream, mode="lines+markers", line={"color": RED}, name=stream_name)
    fig.update_xaxes(type="category")
    fig.update_yaxes(title="‖·‖₂", rangemode="tozero")
    fig.update_layout(height=330, margin=MARGIN, legend={"orientation": "h", "y": 1.12, "x": 1, "xanchor": "right"})
    return fig


@cached
def top_tokens(pieces: list[str], probs: np.ndarray, *, value_title: str) -> go.Figure:
    labels = [f"{i + 1}. {visible(p)}" for i, p in enumerate(pieces)]
    fig = go.Figure(
        go.Bar(
            x=probs, y=labels, orientation="h", marker_color=BLUE, text=[f"{p:.1%}" for p in probs],
            textposition="outside", cliponaxis=False, hovertemplate="%{y}: %{x:.4f}<extra></extra>",
        )
    )  # fmt: skip
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(title=value_title, range=[0, max(0.05, float(probs.max()) * 1.25)])
    fig.update_layout(height=int(90 + 24 * len(labels)), margin=MARGIN)
    return fig


@cached
def attribution_waterfall(
    labels: list[str], contributions: np.ndarray, bias: float, *, bias_name: str, total_name: str, value_title: str
) -> go.Figure:
    """Each part's contribution to the predicted token's logit, stacked one after the other up to the logit."""
    x = [*labels, bias_name, total_name]
    y = [*map(float, contributions), float(bias), 0.0]
    fig = go.Figure(
        go.Waterfall(
            x=x,
            y=y,
            measure=["relative"] * (len(x) - 1) + ["total"],
            increasing={"marker": {"color": GREEN}},
            decreasing={"marker": {"color": RED}},
            totals={"marker": {"color": BLUE}},
            connector={"line": {"color": GREY, "width": 1}},
            hovertemplate="%{x}: %{y:+.3f}<extra></extra>",
        )
    )
    fig.update_xaxes(type="category", tickangle=-60)
    fig.update_yaxes(title=value_title)
    fig.update_layout(height=420, margin=MARGIN, showlegend=False)
    return fig
