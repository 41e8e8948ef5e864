"""Figures of the ViT page (2010.11929): the image with its patch grid, the patch sequence, maps over the image,
grids of small maps (filters, position similarities), embeddings in 2-D and class probabilities.

Pure functions, numpy in, Plotly figure out; labels arrive already translated. Every map is one light heatmap trace
(NaN gaps between small maps), never one trace per cell.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from app.shared.figures import cached
from app.shared.heatmaps import GAP, centres, grid_ticks, mark_cell, tile
from app.shared.images import png_data_uri
from app.shared.plots import stepped

MARGIN = {"l": 10, "r": 10, "t": 40, "b": 10}


def _square(fig: go.Figure, height: int) -> go.Figure:
    fig.update_xaxes(showgrid=False, zeroline=False, showticklabels=False, constrain="domain")
    fig.update_yaxes(
        showgrid=False, zeroline=False, showticklabels=False, autorange="reversed", scaleanchor="x", constrain="domain"
    )
    fig.update_layout(height=height, margin=MARGIN, plot_bgcolor="white")
    return fig


@cached
def image_with_grid(image: np.ndarray, patch: int, *, title: str = "", height: int = 340) -> go.Figure:
    """(H, W) image in [0, 1] with the patch grid drawn over it and each patch numbered in reading order."""
    H, W = image.shape
    fig = go.Figure(
        go.Heatmap(
            z=image,
            colorscale="Greys",
            zmin=0,
            zmax=1,
            showscale=False,
            hovertemplate="x %{x}, y %{y}: %{z:.2f}<extra></extra>",
        )
    )
    for k in range(0, W + 1, patch):
        fig.add_shape(type="line", x0=k - 0.5, x1=k - 0.5, y0=-0.5, y1=H - 0.5, line={"color": "#e45756", "width": 1})
    for k in range(0, H + 1, patch):
        fig.add_shape(type="line", y0=k - 0.5, y1=k - 0.5, x0=-0.5, x1=W - 0.5, line={"color": "#e45756", "width": 1})
    n = 0
    for r in range(H // patch):
        for c in range(W // patch):
            n += 1
            fig.add_annotation(
                x=c * patch - 0.1,
                y=r * patch + 0.2,
                text=str(n),
                showarrow=False,
                font={"size": 10, "color": "#e45756"},
                xanchor="left",
                yanchor="top",
            )
    fig.update_layout(title=title or None)
    return _square(fig, height)


@cached
def patch_sequence(
    patches: np.ndarray, patch: int, *, cls_label: str = "[CLS]", title: str = "", height: int = 170
) -> go.Figure:
    """The token sequence the encoder reads: [CLS], then every patch as a P×P tile, left to right."""
    N = patches.shape[0]
    tiles = np.full((patch, (N + 1) * (patch + GAP) - GAP), np.nan)
    for n in range(N):
        c = (n + 1) * (patch + GAP)
        tiles[:, c : c + patch] = patches[n].reshape(patch, patch)
    fig = go.Figure(
        go.Heatmap(
            z=tiles,
            colorscale="Greys",
            zmin=0,
            zmax=1,
            showscale=False,
            hoverongaps=False,
            hovertemplate="%{z:.2f}<extra></extra>",
        )
    )
    fig.add_shape(
        type="rect",
        x0=-0.5,
        x1=patch - 0.5,
        y0=-0.5,
        y1=patch - 0.5,
        line={"color": "#4c78a8", "width": 2},
        fillcolor="rgba(76,120,168,0.25)",
    )
    labels = [cls_label] + [str(n + 1) for n in range(N)]
    fig.update_xaxes(
        tickmode="array", tickvals=centres(N + 1, patch), ticktext=labels, side="bottom", showgrid=False, zeroline=False
    )
    fig.update_yaxes(showgrid=False, zeroline=False, showticklabels=False, autorange="reversed", scaleanchor="x")
    fig.update_layout(
        height=height,
        margin={"l": 10, "r": 10, "t": 40 if title else 10, "b": 30},
        plot_bgcolor="#dfe7f1",
        title=title or None,
    )
    return fig


@cached
def flattened_sequence(
    patches: np.ndarray,
    *,
    cls_label: str = "[CLS]",
    token_title: str = "token",
    pixel_title: str = "pixel",
    height: int = 260,
) -> go.Figure:
    """(N, P²) patches as rows of pixel values, with an empty [CLS] row first: the matrix that E multiplies."""
    N, D = patches.shape
    z = np.vstack([np.full((1, D), np.nan), patches])
    labels = [cls_label] + [str(n + 1) for n in range(N)]
    fig = go.Figure(
        go.Heatmap(
            z=z.T,
            colorscale="Greys",
            zmin=0,
            zmax=1,
            showscale=False,
            hoverongaps=False,
            x=labels,
            hovertemplate=token_title + " %{x}, " + pixel_title + " %{y}: %{z:.2f}<extra></extra>",
        )
    )
    fig.update_xaxes(title=token_title, type="category", showgrid=False)
    fig.update_yaxes(title=pixel_title, autorange="reversed", showgrid=False)
    fig.update_layout(height=height, margin={"l": 10, "r": 10, "t": 10, "b": 10}, plot_bgcolor="#dfe7f1")
    return fig


def _patch_weights(weights: np.ndarray, ph: int, pw: int, colorscale: str, value_title: str, opacity: float):
    """An (h, w) map of weights laid over an image's patches of ph × pw pixels, half transparent, from 0."""
    return go.Heatmap(
        z=weights,
        x0=(pw - 1) / 2,
        dx=pw,
        y0=(ph - 1) / 2,
        dy=ph,
        colorscale=colorscale,
        zmin=0,
        zmax=float(np.nanmax(weights)) or 1.0,
        opacity=opacity,
        colorbar={"thickness": 10, "title": {"text": value_title, "side": "right"}},
        hovertemplate=value_title + ": %{z:.3f}<extra></extra>",
    )


