"""Mamba Δ gating (2312.00752): Δ, Ā, B, C and ‖h_t‖ of a selective SSM; Mamba vs an LTI baseline on selective
copying; the parallel scan against the recurrence, and a constant state against a growing KV cache.

The page in the paper's order; the sections are in ``app/mamba/sections.py``."""

import streamlit as st

from app.mamba import clamp, sections
from app.mamba import service as svc
from app.shared import ui
from app.shared.i18n import InputError, t

ui.header("mamba")
st.markdown(t("mamba.intro"))
backend = st.session_state.get("backend", "torch")

sources = svc.sources()
if not sources:
    st.info(t("mamba.none"))
    st.stop()
cards = svc.card_numbers()
if svc.available("copy"):
    stats = svc.try_stats(backend)
    k = cards["copy"]["d_conv"] - 1
    ui.try_this(
        t("mamba.try.do"),
        t(
            "mamba.try.see",
            k=k,
            low=stats.share_low,
            median=stats.share_median,
            last=stats.instances - 1,
            positions=stats.positions,
            acc=stats.accuracy,
            lti=stats.lti,
        ),
        t("mamba.try.why", k=k, w=k + 1),
    )
pvh = svc.pvh_fields(cards)
ui.paper_vs_here(
    [(t(f"mamba.pvh.{r}"), t(f"mamba.pvh.{r}.paper"), t(f"mamba.pvh.{r}.here", **pvh)) for r in svc.PVH_ROWS],
    [t(f"mamba.pvh.dep.{d}", **pvh) for d in svc.PVH_DEPARTURES],
)

# ---- the input: a selective-copying or induction instance by its seed, or a text ------------------------------------
names = {s: t(f"mamba.source.{s}") for s in svc.SOURCES}
source = ui.choice(st.segmented_control, t("mamba.source"), sources, key="mamba_source", labels=names)
seed, length, text, lm = 0, svc.INDUCTION_LENGTHS[0], "", ""
if source == "text":  # a language model: ours on Shakespeare, or a real Mamba where this machine has one
    lm = ui.model_picker("mamba_model", own=(svc.NAMES["text"],), archs=svc.ARCHS)
c1, c2 = st.columns([1, 2])
if source == "text":
    help_text = t("mamba.text.help", max=svc.MAX_CHARS)
    text = ui.text_box(
        t("mamba.text"), svc.DEFAULT_TEXT, key="mamba_text", max_chars=svc.MAX_CHARS, height=90, help=help_text
    )
else:
    seed = int(
        c1.number_input(
            t("mamba.seed"),
            0,
            svc.MAX_SEED,
            0,
            step=1,
            key="mamba_seed",
            bind="query-params",
            help=t("mamba.seed.help"),
        )
    )
    if source == "induction":
        length = c2.segmented_control(
            t("mamba.length"),
            svc.INDUCTION_LENGTHS,
            default=svc.INDUCTION_LENGTHS[0],
            key="mamba_length",
            bind="query-params",
            help=t("mamba.length.help"),
        )
        length = int(length or svc.INDUCTION_LENGTHS[0])
try:
    a = svc.analyse(source, seed, length, text, backend, lm)
except InputError as e:
    ui.input_error(e)
    st.stop()

# ---- the sections, in the paper's order ------------------------------------------------------------------------------
sections.answers(a, source)  # what the model answers on this input (the same at every layer)
sections.selection(a, source)  # §3.2 the selection mechanism: Δ, Ā, B and C, the state, layer by layer
sections.compare(a, source, seed, backend)  # §4.1 selective copying: Mamba against a time-invariant (LTI) SSM
clamp.section(seed, backend)  # intervention: Δ clamped on chosen channels, accuracy before and after
sections.modes(a)  # §3.3 the parallel scan against the recurrence; a constant state against a growing KV cache
with st.container(key="mamba_ours"):  # ours, whichever language model is picked (the text says so)
    sections.models(cards)  # the models behind the page
