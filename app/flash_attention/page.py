"""FlashAttention (2205.14135): Algorithm 1 step by step on a real head of the trained GPT, HBM accesses against
standard attention (Theorem 2), live kernel timings, and what FlashAttention-2 and -3 changed.

The page in the paper's order; the sections live in ``app/flash_attention/sections.py``."""

import streamlit as st

from app.flash_attention import sections
from app.flash_attention import service as svc
from app.shared import ui
from app.shared.i18n import t

ui.header("flash")
st.markdown(t("flash.intro"))
sections.try_this()

# ---- 1 · Algorithm 1 step by step, on one head of the trained GPT ---------------------------------------------------
st.subheader(t("flash.step.title"))
st.caption(t("flash.step.caption"))
n_layers, n_heads, _ = svc.shape()
text = ui.text_line(
    t("flash.text"), svc.DEFAULT_TEXT, key="flash_text", max_chars=svc.MAX_CHARS, help=t("flash.text.help")
)
c_layer, c_head, c_causal = st.columns([2, 3, 1.4])
layer = c_layer.segmented_control(
    t("view.layer"), list(range(n_layers)), default=0, required=True, key="flash_layer", bind="query-params"
)
head = c_head.segmented_control(
    t("view.head"), list(range(n_heads)), default=0, required=True, key="flash_head", bind="query-params"
)
causal = c_causal.toggle(t("flash.causal"), True, key="flash_causal", bind="query-params", help=t("flash.causal.help"))
walk = sections.tiled(text, layer, head, causal)  # the block sizes, and the tiled loop over them
if walk is not None:
    sections.steps(walk)  # each step's tile, the running max and sum, the output rows it updates
    ui.readout(walk)
    st.caption(t("flash.readout.torch"))

sections.io()  # 2 · HBM accesses against standard attention (Theorem 2)
sections.kernels()  # 3 · the kernels timed live
sections.what_came_next()  # 4 · FlashAttention-2 and -3
sections.paper_vs_here()  # the paper's §4 results beside what runs here

ui.explain(t("flash.explain"))