@cached
def overlay(
    image: np.ndarray,
    weights: np.ndarray,
    *,
    title: str = "",
    value_title: str = "weight",
    height: int = 340,
    colorscale: str = "Reds",
) -> go.Figure:
    """(H, W) image in grey with an (h, w) map of weights over its patches, half transparent."""
    H, W = image.shape
    h, w = weights.shape
    ph, pw = H // h, W // w
    fig = go.Figure(go.Heatmap(z=image, colorscale="Greys", zmin=0, zmax=1, showscale=False, hoverinfo="skip"))
    fig.add_trace(_patch_weights(weights, ph, pw, colorscale, value_title, opacity=0.6))
    fig.update_layout(title=title or None)
    return _square(fig, height)


@cached
def overlay_steps(
    image: np.ndarray,
    maps: np.ndarray,
    *,
    titles: list[str],
    active: int,
    prefix: str,
    value_title: str = "weight",
    height: int = 340,
) -> go.Figure:
    """``overlay`` of ``maps[active]`` (L, h, w: a map per layer) with a slider of its own over the layers
    (``plots.stepped``: the move happens in the browser); ``titles[k]`` heads the figure at layer k. A heatmap's
    ``z`` is not animated by Plotly, so each step draws the figure again (one plot: tens of ms)."""
    fig = overlay(image, maps[active], title=titles[active], value_title=value_title, height=height)
    fig.update_layout(margin={"t": 58}, title={"x": 0, "xanchor": "left", "font": {"size": 14}})
    steps = [
        {
            "data": [{}, {"z": m, "zmax": float(np.nanmax(m)) or 1.0}],
            "layout": {"title": {"text": titles[k]}},
        }
        for k, m in enumerate(maps)
    ]
    return stepped(fig, steps, active=active, prefix=prefix, redraw=True)


@cached
def map_grid(
    maps: np.ndarray,
    *,
    row_labels: list[str] | None = None,
    col_labels: list[str] | None = None,
    colorscale: str = "RdBu",
    zmin: float | None = None,
    zmax: float | None = None,
    value_title: str = "",
    height: int = 420,
    selected: tuple[int, int] | None = None,
    showscale: bool = True,
) -> go.Figure:
    """A grid of small maps (R, C, h, w) as one heatmap: position similarities, filters, heads."""
    h, w = maps.shape[2:]
    fig = go.Figure(
        go.Heatmap(
            z=tile(maps),
            colorscale=colorscale,
            zmin=zmin,
            zmax=zmax,
            hoverongaps=False,
            showscale=showscale,
            hovertemplate=value_title + " %{z:.3f}<extra></extra>",
            colorbar={"thickness": 10, "title": {"text": value_title, "side": "right"}},
        )
    )
    fig.update_xaxes(showgrid=False, zeroline=False, constrain="domain", **grid_ticks(col_labels, w, "top"))
    fig.update_yaxes(
        showgrid=False,
        zeroline=False,
        autorange="reversed",
        scaleanchor="x",
        constrain="domain",
        **grid_ticks(row_labels, h),
    )
    if selected is not None:
        mark_cell(fig, *selected, (h, w), "#111")
    fig.update_layout(height=height, margin=MARGIN, plot_bgcolor="white")
    return fig


