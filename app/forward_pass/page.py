"""Inside one forward pass: follow one token through every part of the trained GPT — or, picked at the top, a real
Llama-family model (SmolLM2) — with the real tensors. This script is the page's outline: the controls and the steps of
the pass live in sections.py (and llama_steps.py for a Llama block)."""

import streamlit as st

from app.forward_pass import knockout, sections
from app.forward_pass import service as svc
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.tokens import visible

ui.header("forward_pass")
name = ui.model_picker("forward_pass_model", own=(svc.NAME,), archs=("gpt", "llama"))
try:
    cfg = svc.config(name)
    if svc.arch(name) == "llama":
        st.markdown(t("forward_pass.intro.real", title=svc.title(name), layers=cfg["n_layers"], dim=cfg["dim"],
                      heads=cfg["n_heads"], kv=cfg["n_kv_heads"], max=svc.max_tokens(name)))  # fmt: skip
    else:
        st.markdown(t("forward_pass.intro"))
    last = len(svc.tokenize(svc.DEFAULT_TEXT, name)) - 1  # the guided experiment, measured on the defaults
    hot, cold = (svc.analyse(svc.DEFAULT_TEXT, last, 0, 0, tau, name) for tau in (1.0, 0.5))
except InputError as e:  # the checkpoint is not installed: what to run
    ui.input_error(e)
    st.stop()
ui.try_this(
    t("forward_pass.try.do"),
    t("forward_pass.try.see", token=visible(hot.predicted_piece), p1=hot.top_probs[0], p2=cold.top_probs[0]),
    t("forward_pass.try.why.real" if svc.arch(name) == "llama" else "forward_pass.try.why"),
)
sections.paper_vs_here(name)

text = ui.text_box(
    t("forward_pass.text"),
    svc.DEFAULT_TEXT,
    key="forward_pass_text",
    max_chars=svc.MAX_CHARS,
    help=t(
        "forward_pass.text.help.real" if svc.is_real(name) else "forward_pass.text.help",
        chars=svc.MAX_CHARS,
        tokens=svc.max_tokens(name),
    ),
)
try:
    n_tokens = len(svc.tokenize(text, name))
except InputError as e:
    ui.input_error(e)
    st.stop()

# the position, layer, head and temperature, and what the model predicts there (stops where the text cannot run)
sections.controls_and_summary(text, n_tokens, name)
# the steps of the pass, one at a time: 1 tokens and embeddings … 8 the prediction, and which parts made it
sections.steps(text, name)
# 9 knock out a head, or a layer's attention or MLP: the next-token loss and the top token, before and after
knockout.section(text, name)

ui.explain(t("forward_pass.explain.real" if svc.arch(name) == "llama" else "forward_pass.explain"))
