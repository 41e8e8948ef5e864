"""Home: every paper of the explorer on a timeline, with links to the pages that exist."""

import plotly.graph_objects as go
import streamlit as st

from app.catalog import ERAS, PAPERS, start_here
from app.shared import ui
from app.shared.i18n import t

st.title(t("home.title"))
st.markdown(t("home.intro"))

available = [p for p in PAPERS if p.available]
c1, c2 = st.columns(2)
c1.metric(t("home.available"), len(available))
c2.metric(t("home.planned"), len(PAPERS))

st.subheader(t("home.start"))
st.caption(t("home.start.caption"))
path = start_here()
for row in range(0, len(path), 4):  # one row of columns per four links, so a phone's stacked columns keep the order
    for col, (i, p) in zip(st.columns(4), enumerate(path[row : row + 4], start=row)):
        col.page_link(p.script, label=f"{i + 1} · {p.short}", icon=p.icon, help=t(f"paper.{p.key}.title"))

st.subheader(t("home.timeline"))
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

fig = go.Figure()
for is_available in (True, False):
    group = [p for p in PAPERS if p.available == is_available]
    if not group:
        continue
    fig.add_trace(
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
            customdata=[[t(f"paper.{p.key}.title"), ", ".join(p.arxiv)] for p in group],
            hovertemplate="%{customdata[0]}<br>arXiv %{customdata[1]}<extra></extra>",
            marker={
                "size": 14,
                "symbol": "circle" if is_available else "circle-open",
                "line": {"width": 2},
                "color": "#1f77b4" if is_available else "#999",
            },
            name=t("home.has_page") if is_available else t("home.soon"),
        )
    )
fig.update_yaxes(
    tickmode="array",
    tickvals=list(lanes.values()),
    ticktext=[t(f"era.{e}") for e in ERAS],
    range=[-0.8, len(ERAS) - 0.2],
    autorange="reversed",
)
fig.update_xaxes(title=t("home.year"), range=[2016.9, 2025.4], dtick=1)
fig.update_layout(height=500, margin={"l": 10, "r": 10, "t": 45, "b": 10}, legend={"orientation": "h", "y": -0.18})
ui.plot(fig, key="home_timeline")
st.caption(t("home.timeline.caption"))


def _card(p, column) -> None:
    with column.container(border=True):
        st.markdown(f"**{t(f'paper.{p.key}.title')}**")
        st.caption(t(f"paper.{p.key}.probe") + "  \n" + " · ".join(f"arXiv:{a}" for a in p.arxiv))
        if p.available:
            st.page_link(p.script, label=t("home.open"), icon=p.icon)
        else:
            st.caption(":material/schedule: " + t("home.soon"))


for era in ERAS:
    papers = sorted((p for p in PAPERS if p.era == era and p.available), key=lambda p: p.year)
    if not papers:
        continue
    st.subheader(t(f"era.{era}"))
    cols = st.columns(3)
    for i, p in enumerate(papers):
        _card(p, cols[i % 3])

planned = sorted((p for p in PAPERS if not p.available), key=lambda p: p.year)
if planned:
    st.subheader(t("home.planned.title"))
    st.caption(t("home.planned.caption"))
    cols = st.columns(3)
    for i, p in enumerate(planned):
        _card(p, cols[i % 3])

st.info(t("home.how"), icon=":material/info:")
