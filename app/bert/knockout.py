"""The BERT page's intervention: knock out one head, or a layer's attention or MLP (models/interventions.py through
the probe points), and see how much worse the model fills in the masked words than the unchanged run."""

from __future__ import annotations

import streamlit as st

from app.bert import service as svc
from app.bert.sections import Reading
from app.shared import interventions as ko
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.tokens import visible


@st.fragment
def section(r: Reading) -> None:
    """Controls -> one knocked-out run of the page's input -> the masked words' loss and probability, before and
    after, and a bar per masked word."""
    st.subheader(t("bert.ko.title"))
    st.caption(t("bert.ko.caption"))
    choice = ko.controls("bert", {ko.BLOCKS: r.facts["layers"]}, r.facts["heads"])
    try:
        k = svc.knock_out(r.name, r.text_a, r.text_b, r.a.masked, choice.layer, choice.part, choice.mode, choice.head)
    except InputError as e:
        ui.input_error(e)
        return
    if not k.positions:
        st.info(t("bert.ko.none"), icon=":material/touch_app:")
        return
    vocab = svc.vocabulary(r.name)
    what = choice.what
    first = visible(k.words[0])
    m1, m2, m3 = st.columns(3)
    ko.before_after(
        m1, t("bert.ko.m.loss", what=what), float(k.loss_before.mean()), float(k.loss_after.mean()),
        help=t("bert.ko.m.loss.help", n=len(k.positions)),
    )  # fmt: skip
    ko.before_after(m2, t("bert.ko.m.p", word=first), float(k.p_before[0]), float(k.p_after[0]), percent=True)
    m3.metric(t("bert.ko.m.top", word=first), visible(vocab[k.top_after[0]]), help=t("bert.ko.m.top.help"))
    labels = [f"{p}: {w}" for p, w in zip(k.positions, k.words)]
    ko.token_figure(
        choice,
        labels,
        k.p_before,
        k.p_after,
        t("bert.ko.p"),
        {"positions": list(k.positions), "words": list(k.words), "plain": k.p_before, "knocked_out": k.p_after},
        "bert",
    )
    st.caption(t("bert.ko.read"))
    if not r.facts["real"] and (r.text_a, r.text_b, r.a.masked) == (svc.DEFAULT_A, svc.DEFAULT_B, svc.DEFAULT_MASKS):
        st.caption(t("bert.ko.read.ours"))
    ko.torch_only(r.backend)
    ui.readout(k)
