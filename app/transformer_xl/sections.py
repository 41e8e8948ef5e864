"""The Transformer-XL page's sections (1901.02860), in the page's order: segment-level recurrence — the segments and
the memory a query reads, the loss with and without it, the reach growing with depth (§3.2) — then relative positions
— the four terms of a score, and why absolute positions collide across segments (§3.3) — and the measured evaluation
speed (§4); then the paper against this model and its card."""

from __future__ import annotations

import streamlit as st

from app.shared import ui
from app.shared.formats import percent
from app.shared.html import esc
from app.shared.i18n import current_lang, layer_head_label, t
from app.shared.tokens import visible
from app.transformer_xl import service as svc
from app.transformer_xl import views

# ---- 1 · segments and memory ----------------------------------------------------------------------------------------
CHOICE = "_txl_choice"  # {control: value} as the controls last drew them or a callback noted them, for the parts
VIEWS = ["txl_memory_part", "txl_terms_part"]  # what the layer and head drive: the memory bars and the terms
QUERY = "txl_query"  # a link's query in the segment: where both figures' own sliders open


def segments_and_memory(a: svc.Analysis, text: str, backend: str, shape: svc.Shape) -> None:
    """The text cut into segments of L, the query's segment and the memory it reads, and where its attention goes."""
    st.subheader(t("txl.seg.title"))
    st.markdown(t("txl.seg.caption", L=shape.segment, M=shape.memory, n=len(a.segments), T=len(a.ids)))
    memory_controls(a, shape)
    st.caption(t("txl.seg.legend"))  # the strip's legend, above it: the controls do not change it
    # the strip itself, once per text; the part colours its segment and memory with a style rule
    ui.markup(views.segments_strip_html(list(a.pieces), shape.segment, segment_name=t("txl.segment.short")))
    memory_view(a, text, backend, shape)


@st.fragment(key="txl_controls_part")
def memory_controls(a: svc.Analysis, shape: svc.Shape) -> None:
    """The segment, layer and head; they rerun the memory bars and the four terms (``ui.rerun_parts``). The query
    moves on those figures' own sliders, in the browser."""
    n_seg, N, H = len(a.segments), shape.n_layers, shape.n_heads
    c_s, c_l, c_h = st.columns([3, 2, 2])

    def drives(key: str, parts: list[str] = VIEWS) -> dict:
        return ui.drives(key, CHOICE, parts)

    segment = ui.slider(c_s, t("txl.segment"), 0, n_seg - 1, 2, **drives("txl_segment"))
    layer = c_l.segmented_control(t("view.layer"), list(range(N)), default=0, required=True, **drives("txl_layer"))
    head = c_h.segmented_control(t("view.head"), list(range(H)), default=0, required=True, **drives("txl_head"))
    st.session_state[CHOICE] = {"txl_segment": segment, "txl_layer": layer, "txl_head": head}


def choice() -> tuple[int, int, int]:
    """(segment, layer, head) as the controls chose them."""
    c = st.session_state[CHOICE]
    return c["txl_segment"], c["txl_layer"], c["txl_head"]


def opening_query(a: svc.Analysis, segment: int) -> int:
    """The query the figures open on: the link's ``txl_query``, or 4, within the segment."""
    T_seg = a.segments[segment].pattern.shape[2]
    return ui.query_int(QUERY, min(4, T_seg - 1), 0, T_seg - 1)


@st.fragment(key="txl_memory_part")
def memory_view(a: svc.Analysis, text: str, backend: str, shape: svc.Shape) -> None:
    """The segment and its memory among the segments, and every query's attention over memory and current keys,
    moved on the figure's own slider (in the browser)."""
    segment, layer, head = choice()
    marks, on_memory, fig, data = _memory_view(
        text, backend, segment, layer, head, opening_query(a, segment), current_lang()
    )
    ui.markup(marks)
    st.metric(t("txl.m.on_memory_layer", layer=layer_head_label(layer)), on_memory,
              help=t("txl.m.on_memory_layer.help"))  # fmt: skip
    st.caption(t("txl.seg.bars", lh=layer_head_label(layer, head)))
    ui.figure(fig, data, f"txl-attention-s{segment}-l{layer}h{head}", key="txl_attention")
    st.caption(t("txl.seg.readout.help", M=shape.memory, L=shape.segment))


