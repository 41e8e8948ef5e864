"""The RoPE page's intervention: the rotation taken off one layer's q and k (an override on the rotated q and k
probes that turns every pair back), and the held-out loss at every position beside the unchanged model's."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.rope import service as svc
from app.rope import views
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.numbers import smooth

SMOOTHING = 8  # positions in the running mean of the loss curves


@st.fragment
def section(backend: str, name: str) -> None:
    st.subheader(t("rope.unrot.title"))
    if svc.is_real(name):
        st.caption(t("rope.unrot.ours_only", name=svc.title(name)))
    if not svc.available():
        st.info(t("rope.no_model"))
        return
    L = svc.MODEL.config["n_layers"]
    options = (*range(L), svc.ALL_LAYERS)
    labels = {i: t("rope.unrot.layer", i=i) for i in range(L)} | {svc.ALL_LAYERS: t("rope.unrot.all")}
    layer = ui.choice(st.segmented_control, t("rope.unrot.which"), options, key="rope_unrot_layer", labels=labels)
    try:
        u = svc.unrotated(int(layer))
    except InputError as e:
        ui.input_error(e)
        return
    T = len(u.before)
    where = labels[u.layer]
    row = ui.row()
    row.metric(t("rope.unrot.m.before"), f"{u.before.mean():.3f}")
    row.metric(
        t("rope.unrot.m.after", where=where),
        f"{u.after.mean():.3f}",
        f"{u.after.mean() - u.before.mean():+.3f}",
        delta_color="inverse",
    )
    early = min(8, T)
    row.metric(
        t("rope.unrot.m.early", n=early),
        f"{u.after[:early].mean() - u.before[:early].mean():+.3f}",
        help=t("rope.unrot.m.early.help"),
    )
    row.metric(t("rope.unrot.m.late", n=early), f"{u.after[-early:].mean() - u.before[-early:].mean():+.3f}")
    series = {
        t("rope.unrot.series.before"): smooth(u.before, SMOOTHING),
        t("rope.unrot.series.after", where=where): smooth(u.after, SMOOTHING),
    }
    st.caption(t("rope.unrot.plot", n=u.windows, T=T, w=SMOOTHING))
    ui.figure(
        views.curves(np.arange(1, T + 1), series, x_title=t("rope.position"), y_title=t("rope.ext.loss")),
        {"before": u.before, "after": u.after},
        "rope-unrotated",
        key="rope_unrot",
    )
    worst = int(np.argmax(u.per_layer))
    st.markdown(
        t(
            "rope.unrot.result",
            before=float(u.before.mean()),
            per_layer=t("rope.ext.ranking.sep").join(f"{labels[i]} {v:.3f}" for i, v in enumerate(u.per_layer)),
            worst=labels[worst],
            every=u.every_layer,
            n=u.windows,
            T=T,
        )
    )
    if backend != "torch":
        st.caption(t("rope.unrot.torch_only", backend=backend))
    ui.readout(u)
    ui.explain(t("rope.explain.unrot"))
