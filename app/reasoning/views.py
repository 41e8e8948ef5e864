"""Figures of the Reasoning page: held-out accuracy against the number of operations for direct and cot, one GRPO
group's rewards and advantages, the recorded GRPO training curves, and DeepSeek-R1's pipeline as boxes and arrows.
Pure functions: numpy in, Plotly figure or escaped HTML out."""

from __future__ import annotations

import unicodedata

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app.shared.figures import cached
from app.shared.html import esc, span
from app.shared.plots import legend_above
from app.shared.theme import ON_FILL
from app.shared.tokens import TOKEN_BOX, strip_label, visible

COT_COLOUR, DIRECT_COLOUR = "#1f77b4", "#ff7f0e"
UP, DOWN, FLAT = "#2ca02c", "#d62728", "#9e9e9e"  # advantage > 0, < 0, = 0
MARK = "#222222"
STAGE_COLOURS = {"model": "#e8eef7", "sft": "#fdf1e2", "rl": "#e6f4e6", "data": "#f3e9f7", "zero": "#fbe7e7"}


@cached
def accuracy_curve(
    ks: np.ndarray,
    cot: np.ndarray,
    direct: np.ndarray,
    *,
    bar: int,
    chance: float,
    current: int | None,
    cot_name: str,
    direct_name: str,
    bar_name: str,
    chance_name: str,
    x_title: str,
    y_title: str,
) -> go.Figure:
    """Held-out exact match against the number of operations, both models; the bar's k dashed, chance dotted, the
    current problem's k shaded."""
    fig = go.Figure()
    if current is not None:
        fig.add_vrect(x0=current - 0.4, x1=current + 0.4, fillcolor="#bbbbbb", opacity=0.2, line_width=0)
    styles = (
        (cot, cot_name, COT_COLOUR, "solid", "circle", 9),
        (direct, direct_name, DIRECT_COLOUR, "dash", "square", 7),
    )
    for ys, name, colour, dash, symbol, size in styles:  # direct dashed on top: where the two agree, both show
        fig.add_trace(
            go.Scatter(
                x=ks,
                y=ys,
                mode="lines+markers",
                name=name,
                line={"color": colour, "width": 2, "dash": dash},
                marker={"size": size, "symbol": symbol},
                hovertemplate=name + " · k = %{x}: %{y:.1%}<extra></extra>",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=[ks.min() - 0.3, ks.max() + 0.3],
            y=[chance, chance],
            mode="lines",
            name=chance_name,
            line={"color": MARK, "width": 1, "dash": "dot"},
            hoverinfo="skip",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=[bar, bar],
            y=[0, 1],
            mode="lines",
            name=bar_name,
            line={"color": MARK, "width": 1, "dash": "dash"},
            hoverinfo="skip",
        )
    )
    fig.update_xaxes(title=x_title, dtick=1, range=[ks.min() - 0.5, ks.max() + 0.5])
    fig.update_yaxes(title=y_title, range=[0, 1.02], tickformat=".0%")
    return legend_above(fig, 340, top=40)


@cached  # the same HTML for every reader and rerun of a problem: built once
def step_chips(ops: tuple[str, ...], truth: tuple[int, ...], written: tuple[int | None, ...], start: int) -> str:
    """HTML: the chain as cot wrote it, one chip per operation — "+4 → 7" — green where the written value is the true
    one, red where it is not, grey where nothing was written."""
    chips = [span(str(start), style=f"background:#eeeeee;color:#111;{TOKEN_BOX}")]
    for op, want, got in zip(ops, truth, written):
        colour = FLAT if got is None else UP if got == want else DOWN
        label = f"{op} → {'?' if got is None else got}"
        title = f"{op}: {want}" if got is None or got == want else f"{op}: {got} ≠ {want}"
        chips.append(span(label, style=f"background:{colour};color:#fff;{TOKEN_BOX}", title=title))
    return f'<div style="line-height:2.1;margin-top:0.75rem">{"".join(chips)}</div>'


