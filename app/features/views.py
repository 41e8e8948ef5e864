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
