"""The MoE page's intervention: switch one expert of a layer off (its router logit −∞), or send one token of the text
to a chosen expert, and see where the tokens go, what the capacity drops and what it costs in bits per character
(models/layers/moe.py ``expert_off`` / ``force_expert``, through the router-logit probe)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.moe import sections, views
from app.moe import service as svc
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.tokens import visible

DEFAULT = {"layer": 0, "expert": 1, "position": 1}  # the expert of layer 0 whose loss costs the most (tests measure it)


def _before_after(host, label: str, before: float, after: float, digits: int = 3, **kwargs) -> None:
    host.metric(
        label,
        f"{before:.{digits}f} → {after:.{digits}f}",
        delta=f"{after - before:+.{digits}f}",
        delta_color="inverse",
        **kwargs,
    )


def _counts(host, label: str, before: int, after: int, delta_color: str = "inverse", **kwargs) -> None:
    host.metric(label, f"{before} → {after}", delta=f"{after - before:+d}", delta_color=delta_color, **kwargs)


def _controls(n_layers: int, n_experts: int, n_tokens: int) -> tuple[str, int, int, int]:
    mode = ui.choice(
        st.segmented_control,
        t("moe.ko.mode"),
        svc.KO_MODES,
        key="moe_ko_mode",
        labels={m: t(f"moe.ko.mode.{m}") for m in svc.KO_MODES},
        required=True,
    )
    row = ui.row(vertical_alignment="bottom")
    layer = row.segmented_control(
        t("moe.layer"),
        list(range(n_layers)),
        default=DEFAULT["layer"],
        required=True,
        key="moe_ko_layer",
        bind="query-params",
    )
    expert = row.segmented_control(
        t("moe.ko.expert"),
        list(range(n_experts)),
        default=DEFAULT["expert"],
        required=True,
        key="moe_ko_expert",
        bind="query-params",
    )
    position = DEFAULT["position"]
    if mode == "force":
        position = ui.slider(
            st,
            t("moe.ko.position"),
            0,
            n_tokens - 1,
            DEFAULT["position"],
            key="moe_ko_pos",
            bind="query-params",
            help=t("moe.ko.position.help"),
        )
    layer = DEFAULT["layer"] if layer is None else min(int(layer), n_layers - 1)
    expert = DEFAULT["expert"] if expert is None else min(int(expert), n_experts - 1)
    return mode, layer, expert, min(int(position), n_tokens - 1)


def _strip(res: svc.Routing, layer: int, key: str) -> str:
    return views.expert_strip(
        res.tokens,
        res.index[layer, :, 0],
        res.probs[layer],
        res.dropped[layer, :, 0],
        label=t(key, layer=layer, dropped=int(res.dropped[layer, :, : res.top_k].sum())),
        dropped_word=t("moe.dropped"),
        expert_word=t("moe.expert"),
    )


def _load(res: svc.Routing, capacity_factor: float, most: int, key: str, name: str) -> None:
    L, E = res.routed.shape
    dropped = res.routed - res.kept
    ui.figure(
        views.load_bars(
            res.kept,
            dropped,
            res.capacity if capacity_factor > 0 else int(res.routed.sum(axis=1).max()),
            layer_titles=tuple(t("moe.strip.layer.short", layer=i) for i in range(L)),
            expert_title=t("moe.expert"),
            kept_title=t("moe.kept"),
            dropped_title=t("moe.dropped"),
            capacity_title=t("moe.capacity.line"),
            count_title=t("moe.slots"),
            most=most,
        ),
        np.stack([res.kept, dropped], axis=1).reshape(2 * L, E),
        name,
        key=key,
        row_labels=[f"layer {i} {n}" for i in range(L) for n in ("kept", "dropped")],
        col_labels=[f"expert {e}" for e in range(E)],
    )


def section(text: str, n_experts: int, backend: str) -> None:
    st.subheader(t("moe.h.ko"))
    st.caption(t("moe.ko.caption"))
    _part(text, backend)
    ui.explain(t("moe.explain.ko", E=n_experts, rest=n_experts - 1))


@st.fragment(key=sections.PARTS[4])
def _part(text: str, backend: str) -> None:
    """The controls and what they change: moving one reruns this part alone, as k and the capacity factor do."""
    if (got := sections.routed(text, backend)) is None:
        return
    res, capacity_factor = got
    L, T, E = res.probs.shape
    mode, layer, expert, position = _controls(L, E, T)
    try:
        iv = svc.intervene(text, res.top_k, float(capacity_factor), mode, layer, expert, position)
    except InputError as e:
        ui.input_error(e)
        return
    before, after = iv.before, iv.after
    m = ui.row()
    if mode == "off":
        sent = (int(before.routed[layer, expert]), int(after.routed[layer, expert]))
        _counts(m, t("moe.ko.m.sent", expert=expert, layer=layer), *sent, delta_color="off")
    else:
        (e0, d0), (e1, d1) = iv.forced_before, iv.forced_after
        token = visible(before.tokens[position])
        state = {False: t("moe.kept"), True: t("moe.dropped")}
        m.metric(
            t("moe.ko.m.token", token=token, position=position, layer=layer),
            f"{e0} → {e1}",
            delta=f"{state[d0]} → {state[d1]}",
            delta_color="off",
            delta_arrow="off",
            help=t("moe.ko.m.token.help"),
        )
    _counts(m, t("moe.ko.m.dropped"), before.dropped_count, after.dropped_count, help=t("moe.metric.dropped.help"))
    _before_after(m, t("moe.ko.m.text"), *iv.text_bpc, help=t("moe.ko.m.text.help"))
    if mode == "off":
        try:
            held = (svc.held_out_bpc(), svc.held_out_bpc((layer, expert)))
        except InputError as e:  # the corpora are not downloaded: the text's numbers above still stand
            ui.input_error(e)
        else:
            _before_after(
                m,
                t("moe.ko.m.held"),
                *held,
                help=t("moe.ko.m.held.help", windows=svc.held_out_windows(), **svc.trained()),
            )
    ui.markup(views.legend(E, t("moe.expert")))
    ui.markup(_strip(before, layer, "moe.ko.strip.before") + _strip(after, layer, "moe.ko.strip.after"))
    most = int(max(before.routed.max(), after.routed.max()))
    st.markdown(t("moe.ko.load.before"))
    _load(before, capacity_factor, most, "moe_ko_load_before", "moe-intervention-before")
    st.markdown(t("moe.ko.load.after"))
    _load(after, capacity_factor, most, "moe_ko_load_after", f"moe-intervention-{mode}-l{layer}-e{expert}")
    if backend != "torch":
        st.caption(t("moe.ko.torch_only"))
    ui.readout(iv)
