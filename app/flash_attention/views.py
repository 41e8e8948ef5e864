"""Figures of the FlashAttention page: Algorithm 1 step by step on the figure's own slider (the score matrix as a grid
of tiles in one image, the running m and ℓ per row, the inside of one tile: P̃, O_i before and after, the weight left
on the old O_i), and log-log curves of HBM accesses and kernel timings."""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app.shared.figures import cached
from app.shared.images import colourise, png_data_uri
from app.shared.plots import fixed_margins, stepped
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


def _rect(x0: float, x1: float, y0: float, y1: float) -> tuple[list, list]:
    """A closed rectangle as a line's points, ending with a gap (None) so that several join into one trace."""
    return [x0, x1, x1, x0, x0, None], [y0, y0, y1, y1, y0, None]


def _wrap(text: str, width: int = 44) -> str:
    """``text`` in lines of about ``width`` characters (a Chinese character counts two), joined by <br>: a text trace
    does not wrap itself."""
    lines, line, used = [], "", 0
    for word in re.findall(
        r"[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]\s*|[^\s\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]+\s*", text
    ):
        size = 2 if "\u2e80" <= word[0] <= "\uffef" else len(word.rstrip())
        if line and used + size > width:
            lines.append(line.rstrip())
            line, used = "", 0
        line, used = line + word, used + size + (len(word) - len(word.rstrip()))
    return "<br>".join([*lines, line.rstrip()])


def _short(label: str, width: int = 10) -> str:
    """A row's label cut to ``width`` characters, so that it stays left of the tile's squares on a phone."""
    return label if len(label) <= width else label[: width - 1] + "…"


