"""The Attention page's sections (1706.03762), in the paper's order: the model against the paper's, the answer, the
attention to look at (kind, layer, head) and the decoding step, then one view at a time — the heads side by side
(3.2.2), every head of every layer, scaled dot-product attention worked through (3.2.1), the decoder's mask (3.2.3)
and the sinusoidal positions (3.5)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import streamlit as st

from app.attention import service as svc
from app.attention.views import (
    head_legend,
    head_view,
    matrix,
    model_grid,
    position_heatmap,
    similarity_heatmap,
)
from app.shared import ui
from app.shared.formats import percent
from app.shared.heatmaps import attention_heatmap, grid_cell
from app.shared.i18n import layer_head_label, t
from app.shared.numbers import entropy_bits
from app.shared.tokens import token_strip, visible

CONTROLS, EXPLORE = "attention_controls", "attention_explore"  # the two fragments' keys


def paper_vs_here(cfg: dict, card: dict) -> None:
    """The paper's translation model beside our reversal model, and what we changed."""
    ui.paper_vs_here(
        [
            (t("attention.pvh.task"), t("attention.pvh.task.paper"), t("attention.pvh.task.here")),
            (
                t("attention.pvh.layers"),
                t("attention.pvh.layers.paper"),
                t("attention.pvh.layers.here", enc=cfg["enc_layers"], dec=cfg["dec_layers"]),
            ),
            (t("attention.pvh.width"), t("attention.pvh.width.paper"), f"{cfg['d_model']} / {cfg['d_ff']}"),
            (t("attention.pvh.heads"), t("attention.pvh.heads.paper"), f"{cfg['heads']} ({cfg['d_k']})"),
            (t("attention.pvh.params"), t("attention.pvh.params.paper"), f"{card['params']:,}"),
            (
                t("attention.pvh.vocab"),
                t("attention.pvh.vocab.paper"),
                t("attention.pvh.vocab.here", vocab=cfg["vocab"]),
            ),
            (t("attention.pvh.arch"), t("attention.pvh.arch.both"), t("attention.pvh.same")),
            (t("attention.pvh.reg"), t("attention.pvh.reg.paper"), t("attention.pvh.reg.here")),
            (t("attention.pvh.decoding"), t("attention.pvh.decoding.paper"), t("attention.pvh.decoding.here")),
            (
                t("attention.pvh.training"),
                t("attention.pvh.training.paper"),
                t("attention.pvh.training.here", minutes=card["wall_time_s"] / 60),
            ),
            (
                t("attention.pvh.result"),
                t("attention.pvh.result.paper"),
                t("attention.pvh.result.here", em=card["exact_match"], em_long=card["exact_match_long"]),
            ),
        ],
        [
            t("attention.pvh.dep.size"),
            t("attention.pvh.dep.reg"),
            t("attention.pvh.dep.shift", shift=cfg["position_shift"]),
            t("attention.pvh.dep.greedy"),
        ],
    )


def answer(d: svc.Decoding) -> None:
    """What the model wrote, what it should have written, and whether they agree."""
    m_out, m_expected, m_ok = st.columns(3)
    m_out.metric(t("attention.m.output"), visible(d.answer))
    m_expected.metric(t("attention.m.expected"), visible(d.expected))
    m_ok.metric(t("attention.m.correct"), t("attention.yes") if d.answer == d.expected else t("attention.no"))


# ---- which attention: kind, layer, head ------------------------------------------------------------------------------


def rerun_views(controls_too: bool = False) -> None:
    """``on_change`` of the controls: rerun the part of the page they choose for (``explore``), and the controls'
    own fragment too when what it draws changes with the choice (the kind's caption, a cell picked in the grid)."""
    st.rerun([CONTROLS, EXPLORE] if controls_too else [EXPLORE])


def _pick_cell(shape: tuple[int, int, int, int]) -> None:
    points = st.session_state["attention_grid"].selection.points
    if points:
        layer, head = grid_cell(points[0]["x"], points[0]["y"], shape)
        st.session_state["attention_layer"], st.session_state["attention_head"] = layer, head
        rerun_views(controls_too=True)  # the layer and head controls show the picked cell


