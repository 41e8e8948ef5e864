"""The Reasoning page's GRPO run watched step by step: ``grpo-run`` (grpo's recipe, settings and seed, recorded). A
training-step slider (in the link) over the recorded steps picks the step: held-out exact match by number of
operations over the RL steps and, per RL step, the completion length and the share of completions that write the
steps, each with the step marked; the group the policy sampled at that step with its rewards and advantages as the run
computed them. The text says what DeepSeek-R1 reports over its RL steps and, read from the card, what happened here.
The slider and what it drives are one keyed fragment: a move reruns this part alone."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.reasoning import service as svc
from app.reasoning import views
from app.shared import ui
from app.shared.i18n import InputError, current_lang, t

PART = "reasoning_part_watch"
STEP = "reasoning_watch_step"


def section() -> None:
    st.subheader(t("reasoning.watch.title"))
    try:
        w = svc.watched()
    except InputError as e:
        ui.input_error(e)
        return
    st.markdown(
        t(
            "reasoning.watch.intro",
            n=len(w.steps),
            per_k=w.per_k,
            snaps=", ".join(str(s) for s in w.snapshots),
            steps=w.facts["steps"],
        )
    )
    _part()


def pct(x: float) -> str:
    return f"{x:.0%}"


@st.fragment(key=PART)
def _part() -> None:
    w = svc.watched()
    steps = list(w.steps)
    step = ui.step_slider(
        t("reasoning.watch.step"), steps, key=STEP, help=t("reasoning.watch.step.help", n=len(steps), last=steps[-1])
    )
    i = steps.index(step)
    g = w.groups[i]
    col = {int(k): j for j, k in enumerate(w.ks)}
    bar = w.by_k[:, col[svc.BAR_STEPS]]
    m = ui.row()
    m.metric(
        t("reasoning.watch.m.bar", k=svc.BAR_STEPS),
        pct(bar[i]),
        f"{bar[i] - bar[0]:+.0%}" if i else None,
        help=t("reasoning.watch.m.bar.help", n=w.per_k),
    )
    G = len(g.completions)
    m.metric(
        t("reasoning.watch.m.writes"), f"{int(g.writes_steps.sum())} / {G}", help=t("reasoning.watch.m.writes.help")
    )
    m.metric(t("reasoning.m.correct"), f"{int(g.correct.sum())} / {G}")
    m.metric(t("reasoning.m.mean_reward"), f"{g.rewards.mean():.3f}", help=t("reasoning.m.mean_reward.help"))

    ui.figure(
        views.accuracy_over_steps(
            w.steps,
            w.ks,
            w.by_k,
            step,
            trained_k=int(w.settings["max_steps_in_question"]),
            k_name=t("reasoning.watch.k_line"),
            x_title=t("reasoning.step"),
            y_title=t("reasoning.exact_match"),
        ),
        np.column_stack([np.array(w.steps), w.by_k]),
        "reasoning-grpo-run-accuracy-by-k",
        key="reasoning_watch_by_k",
        col_labels=["step", *(f"k={int(k)}" for k in w.ks)],
    )
    st.caption(t("reasoning.watch.by_k.caption", n=w.per_k, kmax=int(w.settings["max_steps_in_question"])))
    h = w.history
    ui.figure(
        views.run_over_steps(
            h["step"],
            h["length"],
            (
                (t("reasoning.watch.writes"), h["writes_steps"], "#2ca02c"),
                (t("reasoning.curve.train_accuracy"), h["accuracy"], "#1f77b4"),
                (t("reasoning.watch.equal"), h["equal_rewards"], "#9e9e9e"),
            ),
            step,
            full_length=w.facts["full"],
            full_length_name=t("reasoning.curve.full_length"),
            length_title=t("reasoning.curve.length"),
            share_title=t("reasoning.watch.share"),
            x_title=t("reasoning.step"),
        ),
        {k: h[k] for k in ("step", "length", "writes_steps", "accuracy", "equal_rewards", "reward", "kl") if k in h},
        "reasoning-grpo-run-per-step",
        key="reasoning_watch_per_step",
    )
    st.caption(t("reasoning.watch.per_step.caption"))

    st.markdown(f"**{t('reasoning.watch.group', step=step)}**")
    st.caption(t("reasoning.watch.group.caption", question=svc.pretty(g.question), answer=g.answer, step=step))
    labels = [f"o{j + 1}" for j in range(G)]
    ui.figure(
        views.group_bars(
            g.rewards,
            g.advantages,
            labels=labels,
            reward_title=t("reasoning.reward"),
            advantage_title=t("reasoning.advantage"),
            mean_name=t("reasoning.baseline"),
        ),
        {
            "step": step,
            "question": g.question,
            "completions": list(g.completions),
            "rewards": g.rewards,
            "advantages": g.advantages,
            "lengths": g.lengths,
        },
        f"reasoning-grpo-run-group-step{step}",
        key="reasoning_watch_group_bars",
    )
    ui.table(
        {
            t("reasoning.col.output"): labels,
            t("reasoning.watch.col.completion"): [c or "∅" for c in g.completions],
            t("reasoning.col.right"): ["✓" if c else "✗" for c in g.correct],
            t("reasoning.col.reward"): [f"{r:.1f}" for r in g.rewards],
            t("reasoning.col.advantage"): [f"{a:+.2f}" for a in g.advantages],
            t("reasoning.col.length"): [str(int(n)) for n in g.lengths],
        }
    )
    if np.ptp(g.rewards) == 0:
        st.caption(t("reasoning.watch.group.flat"))
    st.markdown(t("reasoning.watch.paper"))
    st.markdown(here(w))


def here(w: svc.Watched) -> str:
    """What happened in the run, in the page's language: numbers read from its card."""
    f = w.facts
    fields = {
        **f,
        **{k: pct(f[k]) for k in ("bar0", "bar1", "mix0", "mix1", "writes0", "writes1", "equal1", "near1", "level")},
        "len0": f"{f['len0']:.1f}",
        "len1": f"{f['len1']:.1f}",
    }
    trend = "up" if f["len1"] > f["len0"] * 1.05 else "down" if f["len1"] < f["len0"] * 0.95 else "flat"
    parts = [
        t("reasoning.watch.here.acc" if f["reached"] else "reasoning.watch.here.acc.never", **fields),
        t(f"reasoning.watch.here.length.{trend}", **fields),
        t("reasoning.watch.here.end", **fields),
    ]
    return ("" if current_lang() == "zh" else " ").join(parts)  # Chinese sentences run on without a space
