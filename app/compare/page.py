"""Compare: two or three language models on one text, aligned on its characters (bits per character along it), their
guesses at a character and what each mixes there, their cards side by side, and what each holds and spends while it
writes.

The page in reading order; the sections are in ``app/compare/sections.py``."""

import streamlit as st

from app.compare import sections
from app.compare import service as svc
from app.shared import ui
from app.shared.i18n import InputError, t

st.title(t("tool.compare.title"))
st.markdown(t("compare.intro"))
ui.try_this(t("compare.try.do"), t("compare.try.see"), t("compare.try.why"))

names = sections.pick_models()
text = sections.pick_text()
try:
    svc.check_models(names)
    scored = tuple(svc.score(name, svc.check_text(text)) for name in names)
except InputError as e:
    ui.input_error(e)
    st.stop()

sections.bits(names, text, scored)  # 1 · bits per character along the text, one line per model
sections.guesses(names, text, scored)  # 2 · each model's top next tokens at a character; 3 · what each mixes there
sections.cards(names, scored)  # 4 · what differs besides the architecture
sections.costs(names, text)  # 5 · cache/state bytes and ms per token, measured on this text
sections.why(names)  # what to look at, per pair of architectures
