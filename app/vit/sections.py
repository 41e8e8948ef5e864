"""The ViT page's sections, in the paper's order: the image cut into patches and what the model predicts; the patches
as a sequence of tokens; their linear embedding; what [CLS] attends to, layer by layer and through the whole stack
(rollout); the learned position embeddings; the data and the model."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.shared import ui
from app.shared.i18n import InputError, t
from app.vit import service as svc
from app.vit import views

ATTENTION = ["vit_part_attention"]  # what the head drives: the [CLS] map with its readouts, and the grid
ATTENTION_CHOICE = "_vit_attention"  # {control: value}, read by the view (ui.rerun_parts)


# ---- an upload's or a drawing's preprocessing ------------------------------------------------------------------------


def preprocessing(steps: svc.Steps) -> None:
    with st.expander(t("vit.steps"), expanded=True):
        names = ("gray", "cropped", "boxed", "small", "image")
        ui.plot(
            views.steps_strip([getattr(steps, n) for n in names], titles=[t(f"vit.steps.{n}") for n in names]),
            key="vit_steps",
        )
        st.caption(t("vit.steps.caption", ink=svc.drawing_facts()["ink"]))


# ---- image, patches and prediction -----------------------------------------------------------------------------------


def prediction(res: svc.Analysis, held: svc.HeldOut | None, card: dict) -> None:
    st.subheader(t("vit.h.prediction"))
    left, right = st.columns([2, 3])
    with left:
        grid = views.image_with_grid(res.image, res.patch, title=t("vit.grid.title"))
        ui.figure(grid, res.image, "vit-image", key="vit_grid")
    with right:
        cols = st.columns(3)
        cols[0].metric(t("vit.metric.prediction"), res.prediction)
        cols[1].metric(t("vit.metric.probability"), f"{res.probs[res.prediction]:.1%}")
        if card["smoothing"]:  # label smoothing ε over 10 classes: the right digit's training target is 1 − ε + ε/10
            eps = card["smoothing"]
            cols[1].caption(t("vit.metric.probability.note", smoothing=eps, ceiling=1 - eps + eps / 10))
        if held is not None:
            cols[2].metric(t("vit.metric.label"), held.label, help=f"{t('vit.metric.source')}: {held.source_index}")
        ui.figure(
            views.probabilities(res.probs, x_title=t("vit.probs.x"), y_title=t("vit.probs.y")),
            res.probs,
            "vit-probabilities",
            key="vit_probs",
            row_labels=[str(k) for k in range(10)],
        )
    ui.readout(res)


# ---- the sequence of patches -----------------------------------------------------------------------------------------


def sequence(res: svc.Analysis) -> None:
    st.subheader(t("vit.h.sequence"))
    ui.plot(views.patch_sequence(res.patches, res.patch), key="vit_sequence")
    flat = views.flattened_sequence(res.patches, token_title=t("vit.token"), pixel_title=t("vit.pixel"))
    ui.plot(flat, key="vit_flat")
    st.caption(t("vit.sequence.caption"))
    rows = [str(n + 1) for n in range(len(res.patches))]
    ui.download(res.patches, "vit-patches", key="vit_dl_patches", row_labels=rows)
    ui.explain(t("vit.explain.sequence"))


# ---- the linear embedding of the patches -----------------------------------------------------------------------------


def _filters(weights: svc.Weights, patch: int) -> None:
    """The projection's filters, one per model dimension, and their leading principal components."""
    st.markdown(f"**{t('vit.filters.title')}**")
    C = len(weights.filters)
    cols = int(np.ceil(np.sqrt(C)))
    tiles = np.full((cols * cols, patch, patch), np.nan)
    tiles[:C] = weights.filters
    bound = float(np.abs(weights.filters).max())
    tiles = tiles.reshape(cols, cols, patch, patch)
    ui.plot(views.map_grid(tiles, zmin=-bound, zmax=bound, showscale=False, height=330), key="vit_filters")
    k = len(weights.filter_pcs)
    pcs = weights.filter_pcs / np.abs(weights.filter_pcs).max(axis=(1, 2), keepdims=True)
    names = [f"PC {i + 1}" for i in range(k)]
    ui.plot(
        views.map_grid(pcs[None], zmin=-1, zmax=1, showscale=False, height=120, col_labels=names), key="vit_filter_pcs"
    )
    st.caption(t("vit.filters.caption", C=C, k=k, share=float(weights.filter_variance.sum())))
    ui.download(weights.filters.reshape(C, -1), "vit-filters", key="vit_dl_filters")


