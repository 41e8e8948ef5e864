"""What the pages' knock-out sections share (models/interventions.py, reached through each page's service): the
control row — which side of an encoder–decoder, which part (the paper's parts, and a page's own such as Transformer-XL's
memory), zeros or the mean, which layer and head, each mirrored in the link as ``<page>_ko_stack``, ``_part``,
``_mode``, ``_layer``, ``_head`` — the name of what was knocked out, a measured value plain → knocked out, the held-out
loss of a decoder plain and changed (``HeldOut``, ``held_out``), and the figures: a value per token, the loss by
position, a measured quantity along a setting the model was not trained with. No torch: a page's service runs the
model."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from app.shared import services, ui
from app.shared.figures import cached
from app.shared.html import esc
from app.shared.i18n import InputError, layer_head_label, t
from app.shared.numbers import smooth
from app.shared.tokens import visible

# models.interventions' names, without importing torch
PARTS = ("head", "attn", "mlp")  # one head's output, a layer's whole (self-)attention output, its MLP output
CROSS_PARTS = ("cross_head", "cross")  # a decoder layer's cross-attention: one head, or the whole of it
MODES = ("zero", "mean")
BLOCKS = "blocks"  # a model with one stack of blocks (GPT, Llama, BERT)
STACKS = ("encoder", "decoder")  # an encoder–decoder's two sides
LAYER_BUTTONS = 12  # layers a row of buttons picks from; more get a slider
FEW = 12  # a loss curve of at most this many points draws markers and a tick at each
SMOOTHING = 8  # positions in the running mean of a long loss curve (the download keeps every position)
BEFORE, CUT = "#9aa5b1", "#d62728"
TOOLBAR = 36  # px left free above a figure for Plotly's toolbar
LEGEND_BELOW = {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0, "xanchor": "left"}


def parts(stack: str) -> tuple[str, ...]:
    """The parts a layer of ``stack`` has: a decoder's also its cross-attention."""
    return ("head", "attn", *CROSS_PARTS, "mlp") if stack == "decoder" else PARTS


def check(stack: str, layer: int, part: str, mode: str, head: int, layers: dict[str, int], heads: int) -> None:
    """``InputError`` unless (stack, layer, part, mode, head) names a part of a model with ``layers`` layers per
    stack and ``heads`` heads (a link's values are the reader's to change)."""
    ok = stack in layers and part in parts(stack) and mode in MODES
    if not (ok and 0 <= layer < layers[stack] and 0 <= head < heads):
        shown = parts(stack if stack in layers else next(iter(layers)))
        raise InputError("error.knock_out", parts=", ".join(shown), layers=max(layers.values()), heads=heads)


@dataclass(frozen=True)
class Choice:
    """What the reader chose to knock out."""

    stack: str  # BLOCKS, or one of STACKS
    layer: int
    part: str
    mode: str
    head: int

    @property
    def what(self) -> str:
        """What is knocked out, in the session's language ("L1 · H2", "encoder layer 0's MLP", ...)."""
        lh = layer_head_label(self.layer, self.head)
        if self.part not in parts(self.stack):  # a page's own part: ``ko.what.<part>`` of its strings
            return t(f"ko.what.{self.part}", layer=self.layer)
        return t(f"view.ko.what.{self.stack}.{self.part}", lh=lh, layer=self.layer)


def _clamp(key: str, n: int) -> None:
    """A layer or head of a model (or side) with more of them than this one: forgotten, the default shows."""
    value = st.session_state.get(key)
    if value is not None and not 0 <= int(value) < n:
        st.session_state[key] = None