@cached
def embedding_scatter(
    points: np.ndarray,
    labels: list[str],
    colour: np.ndarray,
    *,
    x_title: str,
    y_title: str,
    colour_title: str,
    height: int = 360,
) -> go.Figure:
    """(N, 2) projected patch embeddings, each labelled by its patch number, coloured by ``colour``."""
    fig = go.Figure(
        go.Scatter(
            x=points[:, 0],
            y=points[:, 1],
            mode="markers+text",
            text=labels,
            textposition="top center",
            marker={
                "size": 12,
                "color": colour,
                "colorscale": "Viridis",
                "showscale": True,
                "colorbar": {"thickness": 10, "title": {"text": colour_title, "side": "right"}},
                "line": {"width": 1, "color": "#333"},
            },
            hovertemplate="%{text}: (%{x:.2f}, %{y:.2f})<extra></extra>",
        )
    )
    fig.update_xaxes(title=x_title, zeroline=True, zerolinecolor="#ccc")
    fig.update_yaxes(title=y_title, zeroline=True, zerolinecolor="#ccc")
    fig.update_layout(height=height, margin=MARGIN, plot_bgcolor="white")
    return fig


@cached
def probabilities(
    probs: np.ndarray,
    *,
    highlight: int | None = None,
    x_title: str = "class",
    y_title: str = "probability",
    height: int = 260,
) -> go.Figure:
    """Bar chart of the K class probabilities; the predicted class (or ``highlight``) in a stronger colour."""
    K = len(probs)
    top = int(np.argmax(probs)) if highlight is None else highlight
    colours = ["#4c78a8" if k == top else "#b9c9dd" for k in range(K)]
    fig = go.Figure(
        go.Bar(
            x=[str(k) for k in range(K)], y=probs, marker_color=colours, hovertemplate="%{x}: %{y:.3f}<extra></extra>"
        )
    )
    fig.update_xaxes(title=x_title, type="category")
    fig.update_yaxes(title=y_title, range=[0, 1])
    fig.update_layout(height=height, margin=MARGIN, plot_bgcolor="white")
    return fig


