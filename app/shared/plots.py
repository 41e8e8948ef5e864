"""Plotly layout shared by the pages' figure builders: one height, tight margins, where the legend goes, and a figure
with a slider of its own over precomputed steps (a move that happens in the browser)."""

from __future__ import annotations

import unicodedata

import plotly.graph_objects as go

MARGIN = 10  # px on the left, right and bottom: the figures sit in columns, every pixel of width is the plot's
CHAR = 7  # px a character of a tick label takes, at most: what a fixed margin leaves per character of the longest


def fixed_margins(fig: go.Figure, *, unchecked: bool = True, **margin: int) -> go.Figure:
    """Margins set by the builder rather than measured by Plotly (the template's automargin), for a figure that a
    move redraws: the browser then lays it out once per move instead of twice. The builder leaves room for its tick
    labels and axis titles (``CHAR`` per character of the longest label); ``margin``: l, r, t, b in px. A legend
    still pushes the margin where it needs more room than that (a narrow screen's extra rows).

    ``unchecked``: with room set for them, the tick labels are drawn without Plotly's overflow check
    (``ticklabeloverflow`` "allow"): by default each label drawn measures every label of its axis again, a cost that
    grows with the square of their number, on every redraw."""
    fig.update_xaxes(automargin=False)
    fig.update_yaxes(automargin=False)
    if unchecked:
        unchecked_labels(fig)
    fig.update_layout(margin=margin)
    return fig


def label_px(labels) -> int:
    """The px the longest of ``labels`` takes at most, ``CHAR`` per column (a CJK character counts two): the room a
    fixed margin leaves for a tick label."""
    columns = (sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in s) for s in labels)
    return CHAR * max(columns, default=1)


def fixed_layout(layout: dict, axes: tuple[str, ...], **margin: int) -> dict:
    """``fixed_margins`` for a figure built from dicts (``figures.from_dicts``): the named axes of ``layout`` (e.g.
    "xaxis", "yaxis2") measured by no one, their labels unchecked, and ``margin`` set. Returns ``layout``."""
    for axis in axes:
        layout[axis] = {**layout.get(axis, {}), "automargin": False, "ticklabeloverflow": "allow"}
    layout["margin"] = margin
    return layout


def unchecked_labels(fig: go.Figure) -> go.Figure:
    """Tick labels drawn without Plotly's overflow check (``ticklabeloverflow`` "allow"), for a figure that a move
    redraws and whose margins leave its labels room: see ``fixed_margins``."""
    fig.update_xaxes(ticklabeloverflow="allow")
    fig.update_yaxes(ticklabeloverflow="allow")
    return fig


def legend_above(fig: go.Figure, height: int, top: int = 10, *, right: bool = False) -> go.Figure:
    """Height, tight margins, and the legend in rows above the plot (from its left edge, or ending at its right edge
    with ``right``): beside the plot, it would squeeze a phone's plot."""
    anchor = {"x": 1, "xanchor": "right"} if right else {"x": 0, "xanchor": "left"}
    fig.update_layout(
        height=height,
        margin={"l": MARGIN, "r": MARGIN, "t": top, "b": MARGIN},
        legend={"font": {"size": 11}, "orientation": "h", "y": 1.02, "yanchor": "bottom", **anchor},
        hovermode="closest",
    )
    return fig


def legend_below(fig: go.Figure, height: int, top: int = 10, *, y: float = -0.15) -> go.Figure:
    """Height, tight margins, and the legend in a row under the plot, at ``y`` (in plot heights, below the x axis'
    title: lower for a short figure)."""
    fig.update_layout(
        height=height,
        margin={"l": MARGIN, "r": MARGIN, "t": top, "b": MARGIN},
        legend={"orientation": "h", "y": y, "x": 0},
    )
    return fig


ANIMATED = frozenset({"scatter", "scattergl", "bar"})  # trace types a step restyles without drawing the figure again
SLIDER_HEIGHT = 64  # px under the plot that a figure's own step slider takes (its rail, ticks and current value)
SLIDER_PAD = 30  # px between the plot and that slider's current value, at the least


def stepped(
    fig: go.Figure,
    steps: list[dict],
    *,
    active: int,
    prefix: str,
    labels: list[str] | None = None,
    redraw: bool = False,
    clear: int = 0,
) -> go.Figure:
    """``fig`` (drawn at step ``active``) with a Plotly slider under the plot whose steps swap in each step's
    numbers: for a move that only re-slices numbers already computed (a position, a layer, a token), which then
    happens in the browser with no rerun of the page — a few tens of ms instead of a round trip to the server.

    ``steps[k]`` holds what changes at step k: ``"data"``, one dict per trace of ``fig`` (its properties at that
    step, ``{}`` for a trace that stays), and ``"layout"``, nested layout properties (``{"title": {"text": …}}``).
    ``prefix`` heads the slider's current value ("m = ", "layer "); ``labels`` name the steps (default 0, 1, …;
    with many steps Plotly labels every n-th tick, as many as fit).

    Without ``redraw`` a step restyles the scatter traces alone (tens of ms): what Plotly animates — ``x``, ``y``,
    ``text``, marker properties — and no layout (write a changing readout as a text trace). With it, every step
    draws the whole figure again (a heatmap's ``z``, a layout change), which on a figure of several subplots cost
    as much as a round trip to the server.

    The slider sits ``SLIDER_PAD`` px under the plot, or ``clear`` px where what the builder put under the x axis
    (rotated tick labels, the axis' title) takes more; the figure grows by what the slider takes."""
    types = [trace.type for trace in fig.data]
    if any(len(step.get("data", [])) != len(types) for step in steps):
        raise ValueError("each step needs one dict per trace of the figure")
    labels = labels if labels is not None else [str(k) for k in range(len(steps))]
    # A trace Plotly does not animate (an image, a heatmap) that no step changes stays out of the frames: nothing of
    # it is sent per step. That alone does not keep it drawn: a step without redraw still cleared an image trace (the
    # pattern under Mistral's moving band), so a still background there is a layout image
    kept = [i for i, kind in enumerate(types) if kind in ANIMATED or any(step["data"][i] for step in steps)]
    frames = [
        {
            "name": str(k),
            "data": [{"type": types[i], **step["data"][i]} for i in kept],
            "traces": kept,
            "layout": step.get("layout", {}),
        }
        for k, step in enumerate(steps)
    ]
    go_to = {"mode": "immediate", "frame": {"duration": 0, "redraw": redraw}, "transition": {"duration": 0}}
    slider = {
        "active": active,
        "steps": [{"method": "animate", "label": label, "args": [[str(k)], go_to]} for k, label in enumerate(labels)],
        "currentvalue": {"prefix": prefix, "font": {"size": 13}},
        "transition": {"duration": 0},  # the handle jumps: its default glide would keep the page moving for 150 ms
        "minorticklen": 0,  # a tick only under a label: hundreds of steps drew a solid bar on a phone
        "pad": {"t": max(SLIDER_PAD, clear), "b": 0, "l": 0, "r": 0},
        "len": 1.0,
        "x": 0,
        "y": 0,
        "yanchor": "top",
    }
    out = go.Figure(fig)
    out.frames = frames
    margin = fig.layout.margin
    grow = SLIDER_HEIGHT + slider["pad"]["t"] - SLIDER_PAD
    out.update_layout(
        sliders=[slider],
        height=(fig.layout.height or 450) + grow,
        margin={"b": (margin.b if margin.b is not None else MARGIN) + grow},
    )
    return out
