"""The Transformer-XL page's intervention on held-out text run segment after segment with the memory: knock out a
head, or a block's attention or MLP, or cut a block's memory (every block's) so it attends to its own segment only;
the bits per character and the loss of each segment, beside the plain run."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.shared import interventions, ui
from app.shared.i18n import InputError, t
from app.transformer_xl import service as svc


@st.fragment
def section(backend: str) -> None:
    st.subheader(t("txl.ko.title"))
    s = svc.shape()
    st.caption(t("txl.ko.caption", n=svc.KO_SEGMENTS, L=s.segment, M=s.memory))
    labels = {"memory": t("txl.ko.part.memory"), "memory_all": t("txl.ko.part.memory_all")}
    k = interventions.controls("txl", s.n_layers, s.n_heads, own=labels, every_layer=("memory_all",))
    try:
        r = svc.knock_out(k.layer, k.part, k.mode, k.head)
    except InputError as e:
        ui.input_error(e)
        return
    if k.part in svc.MEMORY_PARTS:
        label = t(f"txl.ko.what.{k.part}", layer=k.layer)
    else:
        label = t("view.ko.knocked", what=k.what)
    interventions.held_out(
        r,
        label,
        f"txl-knock-out-l{k.layer}-{k.part}",
        key="txl_ko_loss",
        x=np.arange(1, len(r.before) + 1),
        x_title=t("txl.ko.segment"),
    )
    st.caption(t("txl.ko.read"))
    interventions.torch_only(backend)
    ui.readout(r)
