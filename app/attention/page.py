"""Attention Is All You Need (1706.03762): a trained encoder–decoder, decoded step by step, every attention shown.

The page in the paper's order; each section is a function of ``app.attention.sections``."""

import streamlit as st

from app.attention import knockout, sections
from app.attention import service as svc
from app.shared import ui
from app.shared.i18n import InputError, layer_head_label, t

ui.header("transformer")
cfg, card = svc.config(), svc.card()
st.markdown(
    t("attention.intro", enc=cfg["enc_layers"], dec=cfg["dec_layers"], heads=cfg["heads"], d_model=cfg["d_model"])
)
ui.try_this(
    t("attention.try.do", lh=layer_head_label(cfg["dec_layers"] - 1, 0)),
    t("attention.try.see"),
    t("attention.try.why"),
)
sections.paper_vs_here(cfg, card)
backend = st.session_state.get("backend", "torch")

# ---- the input: a text to reverse ------------------------------------------------------------------------------------
c_text, _ = st.columns([1, 2])
text = ui.text_line(
    t("attention.input"),
    svc.EXAMPLES[0],
    key="attention_text",
    max_chars=svc.MAX_CHARS,
    help=t("attention.input.help"),
    host=c_text,
)
st.pills(
    t("attention.examples"),
    svc.EXAMPLES,
    key="attention_example",
    bind="query-params",
    on_change=ui.use_example,
    args=("attention_example", "attention_text"),
    kwargs={"attention_step": 0},
)
try:
    d = svc.decode(text, backend)
except InputError as e:
    ui.input_error(e)
    st.stop()
_, dropped = svc.readable(text)
if dropped:
    st.caption(t("attention.dropped", symbols=" ".join(repr(ch) for ch in dropped), text=d.text))
sections.answer(d)

# ---- 3.2.3 which attention (encoder self-, decoder masked self-, cross-), which layer and head -----------------------
layers, heads = d.patterns["cross"].shape[:2]
sections.controls(layers, heads, cfg)

VIEWS = {
    "heads": sections.heads,  # 3.2.2 multi-head attention: the heads of one layer side by side
    "model": sections.every_head,  # every head of every layer
    "dot": sections.dot_product,  # 3.2.1 scaled dot-product attention, one query worked through
    "mask": sections.masking,  # 3.2.3 the decoder's causal mask
    "positions": sections.positions,  # 3.5 sinusoidal positional encoding
}


@st.fragment(key=sections.EXPLORE)
def explore() -> None:
    """The decoding step and the chosen view: moving the step (or a control) reruns this part alone."""
    focus = sections.decoding_step(d)
    VIEWS[sections.pick_view(tuple(VIEWS))](focus)


explore()
knockout.section(d, cfg, backend)  # a head, or a whole attention or MLP, knocked out: how much reversal survives

ui.explain(t("attention.explain", heads=cfg["heads"], d_k=cfg["d_k"]))
sections.card_note(cfg, card)
