"""The T5 page's sections (1910.10683), in the page's order: every task as text to text (§2.4), span corruption
and the target lengths of the objectives (§3.3), relative position buckets and the biases learned for them (§2.1),
and the attention masks of the three architectures (§3.2); then the paper against this model and its card."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.shared import ui
from app.shared.formats import percent
from app.shared.heatmaps import attention_heatmap
from app.shared.i18n import InputError, layer_head_label, t
from app.shared.tokens import token_strip
from app.t5 import service as svc
from app.t5 import views

WRONG_KEPT_RIGHT = [[0.0, "#fcae91"], [0.5, "#f0f0f0"], [1.0, "#a1d99b"]]
STACKS = ("encoder", "decoder")


def short(text: str, n: int = 42) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def clamp(key: str, n: int) -> None:
    """A layer or head picked on a model with more of them: the last one of this model."""
    if st.session_state.get(key) is not None and st.session_state[key] >= n:
        st.session_state[key] = n - 1


def about_real(cfg: dict, card: dict) -> None:
    """On a real checkpoint: what it is, and which views are about ours."""
    if card.get("real"):
        st.info(t("t5.real.note", title=card["title"], sentinels=card["sentinels"], **cfg), icon=":material/public:")


# ---- 1 · text-to-text (§2.4) -----------------------------------------------------------------------------------------
def task_picker(name: str) -> str:
    """The task prefix, mirrored in the link by its id, and what the task asks for: our four, or a real T5's."""
    tasks = svc.tasks(name)
    task = ui.choice(
        st.radio,
        t("t5.task"),
        tasks,
        key="t5_task",
        default="reverse_words" if "reverse_words" in tasks else tasks[0],
        labels={k: t(f"t5.task.{k}") for k in tasks},
        horizontal=True,
    )
    lo, hi = svc.WORDS.get(task, (0, 0))
    st.caption(t(f"t5.task.{task}.help", prefix=svc.prefix(name, task), lo=lo, hi=hi))
    return task


def task_examples(name: str, task: str) -> None:
    """The task's example texts; a pick goes into the text box."""
    st.pills(
        t("t5.examples"),
        svc.examples(name, task),
        format_func=short,
        key=f"t5_example_{task}",
        bind="query-params",
        on_change=ui.use_example,
        args=(f"t5_example_{task}", "t5_text"),
    )


def text_to_text(name: str, task: str, text: str, backend: str):
    """The model's answer to the prefixed text, right or wrong, and its cross-attention; returns the answer (None on
    bad input)."""
    try:
        a = svc.answer(name, task, text, backend)
    except InputError as e:
        ui.input_error(e)
        return None

    c_out, c_expected, c_ok = st.columns([3, 3, 1])
    with c_out:
        st.markdown(f"**{t('t5.m.output')}**", help=t("t5.m.output.help"))
        st.code(a.answer or "∅", language=None, wrap_lines=True)
    with c_expected:
        st.markdown(f"**{t('t5.m.expected')}**", help=t("t5.m.expected.help"))
        st.code(a.expected if a.expected is not None else "–", language=None, wrap_lines=True)
    verdict = "–" if a.correct is None else t("t5.yes") if a.correct else t("t5.no")
    c_ok.metric(t("t5.m.correct"), verdict)
    ui.markup(token_strip(list(a.source), np.zeros(len(a.source)), vmin=0, vmax=1, label=t("t5.strip.source")))
    ui.markup(token_strip(list(a.output), a.probs, vmin=0, vmax=1, colorscale="Greens", label=t("t5.strip.output")))
    if a.label_probs is not None:
        chosen = a.answer if a.answer in svc.LABELS else None
        st.caption(t("t5.labels.caption"))
        ui.figure(
            views.label_shares(list(svc.LABELS), a.label_probs, chosen, value_title=t("t5.labels.share")),
            {"labels": list(svc.LABELS), "share": a.label_probs},
            "t5-which-play",
            key="t5_labels",
        )

    st.markdown(f"**{t('t5.cross.title')}**")
    L, H = a.cross.shape[:2]
    clamp("t5_layer", L)
    clamp("t5_head", H)
    c_layer, c_head, _ = st.columns([1, 2, 3] if L + H <= 8 else [L, H, 1])
    layer = c_layer.segmented_control(
        t("t5.layer"), list(range(L)), default=L - 1, required=True, key="t5_layer", bind="query-params"
    )
    head = c_head.segmented_control(
        t("t5.head"), list(range(H)), default=0, required=True, key="t5_head", bind="query-params"
    )
    rows = [f"{i}: {p}" for i, p in enumerate(a.output)]
    cols = list(a.source)
    cross = a.cross[layer, head]
    st.caption(t("t5.cross.caption", lh=layer_head_label(layer, head)))
    ui.figure(
        attention_heatmap(
            cross,
            [views.plot_text(r) for r in rows],
            [views.plot_text(c) for c in cols],
            zmax=1,
            query_title=t("t5.cross.query"),
            key_title=t("t5.cross.key"),
            value_title=t("view.weight"),
        ),
        cross,
        f"t5-cross-l{layer}h{head}",
        key="t5_cross",
        row_labels=rows,
        col_labels=cols,
    )
    ui.readout(a)
    st.caption(t("t5.decode_ms", ms=a.decode_ms, steps=len(a.output)))
    return a