def controls(
    page: str,
    layers: dict[str, int] | int,
    heads: int,
    *,
    default: tuple[int, int] = (0, 0),
    stack: str | None = None,
    part: str = "head",
    own: dict[str, str] | None = None,
    every_layer: tuple[str, ...] = (),
) -> Choice:
    """The knock-out's controls: the side (when ``layers`` names more than one stack), the part, zeros or the mean,
    the layer and, for a head, the head. ``layers``: layers per stack (``{BLOCKS: L}``, or ``{"encoder": L_e,
    "decoder": L_d}``; a number: ``{BLOCKS: L}``); ``default``: the (layer, head) first shown, on the side ``stack``
    (else the first), with ``part`` (where that side has it); ``own``: a page's own parts after the paper's, by their
    labels (no zeros-or-mean choice: the page's service says what they do); those of ``every_layer`` draw no layer
    control."""
    layers = {BLOCKS: layers} if isinstance(layers, int) else layers
    own = own or {}
    stacks = tuple(layers)
    first_stack = stacks[0] if stack is None else stack
    stack = first_stack
    if len(stacks) > 1:  # the side and its five parts fill a row; zeros or mean go beside the layer and head
        (c_stack, c_part), (c_mode, c_layer, c_head) = st.columns([1, 3]), st.columns([1, 1, 2])
    else:
        (c_part, c_mode), (c_layer, c_head) = st.columns([2, 1]), st.columns([1, 2])
        c_stack = None
    if c_stack is not None:
        with c_stack:
            stack = ui.choice(
                st.segmented_control,
                t("view.ko.stack"),
                stacks,
                key=f"{page}_ko_stack",
                default=first_stack,
                labels={s: t(f"view.ko.stack.{s}") for s in stacks},
                required=True,
            )
    paper = parts(stack)
    names = {p: t(f"view.ko.part.{p}" if stack == BLOCKS else f"view.ko.part.pair.{p}") for p in paper} | own
    with c_part:
        part = ui.choice(
            st.segmented_control,
            t("view.ko.part"),
            tuple(names),
            key=f"{page}_ko_part",
            default=part if part in names else "head",
            labels=names,
            required=True,
        )
    mode = "zero"
    if part in paper:
        with c_mode:
            mode = ui.choice(
                st.segmented_control,
                t("view.ko.mode"),
                MODES,
                key=f"{page}_ko_mode",
                default="zero",
                labels={m: t(f"view.ko.mode.{m}") for m in MODES},
                required=True,
                help=t("view.ko.mode.help"),
            )
    L = layers[stack]
    _clamp(f"{page}_ko_layer", L)
    _clamp(f"{page}_ko_head", heads)
    first = (min(default[0], L - 1), min(default[1], heads - 1))
    if part in every_layer:
        layer = 0
    elif L > LAYER_BUTTONS:
        layer = ui.slider(c_layer, t("view.layer"), 0, L - 1, first[0], key=f"{page}_ko_layer", bind="query-params")
    else:
        layer = c_layer.segmented_control(
            t("view.layer"), list(range(L)), default=first[0], required=True, key=f"{page}_ko_layer",
            bind="query-params",
        )  # fmt: skip
    head = first[1]
    if part in ("head", "cross_head"):
        head = c_head.segmented_control(
            t("view.head"), list(range(heads)), default=first[1], required=True, key=f"{page}_ko_head",
            bind="query-params",
        )  # fmt: skip
    layer = first[0] if layer is None else min(int(layer), L - 1)
    head = first[1] if head is None else min(int(head), heads - 1)
    return Choice(stack=stack, layer=layer, part=part, mode=mode, head=head)


def before_after(host, label: str, before: float, after: float, *, percent: bool = False, help: str | None = None):
    """A metric "before → after" with the change; a rise of a loss shows red (``percent``: a probability, whose
    fall shows red)."""
    if percent:
        host.metric(label, f"{before:.1%} → {after:.1%}", delta=f"{(after - before) * 100:+.1f} pp", help=help)
    else:
        value, delta = f"{before:.3f} → {after:.3f}", f"{after - before:+.3f}"
        host.metric(label, value, delta=delta, delta_color="inverse", help=help)


def torch_only(backend: str) -> None:
    """The knock-outs always run on torch: say so when the reader picked another backend."""
    if backend != "torch":
        st.caption(t("view.ko.torch_only"))


def token_figure(choice: Choice, labels: list[str], before, after, value_title: str, numbers: dict, page: str) -> None:
    """A value per token, plain and knocked out (``knock_out_tokens``), with its download (``numbers``), named after
    ``page`` and what ``choice`` knocked out."""
    side = "" if choice.stack == BLOCKS else f"{choice.stack}-"
    ui.figure(
        knock_out_tokens(
            list(labels),
            before,
            after,
            value_title=value_title,
            before_name=t("view.ko.plain"),
            after_name=t("view.ko.knocked", what=choice.what),
        ),
        numbers,
        f"{page.replace('_', '-')}-knock-out-{side}l{choice.layer}-{choice.part}",
        key=f"{page}_ko_fig",
    )


