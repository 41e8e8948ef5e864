"""The LLaMA page's intervention: knock out one head, or a block's attention or MLP, of the probed model (ours or a
real one) and read the held-out loss, in bits per character and at every position, beside the plain run."""

from __future__ import annotations

import streamlit as st

from app.llama import service as svc
from app.shared import interventions
from app.shared.i18n import t


@st.fragment
def section(name: str, backend: str) -> None:
    st.subheader(t("llama.ko.title"))
    s = svc.shape(name)
    st.caption(t("llama.ko.caption.real" if s.real else "llama.ko.caption", name=svc.title(name), T=s.limit))
    run = lambda k: svc.knock_out(k.layer, k.part, k.mode, k.head, name)  # noqa: E731
    read = "" if s.real else t("llama.ko.read")
    interventions.held_out_knock_out("llama", s.n_layers, s.n_heads, run, backend, read)