# ---- 2 · span corruption (§3.3) --------------------------------------------------------------------------------------
SPAN = ("t5_span_text", "t5_density", "t5_mean_span", "t5_seed")  # the span controls, which rerun its view alone
SPAN_CHOICE = "_t5_span"  # {control: value}, read by the view (ui.rerun_parts)
STRIP_GAP = '<div style="height:1rem"></div>'  # between strips drawn as one element: the gap between two elements


def span_corruption(name: str, backend: str) -> None:
    """The span controls, then what they corrupt, what the model writes back and the objectives' target lengths."""
    st.subheader(t("t5.span.title"))
    st.markdown(t("t5.span.caption.real" if svc.real(name) else "t5.span.caption"))
    span_controls()
    span_view(name, backend)


@st.fragment(key="t5_part_span_controls")
def span_controls():
    def rerun(key: str) -> dict:
        return ui.drives(key, SPAN_CHOICE, ["t5_part_span"])

    st.text_area(
        t("t5.span.text"),
        svc.DEFAULT_SPAN_TEXT,
        max_chars=svc.SPAN_MAX_CHARS,
        height=90,
        help=t("t5.span.text.help", chars=svc.SPAN_MAX_CHARS, tokens=svc.SPAN_MAX_TOKENS),
        **rerun("t5_span_text"),
    )
    c_d, c_m, c_s = st.columns([2, 2, 1])
    c_d.slider(t("t5.span.density"), 0.05, 0.5, 0.15, 0.05, help=t("t5.span.density.help"), **rerun("t5_density"))
    c_m.slider(t("t5.span.mean"), 1.0, 8.0, 3.0, 0.5, help=t("t5.span.mean.help"), **rerun("t5_mean_span"))
    c_s.number_input(t("t5.span.seed"), 0, 9999, 0, **rerun("t5_seed"))
    ui.note_controls(SPAN_CHOICE, SPAN)


