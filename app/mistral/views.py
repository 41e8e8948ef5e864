"""Figures of the Mistral page: a real attention pattern with the band of any width drawn on it (on its own slider), the
reach of the band through the layers, the rolling buffer's slots over the decoding steps and the cache's memory, and
the mask each pre-fill chunk uses. Pure functions: numpy in, Plotly figure (or escaped HTML) out."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from app.shared.figures import cached
from app.shared.heatmaps import ticks
from app.shared.html import span
from app.shared.images import colourise, image_map, png_data_uri
from app.shared.plots import MARGIN, SLIDER_HEIGHT, legend_below, stepped
from app.shared.theme import var
from app.shared.tokens import TOKEN_BOX, visible

EDGE, TRAINED = "#d62728", "#555"  # the displayed window's edge, the trained window's edge
ROLLING, FULL = "#d62728", "#1f77b4"
MAX_TICKS = 24  # token labels on an axis (more overlap once slanted)
LEGEND = 64  # px under a figure's own slider for a legend of three rows
SLIDER_SPAN = 112  # px under the plot that a figure's own slider reaches down to (its value, rail and tick labels)


def staircase(T: int, window: int) -> tuple[list[float], list[float]]:
    """The left edge of a band of ``window`` keys on a (T, T) map, cell edges at ±0.5: row q starts at key
    q − window + 1. Only the rows where the edge lies inside the map (q ≥ window)."""
    xs: list[float] = []
    ys: list[float] = []
    for q in range(window, T):
        x = q - window + 0.5
        xs += [x, x]
        ys += [q - 0.5, q + 0.5]
    return xs, ys


def _token_axes(fig: go.Figure, labels: list[str], *, query_title: str, key_title: str) -> None:
    shown = [visible(p) for p in labels]
    fig.update_xaxes(title=key_title, side="top", tickangle=-60, **ticks(shown, MAX_TICKS))
    fig.update_yaxes(title=query_title, **ticks(shown, MAX_TICKS))


@cached
def reach_map(
    influence: np.ndarray,
    labels: list[str],
    bound: np.ndarray,
    *,
    layer_names: list[str],
    value_title: str,
    position_title: str,
    bound_name: str,
    height: int = 330,
) -> go.Figure:
    """(L, n) influence of each input position (across) on the last position's state after each layer (down), as
    log₁₀ (exact zeros left blank), with each layer's bound drawn as a vertical bar in its row."""
    L, n = influence.shape
    with np.errstate(divide="ignore"):
        z = np.where(influence > 0, np.log10(np.where(influence > 0, influence, 1.0)), np.nan)
    shown = [visible(p) for p in labels]
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=np.arange(n),
            y=np.arange(L),
            colorscale="Viridis",
            customdata=np.array([[f"{j}: {shown[j]}" for j in range(n)]] * L),
            hovertemplate="%{customdata}<br>log₁₀ = %{z:.2f}<extra></extra>",
            colorbar={"thickness": 12, "title": {"text": value_title, "side": "right"}},
        )
    )
    xs: list[float | None] = []
    ys: list[float | None] = []
    for layer, b in enumerate(bound):
        x = n - 1 - b - 0.5  # between the farthest reachable input and the first one out of reach
        if x > -0.5:
            xs += [x, x, None]
            ys += [layer - 0.5, layer + 0.5, None]
    if xs:
        fig.add_trace(
            go.Scatter(x=xs, y=ys, mode="lines", name=bound_name, line={"color": EDGE, "width": 3}, hoverinfo="skip")
        )
    fig.update_xaxes(title=position_title, range=[-0.5, n - 0.5], tickangle=-60, **ticks(shown, MAX_TICKS))
    fig.update_yaxes(
        autorange="reversed", tickmode="array", tickvals=list(range(L)), ticktext=layer_names, showgrid=False
    )
    return legend_below(fig, height, 10, y=-0.12)


@cached
def slot_map(
    slots: np.ndarray, step: int, *, slot_title: str, step_title: str, value_title: str, height: int = 380
) -> go.Figure:
    """(n, W) absolute position each slot holds after each step, drawn slots down × steps across; the chosen step
    framed. Empty slots (−1) blank."""
    n, W = slots.shape
    z = np.where(slots >= 0, slots, np.nan).T.astype(float)  # (W, n)
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=np.arange(1, n + 1),
            y=np.arange(W),
            colorscale="Turbo",
            hovertemplate=step_title + " %{x}, " + slot_title + " %{y}: " + value_title + " %{z}<extra></extra>",
            colorbar={"thickness": 12, "title": {"text": value_title, "side": "right"}},
        )
    )
    fig.add_shape(type="rect", x0=step - 0.5, x1=step + 0.5, y0=-0.5, y1=W - 0.5, line={"color": "#111", "width": 2})
    fig.update_xaxes(title=step_title)
    fig.update_yaxes(title=slot_title, autorange="reversed")
    return legend_below(fig, height, 10, y=-0.12)


