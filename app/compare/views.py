"""The Compare page's figure: bits per character along the text, one line per model."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from app.shared.figures import cached
from app.shared.plots import legend_above

COLOURS = ("#1f77b4", "#d62728", "#2ca02c")


@cached
def bits_chart(
    names: tuple[str, ...],
    curves: tuple[np.ndarray, ...],
    text: str,
    *,
    x_title: str,
    y_title: str,
    mark: int | None = None,
) -> go.Figure:
    """One line per model over the character positions of ``text`` (hover: the character); ``mark``: a dotted
    line at the picked position."""
    shown = tuple("⏎" if c == "\n" else c for c in text)
    fig = go.Figure()
    for i, (name, y) in enumerate(zip(names, curves, strict=True)):
        fig.add_trace(
            go.Scatter(
                x=np.arange(len(y)),
                y=np.asarray(y, dtype=float),
                mode="lines",
                name=name,
                line={"width": 1.6, "color": COLOURS[i % len(COLOURS)]},
                customdata=shown,
                hovertemplate="%{x} · %{customdata}<br>%{y:.2f} bits<extra>" + name + "</extra>",
            )
        )
    if mark is not None:
        fig.add_vline(x=mark, line={"dash": "dot", "width": 1, "color": "#888"})
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title, rangemode="tozero")
    return legend_above(fig, 320)
