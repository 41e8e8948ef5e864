"""The LLaMA page's intervention: knock out one head, or a block's attention or MLP, of the probed model (ours or a
real one) and read the held-out loss, in bits per character and at every position, beside the plain run."""

from __future__ import annotations

import streamlit as st

from app.llama import service as svc
from app.shared import interventions, ui
from app.shared.i18n import InputError, t


@st.fragment
def section(name: str, backend: str) -> None:
    st.subheader(t("llama.ko.title"))
    s = svc.shape(name)
    st.caption(t("llama.ko.caption", name=svc.title(name), T=s.limit))
    k = interventions.controls("llama", s.n_layers, s.n_heads)
    try:
        r = svc.knock_out(k.layer, k.part, k.mode, k.head, name)
    except InputError as e:
        ui.input_error(e)
        return
    label = t("view.ko.knocked", what=k.what)
    interventions.held_out(r, label, f"llama-knock-out-l{k.layer}-{k.part}", key="llama_ko_loss")
    if not s.real:
        st.caption(t("llama.ko.read"))
    interventions.torch_only(backend)
    ui.readout(r)
