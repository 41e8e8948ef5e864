"""Feature microscope (a tool): a sparse autoencoder trained here on the picked model's residual stream (our GPT's,
or SmolLM2-135M's), read on a learner's text — the features on each token, a feature's held-out evidence, and the
feature switched off or scaled inside the model, and steering (a feature's direction, or two prompt lists'
difference of means, added while the model writes). The sections live in ``app/features/sections.py``."""

import streamlit as st

from app.features import sections
from app.features import service as svc
from app.shared import ui
from app.shared.i18n import InputError, t

st.title(t("tool.features.title"))
name = ui.model_picker("features_model", own=svc.OWN, archs=("llama",), only=svc.REAL)  # a model with a dictionary
if not svc.available(name):
    ui.input_error(svc.missing(name))
    st.stop()
sections.forget_on_switch(name)
sections.intro(name)
ui.try_this(t("features.try.do"), t("features.try.see"), t("features.try.why"))

text = ui.text_box(
    t("features.text"),
    "First Citizen.\nBefore we proceed any further, hear me speak.\nAll.\nSpeak, speak.",
    key="features_text",
    max_chars=svc.MAX_CHARS,
    height=90,
    help=sections.text_help(name),
)
try:
    reading = svc.read(name, text)
except InputError as e:
    ui.input_error(e)
    st.stop()

sections.by_feature(name, text, reading)  # 1–4 · a fragment: a token or feature picked reruns these alone
sections.price(name)  # 5 · the price of interpretability: the card's sweep of sizes and k
sections.paper(name)  # what a feature is and is not; the papers, and here
