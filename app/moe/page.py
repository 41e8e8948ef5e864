"""MoE routing (2101.03961, 2401.04088, 2401.06066): which expert each token goes to, capacity and dropped tokens,
the load-balancing loss, specialisation by domain, and total vs active parameters."""

import numpy as np
import streamlit as st

from app.moe import service as svc
from app.moe import views
from app.shared import ui
from app.shared.i18n import InputError, t

ui.header("moe")
backend = st.session_state.get("backend", "torch")
SAMPLE_IDS = ("shakespeare", "python", "arithmetic", "mixed")

try:
    card = svc.card_numbers()
    demo = svc.appended()
except InputError as e:  # the model is not installed
    ui.input_error(e)
    st.stop()
ui.try_this(
    t("moe.try.do", cf=card["cf"], line=svc.APPENDED),
    t(
        "moe.try.see",
        c0=demo.capacity[0],
        c1=demo.capacity[1],
        n=demo.tokens,
        d0=demo.dropped[0],
        d1=demo.dropped[1],
        layers=card["layers"],
    ),
    t("moe.try.why", cf=card["cf"]),
)
ui.paper_vs_here(
    [(t(f"moe.pvh.{row}"), t(f"moe.pvh.{row}.paper"), t(f"moe.pvh.{row}.here", **card)) for row in svc.PVH_ROWS],
    [t(f"moe.pvh.dep.{d}", **card) for d in svc.PVH_DEPARTURES],
)
ui.reading_numbers()


def use_sample() -> None:
    choice = st.session_state.get("moe_sample")
    if choice in svc.SAMPLES:
        st.session_state["moe_text"] = svc.SAMPLES[choice]


# ---- input ----
sample_names = {s: t(f"moe.sample.{s}") for s in SAMPLE_IDS}
st.segmented_control(t("moe.sample"), SAMPLE_IDS, format_func=sample_names.get, key="moe_sample", on_change=use_sample)
text = st.text_area(
    t("moe.input"),
    svc.SAMPLES["mixed"],
    key="moe_text",
    bind="query-params",
    max_chars=svc.MAX_CHARS,
    height=100,
    help=t("moe.input.help", max_chars=svc.MAX_CHARS),
)
c1, c2 = st.columns([1, 3])
top_k = (
    c1.segmented_control(
        t("moe.top_k"), (1, 2), default=1, key="moe_topk", bind="query-params", help=t("moe.top_k.help")
    )
    or 1
)
capacity_factor = c2.slider(
    t("moe.capacity"), 0.0, 3.0, 1.25, step=0.05, key="moe_capacity", bind="query-params", help=t("moe.capacity.help")
)

try:
    res = svc.analyse(text, int(top_k), float(capacity_factor), backend)
except InputError as e:
    ui.input_error(e)
    st.stop()

L, T, E = res.probs.shape
m = st.columns(4)
m[0].metric(t("moe.metric.tokens"), T)
m[1].metric(t("moe.metric.capacity"), t("moe.unlimited") if capacity_factor <= 0 else res.capacity)
m[2].metric(t("moe.metric.dropped"), res.dropped_count, help=t("moe.metric.dropped.help"))
m[3].metric(t("moe.metric.aux"), f"{res.aux_loss.mean():.3f}", help=t("moe.metric.aux.help"))

# ---- tokens by expert ----
st.subheader(t("moe.h.tokens"))
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
st.caption(t("moe.strip.caption"))
ui.readout(res)

info = svc.card()

layer_titles = tuple(t("moe.strip.layer.short", layer=i) for i in range(L))
experts = [f"expert {e}" for e in range(E)]

# ---- router probabilities and combine weights ----
st.subheader(t("moe.h.router"))


@st.fragment(key="moe_router_part")
def router_part() -> None:
    """The one per-layer view (the sections below show every layer side by side): the layer slider reruns it alone."""
    layer = st.slider(t("moe.layer"), 0, L - 1, 0, key="moe_layer", bind="query-params")
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
            col_labels=experts,
        )
    with right:
        rows = {t("moe.token"): list(res.tokens)}
        for r in range(res.top_k):
            rows[t("moe.col.expert", rank=r + 1)] = res.index[layer, :, r]
            rows[t("moe.col.weight", rank=r + 1)] = np.round(res.combine[layer, :, r], 3)
            rows[t("moe.col.dropped", rank=r + 1)] = res.dropped[layer, :, r]
        st.dataframe(ui.arrow(rows), height=360, hide_index=True, key="moe_combine")
        st.caption(t(f"moe.combine.caption.{res.top_k}"))


router_part()
ui.explain(t("moe.explain.routing"))


