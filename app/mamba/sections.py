"""The Mamba page's sections, in the paper's order: what the model answers on the input; the selection mechanism
layer by layer (Δ, Ā, B and C, the state's norm); Mamba against an LTI model on selective copying; the parallel scan
against the recurrence, and the cost of decoding; the models behind the page."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.mamba import service as svc
from app.mamba import views
from app.shared import formats, ui
from app.shared.html import esc
from app.shared.i18n import InputError, t
from app.shared.tokens import token_strip

MAPS = ("delta", "abar", "bc", "hnorm")
REAL_MAPS = (*MAPS, "channel")  # a real model's 1,536 channels: one of them, picked, token by token
MANY_LAYERS = 8  # above this, ‖h_t‖ is one map (layers down) instead of one line per layer
DECODE_COSTS = "mamba_decode_costs"  # the reader's own decoding measurement, once they ask for it
MEASURE_REQUESTED = "mamba_measure_requested"  # set by the Measure button's callback


def _outputs_table(source: str, a: svc.Analysis, key: str, **models: svc.Analysis) -> None:
    """The scored positions: the target and what each model in ``models`` (column title -> its analysis) answers."""
    where = np.flatnonzero(a.mask)
    columns = {
        t("mamba.col.position"): where,
        t("mamba.col.target"): [svc.output_label(source, int(a.targets[i])) for i in where],
    }
    for title, res in models.items():
        columns[title] = [svc.output_label(source, int(res.pred[i])) for i in where]
    st.dataframe(ui.arrow(columns), hide_index=True, key=key)


# ---- the input, and what the model answers (the same at every layer) -------------------------------------------------


def answers(a: svc.Analysis, source: str) -> None:
    if source != "text":
        st.caption(t(f"mamba.legend.{source}"))
    row = ui.row()
    row.metric(t("mamba.m.positions"), len(a.labels))
    if a.accuracy is not None:
        row.metric(t("mamba.m.accuracy"), f"{a.accuracy:.0%}")
    else:
        row.metric(t("mamba.m.next"), repr(svc.output_label("text", int(a.pred[-1]), a.name)))
    ui.readout(a)
    if a.top:  # a real model: what it would write next
        st.markdown(f"**{t('mamba.real.top', k=len(a.top))}**")
        columns = {
            t("mamba.col.token"): [repr(token) for token, _ in a.top],
            t("mamba.col.probability"): [f"{p:.1%}" for _, p in a.top],
        }
        ui.table(columns)
    if a.accuracy is not None:
        st.markdown(f"**{t('mamba.h.outputs')}**")
        _outputs_table(source, a, "mamba_outputs", **{t("mamba.col.mamba"): a})


# ---- the selection mechanism, layer by layer -------------------------------------------------------------------------


def _readout(a: svc.Analysis, source: str, layer: int) -> str:
    """Where Δ moves most in ``layer`` and, on selective copying, how much of its movement sits near the letters: the
    figure's readout at that layer."""
    labels, move = a.labels, a.delta_move[layer]
    peak = svc.movement_peak(a, layer)
    letter = svc.letter_before(a, peak) if source == "copy" else None
    if letter is not None:
        # On selective copying the movement belongs to a letter (the convolution carries it into the next positions):
        # name the letter, so the readout never points at a noise token.
        first = t("mamba.readout.letter", letter=esc(labels[letter]), t=letter, at=peak, v=move[peak])
    else:
        first = t("mamba.readout.peak", token=esc(labels[peak]), t=peak, v=move[peak])
    if source != "copy":
        return first
    share, positions = svc.share_near_letters(a, layer)
    return first + "<br>" + t("mamba.readout.near", share=share, positions=positions)


def _image(values: np.ndarray, titles, row_title: str, value_title: str, colorscale: str, **scale) -> dict:
    return {
        "kind": "image",
        "values": values,
        "titles": tuple(titles),
        "row_title": row_title,
        "value_title": value_title,
        "colorscale": colorscale,
        **{"zmin": None, "zmax": None, **scale},
    }


