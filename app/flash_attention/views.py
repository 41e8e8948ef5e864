"""Figures of the FlashAttention page: the score matrix as a grid of tiles (one image), the running m and ℓ per row,
the inside of one tile (P̃, O_i before and after, the weight left on the old O_i), and log-log curves of HBM accesses
and kernel timings."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app.shared.figures import cached
from app.shared.images import colourise, png_data_uri
from app.shared.plots import CHAR, fixed_margins
from app.shared.theme import on_fill

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
CURRENT = "#d62728"
SKIPPED = np.array([222, 222, 222], dtype=float)
MASKED = np.array([246, 246, 246], dtype=float)
PALE = 0.78  # how far a tile not yet visited is blended towards white


def _block_ticks(spans: list[tuple[int, int]], max_ticks: int = 24) -> dict:
    step = max(1, int(np.ceil(len(spans) / max_ticks)))
    idx = list(range(0, len(spans), step))
    return {
        "tickmode": "array",
        "tickvals": [(spans[k][0] + spans[k][1] - 1) / 2 for k in idx],
        "ticktext": [str(k + 1) for k in idx],
    }


@cached
def tile_grid(
    scores: np.ndarray,
    rows: list[tuple[int, int]],
    cols: list[tuple[int, int]],
    state: np.ndarray,
    current: tuple[int, int],
    *,
    query_title: str,
    key_title: str,
    value_title: str,
    height: int = 470,
) -> go.Figure:
    """(N, N) scores drawn as one image, cut into T_r × T_c tiles.

    ``state`` (T_r, T_c): 0 still to come (pale), 1 done (full colour), 2 skipped (grey, ×); ``current`` = (i, j)
    gets a red frame. NaN scores (causally masked keys) are near-white."""
    N = scores.shape[0]
    finite = scores[np.isfinite(scores)]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    rgb = colourise(scores, "Viridis", lo, hi).astype(float)
    rgb[np.isnan(scores)] = MASKED
    for a, (r0, r1) in enumerate(rows):
        for b, (c0, c1) in enumerate(cols):
            if state[a, b] == 0:
                rgb[r0:r1, c0:c1] = rgb[r0:r1, c0:c1] * (1 - PALE) + 255 * PALE
            elif state[a, b] == 2:
                rgb[r0:r1, c0:c1] = SKIPPED
    fig = go.Figure(
        go.Image(
            source=png_data_uri(rgb.round().astype(np.uint8)),
            x0=0,
            dx=1,
            y0=0,
            dy=1,
            hovertemplate=f"{query_title} %{{y}} · {key_title} %{{x}}<extra></extra>",
        )
    )
    fig.add_trace(  # the colour bar (an image has none)
        go.Heatmap(
            z=[[lo, hi]],
            x=[0, 0],
            y=[0, 0],
            colorscale="Viridis",
            zmin=lo,
            zmax=hi,
            opacity=0,
            hoverinfo="skip",
            colorbar={"thickness": 12, "title": {"text": value_title, "side": "right"}},
        )
    )
    xs, ys = [], []  # tile borders as one line trace (None breaks the line)
    for _, c1 in cols[:-1]:
        xs += [c1 - 0.5, c1 - 0.5, None]
        ys += [-0.5, N - 0.5, None]
    for _, r1 in rows[:-1]:
        xs += [-0.5, N - 0.5, None]
        ys += [r1 - 0.5, r1 - 0.5, None]
    fig.add_trace(
        go.Scatter(
            x=xs, y=ys, mode="lines", line={"color": on_fill(0.4), "width": 1}, hoverinfo="skip", showlegend=False
        )
    )
    skipped = np.argwhere(state == 2)
    if 0 < len(skipped) <= 600:
        fig.add_trace(
            go.Scatter(
                x=[(cols[b][0] + cols[b][1] - 1) / 2 for _, b in skipped],
                y=[(rows[a][0] + rows[a][1] - 1) / 2 for a, _ in skipped],
                mode="text",
                text=["×"] * len(skipped),
                textfont={"color": "#999", "size": 11 if len(skipped) < 200 else 8},
                hoverinfo="skip",
                showlegend=False,
            )
        )
    i, j = current
    (r0, r1), (c0, c1) = rows[i], cols[j]
    fig.add_shape(type="rect", x0=c0 - 0.5, x1=c1 - 0.5, y0=r0 - 0.5, y1=r1 - 0.5, line={"color": CURRENT, "width": 3})
    fig.update_xaxes(
        range=[-0.5, N - 0.5], title=key_title, side="top", showgrid=False, zeroline=False, **_block_ticks(cols)
    )
    fig.update_yaxes(range=[N - 0.5, -0.5], title=query_title, showgrid=False, zeroline=False, **_block_ticks(rows))
    fig.update_layout(height=height, plot_bgcolor="white")
    return fixed_margins(fig, l=20 + CHAR * len(str(len(rows))) + 24, r=10, t=58, b=10)


@cached
def running_state(
    m: np.ndarray,
    l: np.ndarray,
    m_final: np.ndarray,
    l_final: np.ndarray,
    rows: tuple[int, int],
    *,
    row_title: str,
    now_name: str,
    final_name: str,
    height: int = 360,
) -> go.Figure:
    """m and ℓ per query row after one step (markers; −∞ not drawn), the final values as a grey line, and the rows
    of the current Q_i shaded."""
    N = len(m)
    x = np.arange(N)
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08)
    for r, (now, final, name) in enumerate(((m, m_final, "m"), (l, l_final, "ℓ")), start=1):
        now = np.where(np.isfinite(now), now, np.nan)
        if name == "ℓ":
            now = np.where(now > 0, now, np.nan)
        fig.add_trace(
            go.Scatter(
                x=x,
                y=final,
                mode="lines",
                name=final_name,
                line={"color": "#aaa", "dash": "dot"},
                showlegend=r == 1,
                legendgroup="final",
                hovertemplate=f"{final_name} {name}: %{{y:.3f}}<extra>%{{x}}</extra>",
            ),
            row=r,
            col=1,
        )
        fig.add_trace(
            go.Scatter(
                x=x,
                y=now,
                mode="markers",
                name=now_name,
                marker={"color": COLOURS[r - 1], "size": 6},
                showlegend=False,
                hovertemplate=f"{name}: %{{y:.3f}}<extra>%{{x}}</extra>",
            ),
            row=r,
            col=1,
        )
        fig.update_yaxes(title=name, row=r, col=1)
        fig.add_vrect(x0=rows[0] - 0.5, x1=rows[1] - 0.5, fillcolor=CURRENT, opacity=0.1, line_width=0, row=r, col=1)
    fig.update_xaxes(title=row_title, row=2, col=1)
    fig.update_layout(height=height, legend={"orientation": "h", "y": 1.08, "x": 0})
    return fixed_margins(fig, l=70, r=10, t=30, b=48)


@cached
def tile_update(
    P: np.ndarray,
    before: np.ndarray,
    after: np.ndarray,
    kept: np.ndarray,
    row_labels: list[str],
    col_labels: list[str],
    *,
    titles: tuple[str, str, str, str],
    key_title: str,
    dim_title: str,
    height: int = 320,
) -> go.Figure:
    """One tile's P̃_ij, O_i before and after the step (same colours), and the weight each row keeps on its old O_i."""
    fig = make_subplots(
        rows=1, cols=4, subplot_titles=titles, column_widths=[0.28, 0.28, 0.28, 0.16], horizontal_spacing=0.05
    )
    y = np.arange(len(row_labels))
    fig.add_trace(
        go.Heatmap(
            z=P,
            x=np.arange(P.shape[1]),
            y=y,
            colorscale="Blues",
            zmin=0,
            zmax=1,
            showscale=False,
            hovertemplate="%{z:.3f}<extra></extra>",
        ),
        row=1,
        col=1,
    )
    span = float(max(np.abs(before).max(), np.abs(after).max(), 1e-9))
    for c, O in ((2, before), (3, after)):
        fig.add_trace(
            go.Heatmap(
                z=O,
                y=y,
                colorscale="RdBu",
                zmin=-span,
                zmax=span,
                showscale=c == 3,
                colorbar={"thickness": 10, "x": 1.01, "xanchor": "left"},
                hovertemplate="%{z:.3f}<extra></extra>",
            ),
            row=1,
            col=c,
        )
    fig.add_trace(
        go.Bar(x=kept, y=y, orientation="h", marker_color=COLOURS[0], hovertemplate="%{x:.3f}<extra></extra>"),
        row=1,
        col=4,
    )
    ticks = {"tickmode": "array", "tickvals": list(y), "ticktext": row_labels}
    for c in range(1, 5):
        fig.update_yaxes(autorange="reversed", showticklabels=c == 1, row=1, col=c, **ticks)
    fig.update_xaxes(
        tickmode="array", tickvals=list(range(len(col_labels))), ticktext=col_labels, tickangle=-60, row=1, col=1
    )
    fig.update_xaxes(title=key_title, row=1, col=1, side="bottom")
    fig.update_xaxes(title=dim_title, row=1, col=2)
    fig.update_xaxes(title=dim_title, row=1, col=3)
    fig.update_xaxes(range=[0, 1.05], row=1, col=4)
    fig.update_layout(height=height, showlegend=False)
    wide = max((len(x) for x in row_labels), default=1)  # "i: piece" beside the rows
    tall = max((len(x) for x in col_labels), default=1)  # the pieces under the columns, rotated by 60°
    return fixed_margins(fig, l=14 + CHAR * wide, r=60, t=40, b=34 + round(0.87 * CHAR * tall))


