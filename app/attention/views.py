"""Figures of the Attention page (1706.03762): the head view with lines, the scaled dot-product steps, positions.

Pure functions, numpy in, Plotly figure or escaped HTML out; labels arrive already translated.
"""

from __future__ import annotations

import base64

import numpy as np
import plotly.graph_objects as go

from app.shared.figures import cached
from app.shared.heatmaps import GAP, head_grid, map_stretch
from app.shared.html import esc
from app.shared.theme import svg_style
from app.shared.tokens import visible

# One colour per head (colour-blind-safe Tableau order); more heads than colours wrap around.
HEAD_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf")
ROW = 22  # pixels per token row in the head view
MIN_WEIGHT = 0.02  # lines lighter than this are left out: invisible anyway, and they would bloat the SVG


def head_colour(head: int) -> str:
    return HEAD_COLOURS[head % len(HEAD_COLOURS)]


LINE_WIDTH = 2.2  # px, of a head view's line; also the gap between the lines of two heads


def head_view(
    weights: np.ndarray,
    heads: list[int],
    query_labels: list[str],
    key_labels: list[str],
    *,
    current: int | None = None,
    query_title: str = "query",
    key_title: str = "key",
) -> str:
    """An SVG image: queries on the left, keys on the right, a line per (head, query, key), opacity = weight.

    Args:
        weights: (len(heads), T, S) the chosen heads' attention rows.
        current: the query row to emphasise (the current decoding step); other rows are drawn faint.
    """
    weights = np.asarray(weights, dtype=float)
    T, S = weights.shape[1:]
    left, right, width = 120, 330, 450
    top = 34
    height = top + ROW * max(T, S) + 8
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" style="font-family:monospace;font-size:13px">',
        svg_style({"text": ("fill", "ink"), ".title": ("fill", "muted"), ".now": ("fill", "highlight")}),
        f'<text x="{left}" y="16" text-anchor="end" class="title">{esc(query_title)}</text>',
        f'<text x="{right}" y="16" text-anchor="start" class="title">{esc(key_title)}</text>',
    ]
    if current is not None and 0 <= current < T:
        y = top + ROW * current
        parts.append(f'<rect x="2" y="{y - 15}" width="{left + 6}" height="{ROW - 2}" rx="3" class="now"/>')
    for n, head in enumerate(heads):
        colour = head_colour(head)
        # Each head's lines run a little above or below the others' (one line width apart), so heads that agree on
        # a query and key show side by side instead of the last one drawn covering the rest.
        dy = (n - (len(heads) - 1) / 2) * LINE_WIDTH
        for i in range(T):
            fade = 1.0 if current is None or i == current else 0.25
            for j in range(S):
                w = weights[n, i, j]
                if w < MIN_WEIGHT:
                    continue
                parts.append(
                    f'<line x1="{left + 6}" y1="{top + ROW * i - 4 + dy:.1f}" x2="{right - 6}" '
                    f'y2="{top + ROW * j - 4 + dy:.1f}" stroke="{colour}" stroke-width="{LINE_WIDTH}" '
                    f'stroke-opacity="{min(1.0, w) * fade:.3f}"><title>{esc(query_labels[i])} → '
                    f"{esc(key_labels[j])}: {w:.3f}</title></line>"
                )
    for i, label in enumerate(query_labels[:T]):
        weight = "bold" if i == current else "normal"
        parts.append(
            f'<text x="{left}" y="{top + ROW * i}" text-anchor="end" font-weight="{weight}">'
            f"{esc(visible(label))}</text>"
        )
    for j, label in enumerate(key_labels[:S]):
        parts.append(f'<text x="{right}" y="{top + ROW * j}" text-anchor="start">{esc(visible(label))}</text>')
    parts.append("</svg>")
    return svg_image("".join(parts), alt=f"{query_title} → {key_title}")


def svg_image(svg: str, *, alt: str = "") -> str:
    """An SVG as an ``<img>`` with a data URI: Streamlit's HTML sanitiser removes inline ``<svg>`` elements."""
    data = base64.b64encode(svg.encode()).decode()
    return f'<div style="overflow-x:auto"><img src="data:image/svg+xml;base64,{data}" alt="{esc(alt)}"/></div>'


def head_legend(heads: list[int], head_title: str) -> str:
    """Coloured chips naming the heads drawn in the head view."""
    chips = [
        f'<span style="display:inline-block;margin-right:10px"><span style="display:inline-block;width:14px;'
        f'height:4px;background:{head_colour(h)};vertical-align:middle;margin-right:4px"></span>'
        f"{esc(head_title)} {h}</span>"
        for h in heads
    ]
    return f'<div style="font-size:0.85em">{"".join(chips)}</div>'