def _panels(a: svc.Analysis, source: str, shown: str, channel: int) -> tuple[dict, ...]:
    """The picked map of every layer, as ``views.layer_steps`` panels."""
    n_layers, n_state = a.delta.shape[0], a.B.shape[-1]
    layers = range(n_layers)
    if shown == "delta":
        titles = (t("mamba.delta.title", layer=k) for k in layers)
        return (_image(a.delta.transpose(0, 2, 1), titles, t("mamba.channel"), "Δ", "Reds", zmin=0.0),)
    if shown == "abar":
        titles = (
            t("mamba.abar.title", layer=k, n=n_state)
            + "<br>"
            + t("mamba.abar.range", low=float(a.A_bar[k].min()), median=float(np.median(a.A_bar[k])))
            for k in layers
        )
        return (_image(a.A_bar.transpose(0, 2, 1), titles, t("mamba.channel"), "Ā", "Blues_r", zmin=0.0, zmax=1.0),)
    if shown == "bc":
        # B and C of a layer share one colour scale, symmetric about 0, as when they stood side by side
        bound = np.maximum(np.abs(a.B).max(axis=(1, 2)), np.abs(a.C).max(axis=(1, 2)))
        bound = tuple(max(float(b), 1e-6) for b in bound)
        return tuple(
            _image(
                arr.transpose(0, 2, 1),
                (t(f"mamba.{name}.title", layer=k) for k in layers),
                t("mamba.state_index"),
                name.upper(),
                "RdBu",
                bound=bound,
            )
            for name, arr in (("b", a.B), ("c", a.C))
        )
    if shown == "hnorm":
        if n_layers > MANY_LAYERS:  # a line per layer would be a tangle: one map, layers down, on a log scale
            values = np.log10(np.maximum(a.h_norm, 1e-12))[None]
            return (_image(values, (t("mamba.hnorm.map"),) * n_layers, t("mamba.layer"), "log₁₀ ‖h‖", "Viridis"),)
        series = {t("mamba.hnorm.series", layer=k): a.h_norm[k][None] for k in layers}
        return ({"kind": "lines", "series": series, "titles": (t("mamba.hnorm.y"),) * n_layers, "log": True},)
    scaled = a.h_norm / np.maximum(a.h_norm.max(axis=1, keepdims=True), 1e-12)
    series = {
        "Δ": a.delta[:, :, channel],
        t("mamba.channel.abar"): a.A_bar[:, :, channel],
        t("mamba.channel.hnorm"): scaled,
    }
    titles = tuple(
        t("mamba.channel.y", channel=channel, layer=k)
        + "<br>"
        + t("mamba.channel.moving", layer=k, channels=", ".join(map(str, svc.moving_channels(a, k))))
        for k in layers
    )
    colours = dict(zip(series, (views.MAMBA_COLOUR, views.LTI_COLOUR, views.GPT_COLOUR)))
    return ({"kind": "lines", "series": series, "titles": titles, "log": True, "colours": colours},)


def _channel_pick(a: svc.Analysis, layer: int) -> int:
    """The channel the one-channel view shows (kept in the link), first the one whose Δ moves most in ``layer``."""
    d_in = a.delta.shape[2]
    moving = svc.moving_channels(a, layer)
    if not 0 <= st.session_state.get("mamba_channel", 0) < d_in:  # kept from a wider model
        st.session_state["mamba_channel"] = moving[0]
    return int(
        st.number_input(
            t("mamba.channel.pick"),
            0,
            d_in - 1,
            moving[0],
            step=1,
            key="mamba_channel",
            bind="query-params",
            help=t("mamba.channel.help", d_in=d_in),
        )
    )