@st.fragment(key=CONTROLS)
def controls(layers: int, heads: int, cfg: dict) -> None:
    """The kind of attention, the layer and the head: a fragment of their own, so that a move of the decoding step
    below does not send them again; each change reruns the views (``rerun_views``)."""
    kind = ui.choice(
        st.segmented_control,
        t("attention.kind"),
        svc.KINDS,
        key="attention_kind",
        default="cross",
        labels={k: t(f"attention.kind.{k}") for k in svc.KINDS},
        required=True,
        on_change=rerun_views,
        args=(True,),
    )
    st.caption(t(f"attention.kind.{kind}.caption"))
    row = ui.row("large")
    row.segmented_control(
        t("attention.layer"),
        list(range(layers)),
        default=layers - 1,
        required=True,
        key="attention_layer",
        bind="query-params",
        help=t("attention.layer.help"),
        on_change=rerun_views,
    )
    row.segmented_control(
        t("attention.head"),
        list(range(heads)),
        default=0,
        required=True,
        key="attention_head",
        bind="query-params",
        help=t("attention.head.help", d_model=cfg["d_model"], d_k=cfg["d_k"], heads=cfg["heads"]),
        on_change=rerun_views,
    )


# ---- the decoding step: what the views look at -----------------------------------------------------------------------


@dataclass(frozen=True)
class Focus:
    """The attention the controls and the step pick, as every view reads it."""

    d: svc.Decoding
    kind: str
    layer: int
    head: int
    step: int
    q_labels: tuple[str, ...]
    k_labels: tuple[str, ...]
    maps: np.ndarray  # (L, H, rows, keys) computed by this step

    @property
    def lh(self) -> str:
        return layer_head_label(self.layer, self.head)

    @property
    def current(self) -> int | None:
        """The query row of this step (none in the encoder, which reads the whole input at once)."""
        return None if self.kind == "enc_self" else self.step


def decoding_step(d: svc.Decoding) -> Focus:
    """The step slider, what the model predicts there and where the picked head looks, the two token strips."""
    last = d.steps - 1
    step = ui.slider(
        st,
        t("attention.step"),
        0,
        max(last, 1),
        0,
        key="attention_step",
        bind="query-params",
        help=t("attention.step.help"),
        disabled=last < 1,
    )
    step = min(step, last)
    layers = d.patterns["cross"].shape[0]
    kind = st.session_state.get("attention_kind", "cross")
    layer = st.session_state.get("attention_layer", layers - 1)
    head = st.session_state.get("attention_head", 0)
    q_labels, k_labels = svc.labels(d, kind)
    f = Focus(d, kind, layer, head, step, q_labels, k_labels, svc.at_step(d, kind, step))

    cross_row = d.patterns["cross"][layer, head, step]  # (S,)
    peak = int(cross_row.argmax())
    metrics = ui.row()
    metrics.metric(t("attention.m.predicts", step=step), visible(d.output[step]))
    metrics.metric(t("attention.m.looks_at", lh=f.lh), f"{peak}: {visible(d.source[peak])}")
    metrics.metric(t("attention.m.weight"), f"{cross_row[peak]:.3f}")
    metrics.metric(
        t("attention.m.agreement", lh=f.lh),
        percent(svc.alignment_agreement(d, layer, head), 0),
        help=t("attention.m.agreement.help"),
    )

    so_far = list(d.decoder_in[: step + 1]) + [d.output[step]]
    # the two strips are one element: a slider move sends each element again, and fewer elements is a cheaper rerun
    ui.markup(
        token_strip(so_far, np.r_[np.full(step + 1, 0.3), 1.0], vmin=0, vmax=1, label=t("attention.progress"))
        + token_strip(
            list(d.source),
            d.patterns["cross"][layer, :, step].mean(0),
            vmin=0,
            vmax=1,
            label=t("attention.looking", layer=layer_head_label(layer)),
        )
    )
    ui.readout(d)
    return f


def pick_view(views) -> str:
    """One of ``views`` (ids) at a time: only the chosen one runs."""
    return ui.choice(
        st.segmented_control,
        t("attention.view"),
        views,
        key="attention_view",
        default="heads",
        labels={v: t(f"attention.view.{v}") for v in views},
        required=True,
    )


# ---- 3.2.2 multi-head attention --------------------------------------------------------------------------------------


def heads(f: Focus) -> None:
    """The picked heads of one layer side by side, one colour each, a line per weight."""
    n_heads = f.maps.shape[1]
    picked = st.pills(
        t("attention.heads"),
        list(range(n_heads)),
        selection_mode="multi",
        default=list(range(n_heads)),
        key="attention_heads",
        bind="query-params",
    )
    st.caption(t("attention.heads.caption"))
    if not picked:
        st.info(t("attention.heads.none"))
        return
    picked = sorted(picked)
    ui.markup(
        head_legend(picked, t("view.head"))
        + head_view(
            f.maps[f.layer, picked],
            picked,
            list(f.q_labels),
            list(f.k_labels),
            current=f.current,
            query_title=t("view.query"),
            key_title=t("view.key"),
        )
    )
    ui.download(
        {f"head {h}": f.maps[f.layer, h] for h in picked},
        f"attention-{f.kind}-layer{f.layer}",
        key="attention_dl_heads",
    )


