"""The Attention page's intervention: knock out one head, or a whole attention or MLP sublayer, of the encoder or
the decoder (models/interventions.py through the probe points), and see how much of the reversal survives."""

from __future__ import annotations

import streamlit as st

from app.attention import service as svc
from app.shared import interventions as ko
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.tokens import visible


@st.fragment
def section(d: svc.Decoding, cfg: dict, backend: str) -> None:
    """Controls -> the right answer read with the part knocked out, and greedy decoding -> metrics, a bar pair per
    character. Opens on the last decoder layer's cross-attention, the part the copy cannot do without."""
    st.subheader(t("attention.ko.title"))
    st.caption(t("attention.ko.caption"))
    layers = {"encoder": cfg["enc_layers"], "decoder": cfg["dec_layers"]}
    choice = ko.controls(
        "attention", layers, cfg["heads"], default=(cfg["dec_layers"] - 1, 0), stack="decoder", part="cross"
    )
    try:
        k = svc.knock_out(d.text, choice.stack, choice.layer, choice.part, choice.mode, choice.head)
    except InputError as e:
        ui.input_error(e)
        return
    what, n = choice.what, len(k.targets)
    m1, m2, m3 = st.columns(3)
    ko.before_after(
        m1, t("attention.ko.m.loss", what=what), float(k.loss_before.mean()), float(k.loss_after.mean()),
        help=t("attention.ko.m.loss.help"),
    )  # fmt: skip
    m2.metric(
        t("attention.ko.m.right"),
        f"{k.right_before}/{n} → {k.right_after}/{n}",
        delta=k.right_after - k.right_before,
        help=t("attention.ko.m.right.help"),
    )
    m3.metric(t("attention.ko.m.answer"), visible(k.answer_after) or "∅", help=t("attention.ko.m.answer.help"))
    ko.token_figure(
        choice,
        list(k.targets),
        k.loss_before,
        k.loss_after,
        t("attention.ko.loss"),
        {"target": list(k.targets), "plain": k.loss_before, "knocked_out": k.loss_after},
        "attention",
    )
    st.caption(t("attention.ko.read"))
    if d.text == svc.normalise(svc.EXAMPLES[0]):
        st.caption(t("attention.ko.read.default", n=n, lh_layer=cfg["dec_layers"] - 1))
    ko.torch_only(backend)
    ui.readout(k)