@st.fragment
def selection(a: svc.Analysis, source: str) -> None:
    """The selection mechanism, layer by layer: Δ's movement per token, its readout and the picked map of every layer
    in one figure, moved through the layers on the figure's own slider (in the browser: every layer's numbers ride in
    the figure), opening on the link's ``mamba_layer`` or layer 0. Picking another map reruns only this part."""
    n_layers = a.delta.shape[0]
    layer = ui.query_int("mamba_layer", 0, 0, n_layers - 1)
    maps = REAL_MAPS if a.real else MAPS
    labels = {m: t(f"mamba.map.{m}") for m in maps}
    shown = ui.choice(st.segmented_control, t("mamba.map"), maps, key="mamba_map", labels=labels, required=True)
    st.subheader(t(f"mamba.h.{shown}"))
    channel = _channel_pick(a, layer) if shown == "channel" else 0
    move = np.where(svc.settled(a)[None], a.delta_move, 0.0)
    fig = views.layer_steps(
        move,
        tuple(a.labels),
        tuple(_readout(a, source, k) for k in range(n_layers)),
        _panels(a, source, shown, channel),
        active=layer,
        prefix=t("mamba.layer") + " ",
        strip_title=t("mamba.strip.y"),
        panel_height=220 if shown == "bc" else 300,
    )
    ui.plot(fig, key="mamba_layer_steps")
    caption = t("mamba.strip.delta", k=a.d_conv - 1)
    if source == "copy":
        caption += " " + t("mamba.readout.near.help", k=a.d_conv - 1)
    st.caption(caption)
    data, columns = _download(a, shown, channel)
    ui.download(data, f"mamba-{shown}", key="mamba_dl_map", row_labels=list(a.labels), col_labels=columns)
    ui.explain(_explain(a, source, shown))


def _download(a: svc.Analysis, shown: str, channel: int) -> tuple[np.ndarray, list[str]]:
    """The picked map's numbers, every layer side by side (positions down)."""
    per_layer = {
        "delta": a.delta,
        "abar": a.A_bar,
        "bc": np.concatenate([a.B, a.C], axis=2),
        "hnorm": a.h_norm[:, :, None],
        "channel": np.stack([a.delta[:, :, channel], a.A_bar[:, :, channel], a.h_norm], axis=2),
    }[shown]
    n_layers, _, width = per_layer.shape
    columns = [f"layer{k}_{j}" for k in range(n_layers) for j in range(width)]
    return np.concatenate(list(per_layer), axis=1), columns


def _explain(a: svc.Analysis, source: str, shown: str) -> str:
    if shown == "hnorm":
        text = t("mamba.explain.hnorm", size=a.A.shape[1] * a.A.shape[2])
        if source == "copy" and a.delta.shape[0] <= MANY_LAYERS:
            text += " " + t("mamba.explain.hnorm.copy")
        return text
    return t(f"mamba.explain.{shown}")


# ---- Mamba against the LTI baseline on selective copying -------------------------------------------------------------


