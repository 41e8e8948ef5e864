"""Home's figure: every paper of the explorer on a timeline, one lane per era."""

from __future__ import annotations

import plotly.graph_objects as go

from app.catalog import ERAS, PAPERS
from app.shared.figures import cached
from app.shared.i18n import translate

lanes = {era: i for i, era in enumerate(ERAS)}
_rank = {
    p.key: i for era in ERAS for i, p in enumerate(sorted((q for q in PAPERS if q.era == era), key=lambda q: q.year))
}


def _label(text: str, rank: int) -> str:
    """The label of the rank-th paper of its lane: above and below in turn, and 0, 1 or 2 lines further out on
    successive turns of its side, so six neighbours in time (the foundations on a phone) never overprint."""
    pad = "<br> " * ((rank // 2) % 3)
    return f"{text}{pad}" if rank % 2 == 0 else f"{pad.replace('<br> ', ' <br>')}{text}"


def _position(p) -> str:
    """Above or below the lane in turn; papers near the right edge put their label to the left of the marker, so a
    narrow screen (a phone) does not cut it off."""
    side = "top" if _rank[p.key] % 2 == 0 else "bottom"
    return f"{side} left" if p.year > RIGHT_EDGE else f"{side} center"


RIGHT_EDGE = 2024.5  # papers after this are labelled to the left of their marker


@cached
def timeline(lang: str, keys: tuple[str, ...]) -> go.Figure:
    """The timeline in ``lang`` of the papers ``keys`` (those with a page: all of them)."""
    group = [p for p in PAPERS if p.key in keys]
    fig = go.Figure(
        go.Scatter(
            x=[p.year for p in group],
            y=[lanes[p.era] for p in group],
            mode="markers+text",
            # Labels go above and below the lane in turn, and every second one on each side a line further out, so
            # six neighbours in time never overprint each other (Forward pass and Transformer-XL did).
            text=[_label(p.short, _rank[p.key]) for p in group],
            textposition=[_position(p) for p in group],
            textfont={"size": 12},
            cliponaxis=False,  # labels a line further out may leave the plotting area
            customdata=[[translate(f"paper.{p.key}.title", lang), ", ".join(p.arxiv)] for p in group],
            hovertemplate="%{customdata[0]}<br>arXiv %{customdata[1]}<extra></extra>",
            marker={"size": 14, "line": {"width": 2}, "color": "#1f77b4"},
            showlegend=False,
        )
    )
    fig.update_yaxes(
        tickmode="array",
        tickvals=list(lanes.values()),
        ticktext=[translate(f"era.{e}", lang) for e in ERAS],
        range=[-0.8, len(ERAS) - 0.2],
        autorange="reversed",
    )
    fig.update_xaxes(title=translate("home.year", lang), range=[2016.9, 2025.4], dtick=1)
    fig.update_layout(height=500, margin={"l": 10, "r": 10, "t": 45, "b": 10})
    return fig