def embeddings(res: svc.Analysis, card: dict) -> None:
    st.subheader(t("vit.h.embeddings"))
    points, share = svc.embedding_pca(res)
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('vit.pca.title')}**")
        ui.figure(
            views.embedding_scatter(
                points,
                [str(n + 1) for n in range(len(points))],
                res.patches.mean(1),
                x_title=t("vit.pca.x", share=share[0]),
                y_title=t("vit.pca.y", share=share[1]),
                colour_title=t("vit.pca.colour"),
            ),
            points,
            "vit-patch-embeddings-pca",
            key="vit_pca",
            col_labels=["pc1", "pc2"],
        )
        st.metric(t("vit.metric.pca"), f"{share.sum():.0%}")
    with right:
        _filters(svc.weights(), res.patch)
    ui.explain(t("vit.explain.embeddings", **card))


# ---- what [CLS] attends to -------------------------------------------------------------------------------------------


def attention(res: svc.Analysis) -> None:
    L, H = res.patterns.shape[:2]
    st.subheader(t("vit.h.attention"))
    attention_controls(H)
    attention_view(res)
    ui.explain(t("vit.explain.attention"))


@st.fragment(key="vit_part_attention_controls")
def attention_controls(H: int) -> None:
    """The head, which reruns the view (and writes it into the link); the layer moves on the map's own slider."""
    head_names = {-1: t("vit.head.mean"), **{h: str(h) for h in range(H)}}
    ui.choice(
        st.segmented_control, t("vit.head"), list(head_names), default=-1, labels=head_names,
        **ui.drives("vit_head", ATTENTION_CHOICE, ["vit_part_attention_controls", *ATTENTION], bind=False),
    )  # fmt: skip
    ui.note_controls(ATTENTION_CHOICE, ("vit_head",))


@st.fragment(key=ATTENTION[0])
def attention_view(res: svc.Analysis) -> None:
    """[CLS]'s map in every layer, moved on the figure's own slider (in the browser: each layer's map and readout
    ride in the figure), opening on the link's ``vit_layer`` or the last layer; beside it every layer and head."""
    L, H = res.patterns.shape[:2]
    head = st.session_state[ATTENTION_CHOICE]["vit_head"]
    head = -1 if head is None else int(head)
    picked = None if head == -1 else head
    head_name = t("vit.head.mean") if head == -1 else t("vit.cls.head", head=head)
    inked = svc.inked(res)
    maps = np.stack([svc.cls_attention(res, layer, picked) for layer in range(L)])
    own = res.patterns[:, :, 0, 0]  # (L, H): what [CLS] gives itself
    own = own.mean(1) if picked is None else own[:, picked]
    titles = [
        t("vit.cls.title", layer=layer, head=head_name)
        + "<br>"
        + t(
            "vit.cls.readout",
            peak=f"{maps[layer].max():.3f}",
            self=f"{own[layer]:.3f}",
            ink=f"{svc.ink_share(res, layer, picked):.0%}",
        )
        for layer in range(L)
    ]
    left, right = st.columns(2)
    with left:
        overlay = views.overlay_steps(
            res.image,
            maps,
            titles=titles,
            active=ui.query_int("vit_layer", L - 1, 0, L - 1),
            prefix=t("vit.layer") + " ",
            value_title=t("vit.weight"),
        )
        ui.figure(overlay, maps, "vit-cls-attention", key="vit_cls")
        st.caption(t("vit.cls.readout.help", k=int(inked.sum()), n=inked.size, ink=svc.INK))
    with right:
        st.markdown(f"**{t('vit.all.title')}**")
        grid = svc.cls_attention_all(res)
        ui.figure(
            views.map_grid(
                grid,
                row_labels=[t("vit.layer.n", layer=i) for i in range(L)],
                col_labels=[t("vit.cls.head", head=h) for h in range(H)],
                colorscale="Reds",
                zmin=0,
                value_title=t("vit.weight"),
                height=380,
            ),
            res.patterns,
            "vit-attention",
            key="vit_heads",
        )


