"""The Mamba page's intervention: Δ of one layer clamped on chosen channels (through the Δ probe the scan reads),
measured on held-out selective-copying instances beside the unchanged run."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.mamba import service as svc
from app.mamba import views
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.tokens import token_strip


def _value_label(v: float) -> str:
    return f"{v:g}"


@st.fragment
def section(seed: int, backend: str) -> None:
    st.subheader(t("mamba.h.clamp"))
    if not svc.available("copy"):
        st.info(t("mamba.clamp.missing"))
        return
    config = svc.MODELS["copy"].config
    n_layers, d_in = config["n_layers"], config["expand"] * config["d_model"]
    st.caption(t("mamba.clamp.caption", n=svc.HELD_OUT, seed=seed))
    controls = ui.row(vertical_alignment="bottom")
    layer = (
        controls.slider(t("mamba.layer"), 0, n_layers - 1, 0, key="mamba_clamp_layer", bind="query-params")
        if n_layers > 1
        else 0
    )
    value = controls.select_slider(
        t("mamba.clamp.value"),
        svc.CLAMP_VALUES,
        value=0.0,
        key="mamba_clamp_value",
        bind="query-params",
        format_func=_value_label,
        help=t("mamba.clamp.value.help"),
    )
    labels = {m: t(f"mamba.clamp.mode.{m}") for m in svc.CHANNEL_MODES}
    mode = ui.choice(
        st.segmented_control, t("mamba.clamp.mode"), svc.CHANNEL_MODES, key="mamba_clamp_mode", labels=labels
    )
    k, lo, hi = 16, 0, d_in - 1
    if mode == "top":
        k = int(st.slider(t("mamba.clamp.k"), 1, d_in, 16, key="mamba_clamp_k", bind="query-params"))
    elif mode == "range":
        pick = ui.row()
        lo = int(pick.number_input(t("mamba.clamp.lo"), 0, d_in - 1, 0, key="mamba_clamp_lo", bind="query-params"))
        hi = int(
            pick.number_input(
                t("mamba.clamp.hi"), 0, d_in - 1, d_in // 2 - 1, key="mamba_clamp_hi", bind="query-params"
            )
        )
    try:
        channels = svc.clamp_channels(layer, mode, k, lo, hi)
        c = svc.clamp(layer, channels, float(value), seed)
    except InputError as e:
        ui.input_error(e)
        return
    metrics = ui.row()
    metrics.metric(t("mamba.clamp.acc_before"), f"{c.acc_before:.1%}")
    metrics.metric(t("mamba.clamp.acc_after"), f"{c.acc_after:.1%}", f"{(c.acc_after - c.acc_before) * 100:+.1f} pp")
    metrics.metric(t("mamba.clamp.loss_before"), f"{c.loss_before:.3f}")
    metrics.metric(
        t("mamba.clamp.loss_after"),
        f"{c.loss_after:.3f}",
        f"{c.loss_after - c.loss_before:+.3f}",
        delta_color="inverse",
    )
    st.markdown(
        t(
            "mamba.clamp.result",
            n=len(c.channels),
            d_in=d_in,
            layer=c.layer,
            value=_value_label(c.value),
            instances=c.instances,
            before=c.acc_before,
            after=c.acc_after,
            chance=c.chance,
            loss_before=c.loss_before,
            loss_after=c.loss_after,
        )
    )
    labels_ = list(c.labels)
    shown = np.array(c.channels)
    top = float(max(c.delta_before[:, shown].mean(1).max(), c.delta_after[:, shown].mean(1).max(), 1e-9))
    for key, delta in (("before", c.delta_before), ("after", c.delta_after)):
        label = t(f"mamba.clamp.strip.{key}", acc=getattr(c, f"acc_instance_{key}"))
        ui.markup(token_strip(labels_, delta[:, shown].mean(1), colorscale="Reds", vmin=0.0, vmax=top, label=label))
    fig = views.time_map(
        c.delta_after.T,
        labels_,
        row_title=t("mamba.channel"),
        value_title="Δ",
        colorscale="Reds",
        zmin=0.0,
        zmax=float(max(c.delta_before.max(), c.delta_after.max())),  # the unchanged Δ's scale: a clamp to 0 is blank
        title=t("mamba.clamp.map", layer=c.layer),
    )
    ui.figure(fig, c.delta_after, "mamba-delta-clamped", key="mamba_clamp_map", row_labels=labels_)
    if backend != "torch":
        st.caption(t("mamba.clamp.torch_only", backend=backend))
    ui.readout(c)
    ui.explain(t("mamba.explain.clamp"))