def every_head(f: Focus) -> None:
    """Every head of every layer as a grid (a click picks the layer and head), and the picked one enlarged."""
    maps, layer, head = f.maps, f.layer, f.head
    st.caption(t("attention.model.caption"))
    c_grid, c_big = st.columns([2, 3])
    with c_grid:
        ui.figure(
            model_grid(maps, layer_title=t("view.layer"), head_title=t("view.head"), selected=(layer, head)),
            maps,
            f"attention-{f.kind}-all",
            key="attention_grid",
            on_select=partial(_pick_cell, maps.shape),
            selection_mode="points",
        )
    with c_big:
        q_shown = [visible(x) for x in f.q_labels]  # a space shows as ·
        ui.figure(
            attention_heatmap(
                maps[layer, head],
                q_shown[: maps.shape[2]],
                [visible(x) for x in f.k_labels],
                title=t("attention.model.enlarged", lh=f.lh),
                zmax=1,
                query_title=t("view.query"),
                key_title=t("view.key"),
                value_title=t("view.weight"),
            ),
            maps[layer, head],
            f"attention-{f.kind}-l{layer}h{head}",
            key="attention_big",
            row_labels=f.q_labels[: maps.shape[2]],
            col_labels=f.k_labels,
        )


# ---- 3.2.1 scaled dot-product attention ------------------------------------------------------------------------------


def dot_product(f: Focus) -> None:
    """One query's row of one head worked through: q and K, q·k, ÷√d_k, the mask, the softmax, Σ weights · V."""
    d, q_labels, k_labels = f.d, f.q_labels, f.k_labels
    if f.kind == "enc_self":
        query = ui.slider(
            st, t("attention.dot.query"), 0, len(d.source) - 1, 0, key="attention_query", bind="query-params"
        )
    else:
        query = f.step
    unscaled = st.toggle(
        t("attention.dot.unscaled"),
        key="attention_unscaled",
        bind="query-params",
        help=t("attention.dot.unscaled.help"),
    )
    dp = svc.dot_product(d, f.kind, f.layer, f.head, query)
    st.caption(
        t(
            "attention.dot.caption",
            query=f"{query}: {visible(q_labels[query])}",
            kind=t(f"attention.kind.{f.kind}"),
            lh=f.lh,
            d_k=dp.d_k,
        )
    )
    raw, scaled = svc.random_dot_spread(dp.d_k)
    st.markdown(t("attention.dot.why", d_k=dp.d_k, raw=raw, scaled=scaled, here=float(dp.scaled[dp.allowed].std())))
    s1, s2, s3, s4 = st.columns(4)
    s1.metric(t("attention.dot.m.max"), f"{dp.weights.max():.3f}")
    s2.metric(t("attention.dot.m.entropy"), f"{entropy_bits(dp.weights):.2f}")
    if unscaled:
        s3.metric(t("attention.dot.m.max_unscaled"), f"{dp.weights_unscaled.max():.3f}")
    s4.metric(t("attention.dot.m.check"), f"{np.abs(dp.weights - dp.model_weights).max():.1e}")

    dims = [str(i) for i in range(dp.d_k)]
    k_shown = [visible(x) for x in k_labels]
    st.markdown(f"**{t('attention.dot.qk')}**")
    q_and_k = np.vstack([dp.q, np.full(dp.d_k, np.nan), dp.k])  # q, a blank row, then one row per key
    ui.figure(
        matrix(q_and_k, [f"q · {visible(q_labels[query])}", "", *k_shown], dims, text_rows=[0]),
        {"q": dp.q, "K": dp.k},
        "attention-q-k",
        key="attention_qk",
    )

    st.markdown(f"**{t('attention.dot.table')}**")
    columns = {
        t("attention.dot.col.key"): [f"{j}: {visible(k)}" for j, k in enumerate(k_labels)],
        t("attention.dot.col.qk"): dp.qk,
        t("attention.dot.col.scaled"): dp.scaled,
        t("attention.dot.col.mask"): [
            t("attention.dot.allowed") if a else t("attention.dot.masked") for a in dp.allowed
        ],
        t("attention.dot.col.weight"): dp.weights,
    }
    if unscaled:
        columns[t("attention.dot.col.unscaled")] = dp.weights_unscaled
    # The weights as bars inside the table: the saturation without ÷√d_k shows as one full bar and empty ones.
    config = {
        name: (
            st.column_config.ProgressColumn(format="%.4f", min_value=0.0, max_value=1.0)
            if i >= 4
            else st.column_config.NumberColumn(format="%.3f")
        )
        for i, name in enumerate(columns)
        if i not in (0, 3)
    }
    st.dataframe(
        ui.arrow(columns),
        hide_index=True,
        key="attention_dot_table",
        column_config=config,
        height=36 * (len(k_labels) + 1) + 4,
    )
    ui.download(
        {
            "qk": dp.qk,
            "scaled": dp.scaled,
            "mask": dp.allowed,
            "softmax": dp.weights,
            "softmax_unscaled": dp.weights_unscaled,
        },
        "attention-softmax",
        key="attention_dl_softmax",
    )

    st.markdown(f"**{t('attention.dot.v')}**")
    rows = [f"{w:.2f} × {visible(k)}" for w, k in zip(dp.weights, k_labels)] + [t("attention.dot.sum")]
    ui.figure(
        matrix(np.vstack([dp.v, dp.context]), rows, dims, text_rows=[len(rows) - 1]),
        {"V": dp.v, "weights": dp.weights, "context": dp.context},
        "attention-values",
        key="attention_v",
    )


