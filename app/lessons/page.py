"""Lessons: paths through the papers in reading order, each stop a page in a prepared state with a task; the
reader's progress (kept in their browser); a worksheet per path for instructors, with an answer key computed from
the live model."""

import streamlit as st

from app.lessons import exercises, paths, progress, worksheet
from app.shared import ui
from app.shared.i18n import LANG_NAMES, LANGS, current_lang, t

WITH_EXERCISE = frozenset(exercises.EXERCISES)

st.title(t("tool.lessons.title"))
st.markdown(t("lessons.intro"))
base = st.context.url.rsplit("/", 1)[0] if st.context.url else ""

for path, stops in paths.PATHS.items():
    with st.container(border=True, key=f"lessons_path_{path}"):
        st.subheader(t(f"lessons.path.{path}.title"))
        st.markdown(t(f"lessons.path.{path}.blurb"))
        st.caption(paths.progress_line(path, WITH_EXERCISE))
        seen, solved = set(progress.state()["seen"].get(path, ())), set(progress.state()["solved"])
        for stop in stops:
            marks = ("✓ " if stop.number in seen else "") + ("★" if stop.page in solved else "")
            label = f"{stop.number} · {t(stop.title_key)} {marks}".rstrip()
            paths.link(stop, label)
        st.caption(t("lessons.ws.title"))
        with ui.row(gap="small"):
            for lang in (current_lang(), *(x for x in LANGS if x != current_lang())):
                for kind, mime, ext in (("md", "text/markdown", "md"), ("html", "text/html", "html")):
                    build = worksheet.markdown if kind == "md" else worksheet.printable
                    st.download_button(
                        t(f"lessons.ws.{kind}", language=LANG_NAMES[lang]),
                        (lambda build=build, lang=lang, path=path: build(path, lang, base)),
                        file_name=f"worksheet-{path}-{lang}.{ext}",
                        mime=mime,
                        key=f"lessons_ws_{path}_{kind}_{lang}",
                        icon=":material/download:",
                        on_click="ignore",
                        type="tertiary",
                    )

st.caption(t("lessons.legend"))
if progress.any_progress():
    st.button(t("lessons.reset"), key="lessons_reset", on_click=progress.reset, help=t("lessons.reset.help"))
st.caption(t("lessons.privacy"))
progress.sync()
