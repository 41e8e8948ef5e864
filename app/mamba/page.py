"""Mamba Δ gating (2312.00752): Δ, Ā, B, C and ‖h_t‖ of a selective SSM; Mamba vs an LTI baseline on selective
copying; the parallel scan against the recurrence, and a constant state against a growing KV cache."""

import numpy as np
import streamlit as st

from app.mamba import service as svc
from app.mamba import views
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.tokens import token_strip

ui.header("mamba")
st.markdown(t("mamba.intro"))
backend = st.session_state.get("backend", "torch")

sources = svc.sources()
if not sources:
    st.info(t("mamba.none"))
    st.stop()
cards = svc.card_numbers()
if svc.available("copy"):
    stats = svc.try_stats(backend)
    k = cards["copy"]["d_conv"] - 1
    ui.try_this(
        t("mamba.try.do"),
        t(
            "mamba.try.see",
            k=k,
            low=stats.share_low,
            median=stats.share_median,
            last=stats.instances - 1,
            positions=stats.positions,
            acc=stats.accuracy,
            lti=stats.lti,
        ),
        t("mamba.try.why", k=k, w=k + 1),
    )
ui.paper_vs_here(
    [
        (t(f"mamba.pvh.{r}"), t(f"mamba.pvh.{r}.paper"), t(f"mamba.pvh.{r}.here", **svc.pvh_fields(cards)))
        for r in svc.PVH_ROWS
    ],
    [t(f"mamba.pvh.dep.{d}", **svc.pvh_fields(cards)) for d in svc.PVH_DEPARTURES],
)

# ---- input ----------------------------------------------------------------------------------------------------------
MAPS = ("delta", "abar", "bc", "hnorm")
DECODE_COSTS = "mamba_decode_costs"  # the reader's own decoding measurement, once they ask for it
MEASURE_REQUESTED = "mamba_measure_requested"  # set by the Measure button's callback
names = {s: t(f"mamba.source.{s}") for s in svc.SOURCES}
source = ui.choice(st.segmented_control, t("mamba.source"), sources, key="mamba_source", labels=names)
seed, length, text = 0, svc.INDUCTION_LENGTHS[0], ""
c1, c2 = st.columns([1, 2])
if source == "text":
    text = st.text_area(
        t("mamba.text"),
        svc.DEFAULT_TEXT,
        key="mamba_text",
        bind="query-params",
        max_chars=svc.MAX_CHARS,
        height=90,
        help=t("mamba.text.help", max=svc.MAX_CHARS),
    )
else:
    seed = int(
        c1.number_input(
            t("mamba.seed"),
            0,
            svc.MAX_SEED,
            0,
            step=1,
            key="mamba_seed",
            bind="query-params",
            help=t("mamba.seed.help"),
        )
    )
    if source == "induction":
        length = c2.segmented_control(
            t("mamba.length"),
            svc.INDUCTION_LENGTHS,
            default=svc.INDUCTION_LENGTHS[0],
            key="mamba_length",
            bind="query-params",
            help=t("mamba.length.help"),
        )
        length = int(length or svc.INDUCTION_LENGTHS[0])
try:
    a = svc.analyse(source, seed, length, text, backend)
except InputError as e:
    ui.input_error(e)
    st.stop()

L = a.delta.shape[0]
n_state = a.B.shape[-1]
labels = list(a.labels)


# ---- the input, and what the model answers (the same at every layer) -------------------------------------------------
if source != "text":
    st.caption(t(f"mamba.legend.{source}"))
answers = ui.row()
answers.metric(t("mamba.m.positions"), len(labels))
if a.accuracy is not None:
    answers.metric(t("mamba.m.accuracy"), f"{a.accuracy:.0%}")
else:
    answers.metric(t("mamba.m.next"), repr(svc.output_label("text", int(a.pred[-1]))))
ui.readout(a)
if a.accuracy is not None:
    where = np.flatnonzero(a.mask)
    st.markdown(f"**{t('mamba.h.outputs')}**")
    st.dataframe(
        ui.arrow(
            {
                t("mamba.col.position"): where,
                t("mamba.col.target"): [svc.output_label(source, int(a.targets[i])) for i in where],
                t("mamba.col.mamba"): [svc.output_label(source, int(a.pred[i])) for i in where],
            }
        ),
        hide_index=True,
        key="mamba_outputs",
    )