def slots_html(
    slots: np.ndarray, pieces: list[str], newest: int, *, slot_name: str, empty: str, first: int = 0, W: int = 0
) -> str:
    """One box per slot: its index, the absolute position it holds and that token; the newest entry in red, the
    others shaded by age (darker = more recent). ``slots`` may be a run of a wider buffer of ``W`` slots starting at
    slot ``first``."""
    W = W or len(slots)
    boxes = []
    for i, p in enumerate(slots, start=first):
        if p < 0:
            style = f"background:{var('chip-bg')};color:{var('chip-fg')};{TOKEN_BOX}"
            body, tip = f"{i}: {empty}", f"{slot_name} {i}"
        else:
            age = newest - int(p)  # 0 .. W − 1
            shade = int(235 - 150 * (1 - age / max(1, W - 1)))
            colour = f"rgb({shade},{shade + 10},255)" if age else "rgb(214,39,40)"
            text = "#fff" if age == 0 or shade < 140 else "#111"
            style = f"background:{colour};color:{text};{TOKEN_BOX}"
            body = f"{i}: #{p} {visible(pieces[int(p)])}"
            tip = f"{slot_name} {i} = {p} mod {W}: {pieces[int(p)]!r}"
        boxes.append(span(body, style=style, title=tip))
    return f'<div style="line-height:2.0">{"".join(boxes)}</div>'


@cached
def memory_lines(
    lengths: np.ndarray,
    series: dict[str, np.ndarray],
    *,
    x_title: str,
    y_title: str,
    window: int,
    window_name: str,
    height: int = 330,
) -> go.Figure:
    """Cache size (KiB) against the number of cached positions, one line per cache; the window as a vertical line."""
    fig = go.Figure()
    for (name, y), colour in zip(series.items(), (ROLLING, FULL)):
        fig.add_trace(
            go.Scatter(
                x=lengths,
                y=y,
                mode="lines",
                name=name,
                line={"color": colour},
                hovertemplate=name + ": %{y:.1f}<extra>%{x}</extra>",
            )
        )
    fig.add_vline(
        x=window, line_dash="dash", line_color="#888", annotation_text=window_name, annotation_position="top left"
    )
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title, rangemode="tozero")
    legend_below(fig, height, 10, y=-0.12)
    fig.update_layout(
        legend={"x": 0.99, "xanchor": "right", "y": 0.03, "yanchor": "bottom", "bgcolor": "rgba(255,255,255,0.8)"}
    )
    return fig


@cached
def chunk_mask(
    mask: np.ndarray,
    query_labels: list[str],
    key_labels: list[str],
    *,
    query_title: str,
    key_title: str,
    n_cached: int,
    height: int = 420,
) -> go.Figure:
    """(T_chunk, S) bool mask of one pre-fill chunk: the columns left of the red line are keys read from the rolling
    buffer, the rest the chunk's own."""
    T, S = mask.shape
    hover = [[f"{query_labels[i]} → {key_labels[j]}" for j in range(S)] for i in range(T)]
    fig = go.Figure(
        go.Heatmap(
            z=mask.astype(float),
            customdata=hover,
            colorscale=[[0, "#f4f4f4"], [1, "#2166ac"]],
            zmin=0,
            zmax=1,
            showscale=False,
            xgap=1,
            ygap=1,
            hovertemplate="%{customdata}: %{z}<extra></extra>",
        )
    )
    if n_cached:
        fig.add_vline(x=n_cached - 0.5, line_color=EDGE, line_width=2)
    fig.update_xaxes(title=key_title, side="top", tickangle=-60, **ticks(key_labels, MAX_TICKS))
    fig.update_yaxes(title=query_title, autorange="reversed", **ticks(query_labels, MAX_TICKS))
    return legend_below(fig, height, top=90, y=-0.12)


