"""Multi-token prediction: what the main head and the MTP module predict on the text, and the module drafting one
token ahead for speculative decoding (``mtp``)."""

import streamlit as st

from app.mla import service as svc
from app.mla import views
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.tokens import visible


def heading() -> None:
    st.header(t("mla.mtp.title"))
    st.markdown(t("mla.mtp.caption"))


@st.fragment
def both_heads_and_speculation(text: str, backend: str) -> None:
    """Both heads' predictions on the text, then speculative decoding of ``mla_n`` new tokens (its slider reruns
    that part alone), then the module's training curves."""
    if not svc.MTP_MODEL.available:
        ui.input_error(svc.MTP_MODEL.missing())
        return
    try:
        h = svc.heads(text, backend)
    except InputError as e:
        ui.input_error(e)
        return
    c1, c2 = st.columns(2)
    c1.metric(t("mla.m.main_hit"), f"{h.main_hit.mean():.0%}", help=t("mla.m.main_hit.help", n=len(h.main_hit)))
    c2.metric(
        t("mla.m.ahead_hit"),
        f"{h.ahead_hit.mean():.0%}" if len(h.ahead_hit) else "—",
        help=t("mla.m.ahead_hit.help", n=len(h.ahead_hit)),
    )
    # narrow columns for the short ones and the token pinned, so that a phone scrolls the guesses past it
    narrow = {k: st.column_config.TextColumn(width=40) for k in ("#", t("mla.col.next"), t("mla.col.after_next"))}
    token = {t("mla.col.token"): st.column_config.TextColumn(width=60, pinned=True)}
    st.dataframe(ui.arrow(_heads_table(h)), hide_index=True, height=260, column_config=narrow | token)
    ui.readout(h)
    if _speculation(text, backend):
        _training_curves()


def _heads_table(h) -> dict[str, list[str]]:
    def fmt(p) -> str:
        return " · ".join(f"{visible(x)} {q:.0%}" for x, q in zip(p.pieces, p.probs))

    T = len(h.pieces)
    return {
        "#": [str(i) for i in range(T)],
        t("mla.col.token"): [visible(p) for p in h.pieces],
        t("mla.col.main"): [fmt(p) for p in h.main],
        t("mla.col.next"): [visible(h.pieces[i + 1]) if i + 1 < T else "" for i in range(T)],
        t("mla.col.ahead"): [fmt(p) for p in h.ahead],
        t("mla.col.after_next"): [visible(h.pieces[i + 2]) if i + 2 < T else "" for i in range(T)],
    }


@st.fragment
def _speculation(text: str, backend: str) -> bool:
    """Speculative decoding with the module as the drafter: acceptance, tokens per forward (beside the card's), the
    strip of what was accepted and refused. False when the text leaves no room to decode (its message shown). A part
    of its own inside the heads' part: moving ``mla_n`` reruns it alone, not the heads' table above it."""
    st.subheader(t("mla.spec.title"))
    st.markdown(t("mla.spec.caption"))
    n = st.slider(t("mla.n"), 1, svc.MAX_NEW, 32, key="mla_n", bind="query-params")
    try:
        with st.spinner(t("mla.spec.spinner")):
            sp = svc.speculate(text, n, backend)
    except InputError as e:
        ui.input_error(e)
        return False
    paper = svc.PUBLISHED["mtp"]
    measured = svc.mtp_card().metrics
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(
        t("mla.m.acceptance"),
        f"{sp.acceptance:.0%}",
        help=t("mla.m.acceptance.help", accepted=sp.accepted, proposed=sp.proposals),
    )
    m2.metric(t("mla.m.tpf"), f"{sp.tokens_per_forward:.2f}", help=t("mla.m.tpf.help", n=n, forwards=sp.forwards))
    if "acceptance_rate" in measured:
        m3.metric(t("mla.m.card_acceptance"), f"{measured['acceptance_rate']:.0%}", help=t("mla.m.card.help"))
        m4.metric(t("mla.m.card_tpf"), f"{measured['tokens_per_forward']:.2f}", help=t("mla.m.card.help"))
    ui.markup(
        views.legend_chips(
            [
                (t("mla.spec.accepted"), views.ACCEPTED, "#fff"),
                (t("mla.spec.own"), views.OWN, "#111"),
                (t("mla.spec.refused"), "#fff", views.REFUSED),
            ]
        )
    )
    ui.markup(
        views.speculation_strip(
            text,
            sp.pieces,
            sp.drafted,
            list(sp.rejected),
            accepted_word=t("mla.spec.accepted"),
            own_word=t("mla.spec.own"),
            refused_word=t("mla.spec.refused"),
        )
    )
    low, high = paper["acceptance_low"], paper["acceptance_high"]
    st.caption(t("mla.spec.paper", low=low, high=high, tps=paper["tps_speedup"]))
    ui.readout(sp)
    return True


def _training_curves() -> None:
    """The main and the module's loss over training, and λ, from the card (collapsed)."""
    card = svc.mtp_card()
    if not card.curves:
        return
    with st.expander(t("mla.mtp.curves")):
        c = card.curves
        ui.figure(
            views.mtp_losses(
                c["step"],
                c["main_loss"],
                c["mtp_loss"],
                c["lambda"],
                main_name=t("mla.mtp.main_loss"),
                ahead_name=t("mla.mtp.ahead_loss"),
                lambda_name="λ",
                x_title=t("mla.step"),
                y_title=t("mla.mtp.loss"),
            ),
            c,
            "mla-mtp-loss-curves",
            key="mla_mtp_curves",
        )
        if "val_bpc" in card.metrics:
            control = card.control_bpc or {}
            st.caption(
                t(
                    "mla.mtp.bpc",
                    bpc=card.metrics["val_bpc"],
                    control=", ".join(f"{v:.4f}" for v in control.values()) or "—",
                )
            )