@st.fragment
def per_layer_views() -> None:
    """Everything that depends on the layer slider: moving it reruns only this part of the page (the answers above
    are the model's, the same at every layer, and are not sent again)."""
    layer = st.slider(t("mamba.layer"), 0, L - 1, 0, key="mamba_layer", bind="query-params") if L > 1 else 0
    move = a.delta_move[layer]
    shown_move = np.where(svc.settled(a), move, 0.0)
    ui.markup(
        token_strip(
            labels, shown_move, colorscale="Reds", vmin=0.0, fmt="{:.3f}", label=t("mamba.strip.delta", k=a.d_conv - 1)
        )
    )
    row = ui.row()
    peak = svc.movement_peak(a, layer)
    letter = svc.letter_before(a, peak) if source == "copy" else None
    if letter is not None:
        # On selective copying the movement belongs to a letter (the convolution carries it into the next positions):
        # name the letter, so the metric never points at a noise token.
        where = t("mamba.m.delta_max.after", n=peak - letter, letter=labels[letter], t=letter, at=peak, v=move[peak])
        row.metric(
            t("mamba.m.delta_letter"),
            t("mamba.m.delta_letter.value", letter=labels[letter], t=letter),
            help=where + " " + t("mamba.m.delta_max.help", k=a.d_conv - 1),
        )
    else:
        row.metric(
            t("mamba.m.delta_max"),
            f"{move[peak]:.2f}",
            help=t("mamba.m.delta_max.at", token=labels[peak], t=peak)
            + " "
            + t("mamba.m.delta_max.help", k=a.d_conv - 1),
        )
    if source == "copy":
        share, positions = svc.share_near_letters(a, layer)
        row.metric(
            t("mamba.m.near"),
            f"{share:.0%}",
            help=t("mamba.m.near.help", k=a.d_conv - 1, positions=positions),
        )

    # One map at a time: each is a Plotly figure, and redrawing all of them made a layer change take ~1 s.
    shown = ui.choice(
        st.segmented_control,
        t("mamba.map"),
        MAPS,
        key="mamba_map",
        labels={m: t(f"mamba.map.{m}") for m in MAPS},
        required=True,
    )

    # ---- Δ -----------------------------------------------------------------------------------------------------------
    if shown == "delta":
        st.subheader(t("mamba.h.delta"))
        ui.figure(
            views.time_map(
                a.delta[layer].T,
                labels,
                row_title=t("mamba.channel"),
                value_title="Δ",
                colorscale="Reds",
                zmin=0.0,
                title=t("mamba.delta.title", layer=layer),
            ),
            a.delta[layer],
            "mamba-delta",
            key="mamba_delta",
            row_labels=labels,
        )
        ui.explain(t("mamba.explain.delta"))

    # ---- Ā -----------------------------------------------------------------------------------------------------------
    if shown == "abar":
        st.subheader(t("mamba.h.abar"))
        left, right = st.columns([4, 1])
        with left:
            ui.plot(
                views.time_map(
                    a.A_bar[layer].T,
                    labels,
                    row_title=t("mamba.channel"),
                    value_title="Ā",
                    colorscale="Blues_r",
                    zmin=0.0,
                    zmax=1.0,
                    title=t("mamba.abar.title", layer=layer, n=n_state),
                ),
                key="mamba_abar",
            )
        with right:
            st.metric(t("mamba.m.abar_min"), f"{a.A_bar[layer].min():.3f}")
            st.metric(t("mamba.m.abar_median"), f"{np.median(a.A_bar[layer]):.3f}")
        ui.download(a.A_bar[layer], "mamba-abar", key="mamba_dl_abar", row_labels=labels)
        ui.explain(t("mamba.explain.abar"))

    # ---- B and C -----------------------------------------------------------------------------------------------------
    if shown == "bc":
        st.subheader(t("mamba.h.bc"))
        bound = float(max(np.abs(a.B[layer]).max(), np.abs(a.C[layer]).max(), 1e-6))
        left, right = st.columns(2)
        for col, name, arr in ((left, "b", a.B[layer]), (right, "c", a.C[layer])):
            with col:
                ui.figure(
                    views.time_map(
                        arr.T,
                        labels,
                        row_title=t("mamba.state_index"),
                        value_title=name.upper(),
                        colorscale="RdBu",
                        zmin=-bound,
                        zmax=bound,
                        height=300,
                        max_ticks=36,
                        title=t(f"mamba.{name}.title", layer=layer),
                    ),
                    arr,
                    f"mamba-{name}",
                    key=f"mamba_{name}",
                    row_labels=labels,
                )
        ui.explain(t("mamba.explain.bc"))

    # ---- ‖h_t‖ -------------------------------------------------------------------------------------------------------
    if shown == "hnorm":
        st.subheader(t("mamba.h.hnorm"))
        ui.figure(
            views.per_token_lines(
                {t("mamba.hnorm.series", layer=i): a.h_norm[i] for i in range(L)},
                labels,
                value_title=t("mamba.hnorm.y"),
                marks=a.mask if a.mask.any() else None,
                mark_title=t("mamba.col.target"),
                log=True,
            ),
            a.h_norm.T,
            "mamba-h-norm",
            key="mamba_hnorm",
            row_labels=labels,
            col_labels=[f"layer{i}" for i in range(L)],
        )
        text = t("mamba.explain.hnorm", size=a.A.shape[1] * a.A.shape[2])
        if source == "copy":
            text += " " + t("mamba.explain.hnorm.copy")
        ui.explain(text)