@cached
def algorithm_steps(
    scores: np.ndarray,
    m: np.ndarray,
    l: np.ndarray,
    order: np.ndarray,
    P: tuple[np.ndarray, ...],
    O_before: tuple[np.ndarray, ...],
    O_after: tuple[np.ndarray, ...],
    kept: tuple[np.ndarray, ...],
    blocks: tuple[int, int],
    *,
    readouts: tuple[str, ...],
    notes: tuple[str, ...],
    row_labels: tuple[str, ...],
    col_labels: tuple[str, ...],
    titles: tuple[str, ...],
    query_title: str,
    key_title: str,
    value_title: str,
    row_title: str,
    now_name: str,
    final_name: str,
    dim_title: str,
    tile_key_title: str,
    before_name: str,
    after_name: str,
    active: int,
    prefix: str,
    height: int = 1080,
) -> go.Figure:
    """Algorithm 1 on one head (``svc.Walk``), one step of the figure's own slider per inner iteration (step 0:
    before the loop): the N × N scores cut into tiles (one image; the tiles still to come are veiled, the current
    one framed), the running m and ℓ per row after the step (the rows of Q_i shaded, the final values dotted), and
    inside the tile P̃_ij, O_i before and after (one line per row, on its own baseline) and the weight left on the
    old O_i. ``readouts[s]`` is written above, ``notes[s]`` in place of a skipped tile's inside. Every part a step
    changes is scatter or bar data: the traces are restyled, not the figure redrawn (``plots.stepped``).

    ``scores`` (N, N), NaN where masked; ``m``, ``l`` (S, N) after each step; ``order`` (S, 3): each step's key
    block j, query block i and whether it was skipped; ``P``, ``O_before``, ``O_after``, ``kept``: each step's tile;
    ``blocks`` = (B_r, B_c)."""
    N, S = scores.shape[0], len(order)
    B_r, B_c = blocks
    d = O_after[0].shape[1]
    w = SimpleNamespace(
        scores=scores, m=m, l=l, j=order[:, 0], i=order[:, 1], skipped=order[:, 2].astype(bool), P=P,
        O_before=O_before, O_after=O_after, kept=kept,
    )  # fmt: skip
    rows = [(s, min(s + B_r, N)) for s in range(0, N, B_r)]
    cols = [(s, min(s + B_c, N)) for s in range(0, N, B_c)]
    fig = make_subplots(
        rows=6, cols=2, row_heights=[0.06, 0.33, 0.11, 0.11, 0.2, 0.19], vertical_spacing=0.055,
        horizontal_spacing=0.12, specs=[[{"colspan": 2}, None]] * 4 + [[{}, {}], [{"colspan": 2}, None]],
        subplot_titles=("", "", "", "", titles[0], titles[2], titles[1]),
    )  # fmt: skip
    # ---- the readout above everything
    fig.add_trace(
        go.Scatter(x=[0], y=[0], mode="text", text=[readouts[active]], textposition="middle right",
                   textfont={"size": 12}, cliponaxis=False, hoverinfo="skip", showlegend=False),
        row=1, col=1,
    )  # fmt: skip
    fig.update_xaxes(range=[0, 1], visible=False, row=1, col=1)
    fig.update_yaxes(range=[-1, 1], visible=False, row=1, col=1)
    # ---- the tile map: a static image, the veil over what is still to come and the current tile's frame move
    finite = w.scores[np.isfinite(w.scores)]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    rgb = colourise(w.scores, "Viridis", lo, hi).astype(float)
    rgb[np.isnan(w.scores)] = MASKED
    fig.add_trace(
        go.Image(source=png_data_uri(rgb.round().astype(np.uint8)), x0=0, dx=1, y0=0, dy=1,
                 hovertemplate=f"{query_title} %{{y}} · {key_title} %{{x}}<extra></extra>"),
        row=2, col=1,
    )  # fmt: skip

    def veil(s: int) -> dict:  # the tiles not yet visited after s iterations: two rectangles (key blocks run outer)
        if s == 0:
            x, y = _rect(-0.5, N - 0.5, -0.5, N - 0.5)
            return {"x": x, "y": y}
        j, i = int(w.j[s - 1]), int(w.i[s - 1])
        x, y = [], []
        if j + 1 < len(cols):
            a, b = _rect(cols[j + 1][0] - 0.5, N - 0.5, -0.5, N - 0.5)
            x, y = x + a, y + b
        if i + 1 < len(rows):
            a, b = _rect(cols[j][0] - 0.5, cols[j][1] - 0.5, rows[i + 1][0] - 0.5, N - 0.5)
            x, y = x + a, y + b
        return {"x": x or [None], "y": y or [None]}

    def frame(s: int) -> dict:
        if s == 0:
            return {"x": [None], "y": [None]}
        (r0, r1), (c0, c1) = rows[int(w.i[s - 1])], cols[int(w.j[s - 1])]
        x, y = _rect(c0 - 0.5, c1 - 0.5, r0 - 0.5, r1 - 0.5)
        return {"x": x, "y": y}

    pale = f"rgba(255,255,255,{PALE})"
    fig.add_trace(
        go.Scatter(**veil(active), mode="lines", fill="toself", fillcolor=pale, line={"width": 0},
                   hoverinfo="skip", showlegend=False),
        row=2, col=1,
    )  # fmt: skip
    skipped = sorted({(int(a), int(b)) for a, b, k in zip(w.i, w.j, w.skipped) if k})
    xs, ys = [], []
    for a, b in skipped:
        px, py = _rect(cols[b][0] - 0.5, cols[b][1] - 0.5, rows[a][0] - 0.5, rows[a][1] - 0.5)
        xs, ys = xs + px, ys + py
    grey = "rgb({},{},{})".format(*SKIPPED.astype(int))
    fig.add_trace(
        go.Scatter(x=xs or [None], y=ys or [None], mode="lines", fill="toself", fillcolor=grey, line={"width": 0},
                   hoverinfo="skip", showlegend=False),
        row=2, col=1,
    )  # fmt: skip
    xs, ys = [], []  # tile borders as one line trace (None breaks the line)
    for _, c1 in cols[:-1]:
        xs += [c1 - 0.5, c1 - 0.5, None]
        ys += [-0.5, N - 0.5, None]
    for _, r1 in rows[:-1]:
        xs += [-0.5, N - 0.5, None]
        ys += [r1 - 0.5, r1 - 0.5, None]
    fig.add_trace(
        go.Scatter(x=xs or [None], y=ys or [None], mode="lines", line={"color": on_fill(0.4), "width": 1},
                   hoverinfo="skip", showlegend=False),
        row=2, col=1,
    )  # fmt: skip
    marks = skipped if len(skipped) <= 600 else []
    fig.add_trace(
        go.Scatter(x=[(cols[b][0] + cols[b][1] - 1) / 2 for _, b in marks] or [None],
                   y=[(rows[a][0] + rows[a][1] - 1) / 2 for a, _ in marks] or [None], mode="text",
                   text=["×"] * len(marks) or [""], textfont={"color": "#999", "size": 11 if len(marks) < 200 else 8},
                   hoverinfo="skip", showlegend=False),
        row=2, col=1,
    )  # fmt: skip
    fig.add_trace(
        go.Scatter(**frame(active), mode="lines", line={"color": CURRENT, "width": 3}, hoverinfo="skip",
                   showlegend=False),
        row=2, col=1,
    )  # fmt: skip
    fig.add_trace(  # the colour bar (an image has none): one invisible marker carries it
        go.Scatter(x=[None], y=[None], mode="markers", hoverinfo="skip", showlegend=False,
                   marker={"color": [lo], "colorscale": "Viridis", "cmin": lo, "cmax": hi, "showscale": True,
                           "colorbar": {"thickness": 10, "len": 0.3, "y": 0.76, "x": 1.0, "xanchor": "left",
                                        "title": {"text": value_title, "side": "right"}}}),
        row=2, col=1,
    )  # fmt: skip
    fig.update_xaxes(range=[-0.5, N - 0.5], title=key_title, side="top", showgrid=False, zeroline=False,
                     row=2, col=1, **_block_ticks(cols))  # fmt: skip
    fig.update_yaxes(range=[N - 0.5, -0.5], title=query_title, showgrid=False, zeroline=False, row=2, col=1,
                     **_block_ticks(rows))  # fmt: skip
    # ---- the running m and ℓ per row after the step
    x = np.arange(N)
    for r, (name, now_all, final) in enumerate((("m", w.m, w.m[-1]), ("ℓ", w.l, w.l[-1])), start=3):
        values = np.concatenate([now_all.ravel(), final.ravel()]).astype(float)
        values = values[np.isfinite(values) & ((values > 0) if name == "ℓ" else True)]
        y_lo, y_hi = (float(values.min()), float(values.max())) if values.size else (0.0, 1.0)
        pad = 0.08 * (y_hi - y_lo or 1.0)
        y_lo, y_hi = y_lo - pad, y_hi + pad

        def now(s: int, all_=now_all, name=name) -> dict:  # y alone: x (the rows) is the trace's own
            if s == 0:
                return {"y": np.full(N, np.nan, dtype=np.float32)}
            v = np.where(np.isfinite(all_[s - 1]), all_[s - 1], np.nan).astype(float)
            return {"y": (np.where(v > 0, v, np.nan) if name == "ℓ" else v).astype(np.float32)}

        def band(s: int, y_lo=y_lo, y_hi=y_hi) -> dict:
            if s == 0:
                return {"x": [None], "y": [None]}
            r0, r1 = rows[int(w.i[s - 1])]
            bx, by = _rect(r0 - 0.5, r1 - 0.5, y_lo, y_hi)
            return {"x": bx, "y": by}

        fig.add_trace(
            go.Scatter(**band(active), mode="lines", fill="toself", fillcolor="rgba(214,39,40,0.1)",
                       line={"width": 0}, hoverinfo="skip", showlegend=False),
            row=r, col=1,
        )  # fmt: skip
        fig.add_trace(
            go.Scatter(x=x, y=final, mode="lines", name=final_name, line={"color": "#aaa", "dash": "dot"},
                       showlegend=r == 3, legendgroup="final",
                       hovertemplate=f"{final_name} {name}: %{{y:.3f}}<extra>%{{x}}</extra>"),
            row=r, col=1,
        )  # fmt: skip
        fig.add_trace(
            go.Scatter(x=x, **now(active), mode="markers", name=now_name, marker={"color": COLOURS[r - 3], "size": 6},
                       showlegend=False, hovertemplate=f"{name}: %{{y:.3f}}<extra>%{{x}}</extra>"),
            row=r, col=1,
        )  # fmt: skip
        fig.update_yaxes(title=name, range=[y_lo, y_hi], row=r, col=1)
        fig.update_xaxes(range=[-0.5, N - 0.5], showticklabels=r == 4, row=r, col=1)
        if r == 3:
            moving_m = (now, band)
        else:
            moving_l = (now, band)
    fig.update_xaxes(title=row_title, title_standoff=2, row=4, col=1)
    # ---- inside the tile: P̃_ij as squares, O_i before and after as a line per row, the weight on the old O_i
    size = max(3, min(16, 160 // max(B_r, B_c)))

    line_x = np.tile(np.append(np.arange(d, dtype=np.float32), np.nan), B_r)  # O_i's rows: d points and a gap each
    no_line = np.full(line_x.shape, np.nan, dtype=np.float32)

    def inside(s: int) -> list[dict]:
        empty = {"x": [None], "y": [None]}
        if s == 0 or w.skipped[s - 1]:
            return [
                {**empty, "marker": {"color": [0.0]}, "text": [""]},
                {"x": [None], "y": [None], "text": [""]},
                {"x": [None], "y": [None], "text": [""]},
                {"y": no_line},
                {"y": no_line},
                {"x": [], "y": []},
                {"text": [_wrap(notes[s])]},
            ]
        k = s - 1
        (r0, r1), (c0, c1) = rows[int(w.i[k])], cols[int(w.j[k])]
        P = w.P[k]
        rr, cc = np.meshgrid(np.arange(P.shape[0]), np.arange(P.shape[1]), indexing="ij")
        hover = [f"{row_labels[r0 + a]} · {col_labels[c0 + b]}: {P[a, b]:.3f}" for a, b in zip(rr.ravel(), cc.ravel())]
        span = float(max(np.abs(w.O_before[k]).max(), np.abs(w.O_after[k]).max(), 1e-9))
        lines = []
        for O in (w.O_before[k], w.O_after[k]):
            # B_r rows of d points and a gap each, in float32 (x is the trace's own: the same at every step); a last
            # block of fewer rows leaves the rest as gaps
            y = np.full((B_r, d + 1), np.nan, dtype=np.float32)
            y[: len(O), :d] = np.arange(len(O))[:, None] - 0.42 * O / span
            lines.append({"y": y.ravel()})
        return [
            {"x": cc.ravel(), "y": rr.ravel(), "marker": {"color": P.ravel()}, "text": hover},
            {
                "x": np.arange(c1 - c0),
                "y": np.full(c1 - c0, -0.9),
                "text": [str(c) for c in range(c0, c1)] if B_c <= 16 else [""] * (c1 - c0),
            },
            {"x": [-0.7] * (r1 - r0), "y": np.arange(r1 - r0), "text": [_short(x) for x in row_labels[r0:r1]]},
            *lines,
            {"x": w.kept[k], "y": np.arange(r1 - r0)},
            {"text": [""]},
        ]

    now_in = inside(active)
    fig.add_trace(
        go.Scatter(**{k: v for k, v in now_in[0].items() if k != "marker"}, mode="markers",
                   marker={"symbol": "square", "size": size, "color": now_in[0]["marker"]["color"],
                           "colorscale": "Blues", "cmin": 0, "cmax": 1, "line": {"width": 0}},
                   hovertemplate="%{text}<extra></extra>", showlegend=False),
        row=5, col=1,
    )  # fmt: skip
    fig.add_trace(
        go.Scatter(**now_in[1], mode="text", textposition="top center", textfont={"size": 9}, cliponaxis=False,
                   hoverinfo="skip", showlegend=False),
        row=5, col=1,
    )  # fmt: skip
    fig.add_trace(
        go.Scatter(**now_in[2], mode="text", textposition="middle left", textfont={"size": 10}, cliponaxis=False,
                   hoverinfo="skip", showlegend=False),
        row=5, col=1,
    )  # fmt: skip
    for props, name, line in ((now_in[3], before_name, {"color": "#888", "dash": "dot"}), (now_in[4], after_name,
                              {"color": COLOURS[0]})):  # fmt: skip
        fig.add_trace(
            go.Scatter(x=line_x, **props, mode="lines", name=name, line={**line, "width": 1.5}, hoverinfo="skip",
                       showlegend=False),
            row=6, col=1,
        )  # fmt: skip
    fig.add_trace(
        go.Bar(**now_in[5], orientation="h", marker_color=COLOURS[0], hovertemplate="%{x:.3f}<extra></extra>",
               showlegend=False),
        row=5, col=2,
    )  # fmt: skip
    fig.add_trace(  # what a step without a tile says instead (before the loop; a tile the mask skips)
        go.Scatter(x=[-0.4], y=[(B_r - 1) / 2], mode="text", text=now_in[6]["text"], textposition="middle right",
                   textfont={"size": 12}, cliponaxis=False, hoverinfo="skip", showlegend=False),
        row=5, col=1,
    )  # fmt: skip
    for r, c in ((5, 1), (5, 2), (6, 1)):
        fig.update_yaxes(range=[B_r - 0.5, -1.2], showticklabels=False, showgrid=False, zeroline=False, row=r, col=c)
    label_room = 3 * B_c  # the rows' labels sit left of the squares, inside the axis (a text outside is not drawn)
    fig.update_xaxes(range=[-0.5 - label_room, B_c - 0.5], title=tile_key_title, showgrid=False, zeroline=False,
                     showticklabels=False, row=5, col=1)  # fmt: skip
    fig.update_xaxes(range=[-0.5, d - 0.5], title=dim_title, title_standoff=2, row=6, col=1)
    fig.update_xaxes(range=[0, 1.05], row=5, col=2)

    def step(s: int) -> dict:
        inner = inside(s)
        m_now, m_band = moving_m
        l_now, l_band = moving_l
        return {
            "data": [
                {"text": [readouts[s]]},
                {}, veil(s), {}, {}, {}, frame(s), {},
                m_band(s), {}, m_now(s),
                l_band(s), {}, l_now(s),
                {"x": inner[0]["x"], "y": inner[0]["y"], "marker": inner[0]["marker"], "text": inner[0]["text"]},
                inner[1], inner[2], inner[3], inner[4], inner[5], inner[6],
            ]
        }  # fmt: skip

    top_m = fig.layout.yaxis3.domain[1]
    fig.update_layout(
        height=height, hovermode="closest", font={"size": 12},
        legend={"orientation": "h", "x": 1, "y": top_m, "xanchor": "right", "yanchor": "bottom", "font": {"size": 11}},
    )  # fmt: skip
    fig.update_annotations(font_size=12)
    fixed_margins(fig, l=56, r=64, t=10, b=86)
    out = stepped(fig, [step(s) for s in range(S + 1)], active=active, prefix=prefix)
    out.layout.sliders[0].pad.t = 58  # under the dimensions' axis title, which the slider's readout covered at 390 px
    return out