@st.fragment(key="t5_part_span")
def span_view(name: str, backend: str):
    """The corruption the span controls chose, what the model writes back, and the objectives' target lengths."""
    text, density, mean_span, seed = (st.session_state[SPAN_CHOICE][k] for k in SPAN)
    try:
        c = svc.corruption(name, text, float(density), float(mean_span), int(seed), backend)
    except InputError as e:
        ui.input_error(e)
        return
    n, k = len(c.tokens), int(c.dropped.sum())
    metric_row = ui.row()
    metric_row.metric(t("t5.span.m.tokens"), f"{n}")
    metric_row.metric(t("t5.span.m.dropped"), f"{k} ({percent(k / n, 0)})", help=t("t5.span.m.dropped.help"))
    metric_row.metric(t("t5.span.m.spans"), f"{c.n_spans}", help=t("t5.span.m.spans.help", mean=k / c.n_spans))
    metric_row.metric(t("t5.span.m.lengths"), f"{len(c.input)} / {len(c.target)}", help=t("t5.span.m.lengths.help"))
    metric_row.metric(
        t("t5.span.m.reassembled"),
        t("t5.yes") if c.reassembled else t("t5.no"),
        help=t("t5.span.m.reassembled.help"),
    )
    sentinel = np.array([p.startswith("⟨") for p in c.input], dtype=float)
    shade = np.where(c.dropped, c.filled_ok.astype(float), 0.5)
    # The five strips as one element, spaced as five were: a density move resends one, not five.
    strips = (  # tokens, values, colour scale, number format, label
        (c.tokens, c.dropped.astype(float), "Oranges", "{:.0f}", "original"),
        (c.input, sentinel, "Oranges", "{:.0f}", "input"),
        (c.target, c.target_probs, "Greens", "{:.3f}", "target"),
        (c.greedy, c.greedy_probs, "Greens", "{:.3f}", "greedy"),
        (c.filled, shade, WRONG_KEPT_RIGHT, "{:.1f}", "filled"),
    )
    ui.markup(
        STRIP_GAP.join(
            token_strip(
                list(tokens), values, vmin=0, vmax=1, colorscale=scale, fmt=fmt, label=t(f"t5.span.strip.{name}")
            )
            for tokens, values, scale, fmt, name in strips
        )
    )
    right = int((c.filled_ok & c.dropped).sum())
    metric_row = ui.row()
    metric_row.metric(t("t5.span.m.filled"), f"{right} / {k}", help=t("t5.span.m.filled.help"))
    metric_row.metric(t("t5.span.m.accuracy"), percent(c.span_accuracy, 0), help=t("t5.span.m.accuracy.help"))
    with st.expander(t("t5.span.table"), expanded=False):
        ui.table(
            {
                t("t5.span.col.position"): list(range(len(c.target))),
                t("t5.span.col.target"): list(c.target),
                t("t5.span.col.p_target"): [f"{p:.3f}" for p in c.target_probs],
                t("t5.span.col.top"): list(c.predicted),
                t("t5.span.col.p_top"): [f"{p:.3f}" for p in c.predicted_probs],
            }
        )
    ui.readout(c)

    # ---- how long the target is under four objectives ----
    st.markdown(f"**{t('t5.len.title')}**")
    st.markdown(t("t5.len.caption", n=n, k=k))
    order = ("bert", "bert_style", "iid", "spans")
    names = [t(f"t5.len.{o}") for o in order]
    ins = [c.lengths[o][0] for o in order]
    tgts = [c.lengths[o][1] for o in order]
    c_fig, c_note = st.columns([3, 2])
    with c_fig:
        ui.figure(
            views.objective_lengths(
                names,
                ins,
                tgts,
                input_name=t("t5.len.input"),
                target_name=t("t5.len.target"),
                axis_title=t("t5.len.tokens"),
            ),
            {o: {"input": c.lengths[o][0], "target": c.lengths[o][1]} for o in order},
            "t5-objective-lengths",
            key="t5_lengths",
        )
    with c_note:
        spans_t, style_t, iid_t = c.lengths["spans"][1], c.lengths["bert_style"][1], c.lengths["iid"][1]
        st.metric(t("t5.len.m.vs_style"), percent(1 - spans_t / style_t, 0), help=t("t5.len.m.vs_style.help"))
        st.metric(t("t5.len.m.vs_iid"), percent(1 - spans_t / iid_t, 0), help=t("t5.len.m.vs_iid.help"))
        st.caption(t("t5.len.note", mean=mean_span))


