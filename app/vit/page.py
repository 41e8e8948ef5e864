"""ViT patches (2010.11929): an image as a sequence of patches, [CLS] attention, rollout, position embeddings.

The page in the paper's order; the sections are in ``app/vit/sections.py``."""

import streamlit as st

from app.shared import ui
from app.shared.i18n import InputError, t
from app.vit import occlusion, real, sections
from app.vit import service as svc

try:  # optional: drawing needs streamlit-drawable-canvas
    from streamlit_drawable_canvas import st_canvas
except ImportError:
    st_canvas = None

ui.header("vit")
name = ui.model_picker("vit_model", own=(svc.NAME,), archs=("vit",))
backend = st.session_state.get("backend", "torch")

SOURCES = ("pick", "draw", "upload")
MAX_MB = svc.MAX_UPLOAD_BYTES // (1024 * 1024)


def read_input():
    """The chosen input: (16×16 image key, held-out info or None, preprocessing steps or None), or None to wait."""
    names = {s: t(f"vit.source.{s}") for s in SOURCES}  # a dict, not t() itself: resolved now, in this language
    source = ui.choice(st.radio, t("vit.source"), SOURCES, key="vit_source", labels=names, horizontal=True)
    if source == "pick":
        n = svc.held_out_count()
        wrong = ", ".join(str(i) for i in svc.mistakes())
        index = st.number_input(
            t("vit.index"),
            0,
            n - 1,
            2,
            step=1,
            key="vit_index",
            bind="query-params",
            help=t("vit.index.help", n=n, wrong=wrong),
        )
        held = svc.held_out(int(index))
        return svc.image_key(held.image), held, None
    if source == "draw":
        if st_canvas is None:
            st.info(t("vit.draw.unavailable"), icon=":material/draw:")
            return None
        st.caption(t("vit.draw.hint", bar=svc.drawing_facts()["bar"]))
        drawing = st_canvas(
            stroke_width=18,
            stroke_color="#000000",
            background_color="#ffffff",
            height=240,
            width=240,
            drawing_mode="freedraw",
            return_image_data=True,
            key="vit_canvas",
        )
        if not (drawing.json_data or {}).get("objects") or not drawing.image_bytes:
            st.info(t("vit.draw.empty"), icon=":material/draw:")
            return None
        data = drawing.image_bytes
    else:
        upload = st.file_uploader(
            t("vit.upload", max_mb=MAX_MB),
            key="vit_upload",
        )  # no ``type=``: the browser would refuse other files with an English tooltip; the decoder says why
        if upload is None:
            st.info(t("vit.upload.empty"), icon=":material/upload:")
            return None
        if upload.size > svc.MAX_UPLOAD_BYTES:
            raise InputError("vit.error.too_large", max_mb=MAX_MB)
        data = upload.getvalue()
    steps = svc.preprocess(data)
    return svc.image_key(steps.image), None, steps


def _real(name: str, backend: str) -> None:
    """A released ViT on photos: the same sections, from the same code, on its 1000 classes."""
    facts = svc.real_facts(name)
    st.markdown(t("vit.real.intro", **facts))
    try:
        photo = real.read_photo(name)
        if photo is None:
            return
        res = svc.analyse_photo(photo, backend, name)
    except InputError as e:
        ui.input_error(e)
        return
    real.prediction(res, facts)  # §3.1 the photo cut into P×P patches, and the classes read off [CLS]
    real.sequence(res, facts)  # §3.1 the patches as a sequence of tokens
    real.embeddings(name)  # §4.5 the linear projection E: its principal components (Figure 7, left)
    real.attention(res)  # §4.5 what [CLS] attends to, per layer and head
    real.distance(res)  # §4.5 how far each head looks (Figure 7, right)
    sections.rollout(res, photo, name)  # §4.5, Appendix D.8 attention rolled out through the whole stack
    occlusion.section(res, photo, backend, name)  # intervention: each patch blanked, the drop of the class
    real.positions(res, name)  # §4.5 the learned position embeddings on the grid (Figure 7, centre)


def _ours(backend: str) -> None:
    """Our ViT on held-out, drawn or uploaded digits."""
    card = svc.card_numbers()
    ink = svc.ink_attention()
    ui.try_this(
        t("vit.try.do", layer=svc.TRY_LAYER, head=svc.TRY_HEAD, other_layer=svc.TRY_OTHER_LAYER),
        t(
            "vit.try.see",
            layer=svc.TRY_LAYER,
            head=svc.TRY_HEAD,
            other_layer=svc.TRY_OTHER_LAYER,
            share=ink.share,
            inked=ink.inked,
            favoured=ink.favoured,
            n=ink.images,
            other=ink.other,
        ),
        t("vit.try.why"),
    )
    ui.paper_vs_here(
        [(t(f"vit.pvh.{row}"), t(f"vit.pvh.{row}.paper"), t(f"vit.pvh.{row}.here", **card)) for row in svc.PVH_ROWS],
        [t(f"vit.pvh.dep.{d}", **card) for d in svc.PVH_DEPARTURES],
    )
    try:
        chosen = read_input()
        if chosen is None:
            return
        key, held, steps = chosen
        res = svc.analyse(key, backend)
    except InputError as e:
        ui.input_error(e)
        return

    # ---- the sections, in the paper's order --------------------------------------------------------------------------
    if steps is not None:
        sections.preprocessing(steps)  # an upload or a drawing made into a 16×16 digit like the training set's
    sections.prediction(res, held, card)  # §3.1 the image cut into P×P patches, and the class the model reads off [CLS]
    sections.sequence(res)  # §3.1 the patches flattened into a sequence of tokens
    sections.embeddings(res, card)  # §3.1, §4.5 the linear projection E of the patches: its filters
    sections.attention(res)  # §4.5 what [CLS] attends to, per layer and head
    sections.rollout(res, key)  # §4.5, Appendix D.8 attention rolled out through the whole stack
    occlusion.section(res, key, backend)  # intervention: each patch blanked in turn, the drop of the predicted class
    sections.positions(res, card)  # §4.5 the learned position embeddings: rows and columns of the grid
    sections.about(card)  # the data and the model


if svc.is_real(name):
    _real(name, backend)
else:
    _ours(backend)