per_layer_views()


@st.fragment
def compare_views() -> None:
    """Mamba against the LTI baseline on one selective-copying instance, with its own layer control, so that a change
    of the layer above does not redraw it (and the reverse)."""
    # ---- Mamba vs LTI on selective copying ---------------------------------------------------------------------------
    st.subheader(t("mamba.h.compare"))
    if not (svc.available("copy") and svc.available("lti")):
        st.info(t("mamba.compare.missing"))
    else:
        try:
            sel = a if source == "copy" else svc.analyse("copy", seed, 0, "", backend)
            lti = svc.analyse_lti(seed, backend)
        except InputError as e:
            ui.input_error(e)
            st.stop()
        st.caption(t("mamba.compare.caption", seed=seed) + " " + t("mamba.legend.copy"))
        copy_labels = list(sel.labels)
        n_layers = sel.delta.shape[0]
        layer = (
            st.slider(t("mamba.layer"), 0, n_layers - 1, 0, key="mamba_compare_layer", bind="query-params")
            if n_layers > 1
            else 0
        )
        data = (sel.ids >= 2) & ~sel.mask
        accuracies = ui.row()
        held = svc.card_numbers()
        accuracies.metric(
            t("mamba.m.acc_mamba"), f"{sel.accuracy:.0%}", help=t("mamba.m.acc_heldout", acc=held["copy"]["accuracy"])
        )
        accuracies.metric(
            t("mamba.m.acc_lti"), f"{lti.accuracy:.0%}", help=t("mamba.m.acc_heldout", acc=held["lti"]["accuracy"])
        )
        mamba_name, lti_name = t("mamba.col.mamba"), t("mamba.col.lti")
        ui.figure(
            views.per_token_lines(
                {mamba_name: sel.delta_move[layer], lti_name: lti.delta_move[layer]},
                copy_labels,
                value_title=t("mamba.compare.y", layer=layer),
                marks=data,
                mark_title=t("mamba.compare.marks"),
                colours={mamba_name: views.MAMBA_COLOUR, lti_name: views.LTI_COLOUR},
            ),
            np.stack(
                [sel.delta_move[layer], lti.delta_move[layer], sel.delta_per_token[layer], lti.delta_per_token[layer]],
                axis=1,
            ),
            "mamba-vs-lti-delta",
            key="mamba_compare",
            row_labels=copy_labels,
            col_labels=["mamba_move", "lti_move", "mamba_mean_delta", "lti_mean_delta"],
        )
        settled = svc.settled(sel)  # the padded start is left blank, as in the strip above
        top = float(sel.delta_move[layer][settled].max())
        for model_key, res in (("mamba", sel), ("lti", lti)):  # one colour scale for both strips
            ui.markup(
                token_strip(
                    copy_labels,
                    np.where(settled, res.delta_move[layer], 0.0),
                    colorscale="Reds",
                    vmin=0.0,
                    vmax=top,
                    fmt="{:.3f}",
                    label=t(f"mamba.strip.{model_key}"),
                )
            )
        where = np.flatnonzero(sel.mask)
        st.dataframe(
            ui.arrow(
                {
                    t("mamba.col.position"): where,
                    t("mamba.col.target"): [svc.output_label("copy", int(sel.targets[i])) for i in where],
                    mamba_name: [svc.output_label("copy", int(sel.pred[i])) for i in where],
                    lti_name: [svc.output_label("copy", int(lti.pred[i])) for i in where],
                }
            ),
            hide_index=True,
            key="mamba_compare_table",
        )
        ui.explain(t("mamba.explain.compare"))


compare_views()

# ---- recurrent vs parallel, and decoding cost ------------------------------------------------------------------------
st.subheader(t("mamba.h.modes"))
diff = svc.scan_check(a.name, tuple(int(i) for i in a.ids))
m1, m2 = st.columns(2)
m1.metric(t("mamba.m.diff_seq"), f"{diff['parallel_vs_sequential']:.1e}")
m2.metric(t("mamba.m.diff_rec"), f"{diff['parallel_vs_recurrent']:.1e}")
st.caption(t("mamba.modes.caption"))