# ---- attention through the whole stack: rollout ----------------------------------------------------------------------


@st.fragment
def rollout(res: svc.Analysis, key: bytes, name: str = svc.NAME) -> None:
    """Attention rollout over the digit, or over the photo for a real ViT (``name``)."""
    st.subheader(t("vit.h.rollout"))
    c1, c2 = st.columns(2)
    fusion = ui.choice(
        c1.segmented_control,
        t("vit.fusion"),
        svc.FUSIONS,
        key="vit_fusion",
        labels={f: t(f"vit.fusion.{f}") for f in svc.FUSIONS},
        default="mean",
        help=t("vit.fusion.help"),
    )
    discard = c2.slider(
        t("vit.discard"), 0.0, 0.9, 0.0, step=0.05, key="vit_discard", bind="query-params", help=t("vit.discard.help")
    )
    try:
        roll, kept = svc.rollout(key, res.backend, fusion, discard, name)
    except InputError as e:
        ui.input_error(e)
        return
    left, right = st.columns(2)
    with left:
        draw = views.photo_overlay if svc.is_real(name) else views.overlay
        overlay = draw(res.image, roll, title=t("vit.rollout.title"), value_title=t("vit.weight"))
        ui.figure(overlay, roll, "vit-rollout", key="vit_rollout")
    with right:
        st.metric(t("vit.metric.rollout_peak"), f"{roll.max():.3f}")
        st.metric(t("vit.metric.rollout_cls"), f"{kept:.3f}")
    ui.explain(t("vit.explain.rollout"))


# ---- the learned position embeddings ---------------------------------------------------------------------------------


def positions(res: svc.Analysis, card: dict) -> None:
    st.subheader(t("vit.h.positions"))
    weights = svc.weights()
    g = res.grid
    left, right = st.columns([3, 2])
    with left:
        st.markdown(f"**{t('vit.positions.title')}**")
        ui.figure(
            views.map_grid(
                weights.position_similarity,
                row_labels=[t("vit.positions.row", r=r + 1) for r in range(g)],
                col_labels=[t("vit.positions.col", c=c + 1) for c in range(g)],
                zmin=-1,
                zmax=1,
                value_title=t("vit.positions.value"),
                height=460,
            ),
            weights.position_similarity.reshape(g * g, g * g),
            "vit-position-similarity",
            key="vit_positions",
        )
    with right:
        m1, m2 = st.columns(2)
        m1.metric(t("vit.metric.horizontal"), f"{weights.horizontal_similarity:.2f}")
        m2.metric(t("vit.metric.vertical"), f"{weights.vertical_similarity:.2f}")
        m1.metric(t("vit.metric.same_row"), f"{weights.row_similarity:.2f}")
        m2.metric(t("vit.metric.same_col"), f"{weights.column_similarity:.2f}")
    ui.explain(
        t(
            "vit.explain.positions",
            T=g * g + 1,
            N=g * g,
            g=g,
            h=weights.horizontal_similarity,
            v=weights.vertical_similarity,
            row=weights.row_similarity,
            col=weights.column_similarity,
            **card,
        )
    )


# ---- the data and the model ------------------------------------------------------------------------------------------


def about(card: dict) -> None:
    ui.explain(t("vit.explain.data", **card))
