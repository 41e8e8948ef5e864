"""5 · The T5 page's intervention: knock out one head, or a whole attention (self or cross) or feed-forward sublayer,
of the encoder or the decoder (models/interventions.py through the probe points), and see what is left of the
model's answer to the page's task and text."""

from __future__ import annotations

import streamlit as st

from app.shared import interventions as ko
from app.shared import ui
from app.shared.i18n import InputError, t
from app.t5 import service as svc

SHORT_ANSWER = 14  # characters of the knocked-out answer a metric shows whole in a third of a wide page


def short_answer(answer: str) -> str:
    """The answer as its metric shows it: whole up to ``SHORT_ANSWER`` characters, else its start and an ellipsis
    (a metric's value is one line, and the browser cut a longer one off at the column's edge)."""
    return answer if len(answer) <= SHORT_ANSWER else answer[: SHORT_ANSWER - 1] + "…"


@st.fragment
def section(name: str, task: str, text: str, backend: str) -> None:
    """Controls -> the plain answer read again with the part knocked out, and greedy decoding -> metrics, a bar pair
    per answer token. Opens on decoder layer 0's cross-attention."""
    st.subheader(t("t5.ko.title"))
    st.caption(t("t5.ko.caption"))
    cfg = svc.config(name)
    layers = {"encoder": cfg["enc_layers"], "decoder": cfg["dec_layers"]}
    choice = ko.controls("t5", layers, cfg["heads"], stack="decoder", part="cross")
    try:
        k = svc.knock_out(name, task, text, choice.stack, choice.layer, choice.part, choice.mode, choice.head)
    except InputError as e:
        ui.input_error(e)
        return
    what, n = choice.what, len(k.output)
    m1, m2, m3 = st.columns(3)
    ko.before_after(
        m1, t("t5.ko.m.loss", what=what), float(k.loss_before.mean()), float(k.loss_after.mean()),
        help=t("t5.ko.m.loss.help"),
    )  # fmt: skip
    m2.metric(t("t5.ko.m.kept"), f"{n}/{n} → {k.kept}/{n}", delta=k.kept - n, help=t("t5.ko.m.kept.help"))
    verdict = "" if k.correct_after is None else " · " + t("t5.yes" if k.correct_after else "t5.no")
    answer = k.answer_after or "∅"
    m3.metric(t("t5.ko.m.answer"), short_answer(answer) + verdict, help=t("t5.ko.m.answer.help"))
    if answer != short_answer(answer):  # the metric cut it: the whole answer under the metrics
        st.caption(t("t5.ko.whole_answer"))
        st.code(answer, language=None, wrap_lines=True)
    ko.token_figure(
        choice,
        list(k.output),
        k.loss_before,
        k.loss_after,
        t("t5.ko.loss"),
        {"token": list(k.output), "plain": k.loss_before, "knocked_out": k.loss_after},
        "t5",
    )
    st.caption(t("t5.ko.read"))
    if not svc.real(name) and (task, " ".join(text.split())) == ("reverse_words", svc.EXAMPLES["reverse_words"][0]):
        st.caption(t("t5.ko.read.default", n=n))
    ko.torch_only(backend)
    ui.readout(k)