def metric_per_layer(key: str, values, **kwargs) -> None:
    """One ``st.metric`` per layer, side by side: label ``key`` with the layer, value ``values[layer]``."""
    for i, (col, value) in enumerate(zip(st.columns(L), values)):
        col.metric(t(key, layer=i), value, **kwargs)


def per_layer_rows(*names: str) -> list[str]:
    """Row labels of a download that stacks one (E,) row per layer and name: 'layer 0 kept', 'layer 0 dropped', ..."""
    return [f"layer {i} {n}" for i in range(L) for n in names]


# ---- capacity ----
st.subheader(t("moe.h.capacity"))
dropped_slots = res.routed - res.kept  # (L, E)
ui.figure(
    views.load_bars(
        res.kept,
        dropped_slots,
        res.capacity if capacity_factor > 0 else int(res.routed.sum(axis=1).max()),
        layer_titles=layer_titles,
        expert_title=t("moe.expert"),
        kept_title=t("moe.kept"),
        dropped_title=t("moe.dropped"),
        capacity_title=t("moe.capacity.line"),
        count_title=t("moe.slots"),
    ),
    np.stack([res.kept, dropped_slots], axis=1).reshape(2 * L, E),
    "moe-load",
    key="moe_load",
    row_labels=per_layer_rows("kept", "dropped"),
    col_labels=experts,
)
metric_per_layer("moe.metric.layer_dropped", [int(n) for n in dropped_slots.sum(axis=1)])
st.markdown(
    t(
        "moe.capacity.formula",
        cf=capacity_factor,
        n=T,
        k=res.top_k,
        E=E,
        capacity=res.capacity if capacity_factor > 0 else "∞",
    )
)
ui.explain(t("moe.explain.capacity"))

# ---- load-balancing loss ----
st.subheader(t("moe.h.balance"))
ui.figure(
    views.balance_bars(
        res.f, res.P, layer_titles=layer_titles, expert_title=t("moe.expert"), f_title=t("moe.f"), p_title=t("moe.P")
    ),
    np.stack([res.f, res.P], axis=1).reshape(2 * L, E),
    "moe-balance",
    key="moe_balance",
    row_labels=per_layer_rows("f", "P"),
    col_labels=experts,
)
metric_per_layer("moe.metric.aux_layer", [f"{v:.3f}" for v in res.aux_loss])
terms = {"fᵢ": res.f, "Pᵢ": res.P, "E·fᵢ·Pᵢ": res.aux_terms}
st.dataframe(
    ui.arrow(
        {
            t("moe.layer"): [i for i in range(L) for _ in terms],
            t("moe.term"): [name for _ in range(L) for name in terms],
            **{
                f"{t('moe.expert')} {e}": [round(float(v[i, e]), 3) for i in range(L) for v in terms.values()]
                for e in range(E)
            },
        }
    ),
    hide_index=True,
    key="moe_balance_table",
)
ui.explain(t("moe.explain.balance"))

# ---- specialisation ----
st.subheader(t("moe.h.special"))
try:
    table = svc.specialisation(backend)
except InputError as e:  # e.g. the Shakespeare corpus is not downloaded: the other sections still work
    ui.input_error(e)
else:
    nmi = info["metrics"].get("domain_expert_nmi", [])
    st.markdown(t("moe.special.title"))
    ui.figure(
        views.domain_table(
            table,
            [t(f"moe.sample.{d}") for d in svc.DOMAINS],
            layer_titles=layer_titles,
            expert_title=t("moe.expert"),
            value_title="%",
        ),
        table.reshape(-1, E),
        "moe-specialisation",
        key="moe_special",
        row_labels=[f"layer {i} {d}" for i in range(L) for d in svc.DOMAINS],
        col_labels=experts,
    )
    metric_per_layer("moe.metric.nmi", [f"{v:.3f}" for v in nmi], help=t("moe.metric.nmi.help"))
    st.caption(t("moe.special.caption"))
    ui.explain(t("moe.explain.special"))

# ---- parameters ----
st.subheader(t("moe.h.params"))
ours = t("moe.params.ours", E=E, shared=int(info["config"].get("n_shared", 0)), k=int(info["config"]["top_k"]))
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


def human(n: float) -> str:
    if np.isnan(n):
        return "—"
    for unit, size in (("T", 1e12), ("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if n >= size:
            return f"{n / size:.3g}{unit}"
    return str(int(n))


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
ratio = [human(a) if np.isnan(a) else f"{a / tt:.1%}" for a, tt in zip(active, total)]
st.dataframe(
    ui.arrow(
        {
            t("moe.model"): names,
            t("moe.total"): [human(v) for v in total],
            t("moe.active"): [human(v) for v in active],
            t("moe.share"): ratio,
            t("moe.note"): notes,
        }
    ),
    hide_index=True,
    key="moe_params_table",
)
st.caption(t("moe.params.caption"))
ui.explain(t("moe.explain.params"))