@cached
def group_bars(
    rewards: np.ndarray,
    advantages: np.ndarray,
    *,
    labels: list[str],
    reward_title: str,
    advantage_title: str,
    mean_name: str,
) -> go.Figure:
    """Two panels over the group's completions: the rule's reward (with the group mean, GRPO's baseline) and the
    normalised advantage, coloured up (> 0) / down (< 0)."""
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08)
    colours = [UP if a > 1e-9 else DOWN if a < -1e-9 else FLAT for a in advantages]
    fig.add_trace(
        go.Bar(
            x=labels,
            y=rewards,
            marker_color=colours,
            showlegend=False,
            hovertemplate="%{x}: %{y:.2f}<extra>" + reward_title + "</extra>",
        ),
        row=1,
        col=1,
    )
    mean = float(np.mean(rewards))
    fig.add_trace(
        go.Scatter(
            x=labels,
            y=[mean] * len(labels),
            mode="lines",
            name=f"{mean_name} = {mean:.3f}",
            line={"color": MARK, "width": 1.5, "dash": "dash"},
            hoverinfo="skip",
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Bar(
            x=labels,
            y=advantages,
            marker_color=colours,
            showlegend=False,
            hovertemplate="%{x}: %{y:+.3f}<extra>" + advantage_title + "</extra>",
        ),
        row=2,
        col=1,
    )
    fig.update_yaxes(title=reward_title, row=1, col=1, range=[0, 1.2])
    fig.update_yaxes(title=advantage_title, row=2, col=1, zeroline=True, zerolinecolor=MARK)
    fig.update_xaxes(type="category", tickangle=0)
    return legend_above(fig, 380, top=40)


@cached  # the same HTML for every reader and rerun of a group: built once
def pushed_strips(
    completions: tuple[str, ...],
    weights: np.ndarray,
    labels: list[str],
) -> str:
    """HTML: each completion's tokens on the colour of the push the first GRPO update gives them — green up, red down,
    grey none — stronger for a larger |Â / |o| / G|; the weight in each token's tooltip."""
    scale = float(np.abs(weights).max()) or 1.0
    rows = []
    for text, w, label in zip(completions, weights, labels):
        strength = 0.25 + 0.75 * abs(float(w)) / scale
        r, g, b = (44, 160, 44) if w > 1e-12 else (214, 39, 40) if w < -1e-12 else (158, 158, 158)
        # The tint as a solid colour (what it looks like over white), so the chip reads the same on a dark page.
        colour = "rgb({},{},{})".format(*(round(255 - (255 - v) * strength) for v in (r, g, b)))
        ink = "#fff" if strength > 0.55 and abs(w) > 1e-12 else "#111"
        boxes = "".join(
            span(visible(c), style=f"background:{colour};color:{ink};{TOKEN_BOX}", title=f"{c!r}: {w:+.4f}")
            for c in text
        )
        rows.append(f'<div style="line-height:1.9;margin-bottom:4px">{strip_label(label)}{boxes or "∅"}</div>')
    return "".join(rows)


@cached
def training_curves(
    curves: dict,
    *,
    titles: dict[str, str],
    x_title: str,
    full_length: float | None,
    full_length_name: str,
    train_accuracy_name: str,
    held_out_name: str,
) -> go.Figure:
    """The GRPO card's curves over training steps in four panels: reward, accuracy (training batches and held-out),
    response length (with a fully worked answer's length for reference) and the KL estimate to the start model."""
    steps = curves["step"]
    fig = make_subplots(
        rows=2,
        cols=2,
        subplot_titles=[titles[k] for k in ("reward", "accuracy", "length", "kl")],
        vertical_spacing=0.16,
        horizontal_spacing=0.12,
    )
    panels = {
        "reward": (1, 1, [("reward", titles["reward"], "#9467bd")]),
        "accuracy": (
            1,
            2,
            [("accuracy", train_accuracy_name, COT_COLOUR), ("held_out_accuracy", held_out_name, "#2ca02c")],
        ),
        "length": (2, 1, [("length", titles["length"], "#8c564b")]),
        "kl": (2, 2, [("kl", titles["kl"], "#7f7f7f")]),
    }
    for _, (row, col, series) in panels.items():
        for key, name, colour in series:
            if key not in curves:
                continue
            ys = [None if v is None else float(v) for v in curves[key]]
            fig.add_trace(
                go.Scatter(
                    x=steps,
                    y=ys,
                    mode="lines+markers",
                    name=name,
                    showlegend=len(series) > 1,
                    line={"color": colour, "width": 2},
                    marker={"size": 4},
                    connectgaps=False,
                    hovertemplate=name + " · %{x}: %{y:.3f}<extra></extra>",
                ),
                row=row,
                col=col,
            )
    if full_length is not None:
        fig.add_trace(
            go.Scatter(
                x=[steps[0], steps[-1]],
                y=[full_length, full_length],
                mode="lines",
                name=full_length_name,
                line={"color": MARK, "width": 1, "dash": "dot"},
                hoverinfo="skip",
            ),
            row=2,
            col=1,
        )
    fig.update_yaxes(tickformat=".0%", range=[0, 1.02], row=1, col=2)
    fig.update_xaxes(title=x_title, row=2)
    fig.update_annotations(font_size=12)
    legend_above(fig, 560, top=90)
    fig.update_layout(legend={"y": 1.08})  # above the panel titles
    return fig


# ---- GRPO watched: the recorded run over RL steps --------------------------------------------------------------------

K_COLOURS = ("#aec7e8", "#7fa6d6", "#4f86c6", "#1f5fa8", "#17488a", "#0d2f63", "#ff7f0e", "#d62728")  # k = 1 … 8


def _step_axis(last: int) -> dict:
    """An x axis of RL steps on a log scale, each step s drawn at s + 1 (so that step 0, before RL, has a place)
    and labelled s: the first ten steps, where the habit changes, get as much room as the other 190."""
    ticks = [s for s in (0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000) if s <= last]
    return {"type": "log", "tickvals": [s + 1 for s in ticks], "ticktext": [str(s) for s in ticks]}


def _mark(fig: go.Figure, step: int, **where) -> None:
    fig.add_vline(x=step + 1, line={"color": MARK, "width": 1.5, "dash": "dot"}, **where)


@cached
def accuracy_over_steps(
    steps: tuple[int, ...],
    ks: np.ndarray,
    by_k: np.ndarray,
    step: int,
    *,
    trained_k: int,
    k_name: str,
    x_title: str,
    y_title: str,
) -> go.Figure:
    """Held-out exact match at each recorded RL step, one line per number of operations k (blues up to the longest
    trained, then warm colours for the longer ones), the picked step marked by a dotted line."""
    fig = go.Figure()
    x = [s + 1 for s in steps]
    for j, k in enumerate(ks):
        name = k_name.format(k=int(k))
        fig.add_trace(
            go.Scatter(
                x=x,
                y=by_k[:, j],
                customdata=list(steps),
                mode="lines+markers",
                name=name,
                line={
                    "color": K_COLOURS[j % len(K_COLOURS)],
                    "width": 2,
                    "dash": "solid" if k <= trained_k else "dash",
                },
                marker={"size": 5},
                hovertemplate=name + " · %{customdata}: %{y:.0%}<extra></extra>",
            )
        )
    _mark(fig, step)
    fig.update_xaxes(title=x_title, **_step_axis(steps[-1]))
    fig.update_yaxes(title=y_title, tickformat=".0%", range=[-0.02, 1.02])
    return legend_above(fig, 380, top=40)


@cached
def run_over_steps(
    steps: np.ndarray,
    length: np.ndarray,
    shares: tuple[tuple[str, np.ndarray, str], ...],
    step: int,
    *,
    full_length: float,
    full_length_name: str,
    length_title: str,
    share_title: str,
    x_title: str,
) -> go.Figure:
    """Per RL step, of the batch that step learnt from: the mean completion length (top, with a fully worked
    answer's length dotted) and shares of its completions (bottom: each as (name, values, colour)); the picked step
    marked in both panels."""
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08)
    x = steps + 1
    custom = steps.astype(int)
    fig.add_trace(
        go.Scatter(
            x=x,
            y=length,
            customdata=custom,
            mode="lines",
            name=length_title,
            line={"color": "#8c564b", "width": 1.5},
            hovertemplate=length_title + " · %{customdata}: %{y:.1f}<extra></extra>",
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Scatter(
            x=[x[0], x[-1]],
            y=[full_length, full_length],
            mode="lines",
            name=full_length_name,
            line={"color": MARK, "width": 1, "dash": "dash"},
            hoverinfo="skip",
        ),
        row=1,
        col=1,
    )
    for name, values, colour in shares:
        fig.add_trace(
            go.Scatter(
                x=x,
                y=values,
                customdata=custom,
                mode="lines",
                name=name,
                line={"color": colour, "width": 1.5},
                hovertemplate=name + " · %{customdata}: %{y:.0%}<extra></extra>",
            ),
            row=2,
            col=1,
        )
    for row in (1, 2):
        _mark(fig, step, row=row, col=1)
    axis = _step_axis(int(steps[-1]))
    fig.update_xaxes(**axis)
    fig.update_xaxes(title=x_title, row=2, col=1)
    fig.update_yaxes(title=length_title, row=1, col=1)
    fig.update_yaxes(title=share_title, tickformat=".0%", range=[-0.02, 1.02], row=2, col=1)
    return legend_above(fig, 520, top=40)


# ---- DeepSeek-R1's pipeline ------------------------------------------------------------------------------------------


CLOSING = set("，。、；：！？）」』”.,;:!?)")


def _width(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def wrap(text: str, width: int) -> str:
    """Break ``text`` into lines of at most ``width`` columns (a CJK character counts two) for a Plotly label: at
    spaces in English, anywhere between CJK characters; ``<br>`` joins them. The pieces are escaped."""
    lines, line, used = [], "", 0
    for word in _words(text):
        w = sum(_width(c) for c in word)
        if line and used + w > width and word not in CLOSING:  # no line starts with a closing mark
            lines.append(line.rstrip())
            line, used = "", 0
            word = word.lstrip()
            w = sum(_width(c) for c in word)
        line += word
        used += w
    if line:
        lines.append(line.rstrip())
    return "<br>".join(esc(x) for x in lines)


def _words(text: str) -> list[str]:
    """English words with their leading space; each CJK character on its own (a line may break after any)."""
    out: list[str] = []
    for ch in text:
        if _width(ch) == 2 or not out or ch == " " or _width(out[-1][-1]) == 2:
            out.append(ch)
        else:
            out[-1] += ch
    return out


@cached
def pipeline(stages: list[tuple[str, str, str, str]], *, zero: tuple[str, str], wrap_at: int = 32) -> go.Figure:
    """DeepSeek-R1's training as labelled boxes: ``stages`` top to bottom (id, kind, title, detail; kind picks the
    colour: model, sft, rl, data) down the right lane, R1-Zero (title, detail) in the left lane, branching off the
    base model, a grey arrow for its outputs that went, made readable, into the cold-start data."""
    n = len(stages)
    fig = go.Figure()
    box_h, gap = 1.0, 0.35
    y = {sid: -(i * (box_h + gap)) for i, (sid, *_) in enumerate(stages)}
    left, right = (0.0, 0.36), (0.42, 1.0)

    def box(x0: float, x1: float, yc: float, kind: str, title: str, detail: str, h: float = box_h) -> None:
        fig.add_shape(
            type="rect",
            x0=x0,
            x1=x1,
            y0=yc - h / 2,
            y1=yc + h / 2,
            line={"color": "#555555", "width": 1},
            fillcolor=STAGE_COLOURS[kind],
            layer="below",
        )
        width = int(wrap_at * (x1 - x0) / (right[1] - right[0]))
        label = f"<b>{wrap(title, width)}</b>" + (f"<br>{wrap(detail, width)}" if detail else "")
        fig.add_annotation(
            x=(x0 + x1) / 2, y=yc, text=label, showarrow=False, font={"size": 12, "color": ON_FILL}, align="center"
        )

    def arrow(x: float, y0: float, x1: float, y1: float, grey: bool = False) -> None:
        fig.add_annotation(
            x=x1,
            y=y1,
            ax=x,
            ay=y0,
            xref="x",
            yref="y",
            axref="x",
            ayref="y",
            showarrow=True,
            arrowhead=2,
            arrowsize=1,
            arrowwidth=1.3,
            arrowcolor="#999999" if grey else "#333333",
            text="",
        )

    for i, (sid, kind, title, detail) in enumerate(stages):
        box(*right, y[sid], kind, title, detail)
        if i:
            prev = stages[i - 1][0]
            arrow((right[0] + right[1]) / 2, y[prev] - box_h / 2, (right[0] + right[1]) / 2, y[sid] + box_h / 2)
    # R1-Zero: from the base model (first stage) straight to RL, beside the cold start
    z_title, z_detail = zero
    top, bottom = y[stages[0][0]] - box_h / 2 - gap, y[stages[2][0]] - box_h / 2
    zc = (top + bottom) / 2
    box(*left, zc, "zero", z_title, z_detail, h=top - bottom)
    arrow(right[0] + 0.05, y[stages[0][0]] - box_h / 2, (left[0] + left[1]) / 2, top)
    arrow(left[1], zc, right[0], y[stages[1][0]], grey=True)
    fig.update_xaxes(visible=False, range=[-0.01, 1.01], fixedrange=True)
    fig.update_yaxes(visible=False, range=[y[stages[-1][0]] - box_h / 2 - 0.1, box_h / 2 + 0.1], fixedrange=True)
    fig.update_layout(
        height=int(110 * n + 40), margin={"l": 4, "r": 4, "t": 4, "b": 4}, plot_bgcolor="white", showlegend=False
    )
    return fig
