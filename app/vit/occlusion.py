"""The ViT page's intervention: occlusion. Each patch is blanked in turn (through the patch probe) and the drop of
the predicted class's probability is a saliency map, drawn beside attention rollout's map of the same image."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.shared import ui
from app.shared.i18n import InputError, t
from app.vit import service as svc
from app.vit import views

REQUESTED = "vit_occlusion_requested"  # a real model's occlusion runs once the reader asks (hundreds of forwards)


def _request() -> None:
    st.session_state[REQUESTED] = True


@st.fragment
def section(res: svc.Analysis, key: bytes, backend: str, name: str = svc.NAME) -> None:
    st.subheader(t("vit.h.occlusion"))
    real = svc.is_real(name)
    fill = ui.choice(
        st.segmented_control,
        t("vit.occlusion.fill"),
        svc.OCCLUSION_FILLS,
        key="vit_occlusion_fill",
        labels={f: t(f"vit.occlusion.fill.{f}") for f in svc.OCCLUSION_FILLS},
        help=t("vit.occlusion.fill.help"),
    )
    if real and not st.session_state.get(REQUESTED):
        st.caption(t("vit.occlusion.real.ask", n=res.grid**2))
        st.button(t("vit.occlusion.run"), key="vit_occlusion_run", on_click=_request)
        return
    try:
        with st.spinner(t("vit.occlusion.running")):
            o = svc.occlusion(key, fill, name, res.backend)
    except InputError as e:
        ui.input_error(e)
        return
    cls = res.classes[o.predicted] if res.classes else str(o.predicted)
    left, right = st.columns(2)
    shown = np.maximum(o.drop, 0.0)  # a patch whose blanking raised the probability shows as 0 (its number: the CSV)
    overlay = views.photo_overlay if real else views.overlay
    with left:
        fig = overlay(res.image, shown, title=t("vit.occlusion.title", cls=cls), value_title=t("vit.occlusion.value"))
        ui.figure(fig, o.drop, "vit-occlusion", key="vit_occlusion")
    with right:
        fig = overlay(res.image, o.rollout, title=t("vit.occlusion.rollout"), value_title=t("vit.weight"))
        ui.figure(fig, o.rollout, "vit-occlusion-rollout", key="vit_occlusion_rollout")
    metrics = ui.row()
    metrics.metric(t("vit.occlusion.p"), f"{o.p:.1%}")
    metrics.metric(t("vit.occlusion.p_all"), f"{o.p_all:.1%}", f"{(o.p_all - o.p) * 100:+.1f} pp")
    metrics.metric(t("vit.occlusion.top"), f"{o.drop.max():.3f}")
    metrics.metric(t("vit.occlusion.corr"), "—" if np.isnan(o.correlation) else f"{o.correlation:.2f}")
    r, c = np.unravel_index(int(o.drop.argmax()), o.drop.shape)
    st.markdown(
        t(
            "vit.occlusion.result",
            cls=cls,
            p=o.p,
            p_all=o.p_all,
            row=int(r) + 1,
            col=int(c) + 1,
            top=float(o.drop.max()),
            corr=o.correlation,
        )
    )
    if backend != "torch":
        st.caption(t("vit.occlusion.torch_only", backend=backend))
    ui.readout(o)
    ui.explain(t("vit.explain.occlusion"))
