"""The forward pass's intervention: the same text run again with one head, or a layer's attention or MLP, knocked
out (models/interventions.py through the probe points): the next-token loss at every position, and the top token at
the page's position, beside the unchanged run."""

import streamlit as st

from app.forward_pass import service as svc
from app.forward_pass.sections import CHOICE, PARTS
from app.shared import interventions as ko
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.tokens import visible


@st.fragment(key=PARTS["knock"])
def section(text: str, name: str = svc.NAME) -> None:
    """Its own controls (they rerun this part alone) and the page's position (a move of it reruns this part too)."""
    st.subheader(t("forward_pass.ko.title"))
    st.caption(t("forward_pass.ko.caption"))
    cfg = svc.config(name)
    choice = ko.controls("forward_pass", {ko.BLOCKS: cfg["n_layers"]}, cfg["n_heads"])
    pos = st.session_state[CHOICE]["forward_pass_pos"]
    try:
        k = svc.knock_out(text, pos, choice.layer, choice.part, choice.mode, choice.head, name)
    except InputError as e:
        ui.input_error(e)
        return
    what, vocab = choice.what, svc.vocabulary(name)
    token = visible(vocab[k.top])
    m1, m2, m3 = st.columns(3)
    ko.before_after(
        m1, t("forward_pass.ko.m.loss", what=what), float(k.loss_before.mean()), float(k.loss_after.mean()),
        help=t("forward_pass.ko.m.loss.help", n=len(k.targets)),
    )  # fmt: skip
    ko.before_after(
        m2, t("forward_pass.ko.m.p", token=token, pos=k.pos), k.p_before, k.p_after, percent=True,
        help=t("forward_pass.ko.m.p.help"),
    )  # fmt: skip
    m3.metric(t("forward_pass.ko.m.top", pos=k.pos), visible(vocab[k.top_after]))
    ko.token_figure(
        choice,
        list(k.targets),
        k.loss_before,
        k.loss_after,
        t("forward_pass.ko.loss"),
        {"target": list(k.targets), "plain": k.loss_before, "knocked_out": k.loss_after},
        "forward_pass",
    )
    st.caption(t("forward_pass.ko.read"))
    if not svc.is_real(name) and text == svc.DEFAULT_TEXT:
        st.caption(t("forward_pass.ko.read.ours"))
    ui.readout(k)