@st.cache_resource(show_spinner=False, max_entries=64)
def _memory_view(text: str, backend: str, segment: int, layer: int, head: int, active: int, lang: str):
    """The style rule that marks the segment and its memory on the strip, the layer's share of attention on memory,
    and every query's attention figure with its numbers for one segment, layer and head, in the reader's language
    (``lang`` keys what ``t`` writes): built once for every reader, as ``_terms_view``."""
    a = svc.analyse(text, backend)
    shape = svc.shape()
    seg = a.segments[segment]
    marks = views.segments_marks_css(segment, seg.memory_start, shape.segment)
    T_seg = seg.pattern.shape[2]
    weights = seg.pattern[layer, head, :, : seg.n_memory + T_seg]  # (T_seg, keys)
    keys = list(a.pieces[seg.memory_start : seg.start + T_seg])
    all_heads = seg.pattern[layer, :, :, : seg.n_memory].sum(-1).mean()
    on_memory = weights[:, : seg.n_memory].sum(-1)
    readouts = [
        t("txl.seg.readout", token=esc(visible(a.pieces[seg.start + q])), p=seg.start + q, n=seg.n_memory, k=q + 1,
          on=percent(float(on_memory[q])))
        for q in range(T_seg)
    ]  # fmt: skip
    fig = views.memory_steps(
        weights,
        keys,
        seg.n_memory,
        readouts=readouts,
        key_title=t("view.key"),
        value_title=t("view.weight"),
        memory_name=t("txl.memory"),
        current_name=t("txl.current"),
        query_name=t("txl.query.bar"),
        active=active,
        prefix=t("txl.query") + " ",
    )
    data = {"keys": keys, "positions": list(range(seg.memory_start, seg.start + T_seg)), "weights": weights,
            "memory": seg.n_memory}  # fmt: skip
    return marks, percent(all_heads), fig, data


# ---- 2 · loss with and without memory -------------------------------------------------------------------------------
def loss_with_and_without_memory(a: svc.Analysis, shape: svc.Shape) -> None:
    """Bits per character with the memory carried and with it cleared, per token and by place in the segment."""
    L = shape.segment
    st.subheader(t("txl.loss.title"))
    st.markdown(t("txl.loss.caption", L=L, first=svc.FIRST))
    first = a.targets_in_segment < svc.FIRST
    later = ~first
    with_bpc, cleared_bpc = a.bpc(a.loss_memory), a.bpc(a.loss_cleared)
    metric_row = ui.row()
    metric_row.metric(t("txl.m.bpc_memory"), f"{with_bpc:.3f}")
    metric_row.metric(
        t("txl.m.bpc_cleared"),
        f"{cleared_bpc:.3f}",
        f"{cleared_bpc - with_bpc:+.3f}",
        delta_color="off",
        delta_arrow="off",
        help=t("txl.m.bpc_cleared.help"),
    )
    gain_first = a.bpc(a.loss_cleared, first) - a.bpc(a.loss_memory, first)
    gain_later = a.bpc(a.loss_cleared, later) - a.bpc(a.loss_memory, later)
    metric_row.metric(
        t("txl.m.gain_first", first=svc.FIRST),
        f"{gain_first:+.3f}",
        help=t("txl.m.gain_first.help", first=svc.FIRST, later=f"{gain_later:+.3f}"),
    )
    st.caption(t("txl.loss.cells"))
    ui.markup(
        views.loss_columns_html(
            list(a.pieces),
            a.loss_memory,
            a.loss_cleared,
            L,
            with_name=t("txl.with"),
            cleared_name=t("txl.cleared"),
            unit=t("txl.nats"),
        )
    )
    places, with_mean, cleared_mean = a.by_place()
    st.caption(t("txl.loss.places", n=len(a.segments) - 1))
    ui.figure(
        views.place_lines(
            with_mean,
            cleared_mean,
            with_name=t("txl.with"),
            cleared_name=t("txl.cleared"),
            place_title=t("txl.place"),
            value_title=t("txl.loss_nats"),
        ),
        {"place": places, "loss_with_memory": with_mean, "loss_memory_cleared": cleared_mean},
        "txl-loss-by-place",
        key="txl_loss",
    )
    ui.reading_numbers()
    ui.readout(a)


# ---- 3 · reach through depth ----------------------------------------------------------------------------------------
@st.fragment
def reach_through_depth(a: svc.Analysis, text: str, backend: str, shape: svc.Shape) -> None:
    """How far back each layer reaches, directly and through the layers below, against the bound N·M + L − 1."""
    L, M, N = shape.segment, shape.memory, shape.n_layers
    st.subheader(t("txl.reach.title"))
    st.markdown(t("txl.reach.caption", L=L, M=M, N=N, direct=M + L - 1, top=N * M + L - 1))
    threshold = st.select_slider(
        t("txl.threshold"),
        svc.THRESHOLDS,
        value=0.01,
        format_func=percent,
        key="txl_threshold",
        bind="query-params",
        help=t("txl.threshold.help"),
    )
    r = svc.reach(text, backend, threshold)
    cols = st.columns(N)
    for n, col in enumerate(cols):
        col.metric(
            t("txl.m.reach", layer=layer_head_label(n)),
            f"{r.chained[n]} / {r.bound_chained[n]}",
            help=t("txl.m.reach.help", direct=r.direct[n], bound=r.bound_chained[n], n=n + 1, M=M, L=L),
        )
    names = [layer_head_label(n) for n in range(N)]
    ui.figure(
        views.reach_bars(
            r.direct,
            r.chained,
            r.bound_chained,
            layer_names=names,
            direct_name=t("txl.reach.direct"),
            chained_name=t("txl.reach.chained"),
            bound_name=t("txl.reach.bound"),
            value_title=t("txl.reach.offset"),
        ),
        {"layer": list(range(N)), "direct": r.direct, "chained": r.chained, "bound": r.bound_chained},
        f"txl-reach-{threshold}",
        key="txl_reach",
    )
    if len(a.ids) <= N * M + L - 1:
        st.caption(t("txl.reach.short", T=len(a.ids), need=N * M + L))


