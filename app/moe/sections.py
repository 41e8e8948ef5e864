"""The MoE page's sections, in the order of the Switch Transformer paper and its successors: which expert each token
goes to; the router's probabilities and combine weights; the capacity and the tokens it drops; the load-balancing
loss; what the experts specialise in (Mixtral's and DeepSeekMoE's question); total against active parameters.

k and the capacity factor sit in a fragment of their own (``controls``) and rerun only the parts that route with them
(``PARTS``: the tokens, the router's view, the capacity, the balance and the intervention), not the text box, the
specialisation or the parameters; each part routes the text with the noted values (``routed``, a cached call)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.moe import service as svc
from app.moe import views
from app.shared import formats, ui
from app.shared.i18n import InputError, t

CHOICE = "_moe_choice"  # {control: value} as the controls last drew them or a callback noted them, for the parts
CONTROLS = ("moe_topk", "moe_capacity")
PARTS = ("moe_part_tokens", "moe_router_part", "moe_part_capacity", "moe_part_balance", "moe_ko_part")


@st.fragment(key="moe_part_controls")
def controls() -> None:
    """k experts per token and the capacity factor; a move reruns the parts that route with them."""
    c1, c2 = st.columns([1, 3])
    c1.segmented_control(
        t("moe.top_k"), (1, 2), default=1, help=t("moe.top_k.help"), **ui.drives("moe_topk", CHOICE, PARTS)
    )
    c2.slider(
        t("moe.capacity"), 0.0, 3.0, 1.25, step=0.05, help=t("moe.capacity.help"),
        **ui.drives("moe_capacity", CHOICE, PARTS),
    )  # fmt: skip
    ui.note_controls(CHOICE, CONTROLS)


def chosen() -> tuple[int, float]:
    """(k, capacity factor) as the controls chose them (k 1 where the buttons were cleared)."""
    c = st.session_state[CHOICE]
    return int(c["moe_topk"] or 1), float(c["moe_capacity"])


def routed(text: str, backend: str) -> tuple[svc.Routing, float] | None:
    """The text routed with the chosen k and capacity factor, and that factor; None, with the message shown, where
    it cannot be (the page stops on it in a full run, so a part meets it only in a run of its own)."""
    top_k, capacity_factor = chosen()
    try:
        return svc.analyse(text, top_k, capacity_factor, backend), capacity_factor
    except InputError as e:
        ui.input_error(e)
        return None


def _layer_titles(res: svc.Routing) -> tuple[str, ...]:
    return tuple(t("moe.strip.layer.short", layer=i) for i in range(res.probs.shape[0]))


def _experts(res: svc.Routing) -> list[str]:
    return [f"expert {e}" for e in range(res.n_experts)]


def _metric_per_layer(n_layers: int, key: str, values, **kwargs) -> None:
    """One ``st.metric`` per layer, side by side: label ``key`` with the layer, value ``values[layer]`` (a column
    each of the ``n_layers``, left empty where ``values`` ends early)."""
    for i, (col, value) in enumerate(zip(st.columns(n_layers), values)):
        col.metric(t(key, layer=i), value, **kwargs)


def _per_layer_rows(n_layers: int, *names: str) -> list[str]:
    """Row labels of a download that stacks one (E,) row per layer and name: 'layer 0 kept', 'layer 0 dropped', ..."""
    return [f"layer {i} {n}" for i in range(n_layers) for n in names]


# ---- tokens by expert ------------------------------------------------------------------------------------------------


@st.fragment(key=PARTS[0])
def tokens(text: str, backend: str) -> None:
    if (got := routed(text, backend)) is None:
        return
    res, capacity_factor = got
    L, T, E = res.probs.shape
    m = st.columns(4)
    m[0].metric(t("moe.metric.tokens"), T)
    m[1].metric(t("moe.metric.capacity"), t("moe.unlimited") if capacity_factor <= 0 else res.capacity)
    m[2].metric(t("moe.metric.dropped"), res.dropped_count, help=t("moe.metric.dropped.help"))
    m[3].metric(t("moe.metric.aux"), f"{res.aux_loss.mean():.3f}", help=t("moe.metric.aux.help"))
    st.subheader(t("moe.h.tokens"))
    token_strips(res)
    st.caption(t("moe.strip.caption"))
    ui.readout(res)


# ---- router probabilities and combine weights ------------------------------------------------------------------------


def router(text: str, backend: str) -> None:
    st.subheader(t("moe.h.router"))
    _router_part(text, backend)
    ui.explain(t("moe.explain.routing"))


@st.fragment(key=PARTS[1])
def _router_part(text: str, backend: str) -> None:
    """The one per-layer view (the sections below show every layer side by side): the layer slider reruns it alone."""
    if (got := routed(text, backend)) is None:
        return
    res = got[0]
    layer = st.slider(t("moe.layer"), 0, res.probs.shape[0] - 1, 0, key="moe_layer", bind="query-params")
    left, right = st.columns([3, 2])
    with left:
        ui.figure(
            views.router_heatmap(
                res.probs[layer],
                res.tokens,
                res.index[layer, :, : res.top_k],
                token_title=t("moe.token"),
                expert_title=t("moe.expert"),
                value_title=t("moe.probability"),
            ),
            res.probs[layer],
            f"moe-router-layer{layer}",
            key="moe_router",
            row_labels=list(res.tokens),
            col_labels=_experts(res),
        )
    with right:
        rows = {t("moe.token"): list(res.tokens)}
        for r in range(res.top_k):
            rows[t("moe.col.expert", rank=r + 1)] = res.index[layer, :, r]
            rows[t("moe.col.weight", rank=r + 1)] = np.round(res.combine[layer, :, r], 3)
            rows[t("moe.col.dropped", rank=r + 1)] = res.dropped[layer, :, r]
        st.dataframe(ui.arrow(rows), height=360, hide_index=True, key="moe_combine")
        st.caption(t(f"moe.combine.caption.{res.top_k}"))


# ---- capacity --------------------------------------------------------------------------------------------------------


def capacity(text: str, backend: str) -> None:
    st.subheader(t("moe.h.capacity"))
    _capacity_part(text, backend)
    ui.explain(t("moe.explain.capacity"))


@st.fragment(key=PARTS[2])
def _capacity_part(text: str, backend: str) -> None:
    if (got := routed(text, backend)) is None:
        return
    res, capacity_factor = got
    L, T, E = res.probs.shape
    dropped_slots = res.routed - res.kept  # (L, E)
    ui.figure(
        views.load_bars(
            res.kept,
            dropped_slots,
            res.capacity if capacity_factor > 0 else int(res.routed.sum(axis=1).max()),
            layer_titles=_layer_titles(res),
            expert_title=t("moe.expert"),
            kept_title=t("moe.kept"),
            dropped_title=t("moe.dropped"),
            capacity_title=t("moe.capacity.line"),
            count_title=t("moe.slots"),
        ),
        np.stack([res.kept, dropped_slots], axis=1).reshape(2 * L, E),
        "moe-load",
        key="moe_load",
        row_labels=_per_layer_rows(L, "kept", "dropped"),
        col_labels=_experts(res),
    )
    _metric_per_layer(L, "moe.metric.layer_dropped", [int(n) for n in dropped_slots.sum(axis=1)])
    shown = res.capacity if capacity_factor > 0 else "∞"
    st.markdown(t("moe.capacity.formula", cf=capacity_factor, n=T, k=res.top_k, E=E, capacity=shown))


# ---- load-balancing loss ---------------------------------------------------------------------------------------------


def balance(text: str, backend: str) -> None:
    st.subheader(t("moe.h.balance"))
    _balance_part(text, backend)
    ui.explain(t("moe.explain.balance"))
    # DeepSeek-V3's loss-free balancing, as switch-auxfree (shown on the DeepSeek-V3 page) does it, and where it departs
    ui.explain(t("moe.explain.auxfree", cf=svc.card()["config"]["capacity_factor"]))
    ui.page_link("mla", t("moe.auxfree.link"))


@st.fragment(key=PARTS[3])
def _balance_part(text: str, backend: str) -> None:
    if (got := routed(text, backend)) is None:
        return
    res = got[0]
    L, E = res.probs.shape[0], res.n_experts
    ui.figure(
        views.balance_bars(
            res.f,
            res.P,
            layer_titles=_layer_titles(res),
            expert_title=t("moe.expert"),
            f_title=t("moe.f"),
            p_title=t("moe.P"),
        ),
        np.stack([res.f, res.P], axis=1).reshape(2 * L, E),
        "moe-balance",
        key="moe_balance",
        row_labels=_per_layer_rows(L, "f", "P"),
        col_labels=_experts(res),
    )
    _metric_per_layer(L, "moe.metric.aux_layer", [f"{v:.3f}" for v in res.aux_loss])
    # one row per layer and expert, the terms as columns: five narrow columns fit a phone (experts as columns did not)
    terms = {"fᵢ": res.f, "Pᵢ": res.P, "E·fᵢ·Pᵢ": res.aux_terms}
    st.dataframe(
        ui.arrow(
            {
                t("moe.layer"): [i for i in range(L) for _ in range(E)],
                t("moe.expert"): [e for _ in range(L) for e in range(E)],
                **{name: [round(float(v), 3) for v in values.ravel()] for name, values in terms.items()},
            }
        ),
        hide_index=True,
        key="moe_balance_table",
    )


# ---- specialisation --------------------------------------------------------------------------------------------------


def specialisation(res: svc.Routing, backend: str) -> None:
    L, E = res.probs.shape[0], res.n_experts
    st.subheader(t("moe.h.special"))
    try:
        table = svc.specialisation(backend)
    except InputError as e:  # e.g. the Shakespeare corpus is not downloaded: the other sections still work
        ui.input_error(e)
        return
    nmi = svc.card()["metrics"].get("domain_expert_nmi", [])
    st.markdown(t("moe.special.title"))
    ui.figure(
        views.domain_table(
            table,
            [t(f"moe.sample.{d}") for d in svc.DOMAINS],
            layer_titles=_layer_titles(res),
            expert_title=t("moe.expert"),
            value_title="%",
        ),
        table.reshape(-1, E),
        "moe-specialisation",
        key="moe_special",
        row_labels=[f"layer {i} {d}" for i in range(L) for d in svc.DOMAINS],
        col_labels=_experts(res),
    )
    _metric_per_layer(L, "moe.metric.nmi", [f"{v:.3f}" for v in nmi], help=t("moe.metric.nmi.help"))
    st.caption(t("moe.special.caption"))
    ui.explain(t("moe.explain.special"))


# ---- total against active parameters ---------------------------------------------------------------------------------


def parameters(res: svc.Routing) -> None:
    st.subheader(t("moe.h.params"))
    info = svc.card()
    ours = t(
        "moe.params.ours",
        E=res.n_experts,
        shared=int(info["config"].get("n_shared", 0)),
        k=int(info["config"]["top_k"]),
    )
    names = [ours, t("moe.params.dense"), *[p.name for p in svc.PUBLISHED]]
    total = [info["params"], info["dense_params"] or np.nan, *[p.total for p in svc.PUBLISHED]]
    active = [
        info["active_params"] or np.nan,
        info["dense_params"] or np.nan,
        *[np.nan if p.active is None else p.active for p in svc.PUBLISHED],
    ]
    notes = [
        t("moe.params.note.ours"),
        t("moe.params.note.dense"),
        *[t("moe.params.note.published", E=p.experts, k=p.k, shared=p.shared, arxiv=p.arxiv) for p in svc.PUBLISHED],
    ]
    ui.figure(
        views.params_chart(
            names,
            np.array(total, float),
            np.array(active, float),
            total_title=t("moe.total"),
            active_title=t("moe.active"),
            axis_title=t("moe.params.axis"),
        ),
        np.array([total, active], float),
        "moe-parameters",
        key="moe_params",
        row_labels=["total", "active"],
        col_labels=names,
    )
    count = formats.short_count
    ratio = [count(a) if np.isnan(a) else f"{a / tt:.1%}" for a, tt in zip(active, total)]
    ui.table(  # a static table wraps its long cells: on a phone the grid cut its right-hand columns off
        {
            t("moe.model"): names,
            t("moe.total"): [count(v) for v in total],
            t("moe.active"): [count(v) for v in active],
            t("moe.share"): ratio,
            t("moe.note"): notes,
        }
    )
    st.caption(t("moe.params.caption"))
    ui.explain(t("moe.explain.params"))


def token_strips(res) -> None:
    """The experts' legend, then per layer the tokens coloured by the expert each went to (dropped ones struck)."""
    L, _, E = res.probs.shape
    ui.markup(views.legend(E, t("moe.expert")))
    strips = [
        views.expert_strip(
            res.tokens,
            res.index[i, :, 0],
            res.probs[i],
            res.dropped[i, :, 0],
            label=t("moe.strip.layer", layer=i, dropped=int(res.dropped[i, :, : res.top_k].sum())),
            dropped_word=t("moe.dropped"),
            expert_word=t("moe.expert"),
        )
        for i in range(L)
    ]
    ui.markup("".join(strips))
