"""Plotly layout shared by the pages' figure builders: one height, tight margins, and where the legend goes."""

from __future__ import annotations

import plotly.graph_objects as go

MARGIN = 10  # px on the left, right and bottom: the figures sit in columns, every pixel of width is the plot's
CHAR = 7  # px a character of a tick label takes, at most: what a fixed margin leaves per character of the longest


def fixed_margins(fig: go.Figure, **margin: int) -> go.Figure:
    """Margins set by the builder rather than measured by Plotly (the template's automargin), for a figure that a
    move redraws: the browser then lays it out once per move instead of twice. The builder leaves room for its tick
    labels and axis titles (``CHAR`` per character of the longest label); ``margin``: l, r, t, b in px."""
    fig.update_xaxes(automargin=False)
    fig.update_yaxes(automargin=False)
    fig.update_layout(margin=margin)
    return fig


def legend_above(fig: go.Figure, height: int, top: int = 10, *, right: bool = False) -> go.Figure:
    """Height, tight margins, and the legend in rows above the plot (from its left edge, or ending at its right edge
    with ``right``): beside the plot, it would squeeze a phone's plot."""
    anchor = {"x": 1, "xanchor": "right"} if right else {"x": 0, "xanchor": "left"}
    fig.update_layout(
        height=height,
        margin={"l": MARGIN, "r": MARGIN, "t": top, "b": MARGIN},
        legend={"font": {"size": 11}, "orientation": "h", "y": 1.02, "yanchor": "bottom", **anchor},
        hovermode="closest",
    )
    return fig


def legend_below(fig: go.Figure, height: int, top: int = 10, *, y: float = -0.15) -> go.Figure:
    """Height, tight margins, and the legend in a row under the plot, at ``y`` (in plot heights, below the x axis'
    title: lower for a short figure)."""
    fig.update_layout(
        height=height,
        margin={"l": MARGIN, "r": MARGIN, "t": top, "b": MARGIN},
        legend={"orientation": "h", "y": y, "x": 0},
    )
    return fig