# ---- 3 · relative position buckets (§2.1) ----------------------------------------------------------------------------
def position_buckets(name: str, a, cfg: dict, backend: str) -> None:
    """Which bucket each offset falls in, the bias every head learned per offset, and the bias over this input."""
    st.subheader(t("t5.buckets.title"))
    b = svc.buckets(cfg["num_buckets"], cfg["max_distance"])
    st.markdown(
        t(
            "t5.buckets.caption",
            buckets=b.num_buckets,
            half=b.num_buckets // 2,
            exact_bi=b.exact_bidirectional,
            exact_causal=b.exact_causal,
            max=b.max_distance,
        )
    )
    ui.figure(
        views.bucket_chart(
            b.offsets,
            b.bidirectional,
            b.causal,
            b.exact_bidirectional,
            b.exact_causal,
            b.max_distance,
            bidirectional_name=t("t5.buckets.bidirectional"),
            causal_name=t("t5.buckets.causal"),
            exact_name=t("t5.buckets.exact"),
            log_name=t("t5.buckets.log"),
            beyond_name=t("t5.buckets.beyond"),
            max_name=t("t5.buckets.max", max=b.max_distance),
            x_title=t("t5.offset"),
            y_title=t("t5.bucket"),
        ),
        {"offset": b.offsets, "bidirectional": b.bidirectional, "causal": b.causal},
        "t5-buckets",
        key="t5_buckets",
    )
    widths = svc.offsets_per_bucket(b.bidirectional[np.abs(b.offsets) <= b.max_distance])
    metric_row = ui.row()
    metric_row.metric(
        t("t5.buckets.m.exact"), f"{b.exact_bidirectional} / {b.exact_causal}", help=t("t5.buckets.m.exact.help")
    )
    metric_row.metric(
        t("t5.buckets.m.widest"), f"{int(widths.max())}", help=t("t5.buckets.m.widest.help", max=b.max_distance)
    )
    metric_row.metric(
        t("t5.buckets.m.beyond"),
        f"{b.bidirectional[0]} / {b.bidirectional[-1]} / {b.causal[0]}",
        help=t("t5.buckets.m.beyond.help", max=b.max_distance),
    )

    title = t("t5.bias.title.real", title=svc.card(name)["title"]) if svc.real(name) else t("t5.bias.title")
    st.markdown(f"**{title}**")
    st.caption(t("t5.bias.caption"))
    try:
        tb = svc.trained_bias(name, backend)
    except InputError as e:
        ui.input_error(e)
        return
    heads = [layer_head_label(head=h) for h in range(tb.encoder.shape[0])]
    for column, side, offsets, table in zip(
        st.columns(2), ("encoder", "decoder"), (tb.offsets, tb.decoder_offsets), (tb.encoder, tb.decoder)
    ):
        with column:
            ui.figure(
                views.bias_curves(
                    offsets,
                    table,
                    b.max_distance,
                    head_names=heads,
                    x_title=t("t5.offset"),
                    y_title=t("t5.bias.value"),
                    title=t(f"t5.bias.{side}"),
                ),
                table,
                f"t5-{side}-bias",
                key=f"t5_bias_{side[:3]}",
                row_labels=heads,
                col_labels=[int(o) for o in offsets],
            )
    near = tb.encoder[:, np.abs(tb.offsets) <= 2].mean()
    far = tb.encoder[:, np.abs(tb.offsets) >= b.max_distance].mean()
    st.caption(t("t5.bias.summary", near=near, far=far, max=b.max_distance))

    if a is None:
        return
    st.markdown(f"**{t('t5.matrix.title')}**")
    c_stack, c_h, _ = st.columns([3, 2, 2])
    stack = ui.choice(
        c_stack.segmented_control,
        t("t5.matrix.stack"),
        STACKS,
        key="t5_bias_stack",
        default="encoder",
        labels={s: t(f"t5.matrix.{s}") for s in STACKS},
        required=True,
    )
    H = a.enc_bias.shape[0]
    clamp("t5_bias_head", H)
    head = c_h.segmented_control(
        t("t5.head"), list(range(H)), default=0, required=True, key="t5_bias_head", bind="query-params"
    )
    matrix = (a.enc_bias if stack == "encoder" else a.dec_bias)[head]
    labels = [f"{i}: {p}" for i, p in enumerate(a.source if stack == "encoder" else a.output)]  # unique
    st.caption(t(f"t5.matrix.{stack}.caption", head=layer_head_label(head=head)))
    ui.figure(
        views.bias_matrix(
            matrix,
            [views.plot_text(x) for x in labels],
            [views.plot_text(x) for x in labels],
            query_title=t("view.query"),
            key_title=t("view.key"),
            value_title=t("t5.bias.value"),
        ),
        matrix,
        f"t5-{stack}-bias-matrix-h{head}",
        key="t5_matrix",
        row_labels=labels,
        col_labels=labels,
    )


# ---- 4 · three architectures (§3.2) ----------------------------------------------------------------------------------
def architectures(a) -> None:
    """The attention masks of an encoder–decoder, a language model and a prefix LM over this input and output."""
    st.subheader(t("t5.arch.title"))
    st.markdown(t("t5.arch.caption"))
    if a is None:
        return
    x = [p for p in a.source]
    y = [p for p in a.output]
    masks = svc.architecture_masks(len(x), len(y))
    labels = [f"x{i}: {p}" for i, p in enumerate(x)] + [f"y{i}: {p}" for i, p in enumerate(y)]
    ui.figure(
        views.architecture_masks(
            [masks[k] for k in svc.ARCHITECTURES],
            [views.plot_text(x) for x in labels],
            len(x),
            titles=[t(f"t5.arch.{k}") for k in svc.ARCHITECTURES],
            kind_names=[t(f"t5.arch.kind.{k}") for k in ("blocked", "causal", "visible", "cross")],
            query_title=t("view.query"),
            key_title=t("view.key"),
        ),
        {k: masks[k] for k in svc.ARCHITECTURES} | {"labels": labels, "n_input": len(x)},
        "t5-architectures",
        key="t5_arch",
    )
    st.markdown(f"**{t('t5.arch.m.sees')}**", help=t("t5.arch.m.sees.help"))
    cols = st.columns(3)
    for col, k in zip(cols, svc.ARCHITECTURES):
        col.metric(t(f"t5.arch.{k}"), f"{svc.visible_to_input(masks[k], len(x)):.1f} / {len(x)}")
    st.caption(t("t5.arch.note"))