@st.fragment
def compare(a: svc.Analysis, source: str, seed: int, backend: str) -> None:
    """Mamba against the LTI baseline on one selective-copying instance, with its own layer control, so that a change
    of the layer above does not redraw it (and the reverse)."""
    st.subheader(t("mamba.h.compare"))
    if a.real:
        st.caption(t("mamba.real.ours_only"))
    if not (svc.available("copy") and svc.available("lti")):
        st.info(t("mamba.compare.missing"))
        return
    try:
        sel = a if source == "copy" else svc.analyse("copy", seed, 0, "", backend)  # ours, whatever the text ran on
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
    accuracies = ui.row()
    held = svc.card_numbers()
    for key, res, name in (("mamba.m.acc_mamba", sel, "copy"), ("mamba.m.acc_lti", lti, "lti")):
        accuracies.metric(t(key), f"{res.accuracy:.0%}", help=t("mamba.m.acc_heldout", acc=held[name]["accuracy"]))
    mamba_name, lti_name = t("mamba.col.mamba"), t("mamba.col.lti")
    ui.figure(
        views.per_token_lines(
            {mamba_name: sel.delta_move[layer], lti_name: lti.delta_move[layer]},
            copy_labels,
            value_title=t("mamba.compare.y", layer=layer),
            marks=(sel.ids >= 2) & ~sel.mask,
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
        move = np.where(settled, res.delta_move[layer], 0.0)
        label = t(f"mamba.strip.{model_key}")
        ui.markup(token_strip(copy_labels, move, colorscale="Reds", vmin=0.0, vmax=top, fmt="{:.3f}", label=label))
    _outputs_table("copy", sel, "mamba_compare_table", **{mamba_name: sel, lti_name: lti})
    ui.explain(t("mamba.explain.compare"))


# ---- recurrent vs parallel, and decoding cost ------------------------------------------------------------------------


def modes(a: svc.Analysis) -> None:
    st.subheader(t("mamba.h.modes"))
    tokens = svc.scan_tokens(a)
    diff = svc.scan_check(a.name, tokens)
    m1, m2 = st.columns(2)
    m1.metric(t("mamba.m.diff_seq"), f"{diff['parallel_vs_sequential']:.1e}")
    m2.metric(t("mamba.m.diff_rec"), f"{diff['parallel_vs_recurrent']:.1e}")
    st.caption(t("mamba.modes.caption"))
    if len(tokens) < len(a.ids):
        st.caption(t("mamba.modes.real", n=len(tokens)))
    if a.real:
        st.caption(t("mamba.real.ours_only"))
    _decoding()
    ui.explain(t("mamba.explain.modes"))


def _measured_costs():
    """The reader's decoding measurement: taken now when they asked for it (with a progress bar), else the one kept in
    the session, else None."""
    if not st.session_state.pop(MEASURE_REQUESTED, False):
        return st.session_state.get(DECODE_COSTS)
    label = t("mamba.decode.progress", n=svc.DECODE_LENGTH)
    bar = st.progress(0.0, text=label)
    costs = svc.measure_decode_costs(progress=lambda f: bar.progress(f, text=label))
    bar.empty()
    st.session_state[DECODE_COSTS] = costs
    return costs


@st.fragment
def _decoding() -> None:
    st.markdown(f"**{t('mamba.h.decode')}**")
    # Timed on request, for this reader (a first visit does not wait for it), and kept in the session. The click's
    # callback runs before this code, so the button is already drawn as "Measure again" while it measures.
    first = st.session_state.get(DECODE_COSTS) is None and not st.session_state.get(MEASURE_REQUESTED, False)
    st.button(
        t("mamba.decode.measure" if first else "mamba.decode.again"),
        key="mamba_measure",
        icon=":material/timer:",
        type="primary" if first else "secondary",
        on_click=st.session_state.__setitem__,
        args=(MEASURE_REQUESTED, True),
    )
    costs = _measured_costs()
    if costs is None:
        st.caption(t("mamba.decode.ask", n=svc.DECODE_LENGTH))
        return
    gpt_name = "GPT"
    colours = {"Mamba": views.MAMBA_COLOUR, gpt_name: views.GPT_COLOUR}
    n = len(costs.position)
    c1, c2, c3, c4 = st.columns(4)
    c1.metric(t("mamba.m.state_kb"), formats.kib(costs.mamba_bytes[-1]))
    c2.metric(t("mamba.m.cache_kb", n=n), formats.kib(costs.gpt_bytes[-1]))
    for col, key, ms in ((c3, "mamba.m.ms_mamba", costs.mamba_ms), (c4, "mamba.m.ms_gpt", costs.gpt_ms)):
        col.metric(t(key), f"{np.median(ms[:32]):.2f} → {np.median(ms[-32:]):.2f}", help=t("mamba.m.ms.help"))
    left, right = st.columns(2)
    x_title = t("mamba.decode.x")
    with left:
        ms = {"Mamba": costs.mamba_ms, gpt_name: costs.gpt_ms}
        fig = views.decode_costs(
            costs.position, ms, x_title=x_title, y_title=t("mamba.decode.ms"), colours=colours, smooth=9
        )
        ui.plot(fig, key="mamba_decode_ms")
    with right:
        kib = {"Mamba": costs.mamba_bytes / 1024, gpt_name: costs.gpt_bytes / 1024}
        fig = views.decode_costs(costs.position, kib, x_title=x_title, y_title=t("mamba.decode.kb"), colours=colours)
        ui.plot(fig, key="mamba_decode_kb")
    ui.download(
        np.stack([costs.mamba_ms, costs.gpt_ms, costs.mamba_bytes, costs.gpt_bytes], axis=1),
        "mamba-decode-costs",
        key="mamba_dl_decode",
        row_labels=[str(p) for p in costs.position],
        col_labels=["mamba_ms", "gpt_ms", "mamba_bytes", "gpt_kv_bytes"],
    )
    gpt_words = t("mamba.decode.gpt_trained" if costs.gpt_trained else "mamba.decode.gpt_untrained")
    st.caption(t("mamba.decode.caption", n=n, mamba=costs.mamba_name, gpt=gpt_words))


# ---- about the models ------------------------------------------------------------------------------------------------


def models(cards: dict) -> None:
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
    if "text" not in cards:
        return
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
