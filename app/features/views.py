"""The feature microscope's figures and HTML: a feature's logit weights, the next token with and without an edit, and
its strongest contexts with the firing token boxed."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from app.shared.figures import cached, from_dicts
from app.shared.html import esc, span
from app.shared.plots import fixed_layout, label_px
from app.shared.tokens import visible

GREY, BLUE, RED = "#9aa5b1", "#1f77b4", "#d62728"


@cached
def logit_weights(promoted: tuple, suppressed: tuple, *, promoted_name: str, suppressed_name: str) -> go.Figure:
    """Horizontal bars: the tokens the direction promotes most (top, blue) and suppresses most (bottom, red)."""
    rows = [*promoted, *reversed(suppressed)]
    labels = [f"{visible(p)} " for p, _ in rows]
    values = [w for _, w in rows]
    bars = {
        "type": "bar",
        "orientation": "h",
        "x": values,
        "y": list(range(len(rows))),
        "marker": {"color": [BLUE] * len(promoted) + [RED] * len(suppressed)},
        "hovertemplate": "%{text}: %{x:.3f}<extra></extra>",
        "text": labels,
        "textposition": "none",
    }
    layout = {
        "height": 110 + 20 * len(rows),
        "showlegend": False,
        "yaxis": {"tickvals": list(range(len(rows))), "ticktext": labels, "autorange": "reversed"},
        "xaxis": {"zeroline": True, "title": {"text": f"{suppressed_name} ← · → {promoted_name}"}},
    }
    return from_dicts([bars], fixed_layout(layout, ("xaxis", "yaxis"), l=14 + label_px(labels), r=20, t=36, b=48))


@cached
def next_token(pieces: tuple, clean: np.ndarray, edited: np.ndarray, *, names: tuple, value_title: str) -> go.Figure:
    """Grouped horizontal bars: each of the clean model's likeliest next tokens, as it is and with the edit."""
    labels = [f"{i + 1}. {visible(p)}" for i, p in enumerate(pieces)]
    traces = [
        {"type": "bar", "orientation": "h", "y": labels, "x": values, "name": name, "marker": {"color": colour}}
        for values, name, colour in ((clean, names[0], GREY), (edited, names[1], BLUE))
    ]
    layout = {
        "barmode": "group",
        "height": 120 + 34 * len(labels),
        "yaxis": {"autorange": "reversed", "type": "category"},
        "xaxis": {"title": {"text": value_title}, "rangemode": "tozero"},
        "legend": {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0},
    }
    return from_dicts(traces, fixed_layout(layout, ("xaxis", "yaxis"), l=14 + label_px(labels), r=20, t=36, b=80))


def contexts_html(contexts: tuple) -> str:
    """One line per context: its tokens, the firing one boxed, and the activation."""
    lines = []
    for pieces, at, act in contexts:
        shown = [p.replace("\n", "↵ ") for p in pieces]
        words = "".join(
            span(visible(p), style="border:2px solid #d62728;border-radius:3px;padding:0 2px;font-weight:600")
            if j == at
            else esc(shown[j])
            for j, p in enumerate(pieces)
        )
        lines.append(f"<div style='margin:2px 0;white-space:pre-wrap'>{words} <b>{act:.2f}</b></div>")
    return "".join(lines)


@cached
def activation_histogram(edges: np.ndarray, counts: np.ndarray, *, x_title: str, y_title: str) -> go.Figure:
    """Bars of how many held-out tokens the feature fires on at each activation, on a log scale of counts (an empty
    bar is left out)."""
    centres = (edges[:-1] + edges[1:]) / 2
    shown = counts > 0
    bars = {
        "type": "bar",
        "x": centres[shown].tolist(),
        "y": counts[shown].tolist(),
        "width": float(edges[1] - edges[0]) * 0.9,
        "marker": {"color": BLUE},
        "customdata": np.stack([edges[:-1], edges[1:]], axis=1)[shown].tolist(),
        "hovertemplate": "[%{customdata[0]:.2f}, %{customdata[1]:.2f}): %{y:,}<extra></extra>",
    }
    layout = {
        "height": 260,
        "showlegend": False,
        "bargap": 0,
        "xaxis": {"title": {"text": x_title}, "range": [0, float(edges[-1]) * 1.02]},
        "yaxis": {"title": {"text": y_title}, "type": "log", "dtick": 1},
    }
    return from_dicts([bars], fixed_layout(layout, ("xaxis", "yaxis"), l=64, r=20, t=20, b=52))


SIZE_COLOURS = ("#9aa5b1", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b")
SHIPPED = "#d62728"


@cached
def sweep_curves(
    sizes: tuple,
    l0: tuple,
    fve: tuple,
    delta: tuple,
    shipped: tuple,
    *,
    size_name: str,
    shipped_name: str,
    l0_title: str,
    fve_title: str,
    delta_title: str,
) -> go.Figure:
    """Two panels over L0 (log scale): the fraction of variance explained (top) and the loss the model pays with the
    reconstruction in place of its stream (bottom); one line per dictionary size, the shipped dictionary a star."""
    traces = []
    for j, size in enumerate(sizes):
        colour = SIZE_COLOURS[j % len(SIZE_COLOURS)]
        name = size_name.format(n=size)
        for values, axes, legend in ((fve[j], ("x", "y"), True), (delta[j], ("x2", "y2"), False)):
            traces.append(
                {
                    "type": "scatter",
                    "mode": "lines+markers",
                    "x": list(l0[j]),
                    "y": list(values),
                    "xaxis": axes[0],
                    "yaxis": axes[1],
                    "name": name,
                    "legendgroup": name,
                    "showlegend": legend,
                    "line": {"color": colour},
                    "marker": {"color": colour, "size": 7},
                    "hovertemplate": f"{name}<br>L0 %{{x:.0f}}: %{{y:.4f}}<extra></extra>",
                }
            )
    size, k, l0_shipped, fve_shipped, delta_shipped = shipped
    name = shipped_name.format(n=size, k=k)
    for value, axes, legend in ((fve_shipped, ("x", "y"), True), (delta_shipped, ("x2", "y2"), False)):
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": [l0_shipped],
                "y": [value],
                "xaxis": axes[0],
                "yaxis": axes[1],
                "name": name,
                "legendgroup": "shipped",
                "showlegend": legend,
                "marker": {"color": SHIPPED, "size": 15, "symbol": "star", "line": {"color": "white", "width": 1}},
                "hovertemplate": f"{name}<br>L0 %{{x:.0f}}: %{{y:.4f}}<extra></extra>",
            }
        )
    ks = sorted({round(x) for row in l0 for x in row} | {round(l0_shipped)})
    x = {"type": "log", "tickvals": ks, "ticktext": [str(v) for v in ks], "anchor": "y2"}
    layout = {
        "height": 470,
        "xaxis": {**x, "matches": "x2", "showticklabels": False, "anchor": "y"},
        "xaxis2": {**x, "title": {"text": l0_title}},
        "yaxis": {"domain": [0.55, 1.0], "title": {"text": fve_title}, "tickformat": ".0%"},
        "yaxis2": {"domain": [0.0, 0.45], "title": {"text": delta_title}, "rangemode": "tozero"},
        "legend": {"orientation": "h", "x": 0, "xanchor": "left", "y": 1.02, "yanchor": "bottom"},
        "hovermode": "closest",
    }
    return from_dicts(traces, fixed_layout(layout, ("xaxis", "xaxis2", "yaxis", "yaxis2"), l=70, r=20, t=60, b=52))
