"""Figures of the Mamba page: time × channel maps (Δ, Ā), per-token B and C, ‖h_t‖ over time, Mamba vs LTI Δ per
token, and decoding cost against position. Pure functions: numpy in, Plotly figure out."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from app.shared.figures import cached
from app.shared.heatmaps import ticks
from app.shared.images import image_map
from app.shared.plots import CHAR, fixed_margins

MAMBA_COLOUR, LTI_COLOUR, GPT_COLOUR = "#d62728", "#1f77b4", "#7f7f7f"
MAX_TICKS = 72  # position labels on a time axis


@cached
def time_map(
    values: np.ndarray,
    labels: list[str],
    *,
    row_title: str,
    value_title: str,
    title: str = "",
    colorscale: str = "Viridis",
    zmin: float | None = None,
    zmax: float | None = None,
    height: int = 340,
    max_ticks: int = MAX_TICKS,
) -> go.Figure:
    """(rows, l) values with time across and rows (channels or state entries) down, one light heatmap trace."""
    values = np.asarray(values, dtype=float)
    rows, l = values.shape
    # Drawn as an image: a page shows several of these maps, and a heatmap trace each made a slider change take ~1 s.
    fig = image_map(
        values,
        colorscale=colorscale,
        zmin=zmin,
        zmax=zmax,
        value_title=value_title,
        hover="t=%{x}, " + row_title + " %{y}",
    )
    longest = max((len(str(x)) for x in labels), default=1)
    wide = longest > 2  # words, not single letters: slant them
    # Margins set here rather than measured by Plotly (the template's automargin), so that a layer move lays the map
    # out once: room on the left for the row numbers and title, under it for the (slanted) token labels.
    fig.update_xaxes(**ticks(labels, max_ticks=max_ticks), tickangle=-60 if wide else 0)
    fig.update_yaxes(title=row_title, autorange="reversed")
    fig.update_layout(title=title or None, height=height)
    bottom = 24 + round(0.87 * CHAR * longest) if wide else 28
    return fixed_margins(fig, l=60, r=10, t=40 if title else 10, b=bottom)


@cached
def per_token_lines(
    series: dict[str, np.ndarray],
    labels: list[str],
    *,
    value_title: str,
    marks: np.ndarray | None = None,
    mark_title: str = "",
    colours: dict[str, str] | None = None,
    log: bool = False,
    height: int = 300,
) -> go.Figure:
    """One line per named series over the positions; ``marks`` (bool, l) shades the positions that matter."""
    fig = go.Figure()
    l = len(labels)
    if marks is not None:
        for t in np.flatnonzero(marks):
            fig.add_vrect(x0=t - 0.5, x1=t + 0.5, fillcolor="#ffd54f", opacity=0.35, line_width=0)
        fig.add_trace(
            go.Scatter(
                x=[None],
                y=[None],
                mode="markers",
                name=mark_title,
                marker={"symbol": "square", "size": 12, "color": "#ffd54f"},
            )
        )
    for name, values in series.items():
        colour = (colours or {}).get(name)
        fig.add_trace(
            go.Scatter(
                x=np.arange(l),
                y=np.asarray(values, dtype=float),
                mode="lines+markers",
                name=name,
                line={"color": colour, "width": 2},
                marker={"size": 4},
                customdata=labels,
                hovertemplate="%{customdata} (t=%{x}): %{y:.4g}",
            )
        )
    fig.update_xaxes(**ticks(labels, max_ticks=MAX_TICKS))
    fig.update_yaxes(title=value_title, type="log" if log else "linear")
    fig.update_layout(
        height=height, margin={"l": 10, "r": 10, "t": 10, "b": 10}, legend={"orientation": "h", "y": 1.12}
    )
    return fig


@cached
def decode_costs(
    position: np.ndarray,
    series: dict[str, np.ndarray],
    *,
    x_title: str,
    y_title: str,
    colours: dict[str, str],
    smooth: int = 1,
    height: int = 300,
) -> go.Figure:
    """Cost per generated token against the position: one line per model (a running median when ``smooth`` > 1)."""
    fig = go.Figure()
    for name, values in series.items():
        v = np.asarray(values, dtype=float)
        if smooth > 1:
            pad = np.pad(v, (smooth // 2, smooth - 1 - smooth // 2), mode="edge")
            v = np.median(np.lib.stride_tricks.sliding_window_view(pad, smooth), axis=1)
        fig.add_trace(
            go.Scatter(
                x=position,
                y=v,
                mode="lines",
                name=name,
                line={"color": colours.get(name), "width": 2},
                hovertemplate="%{x}: %{y:.4g}<extra>" + name + "</extra>",
            )
        )
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title, rangemode="tozero")
    fig.update_layout(
        height=height, margin={"l": 10, "r": 10, "t": 10, "b": 10}, legend={"orientation": "h", "y": 1.15}
    )
    return fig
