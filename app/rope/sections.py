"""The sections of the RoPE page, in the paper's order: the rotation of each pair and the spectrum of their
frequencies, the relative property, long-term decay (RoFormer's bound and the model's own scores), five position
schemes on one chart, and extrapolation past the training context (plain, position interpolation, NTK, YaRN)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.rope import service as svc
from app.rope import views
from app.shared import ui
from app.shared.formats import millions_or_billions
from app.shared.i18n import InputError, t
from app.shared.numbers import smooth

SMOOTHING = 32  # tokens in the moving average of the extrapolation losses

# ---- the head width and the base ------------------------------------------------------------------------------------
CHOICE = "_rope_choice"  # {control: value} as the controls last drew them or a callback noted them, for the parts
CONTROLS = ("rope_d", "rope_base")
# What d and the base drive, in page order: a move reruns these fragments alone, not the measured decay, the
# extrapolation, the intervention or the model card, which read the trained model as it is
PARTS = (
    "rope_part_rotation",
    "rope_part_spectrum",
    "rope_part_relative",
    "rope_part_decay_metrics",
    "rope_part_bound",
    "rope_part_schemes",
)


@st.fragment(key="rope_part_controls")
def controls() -> None:
    """The head width d and the base, side by side; a move reruns the parts they drive (``ui.rerun_parts``)."""
    c_d, c_base = st.columns(2)
    c_d.select_slider(t("rope.d"), svc.DIMS, 48, help=t("rope.d.help"), **ui.drives("rope_d", CHOICE, PARTS))
    c_base.select_slider(
        t("rope.base"),
        svc.BASES,
        10_000,
        format_func=lambda b: f"{b:,}",
        help=t("rope.base.help"),
        **ui.drives("rope_base", CHOICE, PARTS),
    )
    ui.note_controls(CHOICE, CONTROLS)


def chosen() -> tuple[int, int]:
    """(d, base) as the controls chose them."""
    c = st.session_state[CHOICE]
    return int(c["rope_d"]), int(c["rope_base"])


def _frequencies() -> tuple[int, int, np.ndarray] | None:
    """(d, base, θ) for a part; None, with the message shown, where the pair is refused (the page stops on it in a
    full run: a part rerun alone shows it in its place)."""
    d, base = chosen()
    try:
        return d, base, svc.frequencies(d, base)
    except InputError as e:
        ui.input_error(e)
        return None


# ---- rotating pairs -------------------------------------------------------------------------------------------------
def rotation() -> None:
    """The fastest and the slowest pair of a query rotated to positions 0 … m, m moved on the figure's own slider
    (in the browser: every position's angle is sent with the figure). A link's ``rope_m`` picks where it opens."""
    st.subheader(t("rope.rot.title"))
    st.markdown(t("rope.rot.caption"))
    _rotation_part()


@st.fragment(key=PARTS[0])
def _rotation_part() -> None:
    if (chosen_ := _frequencies()) is None:
        return
    d, base, theta = chosen_
    m = ui.query_int("rope_m", 10, 0, svc.MAX_POSITION)
    slow = len(theta) - 1
    pairs = [svc.rotation(d, base, svc.MAX_POSITION, 0), svc.rotation(d, base, svc.MAX_POSITION, slow)]
    k = np.arange(svc.MAX_POSITION + 1)
    fast_deg, slow_deg = np.degrees(k * theta[0]) % 360, np.degrees(k * theta[slow]) % 360
    fast_turns, slow_turns = k * theta[0] / (2 * np.pi), k * theta[slow] / (2 * np.pi)
    readouts = [
        [t("rope.rot.at", angle=f"{deg[i]:.{digits}f}", turns=f"{turns[i]:.{digits + 1}f}") for i in k]
        for deg, turns, digits in ((fast_deg, fast_turns, 0), (slow_deg, slow_turns, 3))
    ]
    titles = [t("rope.rot.pair", i=0, theta=f"{theta[0]:.3g}"), t("rope.rot.pair", i=slow, theta=f"{theta[slow]:.3g}")]
    ui.figure(
        views.rotation(pairs, titles, readouts, m, "m = "),
        {
            "position": k.tolist(),
            "fast_pair": pairs[0],
            "slow_pair": pairs[1],
            "fast_degrees": fast_deg,
            "slow_degrees": slow_deg,
        },
        "rope-rotation",
        key="rope_rotation",
    )


def spectrum(name: str) -> None:
    """Each pair's wavelength against the training context; for a real model, its base against ours."""
    st.subheader(t("rope.spec.title"))
    st.caption(t("rope.spec.caption"))
    _spectrum_part()
    if svc.is_real(name) and svc.available(name):
        _bases(name)  # outside the part: its button sets d and the base, and the whole page follows


@st.fragment(key=PARTS[1])
def _spectrum_part() -> None:
    if (chosen_ := _frequencies()) is None:
        return
    theta = chosen_[2]
    T = svc.context()
    ui.figure(
        views.spectrum(
            theta,
            T,
            pair_title=t("rope.pair"),
            wavelength_title=t("rope.wavelength"),
            context_name=t("rope.context", T=T),
        ),
        {"pair": list(range(len(theta))), "theta": theta, "wavelength": 2 * np.pi / theta},
        "rope-spectrum",
        key="rope_spectrum",
    )


def _use(d: int, base: int) -> None:
    """``on_click`` of "use the real model's d and base": set the page's two sliders to them."""
    st.session_state["rope_d"], st.session_state["rope_base"] = d, base


def _bases(name: str) -> None:
    """The real model's base against ours: the slowest pair's wavelength, with each model's D and context, and the
    real model's D and context with our base."""
    ours, real, swapped = svc.spectra(name)
    title = svc.title(name)
    st.markdown(f"**{t('rope.bases.title', name=title, base=f'{real.base:,.0f}', ours=f'{ours.base:,.0f}')}**")
    models = {
        t("rope.bases.ours"): ours,
        title: real,
        t("rope.bases.swapped", name=title, base=f"{ours.base:,.0f}"): swapped,
    }
    ui.table(  # one column per model, so the table fits a phone's width
        {
            t("rope.bases.col.what"): [
                "D",
                t("rope.base"),
                t("rope.bases.col.context"),
                t("rope.bases.col.slowest"),
                t("rope.bases.col.turns"),
                t("rope.bases.col.unturned"),
            ],
            **{
                label: [
                    f"{m.head_dim}",
                    f"{m.base:,.0f}",
                    f"{m.context:,}",
                    f"{m.slowest:,.0f}",
                    f"{m.turns:.3f}",
                    f"{m.unturned} / {m.head_dim // 2}",
                ]
                for label, m in models.items()
            },
        }
    )
    st.caption(
        t(
            "rope.bases.note",
            name=title,
            base=f"{real.base:,.0f}",
            ours=f"{ours.base:,.0f}",
            slowest=f"{real.slowest:,.0f}",
            swapped=f"{swapped.slowest:,.0f}",
            times=real.slowest / swapped.slowest,
            T=f"{real.context:,}",
            turns=real.turns,
            turns_swapped=swapped.turns,
        )
    )
    if real.head_dim in svc.DIMS and real.base in svc.BASES:
        st.button(
            t("rope.bases.use", name=title, d=real.head_dim, base=f"{real.base:,.0f}"),
            key="rope_use_real",
            on_click=_use,
            args=(real.head_dim, int(real.base)),
            icon=":material/tune:",
        )


# ---- the relative property ------------------------------------------------------------------------------------------
REL_VIEWS = ("rope", "abs")  # the score map shown: RoPE's, or the sinusoidal table added


def relative() -> None:
    """One random query and key at every position: with RoPE the scores depend on m − n alone (a Toeplitz matrix),
    with the sinusoidal table added they do not."""
    st.subheader(t("rope.rel.title"))
    st.markdown(t("rope.rel.caption"))
    _relative_part()


@st.fragment(key=PARTS[2])
def _relative_part() -> None:
    """The seed, the two deviations and the two score maps: the seed reruns this part alone, as d and the base do."""
    if (chosen_ := _frequencies()) is None:
        return
    d, base, _ = chosen_
    e0, e1, e2 = st.columns([1, 2, 2])
    seed = e0.number_input(t("rope.seed"), 0, 9999, 0, key="rope_seed", bind="query-params")
    rel = svc.relative(d, base, int(seed))
    e1.metric(t("rope.m.toeplitz"), f"{rel.rope_deviation:.1e}", help=t("rope.m.toeplitz.help"))
    e2.metric(t("rope.m.toeplitz_abs"), f"{rel.absolute_deviation:.2f}", help=t("rope.m.toeplitz_abs.help"))
    labels = [str(i) for i in range(svc.SCORE_POSITIONS)]
    # One map at a time, picked here (kept in the link): a move of d or the base redraws one heatmap, not two
    name = ui.choice(
        st.segmented_control,
        t("rope.rel.view"),
        REL_VIEWS,
        key="rope_rel_view",
        labels={v: t(f"rope.rel.{v}") for v in REL_VIEWS},
        required=True,
    )
    scores = {"rope": rel.rope, "abs": rel.absolute}[name]
    ui.figure(
        views.score_matrix(scores, query_title=t("rope.rel.m"), key_title=t("rope.rel.n"), value_title=t("rope.score")),
        scores,
        f"rope-{name}-scores",
        key=f"rope_{name}_map",
        row_labels=labels,
        col_labels=labels,
    )


# ---- long-term decay ------------------------------------------------------------------------------------------------
def decay(backend: str, name: str) -> None:
    """RoFormer's upper bound by distance, beside the mean score the model's own q and k give (ours, or a real
    model's beside ours). The bound's metrics and figure follow d and the base; the measured scores do not."""
    st.subheader(t("rope.decay.title"))
    st.markdown(t("rope.decay.caption"))
    _decay_metrics_part()
    b1, b2 = st.columns(2)
    with b1:
        _bound_part()
    with b2:
        _measured_decay(backend, name)
    if svc.is_real(name) and svc.available(name) and svc.available():
        _beside(backend, name)


@st.fragment(key=PARTS[3])
def _decay_metrics_part() -> None:
    if (chosen_ := _frequencies()) is None:
        return
    bound = svc.decay_bound(*chosen_[:2])
    far = svc.DECAY_DISTANCES - 1
    k1, k2 = st.columns(2)
    k1.metric(t("rope.m.half"), svc.half_distance(bound), help=t("rope.m.half.help"))
    k2.metric(t("rope.m.far", r=far), f"{bound[far] / bound[0]:.3f}", help=t("rope.m.far.help"))


@st.fragment(key=PARTS[4])
def _bound_part() -> None:
    if (chosen_ := _frequencies()) is None:
        return
    d, base, _ = chosen_
    bound = svc.decay_bound(d, base)
    distances = np.arange(svc.DECAY_DISTANCES)
    st.caption(t("rope.decay.bound", d=d, base=f"{base:,}"))
    ui.figure(
        views.curves(
            distances,
            {t("rope.decay.bound.name"): bound},
            x_title=t("rope.distance"),
            y_title=t("rope.decay.bound.y"),
        ),
        {"distance": distances, "bound": bound},
        "rope-decay-bound",
        key="rope_bound",
    )


MAX_BUTTONS = 8  # layers shown as buttons up to this many (ours: 4); a real model's 30 get a slider


def _measured_decay(backend: str, name: str) -> None:
    try:
        meas = svc.measured_decay(backend, name) if svc.available(name) else None
    except InputError as e:  # the held-out plays are not downloaded
        meas = None
        ui.input_error(e)
    if meas is not None:
        L, H, T = meas.scores.shape
        if L <= MAX_BUTTONS:
            layer = st.segmented_control(
                t("view.layer"), list(range(L)), default=0, required=True, key="rope_layer", bind="query-params"
            )
        else:
            layer = ui.slider(st, t("view.layer"), 0, L - 1, 0, key="rope_layer_n", bind="query-params")
        if svc.is_real(name):
            st.caption(t("rope.decay.measured.real", name=svc.title(name), n=meas.windows, T=T))
        else:
            st.caption(t("rope.decay.measured", T=T))
        series = {t("rope.head", h=h): meas.scores[layer, h] for h in range(H)}
        ui.figure(
            views.curves(np.arange(T), series, x_title=t("rope.distance"), y_title=t("rope.decay.measured.y")),
            meas.scores[layer],
            f"rope-measured-decay-l{layer}",
            key="rope_measured",
            row_labels=[t("rope.head", h=h) for h in range(H)],
        )
        ui.readout(meas)
    elif not svc.available(name):
        st.info(t("rope.no_model"))


def _beside(backend: str, name: str) -> None:
    """The real model's mean score by distance beside ours, over every layer and head, on one axis."""
    try:
        b = svc.beside(backend, name)
    except InputError as e:
        ui.input_error(e)
        return
    title = svc.title(name)
    st.markdown(f"**{t('rope.beside.title', name=title)}**")
    row = ui.row()
    for who, i in ((t("rope.bases.ours"), 0), (title, 1)):
        row.metric(
            t("rope.m.near_far", name=who),
            f"{b.near[i]:.2f} → {b.far[i]:.2f}",
            help=t("rope.m.near_far.help", near=svc.NEAR, R=len(b.distances)),
        )
    ui.figure(
        views.curves(
            b.distances,
            {t("rope.bases.ours"): b.ours, title: b.real},
            x_title=t("rope.distance"),
            y_title=t("rope.decay.measured.y"),
        ),
        {"distance": b.distances, "ours": b.ours, name: b.real},
        "rope-decay-beside",
        key="rope_beside",
    )
    decays = all(near > far for near, far in zip(b.near, b.far))
    st.caption(
        t("rope.beside.note", R=len(b.distances), rest=b.window - len(b.distances) + 1, name=title)
        + (" " + t("rope.beside.decays", name=title) if decays else "")
    )


# ---- position schemes on one chart ----------------------------------------------------------------------------------
def schemes() -> None:
    """Sinusoidal, learned, T5's buckets, ALiBi and RoPE: what each adds to a score by offset, on one scale."""
    st.subheader(t("rope.schemes.title"))
    st.caption(t("rope.schemes.caption"))
    _schemes_part()


@st.fragment(key=PARTS[5])
def _schemes_part() -> None:
    if (chosen_ := _frequencies()) is None:
        return
    curves = svc.schemes(*chosen_[:2])
    names = {k: t(f"rope.scheme.{k}") for k in curves}
    ui.figure(
        views.curves(
            np.arange(svc.SCHEME_OFFSETS),
            {names[k]: v for k, v in curves.items()},
            x_title=t("rope.offset"),
            y_title=t("rope.schemes.y"),
            height=380,
        ),
        dict(curves),
        "rope-schemes",
        key="rope_schemes",
    )
    st.markdown("\n".join(f"- **{names[k]}** — {t(f'rope.scheme.{k}.note')}" for k in curves))


# ---- extrapolation --------------------------------------------------------------------------------------------------
def extrapolation(name: str) -> None:
    """The trained model read past its context with each scaling, what its card measured, and the card itself."""
    st.subheader(t("rope.ext.title"))
    st.markdown(t("rope.ext.caption", T=svc.context(), x=svc.EXTRAPOLATE))
    if svc.is_real(name):
        st.caption(t("rope.ext.ours_only", name=svc.title(name), T=f"{svc.context(name):,}", x=svc.EXTRAPOLATE))
    if not svc.available():
        st.info(t("rope.no_model"))
        return
    with st.container(key="rope_ours_ext"):  # ours, whichever model is picked: the caption above says so
        _extrapolation_part()
        card = svc.card_numbers()
        beyond = sorted(svc.SCHEMES, key=lambda s: card[f"{s}_beyond"])
        ranking = t("rope.ext.ranking.sep").join(f"{t(f'rope.ext.{s}')} {card[f'{s}_beyond']:.2f}" for s in beyond)
        st.markdown(t("rope.ext.measured", ranking=ranking, **card))
        ui.reading_numbers()
        _model_card()


@st.fragment
def _extrapolation_part() -> None:
    """The source, the schemes shown, and the loss at every position: a fragment, its controls rerun it alone."""
    c_src, c_start = st.columns([2, 1])
    source = ui.choice(
        c_src.selectbox,
        t("rope.ext.source"),
        svc.SOURCES,
        key="rope_source",
        labels={s: t(f"rope.ext.source.{s}") for s in svc.SOURCES},
    )
    start = c_start.slider(
        t("rope.ext.start"), 0.0, 1.0, 0.5, 0.05, key="rope_start", bind="query-params", disabled=source == "custom"
    )
    text = ""
    if source == "custom":
        text = st.text_area(  # not ui.text_box: this one has a placeholder
            t("rope.ext.text", n=svc.EXTRAPOLATE * svc.context()),
            "",
            key="rope_text",
            bind="query-params",
            max_chars=svc.MAX_CHARS,
            height=120,
            placeholder=t("rope.ext.text.placeholder", T=svc.context()),
        )
        if not text.strip():
            st.info(t("rope.ext.text.empty"), icon=":material/edit_note:")
            return
    cols = st.columns(len(svc.SCHEMES))
    chosen = tuple(
        s
        for s, c in zip(svc.SCHEMES, cols)
        if c.toggle(t(f"rope.ext.{s}"), True, key=f"rope_show_{s}", bind="query-params")
    )
    if not chosen:
        st.info(t("rope.ext.none"))
        return
    try:
        ext = svc.extrapolation(source, float(start), text, chosen)
    except InputError as e:
        ui.input_error(e)
        return
    T = ext.context
    cols = st.columns(len(svc.SCHEMES))
    for s, c in zip(svc.SCHEMES, cols):
        if s in ext.losses:
            loss = ext.losses[s]
            c.metric(
                t(f"rope.ext.m.{s}"),
                f"{loss[T:].mean():.2f}",
                f"{loss[T:].mean() - loss[:T].mean():+.2f}",
                delta_color="inverse",
                help=t("rope.ext.m.help", T=T),
            )
    series = {t(f"rope.ext.{s}"): smooth(v, SMOOTHING) for s, v in ext.losses.items()}
    st.caption(t("rope.ext.plot", n=ext.n_tokens, w=SMOOTHING))
    ui.figure(
        views.curves(
            np.arange(1, ext.n_tokens + 1),
            series,
            x_title=t("rope.position"),
            y_title=t("rope.ext.loss"),
            vline=T,
            vline_name=t("rope.context", T=T),
        ),
        dict(ext.losses),
        "rope-extrapolation",
        key="rope_extrapolation",
    )
    ui.readout(ext)


def _model_card() -> None:
    with st.expander(t("rope.card.title")):
        card = svc.card()
        metrics = card.get("metrics", {})
        base_card = card.get("baseline", {})
        c1, c2, c3, c4 = st.columns(4)
        c1.metric(t("rope.card.params"), millions_or_billions(card.get("params", 0)))
        c2.metric(t("rope.card.val_bpc"), f"{metrics.get('val_bpc', float('nan')):.3f}")
        c3.metric(
            t("rope.card.baseline"),
            f"{metrics.get('baseline_val_bpc', float('nan')):.3f}",
            help=t("rope.card.baseline.help", params=base_card.get("params", 0) / 1e6),
        )
        c4.metric(
            t("rope.card.steps"),
            f"{card.get('steps', 0)} / {base_card.get('steps', 0)}",
            help=t("rope.card.steps.help"),
        )
        st.caption(
            t(
                "rope.card.caption",
                data=card.get("data", ""),
                minutes=card.get("wall_time_s", 0) / 60,
                command=card.get("command", ""),
            )
        )
        ext = svc.card_extrapolation()
        if ext is not None:
            st.caption(t("rope.card.ext", n=ext.windows, length=ext.length))
            ui.plot(
                views.curves(
                    ext.x,
                    {t(f"rope.ext.{s}"): v for s, v in ext.losses.items()},
                    x_title=t("rope.position"),
                    y_title=t("rope.ext.loss"),
                    vline=ext.context,
                    vline_name=t("rope.context", T=ext.context),
                ),
                key="rope_card_ext",
            )
