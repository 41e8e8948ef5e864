"""Heatmaps shared by the pages: one token-labelled attention map, grids of small maps (layers × heads, patches ...)
drawn as one light trace with NaN gaps, and the tick helpers those figures use.

Axes are numeric with token tick labels, so repeated tokens (two "the") keep their own rows and columns.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from app.shared.figures import cached
from app.shared.plots import legend_above
from app.shared.tokens import visible

GAP = 1  # blank cells between the small maps of a grid
MARKED, KEYS, QUERY_KEY = "#fdd835", "#90caf9", "#d62728"  # attention_bars: the marked keys, the others, the query
ROW_TICKS = 40  # key labels under one query's bars


def ticks(labels: list[str], max_ticks: int = 48) -> dict:
    """Axis settings that label positions 0, 1, ... with ``labels``, at most ``max_ticks`` of them (every n-th)."""
    step = max(1, int(np.ceil(len(labels) / max_ticks)))
    idx = list(range(0, len(labels), step))
    return {"tickmode": "array", "tickvals": idx, "ticktext": [str(labels[i]) for i in idx]}


def centres(n: int, size: int) -> list[float]:
    """Coordinates of the centres of ``n`` small maps of ``size`` cells laid side by side by ``tile``."""
    return [k * (size + GAP) + (size - 1) / 2 for k in range(n)]


def grid_ticks(labels: list[str] | None, size: int, side: str | None = None) -> dict:
    """Axis settings naming each small map of a ``tile`` grid at its centre (no tick labels when ``labels`` is None)."""
    if labels is None:
        return {"showticklabels": False}
    out = {"tickmode": "array", "tickvals": centres(len(labels), size), "ticktext": list(labels)}
    if side:
        out["side"] = side
    return out


def mark_cell(fig: go.Figure, row: int, col: int, shape: tuple[int, int], colour: str) -> go.Figure:
    """Frame the small map at (``row``, ``col``) of a ``tile`` grid whose maps are ``shape`` = (h, w) cells."""
    h, w = shape
    x0, y0 = col * (w + GAP) - 0.5, row * (h + GAP) - 0.5
    fig.add_shape(type="rect", x0=x0, y0=y0, x1=x0 + w, y1=y0 + h, line={"color": colour, "width": 2})
    return fig


@cached
def attention_heatmap(
    pattern: np.ndarray,
    query_labels: list[str],
    key_labels: list[str],
    *,
    title: str = "",
    query_title: str = "query",
    key_title: str = "key",
    value_title: str = "weight",
    zmax: float | None = None,
    colorscale: str = "Blues",
    height: int | None = None,
) -> go.Figure:
    """(T, S) weights: rows are queries, columns keys; hover shows query → key: weight."""
    pattern = np.asarray(pattern, dtype=float)
    T, S = pattern.shape
    hover = [[f"{query_labels[i]} → {key_labels[j]}" for j in range(S)] for i in range(T)]
    fig = go.Figure(
        go.Heatmap(
            z=pattern,
            customdata=hover,
            colorscale=colorscale,
            zmin=0 if zmax is not None else None,
            zmax=zmax,
            hovertemplate="%{customdata}<br>" + value_title + ": %{z:.3f}<extra></extra>",
            colorbar={"thickness": 12, "title": {"text": value_title, "side": "right"}},
        )
    )
    fig.update_xaxes(title=key_title, side="top", **ticks(key_labels), tickangle=-60)
    fig.update_yaxes(title=query_title, autorange="reversed", **ticks(query_labels))
    size = height or int(min(640, max(260, 28 * T + 140)))
    fig.update_layout(
        title=title or None, height=size, margin={"l": 10, "r": 10, "t": 90 if not title else 110, "b": 10}
    )
    return fig


def tile(patterns: np.ndarray) -> np.ndarray:
    """(L, H, T, S) small maps -> one (L·(T+GAP)−GAP, H·(S+GAP)−GAP) array, maps separated by NaN gaps."""
    L, H, T, S = patterns.shape
    out = np.full((L * (T + GAP) - GAP, H * (S + GAP) - GAP), np.nan)
    for layer in range(L):
        for head in range(H):
            r, c = layer * (T + GAP), head * (S + GAP)
            out[r : r + T, c : c + S] = patterns[layer, head]
    return out


def grid_cell(x: float, y: float, shape: tuple[int, int, int, int]) -> tuple[int, int]:
    """The (layer, head) of the small map under a point (x, y) of ``tile``'s array (cell i spans i ± 0.5)."""
    L, H, T, S = shape
    row, col = int(np.floor(y + 0.5)), int(np.floor(x + 0.5))
    return min(L - 1, max(0, row) // (T + GAP)), min(H - 1, max(0, col) // (S + GAP))


MIN_MAP_ASPECT = 1 / 2  # a small map is drawn at least half as tall as it is wide


def map_stretch(T: int, S: int) -> float:
    """How much taller than square each cell of a grid of (T, S) maps is drawn: 1 (square cells) unless the maps
    would then be flatter than MIN_MAP_ASPECT — one decoding step's single query row over 17 keys was a strip a
    few pixels tall."""
    return max(1.0, MIN_MAP_ASPECT * S / T)


@cached
def head_grid(
    patterns: np.ndarray,
    *,
    layer_title: str = "layer",
    head_title: str = "head",
    selected: tuple[int, int] | None = None,
    colorscale: str = "Blues",
    first_layer: int = 0,
) -> go.Figure:
    """The model view: every layer (rows) × head (columns) as small maps in one light trace. ``patterns`` may be a
    slice of the layers starting at ``first_layer`` (how the rows are labelled; ``selected`` counts within it)."""
    patterns = np.asarray(patterns, dtype=float)
    L, H, T, S = patterns.shape
    fig = go.Figure(
        go.Heatmap(
            z=tile(patterns),
            colorscale=colorscale,
            zmin=0,
            zmax=1,
            showscale=False,
            hovertemplate="%{z:.3f}<extra></extra>",
        )
    )
    fig.update_xaxes(**grid_ticks([f"{head_title} {h}" for h in range(H)], S, "top"), showgrid=False, zeroline=False)
    fig.update_yaxes(
        **grid_ticks([f"{layer_title} {layer}" for layer in range(first_layer, first_layer + L)], T),
        autorange="reversed",
        showgrid=False,
        zeroline=False,
        scaleanchor="x",
        scaleratio=map_stretch(T, S),
    )
    if selected is not None:
        mark_cell(fig, *selected, (T, S), "#d62728")
    fig.update_layout(
        # the top margin keeps the head titles clear of the chart toolbar
        height=int(min(720, max(240, 150 * L + 60))),
        margin={"l": 10, "r": 10, "t": 64, "b": 10},
        plot_bgcolor="white",
    )
    return fig


@cached
def attention_bars(
    weights: np.ndarray,
    labels: list[str],
    n_marked: int,
    *,
    key_title: str,
    value_title: str,
    marked_name: str,
    rest_name: str,
    height: int = 320,
) -> go.Figure:
    """(K,) one query's weights over its keys, the query last; the first ``n_marked`` keys shaded and named
    ``marked_name`` (Transformer-XL's memory, the keys left of Mistral's window), the others ``rest_name``."""
    K = len(weights)
    colours = [MARKED if j < n_marked else KEYS for j in range(K)]
    colours[-1] = QUERY_KEY
    fig = go.Figure(
        go.Bar(
            x=np.arange(K),
            y=weights,
            marker={"color": colours, "line": {"width": 0}},
            customdata=[visible(p) for p in labels],
            hovertemplate="%{customdata}<br>" + value_title + ": %{y:.3f}<extra></extra>",
            showlegend=False,
        )
    )
    if n_marked:
        fig.add_vrect(x0=-0.5, x1=n_marked - 0.5, fillcolor=MARKED, opacity=0.15, line_width=0, layer="below")
        fig.add_annotation(
            x=(n_marked - 1) / 2, y=1.0, yref="paper", text=marked_name, showarrow=False, yanchor="bottom"
        )
    fig.add_annotation(
        x=n_marked + (K - n_marked - 1) / 2, y=1.0, yref="paper", text=rest_name, showarrow=False, yanchor="bottom"
    )
    fig.update_xaxes(title=key_title, tickangle=-60, **ticks([visible(p) for p in labels], ROW_TICKS))
    fig.update_yaxes(title=value_title, rangemode="tozero")
    return legend_above(fig, height, top=30)