# ---- 4 · the four terms ---------------------------------------------------------------------------------------------
def four_terms(a: svc.Analysis, text: str, backend: str) -> None:
    """The relative score of the chosen query split into its four terms (a) to (d), over the keys it sees."""
    st.subheader(t("txl.terms.title"))
    st.markdown(t("txl.terms.caption"))
    terms_part(a, text, backend)


@st.fragment(key="txl_terms_part")
def terms_part(a: svc.Analysis, text: str, backend: str) -> None:
    """Every query's four terms in the chosen segment, layer and head, moved on the figure's own slider (in the
    browser); reruns with the memory bars when the segment, layer or head moves (``memory_controls``)."""
    segment, layer, head = choice()
    st.caption(t("txl.terms.shown", lh=layer_head_label(layer, head)))
    fig, data = _terms_view(text, backend, segment, layer, head, opening_query(a, segment), current_lang())
    ui.figure(fig, data, f"txl-terms-s{segment}-l{layer}h{head}", key="txl_terms")
    st.caption(t("txl.m.term.help"))


@st.cache_resource(show_spinner=False, max_entries=64)
def _terms_view(text: str, backend: str, segment: int, layer: int, head: int, active: int, lang: str):
    """The four-terms figure and its numbers for one segment, layer and head, in the reader's language (``lang``
    keys the strings ``t`` writes): built once for every reader, so that a move of the segment, layer or head
    costs a lookup instead of every query's readout and the hashing of their arrays (the figure is 0.3 MB)."""
    a = svc.analyse(text, backend)
    steps = svc.terms_all(text, backend, segment, layer, head)
    seg = a.segments[segment]
    labels = list(a.pieces[seg.memory_start : seg.start + len(steps)])
    names = {k: t(f"txl.term.{k}") for k in "abcd"}
    readouts = []
    for q, s in enumerate(steps):
        top = int(s.weights.argmax())
        readouts.append(
            t("txl.terms.readout", token=esc(visible(a.pieces[seg.start + q])), top=esc(visible(labels[top])),
              w=f"{s.weights[top]:.2f}", **{k: f"{getattr(s, k)[top]:+.2f}" for k in "abcd"})
        )  # fmt: skip
    fig = views.terms_steps(
        [{k: getattr(s, k) for k in "abcd"} for s in steps],
        labels,
        seg.n_memory,
        readouts=readouts,
        names=names,
        total_name=t("txl.term.total"),
        key_title=t("view.key"),
        value_title=t("txl.terms.score"),
        memory_name=t("txl.memory"),
        active=active,
        prefix=t("txl.query") + " ",
    )  # fmt: skip
    data = {"keys": labels, "positions": list(range(seg.memory_start, seg.start + len(steps))),
            **{k: [getattr(s, k) for s in steps] for k in "abcd"}, "weights": [s.weights for s in steps]}  # fmt: skip
    return fig, data


# ---- 5 · why absolute positions break -------------------------------------------------------------------------------
def absolute_positions_collide() -> None:
    """A toy segment of 4: which memory key shares the query's absolute position, and the offsets that tell them
    apart."""
    st.subheader(t("txl.abs.title"))
    st.markdown(t("txl.abs.caption"))
    tiny = 4
    query = st.slider(t("txl.abs.query"), 0, tiny - 1, 2, key="txl_abs_query", bind="query-params")
    rows = views.collision_rows(tiny, query)
    same = [r["key"] for r in rows if r["absolute"] == query and r["key"] != tiny + query]
    ui.table(
        {
            t("txl.abs.key"): [
                f"{t('txl.memory') if r['memory'] else t('txl.current')} · {r['absolute']}" for r in rows
            ],
            t("txl.abs.absolute"): [str(r["absolute"]) for r in rows],
            t("txl.abs.offset"): ["–" if r["offset"] is None else str(r["offset"]) for r in rows],
        }
    )
    st.markdown(t("txl.abs.result", q=query, same=len(same), k=same[0] if same else "–", offset=tiny))


