"""What the knock-out views of several pages share (models/interventions.py through the probe points): the control
row (which part of which layer, replaced by zeros or by its mean), what it is called, the held-out loss before and
after as metrics, and the figure of the loss by position, plain and knocked out. No torch: a page's service runs the
model and hands back a ``HeldOut``."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from app.shared import ui
from app.shared.figures import cached
from app.shared.i18n import layer_head_label, t
from app.shared.numbers import smooth

PARTS = ("head", "attn", "mlp")  # models.interventions.PARTS, without importing torch
MODES = ("zero", "mean")  # models.interventions.MODES
FEW = 12  # a loss curve of at most this many points draws markers and a tick at each
SMOOTHING = 8  # positions in the running mean of a long loss curve (the download keeps every position)
LAYER_BUTTONS = 12  # layers a row of buttons picks from; more get a slider
BEFORE, CUT = "#9aa5b1", "#d62728"
TOOLBAR = 36  # Plotly's toolbar strip, left empty (app/gpt/views.py)
LEGEND_BELOW = {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0, "xanchor": "left"}


@dataclass(frozen=True)
class Knock:
    """What the controls chose: ``part`` (PARTS, or a page's own) of block ``layer`` replaced by ``mode``."""

    part: str
    mode: str
    layer: int
    head: int


@dataclass(frozen=True)
class HeldOut:
    """The held-out loss of one model run plainly and with one change: by position (nats, averaged over the
    windows) and in bits per character (the summed nats over the characters the scored tokens cover, / ln 2)."""

    before: np.ndarray  # (T,) mean nats at each position (or segment), plain
    after: np.ndarray  # (T,) with the change
    bpc_before: float
    bpc_after: float
    windows: int  # held-out windows averaged
    backend: str  # always torch: interventions change the eager model while it runs
    device: str
    ms: float  # the changed run


def bits_per_character(nats: float, chars_per_token: float) -> float:
    """Mean nats per token -> bits per character, given the characters an average token of the text covers."""
    return float(nats / chars_per_token / math.log(2))


def _clamp(key: str, n: int) -> None:
    if st.session_state.get(key) is not None and st.session_state[key] >= n:
        st.session_state[key] = None  # a layer or head of a model with more of them


def controls(
    page: str,
    L: int,
    H: int,
    *,
    parts: tuple[str, ...] = PARTS,
    labels: dict | None = None,
    every_layer: tuple[str, ...] = (),
) -> Knock:
    """The knock-out's controls, keyed ``<page>_ko_part``, ``_mode``, ``_layer``, ``_head`` and mirrored in the URL:
    the part (``parts``: PARTS and a page's own, labelled by ``labels``; those of ``every_layer`` draw no layer
    control), zeros or mean, the layer, the head."""
    names = {p: t(f"ko.part.{p}") for p in parts if p in PARTS} | (labels or {})
    row = ui.row(vertical_alignment="bottom")
    part = ui.choice(row.segmented_control, t("ko.part"), parts, key=f"{page}_ko_part", labels=names, required=True)
    mode = "zero"
    if part in PARTS:
        mode = ui.choice(
            row.segmented_control,
            t("ko.mode"),
            MODES,
            key=f"{page}_ko_mode",
            labels={m: t(f"ko.mode.{m}") for m in MODES},
            required=True,
            help=t("ko.mode.help"),
        )
    for key, n in ((f"{page}_ko_layer", L), (f"{page}_ko_head", H)):
        _clamp(key, n)
    pick = ui.row(vertical_alignment="bottom")
    if part in every_layer:
        layer = 0
    elif L > LAYER_BUTTONS:
        layer = ui.slider(pick, t("view.layer"), 0, L - 1, 0, key=f"{page}_ko_layer", bind="query-params")
    else:
        layer = pick.segmented_control(
            t("view.layer"), list(range(L)), default=0, required=True, key=f"{page}_ko_layer", bind="query-params"
        )
    head = 0
    if part == "head":
        head = pick.segmented_control(
            t("view.head"), list(range(H)), default=0, required=True, key=f"{page}_ko_head", bind="query-params"
        )
    layer = 0 if layer is None else min(int(layer), L - 1)
    head = 0 if head is None else min(int(head), H - 1)
    return Knock(part, mode, layer, head)


def what(k: Knock) -> str:
    """What was knocked out, in words: "L1 · H3", "attention of block 1", "MLP of block 1" (a page's own part:
    ``ko.what.<part>`` of its strings)."""
    return layer_head_label(k.layer, k.head) if k.part == "head" else t(f"ko.what.{k.part}", layer=k.layer)


def torch_only(backend: str) -> None:
    if backend != "torch":
        st.caption(t("ko.torch_only"))


def held_out(
    r: HeldOut, label: str, name: str, *, key: str, x: np.ndarray | None = None, x_title: str | None = None
) -> None:
    """The held-out loss in bits per character, plain and changed (``label`` names the change), and the loss at
    every position (``x``: their numbers, 1 … T unless given; ``x_title``: the axis, "position" unless given)."""
    m = ui.row()
    m.metric(t("ko.m.before"), f"{r.bpc_before:.3f}", help=t("ko.m.bpc.help", n=r.windows))
    m.metric(
        t("ko.m.after", what=label),
        f"{r.bpc_after:.3f}",
        f"{r.bpc_after - r.bpc_before:+.3f}",
        delta_color="inverse",
    )
    xs = np.arange(1, len(r.before) + 1) if x is None else np.asarray(x)
    width = SMOOTHING if len(xs) > FEW else 1
    ui.figure(
        knock_out_losses(
            smooth(r.before, width),
            smooth(r.after, width),
            None,
            x=xs,
            loss_title=t("ko.loss"),
            position_title=x_title or t("ko.position"),
            before_name=t("ko.plain"),
            after_name=label,
        ),
        {"position": xs, "plain": r.before, "changed": r.after},
        name,
        key=key,
    )
    if width > 1:
        st.caption(t("ko.smoothed", n=width, windows=r.windows))


@cached
def knock_out_losses(
    before: np.ndarray,
    after: np.ndarray,
    length: int | None = None,
    *,
    x: np.ndarray | None = None,
    loss_title: str = "loss (nats)",
    position_title: str = "position",
    before_name: str = "plain",
    after_name: str = "knocked out",
) -> go.Figure:
    """Loss per position, plain and knocked out; a dotted line where a repeat starts (``length``: the first copy's
    length, the GPT page's induction sequence). ``x``: the positions (1 … T unless given)."""
    x = np.arange(1, len(before) + 1) if x is None else x
    few = len(x) <= FEW  # a handful of points (segments): markers, one tick each
    mode = "lines+markers" if few else "lines"
    fig = go.Figure(
        [
            go.Scatter(x=x, y=before, name=before_name, mode=mode, line={"color": BEFORE}),
            go.Scatter(x=x, y=after, name=after_name, mode=mode, line={"color": CUT}),
        ]
    )
    if length is not None:
        fig.add_vline(x=length + 1, line={"dash": "dot", "color": "#888"})
    fig.update_xaxes(title=position_title, dtick=1 if few else None)
    fig.update_yaxes(title=loss_title, rangemode="tozero")
    fig.update_layout(height=300, margin={"l": 10, "r": 10, "t": TOOLBAR, "b": 10}, legend=LEGEND_BELOW)
    return fig


@cached
def sweep_line(
    x: tuple,
    y: tuple,
    chosen: int,
    trained: int,
    *,
    x_title: str,
    y_title: str,
    chosen_name: str,
    trained_name: str,
    log_x: bool = False,
) -> go.Figure:
    """A measured quantity along a setting the model was not trained with (a narrower window, fewer latent
    dimensions): the line of every setting measured, the trained setting (index ``trained``) as a grey ring, the
    chosen one (index ``chosen``) as a red dot."""
    fig = go.Figure(
        [
            go.Scatter(
                x=x,
                y=y,
                mode="lines+markers",
                showlegend=False,
                line={"color": BEFORE},
                marker={"size": 6},
                hovertemplate="%{x}: %{y:.3f}<extra></extra>",
            ),
            go.Scatter(
                x=[x[trained]],
                y=[y[trained]],
                mode="markers",
                name=trained_name,
                marker={"size": 16, "color": "rgba(0,0,0,0)", "line": {"color": "#555", "width": 2}},
                hovertemplate="%{x}: %{y:.3f}<extra></extra>",
            ),
            go.Scatter(
                x=[x[chosen]],
                y=[y[chosen]],
                mode="markers",
                name=chosen_name,
                marker={"size": 11, "color": CUT},
                hovertemplate="%{x}: %{y:.3f}<extra></extra>",
            ),
        ]
    )
    fig.update_xaxes(title=x_title, type="log" if log_x else "linear", tickvals=list(x) if log_x else None)
    fig.update_yaxes(title=y_title)
    fig.update_layout(height=300, margin={"l": 10, "r": 10, "t": TOOLBAR, "b": 10}, legend=LEGEND_BELOW)
    return fig