@cached
def steps_strip(steps: list[np.ndarray], *, titles: list[str], height: int = 180) -> go.Figure:
    """Preprocessing steps side by side, each scaled to the same display size (nearest neighbour)."""
    side = 32
    tiles = []
    for a in steps:
        h, w = a.shape  # pad to a square first, so a thin crop is not stretched
        n = max(h, w)
        square = np.zeros((n, n))
        square[(n - h) // 2 : (n - h) // 2 + h, (n - w) // 2 : (n - w) // 2 + w] = a
        a = square
        rows = np.clip((np.arange(side) * a.shape[0] / side).astype(int), 0, a.shape[0] - 1)
        cols = np.clip((np.arange(side) * a.shape[1] / side).astype(int), 0, a.shape[1] - 1)
        tiles.append(a[rows][:, cols])
    strip = tile(np.stack(tiles)[None])
    fig = go.Figure(go.Heatmap(z=strip, colorscale="Greys", zmin=0, zmax=1, showscale=False, hoverinfo="skip"))
    fig.update_xaxes(showgrid=False, zeroline=False, **grid_ticks(titles, side, "bottom"))
    fig.update_yaxes(showgrid=False, zeroline=False, showticklabels=False, autorange="reversed", scaleanchor="x")
    fig.update_layout(height=height, margin={"l": 10, "r": 10, "t": 10, "b": 30}, plot_bgcolor="#dfe7f1")
    return fig


# ---- a real model's colour photos ------------------------------------------------------------------------------------


def _photo_trace(image: np.ndarray) -> go.Image:
    """(H, W, 3) in [0, 1] as one PNG image trace, pixel (0, 0) at the top left, one unit per pixel."""
    rgb = np.clip(np.asarray(image) * 255, 0, 255).round().astype(np.uint8)
    return go.Image(source=png_data_uri(rgb), x0=0, dx=1, y0=0, dy=1, hoverinfo="skip")


def _grid_lines(fig: go.Figure, size: int, patch: int, colour: str = "rgba(255,255,255,0.8)") -> None:
    for k in range(0, size + 1, patch):
        fig.add_shape(type="line", x0=k - 0.5, x1=k - 0.5, y0=-0.5, y1=size - 0.5, line={"color": colour, "width": 1})
        fig.add_shape(type="line", y0=k - 0.5, y1=k - 0.5, x0=-0.5, x1=size - 0.5, line={"color": colour, "width": 1})


@cached
def photo_with_grid(image: np.ndarray, patch: int, *, title: str = "", height: int = 360) -> go.Figure:
    """(S, S, 3) photo with its patch grid drawn over it (a 14×14 grid is too fine to number every patch)."""
    fig = go.Figure(_photo_trace(image))
    _grid_lines(fig, image.shape[0], patch)
    fig.update_layout(title=title or None)
    return _no_ticks(_square(fig, height))


def _no_ticks(fig: go.Figure) -> go.Figure:
    fig.update_xaxes(ticks="")
    fig.update_yaxes(ticks="")
    return fig


@cached
def photo_overlay(
    image: np.ndarray,
    weights: np.ndarray,
    *,
    title: str = "",
    value_title: str = "weight",
    height: int = 360,
    colorscale: str = "Inferno",
) -> go.Figure:
    """(S, S, 3) photo under an (h, w) map of weights over its patches, half transparent."""
    S = image.shape[0]
    h, w = weights.shape
    ph, pw = S // h, S // w
    fig = go.Figure(_photo_trace(image))
    fig.add_trace(_patch_weights(weights, ph, pw, colorscale, value_title, opacity=0.65))
    fig.update_layout(title=title or None)
    return _no_ticks(_square(fig, height))


@cached
def top_classes(names: tuple[str, ...], probs: tuple[float, ...], *, x_title: str, height: int = 240) -> go.Figure:
    """The likeliest classes as horizontal bars, the likeliest on top, each named (long names cut at 40)."""
    short = [n if len(n) <= 40 else n[:39] + "…" for n in names]
    fig = go.Figure(
        go.Bar(
            x=list(probs),
            y=list(range(len(names))),
            orientation="h",
            marker_color=["#4c78a8"] + ["#b9c9dd"] * (len(names) - 1),
            customdata=list(names),
            hovertemplate="%{customdata}: %{x:.3f}<extra></extra>",
        )
    )
    fig.update_yaxes(
        tickmode="array", tickvals=list(range(len(names))), ticktext=short, autorange="reversed", automargin=True
    )
    fig.update_xaxes(title=x_title, range=[0, 1], tickformat=".0%")
    fig.update_layout(height=height, margin={"l": 10, "r": 10, "t": 10, "b": 10}, plot_bgcolor="white")
    return fig


@cached
def rgb_tiles(tiles: np.ndarray, *, labels: list[str] | None = None, per_row: int = 8, height: int = 200) -> go.Figure:
    """(k, P, P, 3) colour tiles in [0, 1] side by side, ``per_row`` to a row, white gaps between, one image."""
    k, P = tiles.shape[:2]
    rows = -(-k // per_row)
    step = P + GAP
    canvas = np.ones((rows * step - GAP, min(k, per_row) * step - GAP, 3))
    for i in range(k):
        r, c = divmod(i, per_row)
        canvas[r * step : r * step + P, c * step : c * step + P] = tiles[i]
    fig = go.Figure(_photo_trace(canvas))
    fig.update_xaxes(showgrid=False, zeroline=False, **grid_ticks(labels[:per_row] if labels else None, P, "bottom"))
    fig.update_yaxes(showgrid=False, zeroline=False, showticklabels=False, scaleanchor="x", constrain="domain")
    fig.update_layout(height=height, margin={"l": 10, "r": 10, "t": 10, "b": 30 if labels else 10})
    return _no_ticks(fig)


@cached
def attention_distance(
    distance: np.ndarray, *, layer_title: str, distance_title: str, head_title: str, height: int = 320
) -> go.Figure:
    """(L, H) mean attention distance per head: one dot per head over its layer (the paper's Figure 7, right)."""
    L, H = distance.shape
    fig = go.Figure(
        go.Scatter(
            x=np.repeat(np.arange(L), H),
            y=distance.ravel(),
            mode="markers",
            marker={"size": 8, "color": np.tile(np.arange(H), L), "colorscale": "Viridis", "opacity": 0.8},
            customdata=np.tile(np.arange(H), L),
            hovertemplate=layer_title + " %{x}, " + head_title + " %{customdata}: %{y:.1f}<extra></extra>",
        )
    )
    fig.update_xaxes(title=layer_title, dtick=1 if L <= 16 else None)
    fig.update_yaxes(title=distance_title, rangemode="tozero")
    fig.update_layout(height=height, margin=MARGIN, plot_bgcolor="white")
    return fig
