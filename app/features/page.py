"""Feature microscope (a tool): a sparse autoencoder trained here on our GPT's residual stream, read on a learner's
text — the features on each token, a feature's held-out evidence, and the feature switched off or scaled inside the
model, and steering (a feature's direction, or two prompt lists' difference of means, added while our GPT or
SmolLM2 writes). The sections live in ``app/features/sections.py``."""

import streamlit as st

from app.features import sections
from app.features import service as svc
from app.shared import ui
from app.shared.i18n import InputError, t

st.title(t("tool.features.title"))
if not svc.available():
    ui.input_error(svc.missing())
    st.stop()
sections.intro()
ui.try_this(t("features.try.do"), t("features.try.see"), t("features.try.why"))

text = ui.text_box(
    t("features.text"),
    "First Citizen.\nBefore we proceed any further, hear me speak.\nAll.\nSpeak, speak.",
    key="features_text",
    max_chars=svc.MAX_CHARS,
    height=90,
    help=t("features.text.help", chars=svc.MAX_CHARS, tokens=svc.MAX_TOKENS),
)
try:
    reading = svc.read(text)
except InputError as e:
    ui.input_error(e)
    st.stop()

token = sections.tokens(reading)  # 1 · the features on each token
feature = sections.pick_feature(reading, token)
sections.card(feature)  # 2 · a feature: frequency, label, contexts, logit weights
sections.edit(text, feature, reading)  # 3 · switched off or scaled, the next token
sections.steering(feature)  # 4 · steering: a direction added while the model writes, plain and steered side by side
sections.price()  # 5 · the price of interpretability: the card's sweep of sizes and k
sections.paper()  # what a feature is and is not; the papers, and here