@cached
def loglog(
    x: np.ndarray,
    series: dict[str, np.ndarray],
    *,
    x_title: str,
    y_title: str,
    dashed: tuple[str, ...] = (),
    height: int = 340,
) -> go.Figure:
    """Lines with markers on log-log axes, one per named series."""
    fig = go.Figure()
    for k, (name, y) in enumerate(series.items()):
        fig.add_trace(
            go.Scatter(
                x=x,
                y=y,
                mode="lines+markers",
                name=name,
                line={"color": COLOURS[k % len(COLOURS)], "dash": "dash" if name in dashed else None},
                hovertemplate=name + ": %{y:,.4g}<extra>%{x:,}</extra>",
            )
        )
    fig.update_xaxes(title=x_title, type="log", tickvals=list(x), ticktext=[f"{v:,}" for v in x])
    values = np.concatenate([np.asarray(y, dtype=float).ravel() for y in series.values()])
    values = values[np.isfinite(values) & (values > 0)]
    decades = np.arange(np.floor(np.log10(values.min())), np.ceil(np.log10(values.max())) + 1) if values.size else []
    fig.update_yaxes(title=y_title, type="log", tickvals=[10**e for e in decades])
    fig.update_layout(
        height=height, margin={"l": 10, "r": 10, "t": 30, "b": 10}, legend={"orientation": "h", "y": -0.25, "x": 0}
    )
    return fig