# ---- 3.2.3 the decoder's mask ----------------------------------------------------------------------------------------


def masking(f: Focus) -> None:
    """The causal mask up to this step beside the decoder self-attention it allows."""
    st.caption(t("attention.mask.caption", lh=f.lh))
    n = f.step + 1
    mask = np.tril(np.ones((n, n)))
    dec_labels = [visible(x) for x in f.d.decoder_in[:n]]
    c_mask, c_attn = st.columns(2)
    with c_mask:
        ui.figure(
            attention_heatmap(
                mask,
                dec_labels,
                dec_labels,
                title=t("attention.mask.title"),
                zmax=1,
                colorscale="Greys",
                query_title=t("view.query"),
                key_title=t("view.key"),
                value_title=t("attention.dot.col.mask"),
            ),
            mask,
            "causal-mask",
            key="attention_mask",
            row_labels=dec_labels,
            col_labels=dec_labels,
        )
    with c_attn:
        dec = f.d.patterns["dec_self"][f.layer, f.head, :n, :n]
        ui.figure(
            attention_heatmap(
                dec,
                dec_labels,
                dec_labels,
                title=t("attention.mask.attention"),
                zmax=1,
                query_title=t("view.query"),
                key_title=t("view.key"),
                value_title=t("view.weight"),
            ),
            dec,
            "decoder-self-attention",
            key="attention_masked",
            row_labels=dec_labels,
            col_labels=dec_labels,
        )


# ---- 3.5 positional encoding -----------------------------------------------------------------------------------------


def positions(f: Focus) -> None:
    """The sinusoidal table, how alike two positions are, and the offset that is one matrix for every position."""
    st.caption(t("attention.pos.caption"))
    pos = svc.positions(32)
    p1, p2 = st.columns(2)
    p1.metric(t("attention.pos.m.neighbour"), f"{np.diag(pos.similarity, 1).mean():.3f}")
    p2.metric(t("attention.pos.m.far"), f"{np.diag(pos.similarity, 10).mean():.3f}")
    c_table, c_sim = st.columns(2)
    with c_table:
        st.markdown(f"**{t('attention.pos.table')}**")
        ui.figure(
            position_heatmap(
                pos.table,
                position_title=t("attention.pos.position"),
                dim_title=t("attention.pos.dim"),
                value_title=t("attention.pos.value"),
            ),
            pos.table,
            "sinusoidal-positions",
            key="attention_pe",
        )
    with c_sim:
        st.markdown(f"**{t('attention.pos.similarity')}**")
        ui.figure(
            similarity_heatmap(
                pos.similarity,
                position_title=t("attention.pos.position"),
                value_title=t("attention.pos.cosine"),
                trained=svc.TRAINED_CHARS + 1,
            ),
            pos.similarity,
            "position-similarity",
            key="attention_pe_sim",
        )
    st.markdown(t("attention.pos.why"))
    c_k, c_err = st.columns(2)
    offset = c_k.slider(t("attention.pos.k"), 1, 16, 3, key="attention_pos_k", bind="query-params")
    c_err.metric(
        t("attention.pos.m.offset"), f"{svc.offset_error(pos, offset):.1e}", help=t("attention.pos.m.offset.help")
    )


def card_note(cfg: dict, card: dict) -> None:
    """The checkpoint's measured numbers, under the explanation."""
    st.caption(
        t(
            "attention.card",
            em=card["exact_match"],
            em_long=card["exact_match_long"],
            align=card["alignment_accuracy"],
            head=layer_head_label(cfg["dec_layers"] - 1, card["alignment_head"]),
            align_avg=card["alignment_accuracy_head_avg"],
            params=card["params"],
        )
    )
