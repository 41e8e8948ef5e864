"""Plotly layout shared by the pages' figure builders."""

from __future__ import annotations

import plotly.graph_objects as go


def legend_above(fig: go.Figure, height: int, top: int = 10) -> go.Figure:
    """Height, tight margins, and the legend in rows above the plot: beside it, it would squeeze a phone's plot."""
    fig.update_layout(
        height=height,
        margin={"l": 10, "r": 10, "t": top, "b": 10},
        legend={"font": {"size": 11}, "orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0, "xanchor": "left"},
        hovermode="closest",
    )
    return fig
