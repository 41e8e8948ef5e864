"""Figures of the MoE page: tokens coloured by expert, router heatmap, and, for every layer side by side, expert load
against capacity, fᵢ and Pᵢ, and the share of each domain's tokens per expert."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.colors import get_colorscale

from app.shared.figures import cached, from_dicts
from app.shared.html import span
from app.shared.tokens import TOKEN_BOX, strip_label, visible

BLUES = get_colorscale("Blues")  # what graph_objects makes of colorscale="Blues"
# Plotly's toolbar (the modebar) shows over the top right of a figure when it is hovered or tapped; on a phone, where
# the figures are narrow, it covered the layer titles and the expert labels. Every figure keeps this much margin at
# its top free for it, above whatever else sits there.
MODEBAR_PX = 32
TITLE_PX = 30  # the layer titles above the panels
TICKS_PX = 50  # the heatmap's expert labels, on top and slanted
EXPERT_COLOURS = ("#4c78a8", "#f58518", "#54a24b", "#b279a2", "#e45756", "#72b7b2", "#eeca3b", "#9d755d")


def expert_colour(e: int) -> str:
    return EXPERT_COLOURS[e % len(EXPERT_COLOURS)]


def legend(n_experts: int, name: str) -> str:
    """HTML: one coloured chip per expert."""
    chips = [
        span(
            f"{name} {e}",
            style=f"background:{expert_colour(e)};color:#fff;padding:2px 6px;margin:2px;"
            "border-radius:3px;display:inline-block;font-size:0.85em",
        )
        for e in range(n_experts)
    ]
    return f"<div>{''.join(chips)}</div>"


def expert_strip(
    tokens,
    expert: np.ndarray,
    probs: np.ndarray,
    dropped: np.ndarray,
    *,
    label: str = "",
    dropped_word: str = "dropped",
    expert_word: str = "expert",
) -> str:
    """HTML: each token on the colour of its first-choice expert; a dropped token is struck through on a hatched
    grey box. The tooltip lists the router probabilities of every expert.

    Args:
        expert: (T,) first-choice expert; probs: (T, E); dropped: (T,) bool, the first choice lost its slot.
    """
    boxes = []
    for tok, e, p, d in zip(tokens, expert, probs, dropped):
        ranked = " · ".join(f"{expert_word} {i}: {q:.2f}" for i, q in enumerate(p))
        title = f"{tok!r} → {expert_word} {int(e)}" + (f" ({dropped_word})" if d else "") + f"\n{ranked}"
        if d:
            style = (
                f"{TOKEN_BOX};color:#222;text-decoration:line-through;border:2px dashed {expert_colour(int(e))};"
                "background:repeating-linear-gradient(45deg,#eee,#eee 4px,#ccc 4px,#ccc 8px)"
            )
        else:
            style = f"{TOKEN_BOX};background:{expert_colour(int(e))};color:#fff;border:2px solid transparent"
        boxes.append(span(visible(tok), style=style, title=title))
    return f'<div style="line-height:2.0;margin-bottom:6px">{strip_label(label)}{"".join(boxes)}</div>'


@cached
def router_heatmap(
    probs: np.ndarray, tokens, chosen: np.ndarray, *, token_title: str, expert_title: str, value_title: str
) -> go.Figure:
    """Tokens × experts heatmap of the router probabilities; the experts a token is sent to are marked with a dot.
    Built from dicts (``from_dicts``): every new text and layer builds it anew.

    Args:
        probs: (T, E); chosen: (T, k) expert indices.
    """
    T, E = probs.shape
    labels = [f"{i}: {visible(t)}" for i, t in enumerate(tokens)]
    rows = np.repeat(np.arange(T), chosen.shape[1])
    heat = {
        "type": "heatmap",
        "z": probs,
        "x": [f"{expert_title} {e}" for e in range(E)],
        "y": labels,
        "zmin": 0,
        "zmax": 1,
        "colorscale": BLUES,  # named scales differ between Plotly for Python and plotly.js: send the stops
        "colorbar": {"title": {"text": value_title}},
        "hovertemplate": "%{y}<br>%{x}<br>" + value_title + " %{z:.3f}<extra></extra>",
    }
    dots = {
        "type": "scatter",
        "x": [f"{expert_title} {int(e)}" for e in chosen.ravel()],
        "y": [labels[r] for r in rows],
        "mode": "markers",
        "marker": {"color": "#e45756", "size": 7, "symbol": "circle"},
        "hoverinfo": "skip",
        "showlegend": False,
    }
    layout = {
        "height": max(260, 16 * T + 80 + MODEBAR_PX),
        "margin": {"l": 10, "r": 10, "t": MODEBAR_PX + TICKS_PX, "b": 10},
        "yaxis": {"autorange": "reversed", "title": {"text": token_title}, "type": "category"},
        "xaxis": {"side": "top"},
    }
    return from_dicts([heat, dots], layout)


def _axes(i: int) -> tuple[str, str]:
    """The x and y axis names of panel ``i``: "x"/"y" for the first, "x2"/"y2" ... for the next."""
    n = "" if i == 0 else str(i + 1)
    return f"x{n}", f"y{n}"


def _panels(layer_titles, *, layout: dict, y: dict, x: dict | None = None, y_title: str | None = None) -> dict:
    """The layout of one panel per layer side by side, as ``make_subplots(rows=1, cols=L, shared_yaxes=True,
    subplot_titles=..., horizontal_spacing=0.03)`` lays them out, as a plain dict: the y axes matching the first
    (``y``, ``x``: properties every panel's axes get), each panel's title above it."""
    L, gap = len(layer_titles), 0.03
    width = (1 - gap * (L - 1)) / L
    out = dict(layout)
    titles = []
    for i in range(L):
        xname, yname = _axes(i)
        left = i * (width + gap)
        out[xname.replace("x", "xaxis")] = {"domain": [left, left + width], "anchor": yname, **(x or {})}
        yaxis = {"anchor": xname, **y}
        if i:
            yaxis.update(matches="y", showticklabels=False)
        elif y_title:
            yaxis["title"] = {"text": y_title}
        out[yname.replace("y", "yaxis")] = yaxis
        titles.append(
            {
                "text": layer_titles[i],
                "x": left + width / 2,
                "y": 1.0,
                "xref": "paper",
                "yref": "paper",
                "xanchor": "center",
                "yanchor": "bottom",
                "showarrow": False,
                "font": {"size": 16},
            }
        )
    out["annotations"] = titles + list(out.get("annotations", []))
    return out


def _layer_bars(x, *series) -> list[dict]:
    """Bar traces for the panels of ``_panels``: per layer, one trace per series (values (L, E), name, marker), each
    series in the legend once."""
    traces = []
    for i in range(len(series[0][0])):
        xname, yname = _axes(i)
        for values, name, marker in series:
            traces.append(
                {
                    "type": "bar",
                    "x": x,
                    "y": values[i],
                    "name": name,
                    "legendgroup": name,
                    "showlegend": i == 0,
                    "marker": marker,
                    "xaxis": xname,
                    "yaxis": yname,
                }
            )
    return traces


def _layer_figure(traces, layer_titles, *, barmode, height, top, level, level_text, line, y_title=None) -> go.Figure:
    """``traces`` (``_layer_bars``) in one panel per layer, the y axis from 0 to ``top``, and a horizontal line at
    ``level`` across every panel, labelled in the first."""
    layout = {
        "barmode": barmode,
        "height": height + MODEBAR_PX,
        "margin": {"l": 10, "r": 10, "t": MODEBAR_PX + TITLE_PX, "b": 10},
        "legend": {"orientation": "h", "y": -0.2},
        "shapes": [_level(i, level, line) for i in range(len(layer_titles))],
        "annotations": [_level_label(level_text, level)],
    }
    return from_dicts(traces, _panels(layer_titles, layout=layout, y={"range": [0, top]}, y_title=y_title))


def _level(i: int, y: float, line: dict) -> dict:
    """A horizontal line across panel ``i`` at height ``y`` (what ``add_hline(row=1, col=i + 1)`` draws)."""
    xname, yname = _axes(i)
    return {"type": "line", "xref": f"{xname} domain", "x0": 0, "x1": 1, "yref": yname, "y0": y, "y1": y, "line": line}


def _level_label(text: str, y: float) -> dict:
    """The label of the first panel's line, at its top left."""
    return {
        "text": text,
        "xref": "x domain",
        "x": 0,
        "xanchor": "left",
        "yref": "y",
        "y": y,
        "yanchor": "bottom",
        "showarrow": False,
    }


@cached
def load_bars(
    kept: np.ndarray,
    dropped: np.ndarray,
    capacity: int,
    *,
    layer_titles: tuple[str, ...],
    expert_title: str,
    kept_title: str,
    dropped_title: str,
    capacity_title: str,
    count_title: str,
    most: int | None = None,
) -> go.Figure:
    """Per layer, stacked bars per expert: kept slots, then dropped ones, with the capacity as a dashed line. Built
    from dicts (``from_dicts``; with ``make_subplots`` and ``graph_objects`` a new text's figure took ~100 ms).

    Args:
        kept, dropped: (L, E) token slots; capacity: slots per expert (the same in every layer); most: the slots
        the count axis must reach at least (two figures compared side by side share one scale).
    """
    E = kept.shape[1]
    x = [f"{expert_title} {e}" for e in range(E)]
    traces = _layer_bars(
        x,
        (kept, kept_title, {"color": [expert_colour(e) for e in range(E)]}),
        (dropped, dropped_title, {"color": "#bbbbbb", "pattern": {"shape": "/"}}),
    )
    top = max(float(np.max(kept + dropped)), capacity, most or 0) * 1.15 + 1
    return _layer_figure(
        traces,
        layer_titles,
        barmode="stack",
        height=320,
        top=top,
        y_title=count_title,
        level=capacity,
        level_text=f"{capacity_title} = {capacity}",
        line={"dash": "dash", "color": "#e45756"},
    )


@cached
def balance_bars(
    f: np.ndarray, P: np.ndarray, *, layer_titles: tuple[str, ...], expert_title: str, f_title: str, p_title: str
) -> go.Figure:
    """Per layer, grouped bars of fᵢ (share of routed slots) and Pᵢ (mean router probability), with the uniform 1/E
    line. Built from dicts, as ``load_bars``.

    Args:
        f, P: (L, E).
    """
    E = f.shape[1]
    x = [f"{expert_title} {e}" for e in range(E)]
    traces = _layer_bars(x, (f, f_title, {"color": "#4c78a8"}), (P, p_title, {"color": "#f58518"}))
    top = max(1.0 / E * 1.5, float(max(f.max(), P.max())) * 1.15)
    return _layer_figure(
        traces,
        layer_titles,
        barmode="group",
        height=300,
        top=top,
        level=1 / E,
        level_text="1/E",
        line={"dash": "dot", "color": "#555"},
    )


@cached
def params_chart(
    names, total: np.ndarray, active: np.ndarray, *, total_title: str, active_title: str, axis_title: str
) -> go.Figure:
    """Horizontal bars on a log axis: total parameters and parameters active per token (NaN where unknown). A long
    name breaks before its parenthesis: on a phone the one-line name of our model left the bars a third of the width,
    the slanted ticks then pushed the axis title onto the legend."""
    labels = [n.replace(" (", "<br>(").replace("（", "<br>（") for n in names]
    fig = go.Figure(
        [
            go.Bar(y=labels, x=total, orientation="h", name=total_title, marker_color="#9ecae9"),
            go.Bar(y=labels, x=active, orientation="h", name=active_title, marker_color="#4c78a8"),
        ]
    )
    fig.update_layout(
        barmode="group",
        height=300 + MODEBAR_PX,
        margin={"l": 10, "r": 10, "t": MODEBAR_PX, "b": 10},
        xaxis={"type": "log", "title": axis_title, "range": [5, 12.5]},
        yaxis={"autorange": "reversed"},
        legend={"orientation": "h", "y": -0.3},
    )
    return fig


@cached
def domain_table(
    shares: np.ndarray, domains, *, layer_titles: tuple[str, ...], expert_title: str, value_title: str
) -> go.Figure:
    """Per layer, a domains × experts heatmap of shares (rows add up to 1), the percentage written in each cell; one
    colour scale for all layers. Built from dicts, as ``load_bars``.

    Args:
        shares: (L, D, E).
    """
    L, D, E = shares.shape
    traces = []
    for i in range(L):
        xname, yname = _axes(i)
        traces.append(
            {
                "type": "heatmap",
                "z": shares[i] * 100,
                "x": [f"{expert_title} {e}" for e in range(E)],
                "y": list(domains),
                "coloraxis": "coloraxis",
                "text": [[f"{v * 100:.0f}%" for v in row] for row in shares[i]],
                "texttemplate": "%{text}",
                "hovertemplate": f"{layer_titles[i]}<br>%{{y}}<br>%{{x}}<br>%{{z:.1f}}%<extra></extra>",
                "xaxis": xname,
                "yaxis": yname,
            }
        )
    layout = {
        "height": 110 + 60 * D + MODEBAR_PX,
        "margin": {"l": 10, "r": 10, "t": MODEBAR_PX + TITLE_PX, "b": 10},
        "coloraxis": {"colorscale": BLUES, "cmin": 0, "cmax": 100, "colorbar": {"title": {"text": value_title}}},
    }
    return from_dicts(traces, _panels(layer_titles, layout=layout, y={"autorange": "reversed"}, x={"tickangle": -45}))


def _step_mark(i: int, step: float) -> dict:
    """A vertical line across panel ``i`` at training step ``step`` (in steps: Plotly places it on the log axis)."""
    xname, yname = _axes(i)
    return {
        "type": "line",
        "xref": xname,
        "x0": step,
        "x1": step,
        "yref": f"{yname} domain",
        "y0": 0,
        "y1": 1,
        "line": {"color": "#333", "dash": "dot", "width": 1.5},
    }


@cached
def over_steps(
    steps: np.ndarray,
    values: np.ndarray,
    step: int,
    *,
    layer_titles: tuple[str, ...],
    step_title: str,
    value_title: str,
    expert_title: str,
    level: float | None = None,
    level_text: str = "",
    percent: bool = True,
) -> go.Figure:
    """Per layer, one line per expert over training steps on a logarithmic axis (the first steps, where routing
    moves fastest, get room), the step the page shows marked by a dotted line (step 0 at the first point's step).

    Args:
        steps: (S,) training steps, from 1; values: (S, L, E) per-expert numbers (E = 1: one line, not per expert);
        level: a dashed horizontal line (the uniform share 1/E) labelled ``level_text``.
    """
    S, L, E = values.shape
    traces = []
    for i in range(L):
        xname, yname = _axes(i)
        for e in range(E):
            name = f"{expert_title} {e}" if E > 1 else value_title
            traces.append(
                {
                    "type": "scatter",
                    "mode": "lines",
                    "x": steps,
                    "y": values[:, i, e],
                    "name": name,
                    "legendgroup": name,
                    "showlegend": i == 0,
                    "line": {"color": expert_colour(e) if E > 1 else "#9d755d", "width": 1.5},
                    "xaxis": xname,
                    "yaxis": yname,
                }
            )
    mark = float(max(step, steps[0]))  # a shape on a log axis takes the step itself (drawn: log10 put 39 at 1.6)
    shapes = [_step_mark(i, mark) for i in range(L)]
    annotations = []
    if level is not None:
        line = {"dash": "dash", "color": "#888"}
        shapes += [_level(i, level, line) for i in range(L)]
        annotations.append(_level_label(level_text, level))
    layout = {
        "height": 300 + MODEBAR_PX,
        "margin": {"l": 10, "r": 10, "t": MODEBAR_PX + TITLE_PX, "b": 10},
        "legend": {"orientation": "h", "y": -0.25},
        "shapes": shapes,
        "annotations": annotations,
    }
    y = {"tickformat": ".0%"} if percent else {}
    x = {"type": "log", "title": {"text": step_title}}
    return from_dicts(traces, _panels(layer_titles, layout=layout, y=y, x=x, y_title=value_title))