# ---- the paper and this model ----------------------------------------------------------------------------------------
def paper_vs_here(cfg: dict, card: dict) -> None:
    """The paper's models beside this one, and what we changed (a real checkpoint: nothing but the input's cap)."""
    if card.get("real"):
        same = t("t5.pvh.real.same")
        ui.paper_vs_here(
            [
                (
                    t("t5.pvh.sizes"),
                    t("t5.pvh.sizes.paper"),
                    t("t5.pvh.sizes.here", params=card.get("params", 0) / 1e6, **cfg),
                ),
                (t("t5.pvh.data"), t("t5.pvh.data.paper"), same),
                (
                    t("t5.pvh.vocab"),
                    t("t5.pvh.vocab.paper"),
                    t("t5.pvh.vocab.real", vocab=cfg["vocab"], tokens=card["tokens"], sentinels=card["sentinels"]),
                ),
                (t("t5.pvh.positions"), t("t5.pvh.positions.paper"), t("t5.pvh.positions.here", **cfg)),
                (t("t5.pvh.objective"), t("t5.pvh.objective.paper"), same),
                (t("t5.pvh.tasks"), t("t5.pvh.tasks.paper"), t("t5.pvh.tasks.real")),
            ],
            [t("t5.pvh.dep.real", tokens=svc.MAX_SOURCE_TOKENS, steps=svc.MAX_NEW)],
        )
        return
    ui.paper_vs_here(
        [
            (
                t("t5.pvh.sizes"),
                t("t5.pvh.sizes.paper"),
                t("t5.pvh.sizes.here", params=card.get("params", 0) / 1e6, **cfg),
            ),
            (
                t("t5.pvh.data"),
                t("t5.pvh.data.paper"),
                t("t5.pvh.data.here", tokens=card.get("pretraining_tokens", 0)),
            ),
            (t("t5.pvh.vocab"), t("t5.pvh.vocab.paper"), t("t5.pvh.vocab.here", vocab=cfg["vocab"])),
            (t("t5.pvh.positions"), t("t5.pvh.positions.paper"), t("t5.pvh.positions.here", **cfg)),
            (t("t5.pvh.objective"), t("t5.pvh.objective.paper"), t("t5.pvh.objective.here")),
            (t("t5.pvh.tasks"), t("t5.pvh.tasks.paper"), t("t5.pvh.tasks.here")),
            (t("t5.pvh.result"), t("t5.pvh.result.paper"), t("t5.pvh.result.here")),
        ],
        [
            t("t5.pvh.dep.size"),
            t("t5.pvh.dep.dropout"),
            t("t5.pvh.dep.scale"),
            t("t5.pvh.dep.tied"),
            t("t5.pvh.dep.tasks"),
        ],
    )


CARD_ROWS = (  # (metric, its baseline) as the card holds them
    ("which_play_accuracy", "which_play_chance"),
    ("count_words_exact_match", None),
    ("count_words_within_1", None),
    ("reverse_words_exact_match", None),
    ("span_token_accuracy", "span_unigram_accuracy"),
)


def model_card(card: dict) -> None:
    """What the evaluation measured, against its baselines and the card's bars (nothing without metrics)."""
    metrics = card.get("metrics", {})
    if not metrics:
        return
    with st.expander(t("t5.card.title")):
        ui.table(
            {
                t("t5.card.metric"): [t(f"t5.card.{m}") for m, _ in CARD_ROWS],
                t("t5.card.value"): [percent(metrics.get(m, float("nan"))) for m, _ in CARD_ROWS],
                t("t5.card.baseline"): [percent(metrics.get(b, float("nan"))) if b else "–" for _, b in CARD_ROWS],
                t("t5.card.target"): [
                    f"≥ {percent(bar['min'], 0)}" if (bar := svc.BARS.get(m)) else "–" for m, _ in CARD_ROWS
                ],
            }
        )
        st.caption(
            t(
                "t5.card.caption" if card.get("runs", 1) > 1 else "t5.card.caption.one",
                params=card.get("params", 0),
                runs=card.get("runs", 1),
                minutes=card.get("chain_wall_time_s", 0) / 60,
                last=card.get("wall_time_s", 0) / 60,
                hardware=card.get("hardware", ""),
            )
        )
