"""The absorbed inference path: W_UK folded into the query and W_UV into the output give the naive path's logits
from the cached latent alone, and why that needs RoPE decoupled from the content keys."""

import streamlit as st

from app.mla import service as svc
from app.mla import views
from app.shared import ui
from app.shared.formats import percent
from app.shared.i18n import InputError, t


def absorbed_path(a) -> None:
    """The naive and absorbed paths compared on the latent view's forward pass ``a`` (no token changes these; the
    next tokens on both paths at each token ride in the latent view's figure, above)."""
    st.subheader(t("mla.absorb.title"))
    st.markdown(t("mla.absorb.caption"))
    metric_row = ui.row()
    metric_row.metric(t("mla.m.max_diff"), f"{a.max_diff:.2e}", help=t("mla.m.max_diff.help", scale=a.scale))
    metric_row.metric(t("mla.m.top1"), f"{a.top1_agree:.0%}", help=t("mla.m.top1.help", n=len(a.ids)))
    metric_row.metric(t("mla.m.naive_ms"), f"{a.ms:.1f} ms", help=t("mla.m.ms.help"))
    metric_row.metric(t("mla.m.absorbed_ms"), f"{a.absorbed_ms:.1f} ms", help=t("mla.m.ms.help"))
    st.caption(t("mla.absorb.next"))
    ui.readout(a)


@st.fragment
def decoupled_rope(text: str) -> None:
    """One layer and head's content scores, exact and through the absorbed path, with RoPE on the content keys (the
    design MLA avoids), and the absorbed path's error by key position with and without it."""
    s = svc.shape()
    st.subheader(t("mla.rope.title"))
    st.markdown(t("mla.rope.caption"))
    if not svc.MODEL.available:
        ui.input_error(svc.MODEL.missing())
        return
    c_layer, c_head = st.columns(2)
    layer = c_layer.segmented_control(
        t("mla.layer"), list(range(s.n_layers)), default=0, required=True, key="mla_rope_layer", bind="query-params"
    )
    head = c_head.segmented_control(
        t("mla.head"), list(range(s.n_heads)), default=0, required=True, key="mla_head", bind="query-params"
    )
    try:
        r = svc.rope_check(text, layer)
        a = svc.latent(text)
    except InputError as e:
        ui.input_error(e)
        return
    m1, m2 = st.columns(2)
    m1.metric(t("mla.m.decoupled_error"), f"{r.decoupled_error:.1e}", help=t("mla.m.rope_error.help"))
    m2.metric(t("mla.m.coupled_error"), percent(r.coupled_error), help=t("mla.m.rope_error.help"))
    ui.figure(
        views.scores_pair(
            r.coupled[head],
            r.coupled_absorbed[head],
            list(a.pieces),
            titles=(t("mla.rope.exact"), t("mla.rope.attempt")),
            query_title=t("view.query"),
            key_title=t("view.key"),
            value_title=t("mla.score"),
        ),
        {"exact": r.coupled[head], "absorbed_attempt": r.coupled_absorbed[head], "tokens": list(a.pieces)},
        f"mla-rope-l{layer}-h{head}",
        key="mla_rope_scores",
    )
    st.caption(t("mla.rope.by_key"))
    decoupled_gap = abs(r.decoupled_absorbed - r.decoupled).max(axis=(0, 1))
    ui.figure(
        views.error_by_key(
            r.error_by_key,
            decoupled_gap,
            coupled_name=t("mla.rope.coupled"),
            decoupled_name=t("mla.rope.decoupled"),
            x_title=t("mla.key_position"),
            y_title=t("mla.abs_error"),
        ),
        {"coupled": r.error_by_key, "decoupled": decoupled_gap},
        f"mla-rope-error-l{layer}",
        key="mla_rope_error",
    )
    st.markdown(t("mla.rope.why"))
