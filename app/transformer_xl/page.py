"""Transformer-XL (1901.02860): the text cut into segments, a query's attention over the memory and its own segment,
the loss with and without the memory, the reach growing with depth, the four terms of a relative score, why absolute
positions collide across segments, and the measured evaluation speed.

The page's outline; each section is a function of ``app.transformer_xl.sections``."""

import streamlit as st

from app.shared import ui
from app.shared.i18n import InputError, t
from app.transformer_xl import knockout, sections
from app.transformer_xl import service as svc

ui.header("transformer_xl")
st.markdown(t("txl.intro"))
ui.try_this(t("txl.try.do"), t("txl.try.see"), t("txl.try.why"))
backend = st.session_state.get("backend", "torch")

if not svc.available():
    ui.input_error(svc.MODEL.missing())
    ui.explain(t("txl.explain"))
    st.stop()

shape = svc.shape()
card = svc.card()
found = card.get("metrics", {})

text = ui.text_box(
    t("txl.text"),
    svc.DEFAULT_TEXT,
    key="txl_text",
    max_chars=svc.MAX_CHARS,
    height=140,
    help=t("txl.text.help", chars=svc.MAX_CHARS, tokens=svc.MAX_SEGMENTS * shape.segment, L=shape.segment),
)
try:
    a = svc.analyse(text, backend)
except InputError as e:
    ui.input_error(e)
    a = None

if a is not None:
    # §3.2 segment-level recurrence with state reuse
    sections.segments_and_memory(a, text, backend, shape)  # 1 · the segments and the memory a query reads
    sections.loss_with_and_without_memory(a, shape)  # 2 · what the memory is worth
    sections.reach_through_depth(a, text, backend, shape)  # 3 · the reach grows with every layer
    # §3.3 relative positional encodings
    sections.four_terms(a, text, backend)  # 4 · the four terms of a relative score
sections.absolute_positions_collide()  # 5 · why absolute positions break across segments
sections.evaluation_speed(found, shape)  # 6 · evaluation speed, measured (§4)
knockout.section(backend)  # 7 · a head, attention, MLP or the memory knocked out, on held-out text

sections.paper_vs_here(shape, found)
sections.model_card(card)
ui.explain(t("txl.explain"))
