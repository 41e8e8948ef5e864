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


# The four per-layer sections are four fragments, their headings and explanations between them, outside: moving the
# layer slider reruns the four (``rerun_layer_parts``) and nothing else, not even the text around them.
LAYER_PARTS = ("moe_router_part", "moe_capacity_part", "moe_balance_part", "moe_special_part")
drawn_parts = list(LAYER_PARTS[:3])  # and the last when the corpus is there (a rerun of an unknown key is an error)


def rerun_layer_parts() -> None:
    """``on_change`` of the layer slider: rerun every per-layer part, in page order, not the slider's part alone."""
    st.rerun(drawn_parts)


def current_layer() -> int:
    """The layer the slider (drawn in the first part, before the others run) shows."""
    return int(st.session_state.get("moe_layer", 0))


# ---- router probabilities and combine weights ----
st.subheader(t("moe.h.router"))


@st.fragment(key=LAYER_PARTS[0])
def router_part() -> None:
    layer = st.slider(t("moe.layer"), 0, L - 1, 0, key="moe_layer", bind="query-params", on_change=rerun_layer_parts)
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
            col_labels=[f"expert {e}" for e in range(E)],
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

# ---- capacity ----
st.subheader(t("moe.h.capacity"))


@st.fragment(key=LAYER_PARTS[1])
def capacity_part() -> None:
    layer = current_layer()
    kept, routed = res.kept[layer], res.routed[layer]
    left, right = st.columns([3, 2])
    with left:
        ui.figure(
            views.load_bars(
                kept,
                routed - kept,
                res.capacity if capacity_factor > 0 else int(routed.sum()),
                expert_title=t("moe.expert"),
                kept_title=t("moe.kept"),
                dropped_title=t("moe.dropped"),
                capacity_title=t("moe.capacity.line"),
                count_title=t("moe.slots"),
            ),
            np.stack([kept, routed - kept]),
            f"moe-load-layer{layer}",
            key="moe_load",
            row_labels=["kept", "dropped"],
            col_labels=[f"expert {e}" for e in range(E)],
        )
    with right:
        st.metric(t("moe.metric.layer_dropped", layer=layer), int((routed - kept).sum()))
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


capacity_part()
ui.explain(t("moe.explain.capacity"))

# ---- load-balancing loss ----
st.subheader(t("moe.h.balance"))


@st.fragment(key=LAYER_PARTS[2])
def balance_part() -> None:
    layer = current_layer()
    f, P = res.f[layer], res.P[layer]
    left, right = st.columns([3, 2])
    with left:
        ui.figure(
            views.balance_bars(f, P, expert_title=t("moe.expert"), f_title=t("moe.f"), p_title=t("moe.P")),
            np.stack([f, P]),
            f"moe-balance-layer{layer}",
            key="moe_balance",
            row_labels=["f", "P"],
            col_labels=[f"expert {e}" for e in range(E)],
        )
    with right:
        st.metric(t("moe.metric.aux_layer", layer=layer), f"{res.aux_loss[layer]:.3f}")
        st.dataframe(
            ui.arrow(
                {
                    t("moe.expert"): np.arange(E),
                    "fᵢ": np.round(f, 3),
                    "Pᵢ": np.round(P, 3),
                    "E·fᵢ·Pᵢ": np.round(res.aux_terms[layer], 3),
                }
            ),
            hide_index=True,
            key="moe_balance_table",
        )


balance_part()
ui.explain(t("moe.explain.balance"))

# ---- specialisation ----
st.subheader(t("moe.h.special"))
try:
    table = svc.specialisation(backend)
except InputError as e:  # e.g. the Shakespeare corpus is not downloaded: the other sections still work
    ui.input_error(e)
else:

    @st.fragment(key=LAYER_PARTS[3])
    def special_part() -> None:
        layer = current_layer()
        nmi = info["metrics"].get("domain_expert_nmi", [])
        domain_names = [t(f"moe.sample.{d}") for d in svc.DOMAINS]
        left, right = st.columns([3, 2])
        with left:
            st.markdown(t("moe.special.title", layer=layer))
            ui.figure(
                views.domain_table(table[layer], domain_names, expert_title=t("moe.expert"), value_title="%"),
                table[layer],
                f"moe-specialisation-layer{layer}",
                key="moe_special",
                row_labels=list(svc.DOMAINS),
                col_labels=[f"expert {e}" for e in range(E)],
            )
        with right:
            if layer < len(nmi):
                st.metric(t("moe.metric.nmi", layer=layer), f"{nmi[layer]:.3f}", help=t("moe.metric.nmi.help"))
            st.caption(t("moe.special.caption"))

    special_part()
    drawn_parts.append(LAYER_PARTS[3])
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
