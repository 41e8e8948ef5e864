"""MoE routing (2101.03961, 2401.04088, 2401.06066): which expert each token goes to, capacity and dropped tokens,
the load-balancing loss, three small runs balanced three ways watched over training (``training.py``), specialisation
by domain, and total vs active parameters.

The page in the papers' order; the sections are in ``app/moe/sections.py``."""

import streamlit as st

from app.moe import intervening, sections, training
from app.moe import service as svc
from app.shared import ui
from app.shared.i18n import InputError, t

ui.header("moe")
backend = st.session_state.get("backend", "torch")

try:
    card = svc.card_numbers()
    demo = svc.appended()
except InputError as e:  # the model is not installed
    ui.input_error(e)
    st.stop()
ui.try_this(
    t("moe.try.do", cf=card["cf"], line=svc.APPENDED),
    t(
        "moe.try.see",
        c0=demo.capacity[0],
        c1=demo.capacity[1],
        t0=demo.total[0],
        t1=demo.total[1],
        n=demo.tokens,
        d0=demo.dropped[0],
        d1=demo.dropped[1],
        layers=card["layers"],
    ),
    t("moe.try.why", cf=card["cf"]),
)
ui.paper_vs_here(
    [(t(f"moe.pvh.{row}"), t(f"moe.pvh.{row}.paper"), t(f"moe.pvh.{row}.here", **card)) for row in svc.PVH_ROWS],
    [t(f"moe.pvh.dep.{d}", **card) for d in svc.PVH_DEPARTURES],
)
ui.reading_numbers()


def use_sample() -> None:
    choice = st.session_state.get("moe_sample")
    if choice in svc.SAMPLES:
        st.session_state["moe_text"] = svc.SAMPLES[choice]


# ---- the input: a text (or one of the samples), k experts per token, the capacity factor -----------------------------
# The picker shows the sample the text box holds (none once the text is edited), on the first run too: the box's text
# is its state, or the link's before the box is first drawn, or the mixed sample.
held = st.session_state.get("moe_text", st.query_params.get("moe_text", svc.SAMPLES["mixed"]))
st.session_state["moe_sample"] = next((s for s, text in svc.SAMPLES.items() if text == held), None)
sample_names = {s: t(f"moe.sample.{s}") for s in svc.SAMPLES}
st.segmented_control(
    t("moe.sample"), tuple(svc.SAMPLES), format_func=sample_names.get, key="moe_sample", on_change=use_sample
)
help_text = t("moe.input.help", max_chars=svc.MAX_CHARS)
text = ui.text_box(
    t("moe.input"), svc.SAMPLES["mixed"], key="moe_text", max_chars=svc.MAX_CHARS, height=100, help=help_text
)
sections.controls()  # k and the capacity factor: they rerun the parts that route with them, not the whole page
try:
    res = svc.analyse(text, *sections.chosen(), backend)
except InputError as e:
    ui.input_error(e)
    st.stop()

# ---- the sections, in the papers' order ------------------------------------------------------------------------------
sections.tokens(text, backend)  # Switch §2.1: each token goes to one expert (or k), in every MoE layer
sections.router(text, backend)  # Switch §2.1: the router's probabilities and the combine weights, layer by layer
sections.capacity(text, backend)  # Switch §2.2: the expert capacity, and the tokens it drops
sections.balance(text, backend)  # Switch §2.2: the differentiable load-balancing loss, term by term
training.section(text, backend)  # and over training: aux loss, DeepSeek-V3's bias or neither, step by step
sections.specialisation(res, backend)  # Mixtral §5, DeepSeekMoE: do the experts specialise by domain?
intervening.section(text, res.n_experts, backend)  # and what is one expert needed for? switch it off
sections.parameters(res)  # total against active parameters: ours and the published models
