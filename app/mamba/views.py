"""Figures of the Mamba page: time × channel maps (Δ, Ā), per-token B and C, ‖h_t‖ over time, Mamba vs LTI Δ per
token, and decoding cost against position. Pure functions: numpy in, Plotly figure out."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app.shared.figures import cached
from app.shared.heatmaps import ticks
from app.shared.images import colourise, image_map, png_data_uri
from app.shared.plots import CHAR, fixed_margins, stepped

MAMBA_COLOUR, LTI_COLOUR, GPT_COLOUR = "#d62728", "#1f77b4", "#7f7f7f"
MAX_TICKS = 72  # position labels on a time axis


@cached
def time_map(
    values: np.ndarray,
    labels: list[str],
    *,
    row_title: str,
    value_title: str,
    title: str = "",
    colorscale: str = "Viridis",
    zmin: float | None = None,
    zmax: float | None = None,
    height: int = 340,
    max_ticks: int = MAX_TICKS,
) -> go.Figure:
    """(rows, l) values with time across and rows (channels or state entries) down, one light heatmap trace."""
    values = np.asarray(values, dtype=float)
    rows, l = values.shape
    # Drawn as an image: a page shows several of these maps, and a heatmap trace each made a slider change take ~1 s.
    fig = image_map(
        values,
        colorscale=colorscale,
        zmin=zmin,
        zmax=zmax,
        value_title=value_title,
        hover="t=%{x}, " + row_title + " %{y}",
    )
    longest = max((len(str(x)) for x in labels), default=1)
    wide = longest > 2  # words, not single letters: slant them
    # Margins set here rather than measured by Plotly (the template's automargin), so that a layer move lays the map
    # out once: room on the left for the row numbers and title, under it for the (slanted) token labels.
    fig.update_xaxes(**ticks(labels, max_ticks=max_ticks), tickangle=-60 if wide else 0)
    fig.update_yaxes(title=row_title, autorange="reversed")
    fig.update_layout(title=title or None, height=height)
    bottom = 24 + round(0.87 * CHAR * longest) if wide else 28
    return fixed_margins(fig, l=60, r=10, t=40 if title else 10, b=bottom)


@cached
def per_token_lines(
    series: dict[str, np.ndarray],
    labels: list[str],
    *,
    value_title: str,
    marks: np.ndarray | None = None,
    mark_title: str = "",
    colours: dict[str, str] | None = None,
    log: bool = False,
    height: int = 300,
) -> go.Figure:
    """One line per named series over the positions; ``marks`` (bool, l) shades the positions that matter."""
    fig = go.Figure()
    l = len(labels)
    if marks is not None:
        for t in np.flatnonzero(marks):
            fig.add_vrect(x0=t - 0.5, x1=t + 0.5, fillcolor="#ffd54f", opacity=0.35, line_width=0)
        fig.add_trace(
            go.Scatter(
                x=[None],
                y=[None],
                mode="markers",
                name=mark_title,
                marker={"symbol": "square", "size": 12, "color": "#ffd54f"},
            )
        )
    for name, values in series.items():
        colour = (colours or {}).get(name)
        fig.add_trace(
            go.Scatter(
                x=np.arange(l),
                y=np.asarray(values, dtype=float),
                mode="lines+markers",
                name=name,
                line={"color": colour, "width": 2},
                marker={"size": 4},
                customdata=labels,
                hovertemplate="%{customdata} (t=%{x}): %{y:.4g}",
            )
        )
    fig.update_xaxes(**ticks(labels, max_ticks=MAX_TICKS))
    fig.update_yaxes(title=value_title, type="log" if log else "linear")
    fig.update_layout(
        height=height, margin={"l": 10, "r": 10, "t": 10, "b": 10}, legend={"orientation": "h", "y": 1.12}
    )
    return fig


@cached
def decode_costs(
    position: np.ndarray,
    series: dict[str, np.ndarray],
    *,
    x_title: str,
    y_title: str,
    colours: dict[str, str],
    smooth: int = 1,
    height: int = 300,
) -> go.Figure:
    """Cost per generated token against the position: one line per model (a running median when ``smooth`` > 1)."""
    fig = go.Figure()
    for name, values in series.items():
        v = np.asarray(values, dtype=float)
        if smooth > 1:
            pad = np.pad(v, (smooth // 2, smooth - 1 - smooth // 2), mode="edge")
            v = np.median(np.lib.stride_tricks.sliding_window_view(pad, smooth), axis=1)
        fig.add_trace(
            go.Scatter(
                x=position,
                y=v,
                mode="lines",
                name=name,
                line={"color": colours.get(name), "width": 2},
                hovertemplate="%{x}: %{y:.4g}<extra>" + name + "</extra>",
            )
        )
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title, rangemode="tozero")
    fig.update_layout(
        height=height, margin={"l": 10, "r": 10, "t": 10, "b": 10}, legend={"orientation": "h", "y": 1.15}
    )
    return fig


@cached
def layer_steps(
    move: np.ndarray,
    labels: tuple[str, ...],
    readouts: tuple[str, ...],
    panels: tuple[dict, ...],
    *,
    active: int,
    prefix: str,
    strip_title: str,
    panel_height: int = 300,
) -> go.Figure:
    """The selection mechanism of every layer in one figure, moved through the layers on its own slider (in the
    browser): Δ's movement per token as bars over the positions, with the layer's readout as text above them, and
    under it the panels, each one of:

    - ``{"kind": "image", "values": (layers, rows, l), "titles": per layer, "row_title", "value_title",
      "colorscale", "zmin", "zmax" (None: each layer's own), "bound" (optional: per layer, a scale from −bound to
      +bound)}``: a map, time across;
    - ``{"kind": "lines", "series": {name: (layers, l)}, "titles": per layer, "log", "colours"}``: lines over the
      positions (a series the same at every layer is given as (1, l)).

    A map's image changes with the layer, so a figure with one redraws at each step; one of lines alone restyles."""
    n_layers, l = move.shape
    n = len(panels)
    heights = [110] + [panel_height] * n
    gap = 46  # px between panels: a panel's title sits in it
    total = sum(heights) + gap * n
    fig = make_subplots(
        rows=n + 1, cols=1, shared_xaxes=True, row_heights=[h / total for h in heights], vertical_spacing=gap / total
    )
    top = float(move.max()) if move.size else 1.0
    # the strip's scale, room above its bars for the readout: one for every layer, or each layer's own on a figure
    # that is drawn again at each step anyway
    ceiling = [1.9 * max(float(move[k].max()), 1e-6) for k in range(n_layers)]
    steps: list[dict] = [{"data": []} for _ in range(n_layers)]

    def add(trace, row: int, per_layer: list[dict]) -> None:
        fig.add_trace(trace, row=row, col=1)
        for k in range(n_layers):
            steps[k]["data"].append(per_layer[k])

    a = active
    add(
        go.Bar(
            x=np.arange(l),
            y=move[a],
            marker={"color": move[a], "colorscale": "Reds", "cmin": 0.0, "cmax": ceiling[a] / 1.9},
            customdata=list(labels),
            hovertemplate="%{customdata} (t=%{x}): %{y:.3f}<extra></extra>",
            showlegend=False,
        ),
        1,
        [{"y": move[k], "marker": {"color": move[k], "cmax": ceiling[k] / 1.9}} for k in range(n_layers)],
    )
    add(
        go.Scatter(
            x=[-0.5],
            y=[top * 1.9],
            text=[readouts[a]],
            mode="text",
            textposition="bottom right",
            hoverinfo="skip",
            showlegend=False,
            cliponaxis=False,
        ),
        1,
        [{"text": [readouts[k]]} for k in range(n_layers)],
    )
    fig.update_yaxes(range=[0, top * 1.9], title=strip_title, row=1, col=1, fixedrange=True)
    redraw = False
    for i, p in enumerate(panels, start=2):
        if p["kind"] == "image":
            values = np.asarray(p["values"], dtype=float)
            static = len(values) == 1  # the same at every layer (all layers' ‖hₜ‖ as one map)
            redraw = redraw or not static
            rows = values.shape[1]
            ranges = []
            for k in range(len(values)):
                lo = p["zmin"] if p["zmin"] is not None else float(values[k].min())
                hi = p["zmax"] if p["zmax"] is not None else float(np.abs(values[k]).max())
                if p.get("bound"):
                    lo, hi = -p["bound"][k], p["bound"][k]
                ranges.append((lo, max(hi, lo + 1e-6)))
            uris = [png_data_uri(colourise(values[k], p["colorscale"], *ranges[k])) for k in range(len(values))]
            if static:
                uris, ranges = uris * n_layers, ranges * n_layers
            add(
                go.Image(
                    source=uris[a],
                    x0=0,
                    dx=1,
                    y0=0,
                    dy=1,
                    hovertemplate="t=%{x}, " + p["row_title"] + " %{y}<extra></extra>",
                ),
                i,
                [{} if static else {"source": uris[k]} for k in range(n_layers)],
            )
            axis = "" if i == 1 else str(i)
            add(
                go.Heatmap(
                    z=[list(ranges[a])],
                    x=[0, 0],
                    y=[0, 0],
                    colorscale=p["colorscale"],
                    zmin=ranges[a][0],
                    zmax=ranges[a][1],
                    opacity=0,
                    hoverinfo="skip",
                    colorbar={
                        "thickness": 12,
                        "len": heights[i - 1] / total,
                        "y": 1 - (sum(heights[: i - 1]) + gap * (i - 1)) / total,
                        "yanchor": "top",
                        "title": {"text": p["value_title"], "side": "right"},
                    },
                    showlegend=False,
                ),
                i,
                [{} if static else {"z": [list(r)], "zmin": r[0], "zmax": r[1]} for r in ranges],
            )
            fig.update_yaxes(
                range=[rows - 0.5, -0.5],
                showgrid=False,
                title=p["row_title"],
                scaleanchor=False,  # an image keeps square pixels by default: these maps fill the width
                row=i,
                col=1,
                fixedrange=True,
            )
            fig.layout[f"xaxis{axis}"].update(showgrid=False)
            title_y = -0.5
        else:
            for j, (name, series) in enumerate(p["series"].items()):
                series = np.asarray(series, dtype=float)
                colour = (p.get("colours") or {}).get(name)
                pick = lambda k, v=series: v[min(k, len(v) - 1)]  # noqa: E731
                add(
                    go.Scatter(
                        x=np.arange(l),
                        y=pick(a),
                        mode="lines+markers",
                        name=name,
                        line={"color": colour, "width": 2},
                        marker={"size": 4},
                        customdata=list(labels),
                        hovertemplate="%{customdata} (t=%{x}): %{y:.4g}",
                        legendgroup=str(j),
                    ),
                    i,
                    [{"y": pick(k)} if len(series) > 1 else {} for k in range(n_layers)],
                )
            fig.update_yaxes(type="log" if p.get("log") else "linear", row=i, col=1)
            title_y = None
        # the panel's title, a text trace (a layout title would redraw the figure at each step)
        add(
            go.Scatter(
                x=[-0.5],
                y=[1.0 if title_y is None else -0.5],
                text=[p["titles"][a]],
                mode="text",
                textposition="top right",
                hoverinfo="skip",
                showlegend=False,
                cliponaxis=False,
            ),
            i,
            [{"text": [p["titles"][k]]} for k in range(n_layers)],
        )
        if title_y is None:  # over a panel with no room at its top: on an axis of its own, 0 … 1
            fig.layout[f"yaxis{i + n}"] = {
                "overlaying": f"y{i}",
                "range": [0, 1],
                "visible": False,
                "fixedrange": True,
            }
            fig.data[-1].update(yaxis=f"y{i + n}")
    fig.update_xaxes(range=[-0.5, l - 0.5], constrain="domain")
    if redraw:  # the figure is drawn again at each step: the strip's scale follows its layer
        for k in range(n_layers):
            steps[k]["layout"] = {"yaxis": {"range": [0, ceiling[k]]}}
            steps[k]["data"][1]["y"] = [ceiling[k]]
        fig.update_yaxes(range=[0, ceiling[a]], row=1, col=1)
        fig.data[1].update(y=[ceiling[a]])
    longest = max((len(str(x)) for x in labels), default=1)
    wide = longest > 2
    fig.update_xaxes(**ticks(list(labels), max_ticks=MAX_TICKS), tickangle=-60 if wide else 0, row=n + 1, col=1)
    bottom = 24 + round(0.87 * CHAR * longest) if wide else 28
    fig.update_layout(
        height=total + 40 + bottom,
        legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0},
        bargap=0.1,
    )
    fixed_margins(fig, l=60, r=10, t=40, b=bottom)
    return stepped(fig, steps, active=active, prefix=prefix, labels=[str(k) for k in range(n_layers)], redraw=redraw)
