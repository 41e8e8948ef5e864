"""Balancing the experts without an auxiliary loss: the load over training and the selection biases of
``switch-auxfree`` beside ``switch``, and how each routes the text."""

import streamlit as st

from app.mla import service as svc
from app.mla import views
from app.shared import ui
from app.shared.i18n import InputError, layer_head_label, t
from app.shared.services import checkpoint


def load_over_training() -> None:
    """The section's heading, the cards' held-out loss and worst load, the load over training, the final biases."""
    st.header(t("mla.balance.title"))
    st.markdown(t("mla.balance.caption"))
    try:
        b = svc.balance()
    except InputError as e:
        ui.input_error(e)
        return
    L = b.curve.shape[0]
    layers = [layer_head_label(layer=i) for i in range(L)]
    m = b.val_loss
    c1, c2, c3, c4 = st.columns(4)
    if svc.SWITCH in m:
        c1.metric(t("mla.m.val_loss", name=svc.SWITCH), f"{m[svc.SWITCH]:.4f}", help=t("mla.m.val_loss.help"))
    c2.metric(
        t("mla.m.val_loss", name=svc.AUXFREE),
        f"{m[svc.AUXFREE]:.4f}",
        f"{m[svc.AUXFREE] - m[svc.SWITCH]:+.4f}" if svc.SWITCH in m else None,
        delta_color="inverse",
        help=t("mla.m.val_loss.help"),
    )
    held, worst = b.held_out_routed, b.cv_max
    if svc.SWITCH in worst:
        c3.metric(t("mla.m.cv_max", name=svc.SWITCH), f"{worst[svc.SWITCH]:.4f}", help=t("mla.m.cv.help"))
    c4.metric(
        t("mla.m.cv_max", name=svc.AUXFREE),
        f"{worst[svc.AUXFREE]:.4f}",
        f"{worst[svc.AUXFREE] - worst[svc.SWITCH]:+.4f}" if svc.SWITCH in worst else None,
        delta_color="inverse",
        help=t("mla.m.cv.help"),
    )
    st.caption(t("mla.balance.curves", every=b.every, N=b.batch_tokens, floor=b.noise_floor))
    ui.figure(
        views.load_curves(
            b.steps,
            b.curve,
            b.switch_curve,
            held,
            b.noise_floor,
            layer_names=layers,
            auxfree_name=svc.AUXFREE,
            switch_name=svc.SWITCH,
            held_out_name=t("mla.held_out"),
            floor_name=t("mla.floor"),
            x_title=t("mla.step"),
            y_title=t("mla.load_cv"),
        ),
        {
            "step": b.steps,
            "auxfree_load_cv": b.curve,
            "switch_load_cv": b.switch_curve,
            "held_out_routed_cv": held,
            "random_router_cv": b.noise_floor,
        },
        "mla-load-over-training",
        key="mla_load_curves",
    )
    if b.switch_curve is None:
        st.caption(t("mla.balance.no_switch_curve"))
    elif b.twin:
        shipped = b.val_loss.get(svc.SWITCH)
        st.caption(t("mla.balance.twin", loss=b.twin["val_loss"], cv=b.twin["load_cv_max"], shipped=shipped))
    st.caption(t("mla.balance.bias", gamma=b.gamma))
    ui.figure(
        views.bias_map(b.bias, layer_labels=layers, expert_title=t("mla.expert"), value_title="b"),
        b.bias,
        "mla-selection-bias",
        key="mla_bias",
        row_labels=layers,
        col_labels=[str(e) for e in range(b.bias.shape[1])],
    )


@st.fragment
def routing(text: str, backend: str) -> None:
    """Each installed router on the text in one MoE layer: the expert of every token (and, for the biased one,
    where the bias changed it), the load per expert and its spread."""
    st.subheader(t("mla.route.title"))
    st.markdown(t("mla.route.caption"))
    try:
        r = svc.route(text, backend)
    except InputError as e:
        ui.input_error(e)
        return
    L = r.models[0].expert.shape[0]
    E = r.models[0].probs.shape[-1]
    layer = st.segmented_control(
        t("mla.moe_layer"), list(range(L)), default=0, required=True, key="mla_moe_layer", bind="query-params"
    )
    for name in r.missing:
        ui.input_error(checkpoint(name).missing())
    ui.markup(views.expert_legend(E, t("mla.expert")))
    strips = []
    for m in r.models:
        strips.append(
            views.routing_strip(
                m.pieces,
                m.expert[layer],
                None if m.changed is None else m.changed[layer],
                label=m.name,
                expert_word=t("mla.expert"),
                changed_word=t("mla.route.changed_word"),
            )
        )
    ui.markup("".join(strips))
    aux = next((m for m in r.models if m.changed is not None), None)
    cols = st.columns(4)
    for col, m in zip(cols, r.models):
        c = m.counts[layer]
        col.metric(t("mla.m.route_cv", name=m.name), f"{c.std() / c.mean():.2f}", help=t("mla.m.route_cv.help"))
    if aux is not None:
        cols[2].metric(
            t("mla.m.changed"),
            f"{int(aux.changed[layer].sum())} / {aux.changed.shape[1]}",
            help=t("mla.m.changed.help"),
        )
        cols[3].metric(t("mla.m.weight_gap"), f"{aux.weight_gap:.1e}", help=t("mla.m.weight_gap.help"))
    ui.figure(
        views.expert_counts(
            [m.counts[layer] for m in r.models],
            [m.name for m in r.models],
            expert_title=t("mla.expert"),
            y_title=t("mla.tokens"),
        ),
        {m.name: m.counts for m in r.models},
        f"mla-expert-counts-l{layer}",
        key="mla_counts",
    )
    st.caption(t("mla.route.note"))
    ui.readout(r)
    ui.page_link("moe", t("mla.moe_link"))
