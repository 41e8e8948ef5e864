"""RoFormer / RoPE (2104.09864): rotating pairs, the relative property, long-term decay, five position schemes, and
extrapolation of a trained LLaMA-style model with position interpolation (2306.15595), NTK scaling and YaRN
(2309.00071).

The page in the paper's order; the sections live in ``app/rope/sections.py``. The head dimension and the base chosen
at the top drive every section but extrapolation (which reads the trained model as it is): they sit in a fragment of
their own and rerun only the parts they drive (``sections.PARTS``). The model picker puts a
real Llama-family checkpoint's q and k under the measured decay, beside ours, and its base against ours; extrapolation
stays on ours."""

import streamlit as st

from app.rope import sections, unrotate
from app.rope import service as svc
from app.shared import ui
from app.shared.i18n import InputError, t

ui.header("rope")
st.markdown(t("rope.intro"))
backend = st.session_state.get("backend", "torch")
name = ui.model_picker("rope_model", own=svc.OWN, archs=("llama",))  # whose q and k section 3 measures
if svc.available():
    if svc.is_real(name):
        st.caption(t("rope.ours.note", name=svc.title(name)))
    with st.container(key="rope_ours"):  # about our model, whichever model section 3 measures (the note says so)
        card = svc.card_numbers()
        ui.try_this(t("rope.try.do"), t("rope.try.see", **card), t("rope.try.why", **card))
        ui.paper_vs_here(
            [(t(f"rope.pvh.{r}"), t(f"rope.pvh.{r}.paper"), t(f"rope.pvh.{r}.here", **card)) for r in svc.PVH_ROWS],
            [t(f"rope.pvh.dep.{d}", **card) for d in svc.PVH_DEPARTURES],
        )

sections.controls()  # d and the base: they rerun the sections that follow them, not the whole page
try:
    svc.frequencies(*sections.chosen())
except InputError as e:
    ui.input_error(e)
    st.stop()

sections.rotation()  # rotating pairs: the angle m·θᵢ of each pair
sections.spectrum(name)  # the wavelengths against the training context (and a real model's base)
sections.relative()  # the relative property: q_m·k_n depends on m − n alone
sections.decay(backend, name)  # long-term decay: the bound and the model's own scores
sections.schemes()  # five position schemes on one chart
sections.extrapolation(name)  # past the training context (ours): plain, interpolation, NTK, YaRN
unrotate.section(backend, name)  # intervention: the rotation taken off a layer's q and k, held-out loss by position

ui.explain(t("rope.explain"))