def left_of_band(T: int, window: int) -> tuple[list[float], list[float]]:
    """The region of a (T, T) map that is causal but left of a band of ``window`` keys (the keys a query could see
    without the window), as a closed polygon: the axis' left edge down, then the band's staircase back up. Empty
    when the band reaches the first key in every row."""
    xs, ys = staircase(T, window)
    if not xs:
        return [], []
    return [-0.5, -0.5, *reversed(xs), -0.5], [window - 0.5, T - 0.5, *reversed(ys), window - 0.5]


@cached
def band_steps(
    pattern: np.ndarray,
    labels: list[str],
    readouts: list[str],
    *,
    windows: list[int],
    active: int,
    trained: int,
    prefix: str,
    query_title: str,
    key_title: str,
    value_title: str,
    window_name: str,
    trained_name: str,
    cut_name: str,
    height: int = 660,
) -> go.Figure:
    """One head's (T, T) pattern as an image, with a slider of its own over the window drawn (``windows``, step k
    draws ``windows[k]``; ``plots.stepped``: the move happens in the browser): the band's edge (red), the causal
    keys the window cuts off (grey veil, where weight outside the band shows through), the trained band's edge
    (dotted), and ``readouts[k]`` in the map's empty upper-right corner (keys above the diagonal are never read).
    Only scatter traces change with the step, so Plotly restyles them without drawing the image again."""
    T = len(pattern)
    inside = pattern[pattern > 0]
    top = float(np.quantile(inside, 0.99)) if inside.size else 1.0  # the colours stop here: a few sharp weights aside
    # The pattern as a layout image, not an image trace: a step without redraw clears the layers of the traces it
    # does not move (an image trace vanished at the first step), and a layout image is no trace
    fig = image_map(np.zeros((T, T)), colorscale="Blues", zmin=0, zmax=max(top, 1e-9), value_title=value_title)
    fig.data = fig.data[1:]  # the colour bar alone
    fig.add_layout_image(
        source=png_data_uri(colourise(pattern, "Blues", 0, max(top, 1e-9))),
        xref="x", yref="y", x=-0.5, y=-0.5, sizex=T, sizey=T, xanchor="left", yanchor="top",
        sizing="stretch", layer="below",
    )  # fmt: skip
    trained_x, trained_y = staircase(T, trained)
    fig.add_trace(
        go.Scatter(
            x=trained_x, y=trained_y, mode="lines", name=trained_name,
            line={"color": TRAINED, "width": 2, "dash": "dot"}, hoverinfo="skip",
        )
    )  # fmt: skip
    w = windows[active]
    cut_x, cut_y = left_of_band(T, w)
    fig.add_trace(
        go.Scatter(
            x=cut_x, y=cut_y, mode="lines", fill="toself", fillcolor="rgba(128,128,128,0.2)",
            line={"width": 0}, name=cut_name, hoverinfo="skip",
        )
    )  # fmt: skip
    edge_x, edge_y = staircase(T, w)
    fig.add_trace(
        go.Scatter(
            x=edge_x, y=edge_y, mode="lines", name=window_name, line={"color": EDGE, "width": 2}, hoverinfo="skip"
        )
    )
    fig.add_trace(
        go.Scatter(
            x=[T - 1], y=[0], mode="text", text=[readouts[active]], textposition="bottom left",
            textfont={"size": 11}, showlegend=False, hoverinfo="skip",
        )
    )  # fmt: skip
    _token_axes(fig, labels, query_title=query_title, key_title=key_title)
    # The legend in a column under the figure's own slider (three rows: a phone would wrap a row of three anyway).
    # The slider with its current value and tick labels reaches SLIDER_SPAN px under the plot; stepped() adds
    # SLIDER_HEIGHT of it to the margin, the rest is left here.
    top, bottom = 90, MARGIN + LEGEND + SLIDER_SPAN - SLIDER_HEIGHT
    legend_below(fig, height, top=top)
    fig.update_layout(
        margin={"b": bottom},
        legend={"orientation": "v", "x": 0, "xanchor": "left", "y": -SLIDER_SPAN / (height - top - bottom),
                "yanchor": "top"},
    )  # fmt: skip
    steps = []
    for k, window in enumerate(windows):
        cut_x, cut_y = left_of_band(T, window)
        edge_x, edge_y = staircase(T, window)
        steps.append(
            {
                "data": [
                    {},
                    {},
                    {"x": cut_x, "y": cut_y},
                    {"x": edge_x, "y": edge_y},
                    {"text": [readouts[k]]},
                ]
            }
        )
    return stepped(fig, steps, active=active, prefix=prefix, labels=[str(w) for w in windows])
