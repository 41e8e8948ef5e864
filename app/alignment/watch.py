"""The Alignment page's PPO and DPO runs watched step by step (``ppo-run``, ``dpo-run``: ppo and dpo trained again
with their settings and seed, recorded; their weights not kept). A run picker and a step slider (both in the link)
over the steps where replies were kept: the run's per-step numbers with the step marked — PPO's reward-model score,
KL to SFT and the reward it maximises (InstructGPT, 2203.02155); DPO's implicit rewards of the chosen and rejected
replies and each one's log-probability against the reference (2305.18290) — and the greedy replies to the same
held-out prompts at that step. The text says what the papers report and, read from the card, what happened here.
The controls and what they drive are one keyed fragment: a move reruns this part alone."""

from __future__ import annotations

import streamlit as st

from app.alignment import service as svc
from app.alignment import views
from app.shared import ui
from app.shared.i18n import InputError, current_lang, t

PART = "alignment_part_watch"
COLOURS = {"score": "#9467bd", "reward": "#1f77b4", "kl": "#7f7f7f", "chosen": "#2ca02c", "rejected": "#d62728"}


def section() -> None:
    st.subheader(t("alignment.watch.title"))
    if not svc.runs():
        st.info(t("alignment.watch.missing"))
        return
    _part()


@st.fragment(key=PART)
def _part() -> None:
    names = svc.runs()
    name = ui.choice(
        st.segmented_control,
        t("alignment.watch.run"),
        names,
        key="alignment_run",
        labels={n: t(f"alignment.watch.run.{svc.RUN_KINDS[n]}") for n in names},
    )
    try:
        r = svc.watched_run(name)
    except InputError as e:
        ui.input_error(e)
        return
    steps = list(r.steps)
    step = ui.step_slider(
        t("alignment.watch.step"),
        steps,
        key="alignment_step",
        help=t("alignment.watch.step.help", n=len(steps), last=steps[-1]),
    )
    st.markdown(t(f"alignment.watch.intro.{r.kind}", steps=r.facts["steps"], n=len(steps)))
    h = r.history
    at = max(0, min(step, len(h["step"])) - 1)  # the batch of step `step` (step 0: the first batch)
    m = ui.row()
    if r.kind == "ppo":
        m.metric(t("alignment.watch.m.score"), f"{h['score'][at]:+.2f}", help=t("alignment.watch.m.batch"))
        m.metric(t("alignment.watch.m.kl"), f"{h['kl'][at]:.2f}", help=t("alignment.watch.m.batch"))
        m.metric(t("alignment.watch.m.reward"), f"{h['reward'][at]:+.2f}", help=t("alignment.watch.m.batch"))
        top = (
            (t("alignment.watch.score"), h["score"], COLOURS["score"]),
            (t("alignment.watch.reward"), h["reward"], COLOURS["reward"]),
        )
        bottom = ((t("alignment.watch.kl"), h["kl"], COLOURS["kl"]),)
        titles = (t("alignment.watch.reward_axis"), t("alignment.watch.kl_axis"))
        data = {k: h[k] for k in ("step", "score", "kl", "reward", "length")}
    else:
        m.metric(t("alignment.watch.m.chosen"), f"{h['chosen_reward'][at]:+.3f}", help=t("alignment.watch.m.batch"))
        m.metric(t("alignment.watch.m.rejected"), f"{h['rejected_reward'][at]:+.3f}", help=t("alignment.watch.m.batch"))
        m.metric(t("alignment.watch.m.accuracy"), f"{h['reward_accuracy'][at]:.0%}", help=t("alignment.watch.m.batch"))
        top = (
            (t("alignment.watch.chosen"), h["chosen_reward"], COLOURS["chosen"]),
            (t("alignment.watch.rejected"), h["rejected_reward"], COLOURS["rejected"]),
        )
        bottom = (
            (t("alignment.watch.chosen"), h["logp_chosen"] - h["ref_chosen"], COLOURS["chosen"]),
            (t("alignment.watch.rejected"), h["logp_rejected"] - h["ref_rejected"], COLOURS["rejected"]),
        )
        titles = (t("alignment.watch.implicit_axis"), t("alignment.watch.logp_axis"))
        data = {k: h[k] for k in ("step", *svc.DPO_KEYS)}
    ui.figure(
        views.run_over_steps(
            h["step"],
            top,
            bottom,
            step,
            top_title=titles[0],
            bottom_title=titles[1],
            x_title=t("alignment.watch.step_axis"),
            zero=r.kind == "dpo",
        ),
        data,
        f"alignment-{name}",
        key="alignment_watch_curves",
    )
    st.caption(t(f"alignment.watch.caption.{r.kind}"))
    st.markdown(f"**{t('alignment.watch.replies', step=step)}**")
    replies = r.replies[steps.index(step)]
    rows = {
        t("alignment.watch.col.prompt"): [x.prompt.strip().replace("\n\n", " · ").replace("\n", " ") for x in replies],
        t("alignment.watch.col.reply"): [x.reply for x in replies],
        t("alignment.watch.col.rule"): [f"{x.rule_score:+.0f}" for x in replies],
    }
    if r.kind == "ppo":
        rows[t("alignment.watch.col.reward")] = [f"{x.reward:+.2f}" for x in replies]
    ui.table(rows)
    st.markdown(t(f"alignment.watch.paper.{r.kind}"))
    st.markdown(here(r))


def here(r: svc.WatchedRun) -> str:
    """What happened in the run, in the page's language: numbers read from its card."""
    f = r.facts
    if r.kind == "ppo":
        fields = {k: f"{v:+.2f}" if isinstance(v, float) else v for k, v in f.items()}
        fields.update(kl0=f"{f['kl0']:.2f}", kl1=f"{f['kl1']:.2f}", length0=f"{f['length0']:.1f}")
        fields["kl_coef"] = f"{f['kl_coef']:g}"
        fields["length1"] = f"{f['length1']:.1f}"
        return t("alignment.watch.here.ppo", **fields)
    fields = {k: f"{v:+.3f}" if isinstance(v, float) else v for k, v in f.items()}
    fields.update(accuracy0=f"{f['accuracy0']:.0%}", accuracy1=f"{f['accuracy1']:.0%}")
    fields.update({k: f"{f[k]:+.1f}" for k in ("dchosen0", "dchosen1", "drejected0", "drejected1")})
    both = "both" if f["dchosen1"] < 0 and f["drejected1"] < 0 else "chosen_up" if f["dchosen1"] >= 0 else "other"
    parts = [t("alignment.watch.here.dpo", **fields), t(f"alignment.watch.here.dpo.{both}", **fields)]
    return ("" if current_lang() == "zh" else " ").join(parts)  # Chinese sentences run on without a space
