"""Home: every paper of the explorer on a timeline, and a card linking each paper's page, numbered and ordered as
"start here" suggests (within each era)."""

import streamlit as st

from app.catalog import ERAS, available_papers, start_here
from app.home.views import timeline
from app.lessons import hooks as lessons
from app.shared import ui
from app.shared.i18n import current_lang, t

st.title(t("home.title"))
st.markdown(t("home.intro"))
lessons.home()  # the reader's progress through the lesson paths, when they have begun one

available = available_papers()  # every paper of the catalog has its page (tests/app/test_home.py)
st.metric(t("home.available"), len(available))

st.subheader(t("home.start"))
st.caption(t("home.start.caption"))
path = start_here()
for row in range(0, len(path), 4):  # one row of columns per four links, so a phone's stacked columns keep the order
    for col, (i, p) in zip(st.columns(4), enumerate(path[row : row + 4], start=row)):
        col.page_link(p.script, label=f"{i + 1} · {p.short}", icon=p.icon, help=t(f"paper.{p.key}.title"))

st.subheader(t("home.timeline"))
ui.plot(timeline(current_lang(), tuple(p.key for p in available)), key="home_timeline")
st.caption(t("home.timeline.caption"))


def _card(p, number: int, column) -> None:
    with column.container(border=True):
        st.markdown(f"**{number} · {t(f'paper.{p.key}.title')}**")
        st.caption(t(f"paper.{p.key}.probe") + "  \n" + " · ".join(f"arXiv:{a}" for a in p.arxiv))
        st.page_link(p.script, label=t("home.open"), icon=p.icon)


rank = {p.key: i + 1 for i, p in enumerate(path)}  # a card carries its number in "start here", and is placed by it
for era in ERAS:
    papers = sorted((p for p in available if p.era == era), key=lambda p: (rank.get(p.key, len(rank) + 1), p.year))
    if not papers:
        continue
    st.subheader(t(f"era.{era}"))
    for row in range(0, len(papers), 3):  # one row of columns per three cards, so a phone's stacked columns keep
        for p, col in zip(papers[row : row + 3], st.columns(3)):  # the numbered order (column by column did not)
            _card(p, rank.get(p.key, 0), col)

st.info(t("home.how"), icon=":material/info:")
