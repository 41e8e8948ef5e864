"""Figures of the Alignment page: PPO's recorded curves (learned reward against the rule's verdict, KL), the reward
model's scores of replies, and DPO's per-token log-ratios against its reference. Pure functions: numpy in, Plotly
figure or escaped HTML out."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app.shared.figures import cached
from app.shared.plots import legend_above
from app.shared.tokens import token_strip

REWARD_COLOUR, RULE_COLOUR, WIN_COLOUR, KL_COLOUR, MARK = "#9467bd", "#2ca02c", "#1f77b4", "#7f7f7f", "#222222"
DIVERGE_COLOUR = "#d62728"
MODEL_COLOURS = {"gpt": "#9e9e9e", "sft": "#ff7f0e", "ppo": "#1f77b4", "dpo": "#2ca02c"}


@cached
def ppo_curves(
    steps: tuple[float, ...],
    reward: tuple[float, ...],
    rule: tuple[float, ...],
    win: tuple[float, ...],
    kl: tuple[float, ...],
    *,
    peak: int,
    diverging: tuple[tuple[float, float], ...],
    bar: float,
    titles: dict[str, str],
    x_title: str,
    peak_name: str,
    bar_name: str,
) -> go.Figure:
    """Three panels over PPO steps: the learned reward and the rule's score (what PPO optimises against what we
    want), the rule's win rate against sft with the bar, and the KL to sft; a dotted line at the win rate's peak,
    red bands over the intervals where the learned reward rose while the rule's score fell."""
    fig = make_subplots(
        rows=3,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.1,
        subplot_titles=[titles[k] for k in ("reward", "win", "kl")],
        specs=[[{"secondary_y": True}], [{}], [{}]],
    )
    line = lambda y, name, colour, **kw: go.Scatter(  # noqa: E731
        x=steps,
        y=y,
        mode="lines+markers",
        name=name,
        line={"color": colour, "width": 2},
        marker={"size": 4},
        hovertemplate=name + " · %{x}: %{y:.3f}<extra></extra>",
        **kw,
    )
    fig.add_trace(line(reward, titles["reward_line"], REWARD_COLOUR), row=1, col=1, secondary_y=False)
    fig.add_trace(line(rule, titles["rule_line"], RULE_COLOUR), row=1, col=1, secondary_y=True)
    fig.add_trace(line(win, titles["win"], WIN_COLOUR, showlegend=False), row=2, col=1)
    fig.add_trace(line(kl, titles["kl"], KL_COLOUR, showlegend=False), row=3, col=1)
    fig.add_trace(
        go.Scatter(
            x=[steps[0], steps[-1]],
            y=[bar, bar],
            mode="lines",
            name=bar_name,
            line={"color": MARK, "width": 1, "dash": "dash"},
            hoverinfo="skip",
        ),
        row=2,
        col=1,
    )
    for row in (1, 2, 3):
        fig.add_vline(x=peak, line={"color": MARK, "width": 1, "dash": "dot"}, row=row, col=1)
        for x0, x1 in diverging:  # the learned reward rose while the rule's score fell
            fig.add_vrect(x0=x0, x1=x1, fillcolor=DIVERGE_COLOUR, opacity=0.18, line_width=0, row=row, col=1)
    fig.add_annotation(
        x=peak,
        y=0.02,
        xref="x2",
        yref="y3 domain",
        text=peak_name,
        showarrow=False,
        xanchor="left",
        yanchor="bottom",
        font={"size": 11},
    )
    fig.update_yaxes(title=titles["reward_axis"], row=1, col=1, secondary_y=False, title_font={"color": REWARD_COLOUR})
    fig.update_yaxes(
        title=titles["rule_axis"], row=1, col=1, secondary_y=True, title_font={"color": RULE_COLOUR}, tickformat=".1f"
    )
    fig.update_yaxes(tickformat=".0%", row=2, col=1)
    fig.update_xaxes(title=x_title, row=3, col=1)
    fig.update_annotations(font_size=12)
    legend_above(fig, 620, top=70)
    fig.update_layout(legend={"y": 1.06})
    return fig


@cached
def reply_scores(
    names: tuple[str, ...], labels: tuple[str, ...], rewards: tuple[float, ...], *, title: str
) -> go.Figure:
    """One bar per model: the reward model's score of its reply."""
    fig = go.Figure(
        go.Bar(
            x=list(labels),
            y=list(rewards),
            marker_color=[MODEL_COLOURS.get(n, "#888888") for n in names],
            text=[f"{r:+.2f}" for r in rewards],
            textposition="outside",
            cliponaxis=False,
            hovertemplate="%{x}: %{y:.3f}<extra></extra>",
        )
    )
    fig.add_hline(y=0, line={"color": MARK, "width": 1})
    fig.update_yaxes(title=title)
    fig.update_layout(height=260, margin={"l": 10, "r": 10, "t": 24, "b": 10}, showlegend=False)
    return fig


def ratio_strip(tokens: tuple[str, ...], ratios: np.ndarray, *, label: str, span_: float) -> str:
    """HTML: the reply's tokens coloured by log π_dpo − log π_sft (red: DPO made the token less likely, green:
    more), on a scale symmetric about 0."""
    return token_strip(list(tokens), ratios, vmin=-span_, vmax=span_, colorscale="RdYlGn", fmt="{:+.3f}", label=label)


@cached
def run_over_steps(
    steps: np.ndarray,
    top: tuple[tuple[str, np.ndarray, str], ...],
    bottom: tuple[tuple[str, np.ndarray, str], ...],
    step: int,
    *,
    top_title: str,
    bottom_title: str,
    x_title: str,
    zero: bool = False,
) -> go.Figure:
    """A recorded run's per-step numbers in two panels sharing the step axis, each series (name, values, colour) a
    thin line of every step's batch under its running mean over 10 steps; the picked step marked by a dotted line in
    both; ``zero``: a line at 0 in both panels."""
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08)
    for row, series in ((1, top), (2, bottom)):
        for name, values, colour in series:
            v = np.asarray(values, dtype=float)
            smooth = np.convolve(v, np.ones(10) / 10, mode="valid") if len(v) >= 10 else v
            fig.add_trace(
                go.Scatter(
                    x=steps, y=v, mode="lines", name=name, legendgroup=name, showlegend=False, opacity=0.35,
                    line={"color": colour, "width": 1}, hovertemplate=name + " · %{x}: %{y:.3f}<extra></extra>",
                ),
                row=row,
                col=1,
            )  # fmt: skip
            fig.add_trace(
                go.Scatter(
                    x=steps[len(v) - len(smooth) :], y=smooth, mode="lines", name=name, legendgroup=name,
                    line={"color": colour, "width": 2}, hoverinfo="skip",
                ),
                row=row,
                col=1,
            )  # fmt: skip
        fig.add_vline(x=step, line={"color": MARK, "width": 1.5, "dash": "dot"}, row=row, col=1)
        if zero:
            fig.add_hline(y=0, line={"color": "#aaaaaa", "width": 1}, row=row, col=1)
    fig.update_yaxes(title=top_title, row=1, col=1)
    fig.update_yaxes(title=bottom_title, row=2, col=1)
    fig.update_xaxes(title=x_title, row=2, col=1)
    return legend_above(fig, 520, top=40)
