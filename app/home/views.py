"""Home's figure: every paper of the explorer on a timeline, one row per paper, the rows grouped by era."""

from __future__ import annotations

import plotly.graph_objects as go

from app.catalog import ERAS, PAPERS
from app.shared.figures import cached
from app.shared.i18n import translate

X_RANGE = (2016.9, 2025.4)
# Papers in the right half of the axis put their label to the left of their dot, the others to the right: the longest
# label ("CoT / GRPO / R1") spans about three years of a phone's axis (390 px wide), less than half the axis, so every
# label stays inside the plot.
LABEL_LEFT_AFTER = sum(X_RANGE) / 2
ROW_PX = 24  # height of one row: a 12-px label and air around it


def rows(papers) -> tuple[list[tuple[str, int]], list[tuple[object, int]]]:
    """The timeline's order: for each era a heading row, then one row per paper of that era, by year. Returns the
    (era, row) headings and the (paper, row) pairs. Each label has its row to itself, so labels never overprint,
    however narrow the screen: a lane shared by six papers within two years piled its labels up on a phone."""
    headings, placed, row = [], [], 0
    for era in ERAS:
        group = sorted((p for p in papers if p.era == era), key=lambda p: p.year)
        if not group:
            continue
        headings.append((era, row))
        placed += [(p, row + 1 + i) for i, p in enumerate(group)]
        row += 1 + len(group)
    return headings, placed


@cached
def timeline(lang: str, keys: tuple[str, ...]) -> go.Figure:
    """The timeline in ``lang`` of the papers ``keys`` (those with a page: all of them): a dot at each paper's year
    on its own row, labelled beside it; each era's rows on a band headed by the era's name."""
    headings, placed = rows([p for p in PAPERS if p.key in keys])
    n_rows = len(headings) + len(placed)
    ends = [h for _, h in headings[1:]] + [n_rows]
    fig = go.Figure(
        go.Scatter(
            x=[p.year for p, _ in placed],
            y=[r for _, r in placed],
            mode="markers+text",
            text=[p.short for p, _ in placed],
            textposition=["middle left" if p.year > LABEL_LEFT_AFTER else "middle right" for p, _ in placed],
            textfont={"size": 12},
            customdata=[[translate(f"paper.{p.key}.title", lang), ", ".join(p.arxiv)] for p, _ in placed],
            hovertemplate="%{customdata[0]}<br>arXiv %{customdata[1]}<extra></extra>",
            marker={"size": 12, "line": {"width": 1.5}, "color": "#1f77b4"},
            showlegend=False,
        )
    )
    for i, ((era, start), end) in enumerate(zip(headings, ends)):
        fig.add_shape(
            type="rect",
            xref="paper",
            x0=0,
            x1=1,
            y0=start - 0.5,
            y1=end - 0.5,
            fillcolor="rgba(128,128,128,0.10)" if i % 2 == 0 else "rgba(128,128,128,0.03)",
            line={"width": 0},
            layer="below",
        )
        fig.add_annotation(
            text=f"<b>{translate(f'era.{era}', lang)}</b>",
            xref="paper",
            x=0,
            xanchor="left",
            y=start,
            showarrow=False,
            font={"size": 12},
            opacity=0.75,
        )
    fig.update_yaxes(range=[n_rows - 0.5, -0.5], visible=False, fixedrange=True)
    fig.update_xaxes(title=translate("home.year", lang), range=list(X_RANGE), dtick=1, showgrid=True)
    fig.update_layout(height=ROW_PX * n_rows + 70, margin={"l": 10, "r": 10, "t": 10, "b": 10})
    return fig
