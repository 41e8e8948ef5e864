"""Inside one forward pass: follow one token through every part of the trained GPT, with the real tensors.
This script is the page's outline: the controls and the steps of the pass live in sections.py."""

import streamlit as st

from app.forward_pass import sections
from app.forward_pass import service as svc
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.tokens import visible

ui.header("forward_pass")
st.markdown(t("forward_pass.intro"))
last = len(svc.tokenize(svc.DEFAULT_TEXT)) - 1  # the guided experiment, measured on the defaults
hot, cold = (svc.analyse(svc.DEFAULT_TEXT, last, 0, 0, tau) for tau in (1.0, 0.5))
ui.try_this(
    t("forward_pass.try.do"),
    t("forward_pass.try.see", token=visible(hot.predicted_piece), p1=hot.top_probs[0], p2=cold.top_probs[0]),
    t("forward_pass.try.why"),
)
sections.paper_vs_here()

text = ui.text_box(
    t("forward_pass.text"),
    svc.DEFAULT_TEXT,
    key="forward_pass_text",
    max_chars=svc.MAX_CHARS,
    help=t("forward_pass.text.help", chars=svc.MAX_CHARS, tokens=svc.max_tokens()),
)
try:
    n_tokens = len(svc.tokenize(text))
except InputError as e:
    ui.input_error(e)
    st.stop()

# the position, layer, head and temperature, and what the model predicts there (stops where the text cannot run)
sections.controls_and_summary(text, n_tokens)
# the steps of the pass, one at a time: 1 tokens and embeddings … 8 the prediction, and which parts made it
sections.steps(text)

ui.explain(t("forward_pass.explain"))