@st.fragment
def decode_section() -> None:
    st.markdown(f"**{t('mamba.h.decode')}**")
    # Timed on request, for this reader (a first visit does not wait for it), and kept in the session. The click's
    # callback runs before this code, so the button is already drawn as "Measure again" while it measures.
    requested = st.session_state.pop(MEASURE_REQUESTED, False)
    costs = st.session_state.get(DECODE_COSTS)
    st.button(
        t("mamba.decode.measure" if costs is None and not requested else "mamba.decode.again"),
        key="mamba_measure",
        icon=":material/timer:",
        type="primary" if costs is None and not requested else "secondary",
        on_click=st.session_state.__setitem__,
        args=(MEASURE_REQUESTED, True),
    )
    if requested:
        label = t("mamba.decode.progress", n=svc.DECODE_LENGTH)
        bar = st.progress(0.0, text=label)
        costs = svc.measure_decode_costs(progress=lambda f: bar.progress(f, text=label))
        bar.empty()
        st.session_state[DECODE_COSTS] = costs
    if costs is None:
        st.caption(t("mamba.decode.ask", n=svc.DECODE_LENGTH))
        return
    gpt_name = "GPT"
    colours = {"Mamba": views.MAMBA_COLOUR, gpt_name: views.GPT_COLOUR}
    n = len(costs.position)
    c1, c2, c3, c4 = st.columns(4)
    c1.metric(t("mamba.m.state_kb"), f"{costs.mamba_bytes[-1] / 1024:.1f} KiB")
    c2.metric(t("mamba.m.cache_kb", n=n), f"{costs.gpt_bytes[-1] / 1024:.0f} KiB")
    for col, key, ms in ((c3, "mamba.m.ms_mamba", costs.mamba_ms), (c4, "mamba.m.ms_gpt", costs.gpt_ms)):
        col.metric(t(key), f"{np.median(ms[:32]):.2f} → {np.median(ms[-32:]):.2f}", help=t("mamba.m.ms.help"))
    left, right = st.columns(2)
    with left:
        ui.plot(
            views.decode_costs(
                costs.position,
                {"Mamba": costs.mamba_ms, gpt_name: costs.gpt_ms},
                x_title=t("mamba.decode.x"),
                y_title=t("mamba.decode.ms"),
                colours=colours,
                smooth=9,
            ),
            key="mamba_decode_ms",
        )
    with right:
        kib = {"Mamba": costs.mamba_bytes / 1024, gpt_name: costs.gpt_bytes / 1024}
        ui.plot(
            views.decode_costs(
                costs.position, kib, x_title=t("mamba.decode.x"), y_title=t("mamba.decode.kb"), colours=colours
            ),
            key="mamba_decode_kb",
        )
    ui.download(
        np.stack([costs.mamba_ms, costs.gpt_ms, costs.mamba_bytes, costs.gpt_bytes], axis=1),
        "mamba-decode-costs",
        key="mamba_dl_decode",
        row_labels=[str(p) for p in costs.position],
        col_labels=["mamba_ms", "gpt_ms", "mamba_bytes", "gpt_kv_bytes"],
    )
    gpt_words = t("mamba.decode.gpt_trained" if costs.gpt_trained else "mamba.decode.gpt_untrained")
    st.caption(t("mamba.decode.caption", n=n, mamba=costs.mamba_name, gpt=gpt_words))


decode_section()
ui.explain(t("mamba.explain.modes"))

# ---- about the models ------------------------------------------------------------------------------------------------
if {"copy", "lti", "induction"} <= cards.keys():
    c = cards["copy"]
    ui.explain(
        t(
            "mamba.explain.data",
            copy=c["accuracy"],
            lti=cards["lti"]["accuracy"],
            ind=cards["induction"]["accuracy"],
            ind4=cards["induction"]["accuracy_4x"],
            layers=c["layers"],
            d_model=c["d_model"],
            d_in=c["d_in"],
            d_state=c["d_state"],
        )
    )
if "text" in cards:
    lm = cards["text"]
    gpt = cards.get("gpt", {})
    if gpt.get("val_bpc"):
        gpt_words = t(
            "mamba.explain.lm.gpt",
            bpc=gpt["val_bpc"],
            params=gpt["params"],
            tokens=gpt["tokens"] / 1e6,
            ratio_p=gpt["params"] / lm["params"],
            ratio_t=gpt["tokens"] / max(lm["tokens"], 1),
        )
    else:
        gpt_words = t("mamba.explain.lm.nogpt")
    ui.explain(
        t(
            "mamba.explain.lm",
            bpc=lm["val_bpc"],
            layers=lm["layers"],
            d_model=lm["d_model"],
            params=lm["params"],
            tokens=lm["tokens"] / 1e6,
            gpt=gpt_words,
        )
    )
    ui.reading_numbers()
