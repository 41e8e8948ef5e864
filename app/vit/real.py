"""The ViT page on a real checkpoint (Google's ViT-B/16, ImageNet): a bundled photo or the reader's own, cut into
patches; the classes it reads off [CLS]; the first patches as tokens; the linear projection's principal components;
what [CLS] attends to per layer and head, and how far each head looks; attention rolled out through the stack; the
learned position embeddings on the 14×14 grid. The same numbers as on our digits model, from the same code."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.shared import ui
from app.shared.i18n import InputError, t
from app.vit import service as svc
from app.vit import views

ATTENTION = ["vit_part_real_attention"]  # what the layer and head drive
ATTENTION_CHOICE = "_vit_real_attention"  # {control: value}, read by the view (ui.rerun_parts)
MAX_MB = svc.MAX_UPLOAD_BYTES // (1024 * 1024)


def read_photo(name: str) -> bytes | None:
    """The photo the reader chose, as ``svc.photo`` bytes, or None while nothing is uploaded."""
    labels = {s: t(f"vit.real.source.{s}") for s in svc.PHOTOS}
    source = ui.choice(st.radio, t("vit.source"), svc.PHOTOS, key="vit_photo", labels=labels, horizontal=True)
    if source != "upload":
        return svc.photo(source, name)
    upload = st.file_uploader(t("vit.real.upload", max_mb=MAX_MB), key="vit_photo_upload")
    if upload is None:
        st.info(t("vit.real.upload.empty"), icon=":material/upload:")
        return None
    if upload.size > svc.MAX_UPLOAD_BYTES:
        raise InputError("vit.error.too_large", max_mb=MAX_MB)
    return svc.photo("upload", name, upload.getvalue())


# ---- the photo, its patches and the classes ------------------------------------------------------------------------


def prediction(res: svc.Analysis, facts: dict) -> None:
    st.subheader(t("vit.h.prediction"))
    left, right = st.columns([2, 3])
    with left:
        title = t("vit.real.grid.title", g=res.grid, p=res.patch)
        ui.figure(
            views.photo_with_grid(res.image, res.patch, title=title),
            res.image.mean(-1),
            "vit-photo",
            key="vit_photo_grid",
        )
    with right:
        top = res.top()
        names, probs = tuple(n for n, _ in top), tuple(p for _, p in top)
        row = ui.row()
        row.metric(t("vit.metric.prediction"), names[0])
        row.metric(t("vit.metric.probability"), f"{probs[0]:.1%}")
        st.markdown(f"**{t('vit.real.top', k=len(top), n=facts['classes'])}**")
        ui.figure(
            views.top_classes(names, probs, x_title=t("vit.probs.y")),
            np.array(probs),
            "vit-top-classes",
            key="vit_top",
            row_labels=list(names),
        )
        st.caption(t("vit.real.classes.caption", n=facts["classes"]))
    ui.readout(res)


def sequence(res: svc.Analysis, facts: dict) -> None:
    st.subheader(t("vit.h.sequence"))
    g, p = res.grid, res.patch
    r = g // 2  # the middle row of patches, (g, P, P, 3): through the photo's subject more often than the top
    tiles = res.image[r * p : (r + 1) * p].reshape(p, g, p, 3).transpose(1, 0, 2, 3)
    labels = [str(r * g + n + 1) for n in range(g)]
    ui.plot(views.rgb_tiles(tiles, labels=labels, per_row=g, height=140), key="vit_real_sequence")
    st.caption(t("vit.real.sequence.caption", row=r + 1, first=r * g + 1, last=r * g + g, **facts))
    row = ui.row()
    row.metric(t("vit.real.m.tokens"), facts["tokens"])
    row.metric(t("vit.real.m.values"), facts["values"])
    row.metric(t("vit.real.m.width"), facts["dim"])
    ui.download(
        res.patches, "vit-patches", key="vit_dl_real_patches", row_labels=[str(n + 1) for n in range(len(res.patches))]
    )


def embeddings(name: str) -> None:
    st.subheader(t("vit.h.embeddings"))
    w = svc.weights(name)
    pcs = w.filter_pcs
    lo, hi = pcs.min(axis=(1, 2, 3), keepdims=True), pcs.max(axis=(1, 2, 3), keepdims=True)
    tiles = (pcs - lo) / np.maximum(hi - lo, 1e-12)  # each component stretched to [0, 1] to be seen, as in Figure 7
    k = len(pcs)
    ui.plot(views.rgb_tiles(tiles, per_row=8, height=90 * -(-k // 8) + 20), key="vit_real_pcs")
    st.caption(t("vit.real.pcs.caption", k=k, share=float(w.filter_variance.sum())))
    ui.download(pcs.reshape(k, -1), "vit-filter-components", key="vit_dl_real_pcs")


# ---- what [CLS] attends to -------------------------------------------------------------------------------------------


def attention(res: svc.Analysis) -> None:
    L, H = res.patterns.shape[:2]
    st.subheader(t("vit.h.attention"))
    attention_controls(L, H)
    attention_view(res)
    ui.explain(t("vit.real.explain.attention"))


@st.fragment(key="vit_part_real_attention_controls")
def attention_controls(L: int, H: int) -> None:
    c1, c2 = st.columns(2)
    ui.slider(c1, t("vit.layer"), 0, L - 1, L - 1, **ui.drives("vit_real_layer", ATTENTION_CHOICE, ATTENTION))
    heads = {-1: t("vit.head.mean"), **{h: str(h) for h in range(H)}}
    ui.choice(
        c2.selectbox, t("vit.head"), list(heads), default=-1, labels=heads,
        **ui.drives("vit_real_head", ATTENTION_CHOICE, ["vit_part_real_attention_controls", *ATTENTION], bind=False),
    )  # fmt: skip
    ui.note_controls(ATTENTION_CHOICE, ("vit_real_layer", "vit_real_head"))


@st.fragment(key=ATTENTION[0])
def attention_view(res: svc.Analysis) -> None:
    L, H = res.patterns.shape[:2]
    layer, head = (st.session_state[ATTENTION_CHOICE].get(k) for k in ("vit_real_layer", "vit_real_head"))
    layer = L - 1 if layer is None else min(int(layer), L - 1)
    head = -1 if head is None else int(head)
    head_name = t("vit.head.mean") if head == -1 else t("vit.cls.head", head=head)
    cls_map = svc.cls_attention(res, layer, None if head == -1 else head)
    self_weight = float(res.patterns[layer, :, 0, 0].mean() if head == -1 else res.patterns[layer, head, 0, 0])
    left, right = st.columns(2)
    with left:
        title = t("vit.cls.title", layer=layer, head=head_name)
        ui.figure(
            views.photo_overlay(res.image, cls_map, title=title, value_title=t("vit.weight")),
            cls_map,
            "vit-cls-attention",
            key="vit_real_cls",
        )
        row = ui.row()
        row.metric(t("vit.metric.cls_peak"), f"{cls_map.max():.3f}")
        row.metric(t("vit.metric.cls_self"), f"{self_weight:.3f}", help=t("vit.metric.cls_self.help"))
    with right:
        st.markdown(f"**{t('vit.all.title')}**")
        ui.figure(
            views.map_grid(
                svc.cls_attention_all(res),
                row_labels=[str(i) for i in range(L)],
                col_labels=[str(h) for h in range(H)],
                colorscale="Reds",
                zmin=0,
                value_title=t("vit.weight"),
                selected=None if head == -1 else (layer, head),
                height=420,
            ),
            res.patterns[:, :, 0, 1:].reshape(L * H, -1),
            "vit-attention",
            key="vit_real_heads",
        )
        st.caption(t("vit.real.all.caption"))


def distance(res: svc.Analysis) -> None:
    st.subheader(t("vit.real.h.distance"))
    d = svc.attention_distance(res)
    L, H = d.shape
    ui.figure(
        views.attention_distance(
            d, layer_title=t("vit.layer"), distance_title=t("vit.real.distance.y"), head_title=t("vit.head")
        ),
        d,
        "vit-attention-distance",
        key="vit_real_distance",
        row_labels=[str(i) for i in range(L)],
        col_labels=[f"head{h}" for h in range(H)],
    )
    row = ui.row()
    row.metric(t("vit.real.m.first"), f"{d[0].min():.0f} – {d[0].max():.0f}")
    row.metric(t("vit.real.m.last"), f"{d[-1].min():.0f} – {d[-1].max():.0f}")
    ui.explain(t("vit.real.explain.distance", side=res.image.shape[0]))


# ---- attention through the whole stack: rollout ----------------------------------------------------------------------


# ---- the learned position embeddings ---------------------------------------------------------------------------------


def positions(res: svc.Analysis, name: str) -> None:
    st.subheader(t("vit.h.positions"))
    w = svc.weights(name)
    g = res.grid
    every = max(1, g // 7)  # a 14×14 grid names every other row and column
    rows = [t("vit.positions.row", r=i + 1) if i % every == 0 else "" for i in range(g)]
    cols = [t("vit.positions.col", c=i + 1) if i % every == 0 else "" for i in range(g)]
    left, right = st.columns([3, 2])
    with left:
        st.markdown(f"**{t('vit.positions.title')}**")
        ui.figure(
            views.map_grid(
                w.position_similarity,
                row_labels=rows,
                col_labels=cols,
                zmin=-1,
                zmax=1,
                value_title=t("vit.positions.value"),
                height=520,
            ),
            w.position_similarity.reshape(g * g, g * g),
            "vit-position-similarity",
            key="vit_positions",
        )
    with right:
        m1, m2 = st.columns(2)
        m1.metric(t("vit.metric.horizontal"), f"{w.horizontal_similarity:.2f}")
        m2.metric(t("vit.metric.vertical"), f"{w.vertical_similarity:.2f}")
        m1.metric(t("vit.metric.same_row"), f"{w.row_similarity:.2f}")
        m2.metric(t("vit.metric.same_col"), f"{w.column_similarity:.2f}")
    ui.explain(t("vit.real.explain.positions", g=g, N=g * g))