@cached
def matrix(
    values: np.ndarray,
    row_labels: list[str],
    col_labels: list[str] | None = None,
    *,
    title: str = "",
    colorscale: str = "RdBu",
    decimals: int = 2,
    height: int | None = None,
    text_rows: list[int] | None = None,
    row_title: str = "",
    col_title: str = "",
) -> go.Figure:
    """A small labelled matrix (q, K, V ...) on a colour scale centred at 0; NaN rows are gaps.

    Numbers are printed in the cells of ``text_rows`` (every row when None); the rest show them on hover, since
    printing hundreds of numbers slows the browser down. Labels are shown as given (``tokens.visible`` them first).
    """
    values = np.atleast_2d(np.asarray(values, dtype=float))
    R, C = values.shape
    cols = col_labels if col_labels is not None else [str(c) for c in range(C)]
    bound = float(np.nanmax(np.abs(values))) if values.size else 1.0
    rows = range(R) if text_rows is None else text_rows
    text = [
        [f"{values[r, c]:.{decimals}f}" if r in rows and np.isfinite(values[r, c]) else "" for c in range(C)]
        for r in range(R)
    ]
    fig = go.Figure(
        go.Heatmap(
            z=values,
            x=list(range(C)),
            y=list(range(R)),
            colorscale=colorscale,
            zmid=0,
            zmin=-bound,
            zmax=bound,
            showscale=False,
            text=text,
            texttemplate="%{text}",
            textfont={"size": 10},
            hovertemplate="%{z:.4f}<extra></extra>",
        )
    )
    fig.update_xaxes(tickmode="array", tickvals=list(range(C)), ticktext=cols, side="top", title=col_title)
    fig.update_yaxes(
        tickmode="array", tickvals=list(range(R)), ticktext=list(row_labels), autorange="reversed", title=row_title
    )
    fig.update_layout(
        title=title or None,
        height=height or int(min(640, 70 + 22 * R + (30 if title else 0))),
        margin={"l": 10, "r": 10, "t": 60 if title else 30, "b": 10},
    )
    return fig


@cached
def position_heatmap(table: np.ndarray, *, position_title: str, dim_title: str, value_title: str) -> go.Figure:
    """The sinusoidal table: positions as rows, dimensions as columns (one light heatmap trace)."""
    hover = f"{position_title} %{{y}} · {dim_title} %{{x}}: %{{z:.3f}}<extra></extra>"
    fig = go.Figure(
        go.Heatmap(
            z=table,
            colorscale="RdBu",
            zmin=-1,
            zmax=1,
            hovertemplate=hover,
            colorbar={"thickness": 12, "title": {"text": value_title, "side": "right"}},
        )
    )
    fig.update_xaxes(title=dim_title)
    fig.update_yaxes(title=position_title, autorange="reversed")
    fig.update_layout(height=380, margin={"l": 10, "r": 10, "t": 20, "b": 10})
    return fig


@cached
def similarity_heatmap(
    similarity: np.ndarray, *, position_title: str, value_title: str, trained: int | None = None
) -> go.Figure:
    """Cosine similarity of every pair of position vectors; a dashed box marks the positions seen in training."""
    fig = go.Figure(
        go.Heatmap(
            z=similarity,
            colorscale="Viridis",
            colorbar={"thickness": 12, "title": {"text": value_title, "side": "right"}},
            hovertemplate=f"{position_title} %{{y}} · %{{x}}: %{{z:.3f}}<extra></extra>",
        )
    )
    if trained is not None:
        fig.add_shape(
            type="rect",
            x0=-0.5,
            y0=-0.5,
            x1=trained - 0.5,
            y1=trained - 0.5,
            line={"color": "white", "width": 2, "dash": "dash"},
        )
    fig.update_xaxes(title=position_title, scaleanchor="y")
    fig.update_yaxes(title=position_title, autorange="reversed")
    fig.update_layout(height=380, margin={"l": 10, "r": 10, "t": 20, "b": 10})
    return fig


@cached
def model_grid(maps: np.ndarray, *, layer_title: str, head_title: str, selected: tuple[int, int]) -> go.Figure:
    """The model view's grid (``head_grid``), as tall as keeps its cells square, with ``click_targets``."""
    grid = head_grid(maps, layer_title=layer_title, head_title=head_title, selected=selected)
    rows, cols = maps.shape[0] * (maps.shape[2] + 1), maps.shape[1] * (maps.shape[3] + 1)
    grid.update_layout(height=int(min(640, max(200, 60 + 380 * rows / cols))))
    return click_targets(grid, maps.shape)


def click_targets(fig: go.Figure, shape: tuple[int, int, int, int], spacing: float = 3.0) -> go.Figure:
    """Cover every small map of ``head_grid``'s figure with invisible square markers, so a click anywhere on a map
    selects it.

    Streamlit reports clicks on points of a trace (scatter, bar), not on heatmap cells, so these markers are what
    a click on a map selects; ``app.shared.heatmaps.grid_cell`` maps any of them back to (layer, head). One marker
    every ``spacing`` drawn cells each way (the map's rows count ``map_stretch`` times), all inside their map."""
    L, H, T, S = shape
    stretch = map_stretch(T, S)

    def spots(n: int, length: float) -> np.ndarray:
        """Positions inside one map of ``n`` cells whose drawn length is ``length`` cells."""
        k = max(1, int(np.ceil(length / spacing)))
        return (np.arange(k) + 0.5) * n / k - 0.5

    xs, ys = [], []
    for layer in range(L):
        for head in range(H):
            for y in spots(T, T * stretch):
                for x in spots(S, S):
                    xs.append(head * (S + GAP) + x)
                    ys.append(layer * (T + GAP) + y)
    fig.add_trace(
        go.Scatter(
            x=xs,
            y=ys,
            mode="markers",
            hoverinfo="none",
            showlegend=False,
            marker={"size": 24, "symbol": "square", "opacity": 0.01, "color": "#000"},
            selected={"marker": {"opacity": 0.01}},
            unselected={"marker": {"opacity": 0.01}},
        )
    )
    fig.update_layout(clickmode="event+select", dragmode=False)
    return fig
