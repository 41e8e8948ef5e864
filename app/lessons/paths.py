"""The lesson paths (``assets/lessons.json``): stops in the catalog's reading order (a tool beside the page it
reads), each a page opened in a prepared state (its query parameters) with a task. The banner a stop shows at the
top of its page, drawn by the shell before the page runs. No model here: the shell imports this on every run."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from app.catalog import PAPERS, TOOLS
from app.lessons import progress
from app.shared import assets, html, ui
from app.shared.i18n import current_lang, t

LESSON, STOP = "lesson", "stop"  # the query parameters of a stop: path key, stop number from 1


@dataclass(frozen=True)
class Stop:
    path: str
    number: int  # from 1
    page: str  # url_path
    params: tuple[tuple[str, str], ...]  # the page's prepared state
    task: str  # i18n: lessons.task.<path>.<task>

    @property
    def script(self) -> str:
        return f"{self.page.replace('-', '_')}/page.py"

    @property
    def title_key(self) -> str:
        """The i18n key of the stop's page title: its paper's, or a tool's (the feature microscope)."""
        paper = next((p.key for p in PAPERS if p.page == self.page), None)
        if paper is not None:
            return f"paper.{paper}.title"
        return f"tool.{next(x.key for x in TOOLS if x.page == self.page)}.title"

    def query(self, lang: str) -> dict[str, str]:
        """What a link to this stop carries: the prepared state, the stop, and the reader's language."""
        q = {**dict(self.params), LESSON: self.path, STOP: str(self.number)}
        if lang != "en":
            q["lang"] = lang
        return q


def _load() -> dict[str, tuple[Stop, ...]]:
    out = {}
    for row in assets.data("lessons.json")["paths"]:
        out[row["key"]] = tuple(
            Stop(row["key"], i, s["page"], tuple((k, str(v)) for k, v in s["params"].items()), s["task"])
            for i, s in enumerate(row["stops"], start=1)
        )
    return out


PATHS: dict[str, tuple[Stop, ...]] = _load()


def current() -> Stop | None:
    """The stop this page was opened at (``?lesson=<path>&stop=<n>``), when it is one of this page's stops."""
    stops = PATHS.get(st.query_params.get(LESSON, ""), ())
    number = st.query_params.get(STOP, "")
    if not number.isdigit() or not 1 <= int(number) <= len(stops):
        return None
    return stops[int(number) - 1]


def link(stop: Stop, label: str, host=st) -> None:
    host.page_link(stop.script, label=label, query_params=stop.query(current_lang()))


def banner(page: str, presenting: bool) -> Stop | None:
    """At the top of a page opened at a stop of a path: the path, where in it, the task, and links to the stops
    before and after (each opens its page in its prepared state). Marks the stop seen."""
    stop = current()
    if stop is None or stop.page != page:
        return None
    stops = PATHS[stop.path]
    progress.see(stop.path, stop.number)
    task = t(f"lessons.task.{stop.path}.{stop.task}")
    with st.container(border=True, key="te_lesson_banner"):
        # markdown, not a caption: presenter mode hides captions, and the room should see where the lesson is
        st.markdown(
            f"**{t(f'lessons.path.{stop.path}.title')}** · {t('lessons.stop_of', n=stop.number, total=len(stops))}"
        )
        if presenting:  # a projector: the task large, the rest of the page as presenter mode shows it
            ui.markup(f'<div style="font-size:1.6rem;line-height:1.35">{html.esc(task)}</div>')
        else:
            st.markdown(task)
        with ui.row(vertical_alignment="center"):
            if stop.number > 1:
                link(stops[stop.number - 2], t("lessons.previous"))
            if stop.number < len(stops):
                link(stops[stop.number], t("lessons.next"))
            else:
                st.page_link("lessons/page.py", label=t("lessons.done"), icon=":material/flag:")
    progress.sync()
    return stop


def next_stop(path: str) -> Stop:
    """Where to go on: the first stop not seen yet (the first stop when all are)."""
    seen = set(progress.state()["seen"].get(path, ()))
    return next((s for s in PATHS[path] if s.number not in seen), PATHS[path][0])


def counts(path: str, with_exercise: frozenset[str]) -> tuple[int, int, int, int]:
    """(stops seen, stops, exercises solved, exercises) of a path; ``with_exercise``: the pages that have one."""
    s = progress.state()
    stops = PATHS[path]
    pages = {x.page for x in stops if x.page in with_exercise}
    seen = len(set(s["seen"].get(path, ())) & {x.number for x in stops})
    return seen, len(stops), len(pages & set(s["solved"])), len(pages)


def progress_line(path: str, with_exercise: frozenset[str]) -> str:
    seen, stops, solved, total = counts(path, with_exercise)
    return t("lessons.progress.line", seen=seen, stops=stops, solved=solved, total=total)


def progress_lines(with_exercise: frozenset[str]) -> None:
    """The home page's "your progress": one compact line per path begun, with a link on; nothing before any."""
    begun = [p for p in PATHS if any(counts(p, with_exercise)[i] for i in (0, 2))]
    if not begun:
        return
    with st.container(border=True, key="te_lesson_progress"):
        st.markdown(f"**{t('lessons.progress.title')}**")
        for path in begun:
            with ui.row(vertical_alignment="center"):
                title = t(f"lessons.path.{path}.title")
                st.markdown(t("lessons.progress.path", path=title, line=progress_line(path, with_exercise)))
                link(next_stop(path), t("lessons.continue"))