# ---- 6 · evaluation speed -------------------------------------------------------------------------------------------
def evaluation_speed(found: dict, shape: svc.Shape) -> None:
    """The card's measured speed-up of evaluation with the memory over recomputing every context, and the memory
    sweep."""
    L, M = shape.segment, shape.memory
    st.subheader(t("txl.speed.title"))
    speed = found.get("eval_speed")
    if not speed:
        st.caption(t("txl.card.missing"))
        return
    st.markdown(t("txl.speed.caption", n=speed["passage_tokens"], L=speed["segment"]))
    k1, k2 = st.columns(2)
    k1.metric(t("txl.m.speedup", A=L + M), f"{found.get('eval_speedup', 0):.0f}×", help=t("txl.m.speedup.help"))
    k2.metric(t("txl.m.speedup_max", A=speed["attention"][-1]), f"{speed['speedup'][-1]:.0f}×")
    ui.figure(
        views.speed_bars(
            speed["attention"],
            speed["xl_ms_per_token"],
            speed["vanilla_ms_per_token"],
            speed["speedup"],
            xl_name=t("txl.speed.xl"),
            vanilla_name=t("txl.speed.vanilla"),
            x_title=t("txl.speed.attention"),
            value_title=t("txl.speed.ms"),
            speedup_label=t("txl.speed.label"),
        ),
        speed,
        "txl-eval-speed",
        key="txl_speed",
    )
    sweep = found.get("memory_sweep")
    if sweep:
        st.markdown(t("txl.sweep.caption", M=M))
        ui.figure(
            views.sweep_line(
                sweep["memory"],
                sweep["val_bpc"],
                M,
                x_title=t("txl.sweep.memory"),
                value_title=t("txl.sweep.bpc"),
                trained_name=t("txl.sweep.trained", M=M),
            ),
            sweep,
            "txl-memory-sweep",
            key="txl_sweep",
        )


# ---- the paper and this model ---------------------------------------------------------------------------------------
def paper_vs_here(shape: svc.Shape, found: dict) -> None:
    """The paper's models beside this one, and what we changed."""
    L, M, N, H = shape.segment, shape.memory, shape.n_layers, shape.n_heads
    ui.paper_vs_here(
        [
            (
                t("txl.pvh.size"),
                t("txl.pvh.size.paper"),
                t("txl.pvh.size.here", N=N, C=shape.dim, H=H, p=shape.params / 1e6),
            ),
            (t("txl.pvh.context"), t("txl.pvh.context.paper"), t("txl.pvh.context.here", L=L, M=M)),
            (t("txl.pvh.data"), t("txl.pvh.data.paper"), t("txl.pvh.data.here")),
            (
                t("txl.pvh.result"),
                t("txl.pvh.result.paper"),
                t(
                    "txl.pvh.result.here",
                    bpc=found.get("val_bpc", float("nan")),
                    cleared=found.get("val_bpc_no_memory", float("nan")),
                    base=found.get("baseline_val_bpc_fragmented", float("nan")),
                ),
            ),
            (
                t("txl.pvh.speed"),
                t("txl.pvh.speed.paper"),
                t("txl.pvh.speed.here", s=found.get("eval_speedup", 0), A=L + M),
            ),
            (t("txl.pvh.reach"), t("txl.pvh.reach.paper"), t("txl.pvh.reach.here")),
        ],
        [t("txl.pvh.dep.dropout"), t("txl.pvh.dep.baseline"), t("txl.pvh.dep.vanilla"), t("txl.pvh.dep.eval")],
    )


def model_card(card: dict) -> None:
    """What the evaluation measured: bits per character with and without the memory, the baseline, the first tokens."""
    found = card.get("metrics", {})
    with st.expander(t("txl.card.title")):
        k1, k2, k3, k4 = st.columns(4)
        k1.metric(t("txl.card.val_bpc"), f"{found.get('val_bpc', float('nan')):.3f}")
        k2.metric(t("txl.card.no_memory"), f"{found.get('val_bpc_no_memory', float('nan')):.3f}")
        k3.metric(
            t("txl.card.baseline"),
            f"{found.get('baseline_val_bpc_fragmented', float('nan')):.3f}",
            help=t("txl.card.baseline.help", sliding=found.get("baseline_val_bpc_sliding", float("nan"))),
        )
        k4.metric(t("txl.card.first"), f"{found.get('first_tokens_bpc_gain', float('nan')):+.3f}")
        st.caption(
            t(
                "txl.card.caption",
                data=card.get("data", ""),
                minutes=card.get("wall_time_s", 0) / 60,
                command=card.get("command", ""),
                steps=card.get("steps", "–"),
                base_steps=card.get("baseline", {}).get("steps", "–"),
            )
        )
