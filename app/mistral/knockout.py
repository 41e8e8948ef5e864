"""The Mistral page's interventions on held-out text: knock out a head, or a block's attention or MLP; and run the
model with a narrower band than it was trained with (an override on every layer's attention scores), the bits per
character at each window and the loss at every position."""

from __future__ import annotations

import streamlit as st

from app.mistral import service as svc
from app.shared import interventions, ui
from app.shared.i18n import InputError, t


@st.fragment
def knock_out(backend: str) -> None:
    st.subheader(t("mistral.ko.title"))
    s = svc.shape()
    st.caption(t("mistral.ko.caption", T=s.max_len))
    run = lambda k: svc.knock_out(k.layer, k.part, k.mode, k.head)  # noqa: E731
    interventions.held_out_knock_out("mistral", s.n_layers, s.n_heads, run, backend, t("mistral.ko.read"))


@st.fragment
def narrower(backend: str) -> None:
    st.subheader(t("mistral.narrow.title"))
    s = svc.shape()
    st.caption(t("mistral.narrow.caption", W=s.window, T=s.max_len))
    options = svc.narrower_windows()
    window = ui.choice(
        st.segmented_control,
        t("mistral.narrow.window"),
        options,
        key="mistral_narrow_window",
        default=min(4, s.window),
        labels={w: str(w) for w in options},
        required=True,
        help=t("mistral.narrow.window.help", W=s.window),
    )
    try:
        n = svc.narrowed(int(window))
    except InputError as e:
        ui.input_error(e)
        return
    label = t("mistral.narrow.at", w=n.window)
    interventions.held_out(n.held, label, f"mistral-window-{n.window}", key="mistral_narrow_loss")
    ui.figure(
        interventions.sweep_line(
            n.windows,
            n.bpc,
            n.windows.index(n.window),
            n.windows.index(s.window),
            x_title=t("mistral.narrow.x"),
            y_title=t("mistral.narrow.y"),
            chosen_name=label,
            trained_name=t("mistral.narrow.trained", W=s.window),
            log_x=True,
        ),
        {"window": list(n.windows), "bpc": list(n.bpc)},
        "mistral-window-sweep",
        key="mistral_narrow_sweep",
    )
    st.caption(t("mistral.narrow.read", W=s.window))
    interventions.torch_only(backend)
    ui.readout(n.held)