@cached
def knock_out_tokens(
    labels: list[str],
    before: np.ndarray,
    after: np.ndarray,
    *,
    value_title: str = "loss (nats)",
    before_name: str = "plain",
    after_name: str = "knocked out",
) -> go.Figure:
    """A value per token (loss, or the probability of the right token), plain and knocked out, side by side."""
    x = np.arange(len(labels))
    shown = [esc(visible(p)) for p in labels]  # as entities: Plotly would read </s> as a closing tag
    fig = go.Figure(
        [
            go.Bar(x=x, y=before, name=before_name, marker={"color": BEFORE}, customdata=shown),
            go.Bar(x=x, y=after, name=after_name, marker={"color": CUT}, customdata=shown),
        ]
    )
    fig.update_traces(hovertemplate="%{customdata}: %{y:.3f}<extra>%{fullData.name}</extra>")
    ticks = [esc(visible(p)[:10]) for p in labels]
    fig.update_xaxes(tickmode="array", tickvals=x, ticktext=ticks, tickangle=-40)
    fig.update_yaxes(title=value_title, rangemode="tozero")
    fig.update_layout(
        barmode="group",
        bargap=0.2 if len(labels) > 3 else 0.6,  # one or two masked words: not a wall of colour
        height=300,
        margin={"l": 10, "r": 10, "t": TOOLBAR, "b": 10},
        legend=LEGEND_BELOW,
    )
    return fig


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


@services.needs_corpus
@services.computing
@st.cache_data(show_spinner=False, max_entries=8)
def held_out_windows(name: str, T: int, n: int) -> tuple[np.ndarray, float, np.ndarray]:
    """``n`` windows of ``T`` tokens of the held-out plays in checkpoint ``name``'s tokens, the characters per token,
    and the plain loss at every position (T,), averaged over the windows: what a decoder's knock-outs compare with."""
    from models import metrics

    handle = services.checkpoint(name)
    handle.require()
    windows, chars = metrics.held_out_windows(handle.tokenizer, T, n)
    return windows, chars, metrics.position_losses(handle.model, windows)


def decoder_change(name: str, T: int, n: int, overrides: dict) -> HeldOut:
    """Decoder ``name`` on ``held_out_windows(name, T, n)`` with ``overrides``, beside the plain run."""
    from models import metrics

    windows, chars, before = held_out_windows(name, T, n)
    model = services.checkpoint(name).model
    losses = lambda: metrics.position_losses(model, windows)  # noqa: E731
    return held_out_change(losses, overrides, before, chars, len(windows), str(model.embed.weight.device.type))


def held_out_change(
    losses: Callable[[], np.ndarray], overrides: dict, before: np.ndarray, chars: float, windows: int, device: str
) -> HeldOut:
    """A page service's held-out run with one change: ``losses()`` (the loss at every position or segment, over the
    service's ``windows`` held-out windows) run inside ``models.probe.intervene(overrides)`` — this call's context
    only, the shared model is never changed — beside the plain run's ``before``; ``chars``: characters per token."""
    from models.probe import intervene

    start = time.perf_counter()
    with intervene(overrides):
        after = losses()
    ms = (time.perf_counter() - start) * 1e3
    return HeldOut(
        before=before,
        after=after,
        bpc_before=bits_per_character(float(before.mean()), chars),
        bpc_after=bits_per_character(float(after.mean()), chars),
        windows=windows,
        backend="torch",
        device=device,
        ms=ms,
    )


def held_out_knock_out(page: str, L: int, H: int, run: Callable[[Choice], HeldOut], backend: str, read: str) -> None:
    """A decoder page's knock-out on held-out text: the controls, ``run`` (the page's service) on what they chose,
    the held-out loss plain and knocked out, ``read`` (what to look for; "" for none), the torch-only note."""
    k = controls(page, L, H)
    try:
        r = run(k)
    except InputError as e:
        ui.input_error(e)
        return
    held_out(r, t("view.ko.knocked", what=k.what), f"{page}-knock-out-l{k.layer}-{k.part}", key=f"{page}_ko_loss")
    if read:
        st.caption(read)
    torch_only(backend)
    ui.readout(r)


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
            before_name=t("view.ko.plain"),
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
