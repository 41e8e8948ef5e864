"""Mistral 7B (2310.06825): the sliding-window band of every layer, its reach through depth measured with gradients,
the rolling buffer cache while the model writes, and the pre-fill in chunks of W.

The page in the paper's order; the sections live in ``app/mistral/sections.py``."""

import streamlit as st

from app.mistral import knockout, sections
from app.mistral import service as svc
from app.shared import ui
from app.shared.i18n import t

ui.header("mistral")
name = ui.model_picker("mistral_model", own=(svc.NAME,), archs=svc.ARCHS)  # ours, or a real Gemma 3
real = svc.available(name) and svc.is_real(name)
if real:
    sections.real_intro(name)
else:
    st.markdown(t("mistral.intro"))
    ui.try_this(t("mistral.try.do"), t("mistral.try.see"), t("mistral.try.why"))
backend = st.session_state.get("backend", "torch")

if not svc.available(name):
    ui.input_error(svc.model_missing(name))
    sections.explanation()
    st.stop()

text = ui.text_box(
    t("mistral.text"),
    svc.default_text(name),  # a real model's is longer than its window
    key=svc.text_key(name),
    max_chars=svc.max_text_chars(name),
    height=160 if real else 110,
    help=t(
        "mistral.text.help.real" if real else "mistral.text.help",
        chars=svc.max_text_chars(name),
        tokens=svc.shape(name).limit,
    ),
)
analysis = sections.analysed(text, backend, name)
if analysis is not None:
    sections.band(analysis, name)  # 1 · the band mask: W keys back (a real Gemma: local layers, global ones)
    sections.reach(analysis, text, name)  # 2 · reach through depth, measured
sections.rolling(name, text)  # 3 · the rolling buffer cache while the model writes
if real:
    if analysis is not None:
        sections.prefill(analysis, text, name)  # 4 · the chunks: local layers' buffers, global layers' caches
    sections.ours_only("mistral.ko.title", "mistral.real.ko", name)  # 5 · held-out Shakespeare: ours
    sections.ours_only("mistral.narrow.title", "mistral.real.narrow", name)  # 6 · ours' trained W only
    sections.real_paper_vs_here(name)
else:
    if analysis is not None:
        sections.prefill(analysis, text)  # 4 · pre-fill in chunks of W
    knockout.knock_out(backend)  # 5 · a head, attention or MLP knocked out, on held-out text
    knockout.narrower(backend)  # 6 · a narrower window at inference than the one trained
    sections.model_card()
    sections.paper_vs_here()
ui.reading_numbers()
sections.explanation(name)
