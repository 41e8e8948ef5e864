"""Large maps as images: one PNG in a Plotly figure redraws several times faster in the browser than a heatmap
trace of the same size (the design in docs/, what is known about speed). A 2-cell heatmap supplies the colour
bar."""

from __future__ import annotations

import base64
import io

import numpy as np
import plotly.graph_objects as go
from PIL import Image
from plotly.colors import get_colorscale, unlabel_rgb


def colourise(values: np.ndarray, colorscale: str, zmin: float, zmax: float) -> np.ndarray:
    """(H, W) values -> (H, W, 3) uint8 colours on a Plotly colour scale; NaN becomes white."""
    scale = get_colorscale(colorscale)
    stops = np.array([s for s, _ in scale])
    rgb = np.array([unlabel_rgb(c) if c.startswith("rgb") else _hex(c) for _, c in scale], dtype=float)
    span = zmax - zmin if zmax > zmin else 1.0
    x = np.clip((np.nan_to_num(values, nan=zmin) - zmin) / span, 0.0, 1.0)
    out = np.stack([np.interp(x, stops, rgb[:, i]) for i in range(3)], axis=-1)
    out[np.isnan(values)] = 255
    return out.round().astype(np.uint8)


def _hex(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return tuple(int(colour[i : i + 2], 16) for i in (0, 2, 4))


def png_data_uri(rgb: np.ndarray) -> str:
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def image_map(
    values: np.ndarray,
    *,
    colorscale: str = "Viridis",
    zmin: float | None = None,
    zmax: float | None = None,
    value_title: str = "",
    hover: str = "x=%{x}, y=%{y}",
) -> go.Figure:
    """(H, W) values drawn as one image, with a colour bar; axes in cell units (x right, y down)."""
    values = np.asarray(values, dtype=float)
    lo = float(np.nanmin(values)) if zmin is None else zmin
    hi = float(np.nanmax(values)) if zmax is None else zmax
    fig = go.Figure(
        go.Image(
            source=png_data_uri(colourise(values, colorscale, lo, hi)),
            x0=0,
            dx=1,
            y0=0,
            dy=1,
            hovertemplate=hover + "<extra></extra>",
        )
    )
    fig.add_trace(
        go.Heatmap(
            z=[[lo, hi]],
            x=[0, 0],
            y=[0, 0],
            colorscale=colorscale,
            zmin=lo,
            zmax=hi,
            opacity=0,
            hoverinfo="skip",
            colorbar={"thickness": 12, "title": {"text": value_title, "side": "right"}},
        )
    )
    fig.update_xaxes(range=[-0.5, values.shape[1] - 0.5], showgrid=False, constrain="domain")
    # An image trace keeps square pixels by default; these maps (channels × time) should fill the width instead.
    fig.update_yaxes(range=[values.shape[0] - 0.5, -0.5], showgrid=False, scaleanchor=False)
    return fig
