"""Figures of the BERT page: the top-k fill-ins of each masked position, and the three embeddings that are summed."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app.shared.figures import cached
from app.shared.formats import percent
from app.shared.plots import CHAR, fixed_margins
from app.shared.tokens import visible

BAR = "#1f77b4"
ORIGINAL = "#2ca02c"
PER_ROW = 4  # masked positions side by side
# Colours of what the recipe did to a position: not chosen, [MASK], random token, unchanged (for token_strip).
ACTION_COLOURS = ["#eeeeee", "#d62728", "#ff7f0e", "#2ca02c"]


@cached
def prediction_bars(
    titles: list[str],
    pieces: list[list[str]],
    probs: np.ndarray,
    originals: list[str | None],
    *,
    value_title: str = "probability",
) -> go.Figure:
    """One small horizontal bar chart per masked position (M, K), best guess on top; a bar is green when it is the
    token that was there before masking."""
    M, K = probs.shape
    cols = min(PER_ROW, max(1, M))
    rows = int(np.ceil(M / cols)) if M else 1
    fig = make_subplots(
        rows=rows,
        cols=cols,
        subplot_titles=titles,
        horizontal_spacing=0.12,
        vertical_spacing=0.5 / rows if rows > 1 else 0.1,
    )
    top = float(probs.max()) if probs.size else 1.0
    for m in range(M):
        labels = [f"{k + 1}. {visible(p)}" for k, p in enumerate(pieces[m])]
        colours = [ORIGINAL if p == originals[m] else BAR for p in pieces[m]]
        fig.add_trace(
            go.Bar(
                x=probs[m],
                y=labels,
                orientation="h",
                marker_color=colours,
                showlegend=False,
                text=[percent(p, 0) for p in probs[m]],
                textposition="outside",
                cliponaxis=False,
                hovertemplate="%{y}: %{x:.4f}<extra></extra>",
            ),
            row=m // cols + 1,
            col=m % cols + 1,
        )
    # Margins set here rather than measured by Plotly (the template's automargin), so that a click lays the figure
    # out once: room on the left for the first column's labels ("1. piece"), under it for the ticks and the title.
    longest = max((len(f"{K}. {visible(p)}") for row in pieces[::cols] for p in row), default=1)
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(range=[0, min(1.0, top * 1.35) if top > 0 else 1], tickformat=".0%")
    fig.update_xaxes(title=value_title, row=rows)
    fig.update_annotations(font_size=13)
    fig.update_layout(height=int(70 + rows * (40 + 22 * K)), bargap=0.25)
    return fixed_margins(fig, l=14 + round(CHAR * longest), r=20, t=40, b=48)


@cached
def embedding_panels(
    panels: list[np.ndarray],
    titles: list[str],
    labels: list[str],
    *,
    dim_title: str = "dimension",
    value_title: str = "value",
) -> go.Figure:
    """Side-by-side (T, C) heatmaps on one colour scale: each row a token, each column a dimension. Meant for the
    token, segment and position embeddings and their sum."""
    lim = float(max(np.abs(p).max() for p in panels)) or 1.0
    fig = make_subplots(rows=1, cols=len(panels), subplot_titles=titles, shared_yaxes=True, horizontal_spacing=0.02)
    rows = [f"{i}: {visible(t)}" for i, t in enumerate(labels)]
    for j, values in enumerate(panels):
        fig.add_trace(
            go.Heatmap(
                z=values,
                y=list(range(len(rows))),
                colorscale="RdBu",
                zmid=0,
                zmin=-lim,
                zmax=lim,
                customdata=np.array(rows)[:, None].repeat(values.shape[1], 1),
                showscale=j == len(panels) - 1,
                colorbar={"thickness": 12, "title": {"text": value_title, "side": "right"}},
                hovertemplate="%{customdata} · " + dim_title + " %{x}: %{z:.3f}<extra></extra>",
            ),
            row=1,
            col=j + 1,
        )
        fig.update_xaxes(title=dim_title, row=1, col=j + 1)
    step = max(1, int(np.ceil(len(rows) / 40)))
    fig.update_yaxes(
        tickmode="array",
        tickvals=list(range(0, len(rows), step)),
        ticktext=rows[::step],
        autorange="reversed",
        row=1,
        col=1,
    )
    fig.update_annotations(font_size=13)
    fig.update_layout(height=int(min(760, max(300, 16 * len(rows) + 140))), margin={"l": 10, "r": 10, "t": 40, "b": 40})
    return fig
