"""Home: every paper of the explorer on a timeline, and a card linking each paper's page, numbered and ordered as
"start here" suggests (within each era)."""

import streamlit as st

from app.catalog import ERAS, available_papers, era_papers, start_here
from app.home.views import timeline
from app.lessons import hooks as lessons
from app.lessons import paths as lesson_paths
from app.lessons import progress as lesson_progress
from app.shared import ui
from app.shared.i18n import current_lang, t, table

st.title(t("home.title"))
st.markdown(t("home.intro"))
lessons.home()  # the reader's progress through the lesson paths, when they have begun one
if not lesson_progress.any_progress():  # a newcomer: the paths, each started from here, before the page's length
    st.subheader(t("home.paths.title"))
    st.caption(t("home.paths.caption"))
    for col, (key, stops) in zip(st.columns(len(lesson_paths.PATHS)), lesson_paths.PATHS.items()):
        with col.container(border=True):
            st.markdown(f"**{t(f'lessons.path.{key}.title')}**")
            lesson_paths.link(stops[0], t("home.paths.start", n=len(stops)), host=st)
    st.page_link("lessons/page.py", label=t("home.paths.all"), icon=":material/school:")

available = available_papers()  # every paper of the catalog has its page (tests/app/test_home.py)
st.metric(t("home.available"), len(available))

st.subheader(t("home.start"))
st.caption(t("home.start.caption"))
path = start_here()
for row in range(0, len(path), 4):  # one row of columns per four links, so a phone's stacked columns keep the order
    for col, (i, p) in zip(st.columns(4), enumerate(path[row : row + 4], start=row)):
        short = t(f"home.short.{p.key}") if f"home.short.{p.key}" in table() else p.short  # a name, or words
        col.page_link(p.script, label=f"{i + 1} · {short}", icon=p.icon, help=t(f"paper.{p.key}.title"))

st.subheader(t("home.timeline"))
ui.plot(timeline(current_lang(), tuple(p.key for p in available)), key="home_timeline")
st.caption(t("home.timeline.caption"))


def _card(p, number: int, column) -> None:
    with column.container(border=True):
        st.markdown(f"**{number} · {t(f'paper.{p.key}.title')}**")
        st.caption(t(f"paper.{p.key}.probe") + "  \n" + " · ".join(f"arXiv:{a}" for a in p.arxiv))
        st.page_link(p.script, label=t("home.open"), icon=p.icon)


rank = {p.key: i + 1 for i, p in enumerate(path)}  # a card carries its number in "start here"
for era in ERAS:
    papers = era_papers(era)  # the sidebar's order too
    if not papers:
        continue
    st.subheader(t(f"era.{era}"))
    for row in range(0, len(papers), 3):  # one row of columns per three cards, so a phone's stacked columns keep
        for p, col in zip(papers[row : row + 3], st.columns(3)):  # the numbered order (column by column did not)
            _card(p, rank.get(p.key, 0), col)

st.info(t("home.how"), icon=":material/info:")
