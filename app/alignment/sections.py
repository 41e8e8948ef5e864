"""The Alignment page's sections, in the papers' order: the preference rule and the prompt every section answers;
InstructGPT's three steps (2203.02155) side by side, its reward model on two typed replies, DPO (2305.18290) on the
same pair, PPO's recorded curves, samples of every policy; the papers' settings against ours."""

import numpy as np
import streamlit as st

from app.alignment import service as svc
from app.alignment import views
from app.shared import ui
from app.shared.html import esc, span
from app.shared.i18n import InputError, t


def verdict(r) -> str:
    """The rule's reading of a reply, as one line of escaped HTML."""
    if not r.well_formed:
        why = t("alignment.verdict.no_end") if not r.ended else t("alignment.verdict.shape", max=svc.MAX_WORDS)
        return span(t("alignment.verdict.broken") + " · " + why, style="color:#d62728")
    words = [span(w, style="color:#2ca02c;font-weight:600") for w in r.kind]
    words += [span(w, style="color:#d62728;font-weight:600") for w in r.harsh]
    return esc(t("alignment.verdict.score", score=f"{r.score:+.0f}")) + (" · " + " ".join(words) if words else "")


def backend() -> str:
    """The sidebar's backend (torch or onnx)."""
    return st.session_state.get("backend", "torch")


# ---- the rule and the prompt ----------------------------------------------------------------------------------------
def rule() -> None:
    """The preference rule that stands in for the labellers, collapsed."""
    with st.expander(t("alignment.rule.title")):
        st.markdown(t("alignment.rule.body", max_words=svc.MAX_WORDS))
        st.caption(t("alignment.rule.kind") + " " + ", ".join(svc.KIND))
        st.caption(t("alignment.rule.harsh") + " " + ", ".join(svc.HARSH))


def fill() -> None:
    """on_change of the examples picker: put that held-out prompt in the three boxes."""
    i = st.session_state.get("alignment_example")
    if i is not None:
        prev, line, speaker = svc.examples()[int(i)]
        st.session_state.update(alignment_previous=prev, alignment_line=line, alignment_speaker=speaker)


def prompt() -> tuple[str, str, str]:
    """The examples picker and the prompt's three boxes; returns (previous speaker, line, speaker) as typed."""
    examples = svc.examples()
    default = examples[0]
    st.subheader(t("alignment.prompt.title"))
    st.selectbox(
        t("alignment.prompt.example"),
        range(len(examples)),
        index=0,
        key="alignment_example",
        on_change=fill,
        format_func=lambda i: f"{examples[i][0]} → {examples[i][2]}: {examples[i][1][:60]}",
    )
    c1, c2, c3 = st.columns([1, 3, 1])
    previous = ui.text_line(
        t("alignment.prompt.previous"), default[0], key="alignment_previous", max_chars=svc.MAX_SPEAKER, host=c1
    )
    line = ui.text_line(t("alignment.prompt.line"), default[1], key="alignment_line", max_chars=svc.MAX_LINE, host=c2)
    speaker = ui.text_line(
        t("alignment.prompt.speaker"), default[2], key="alignment_speaker", max_chars=svc.MAX_SPEAKER, host=c3
    )
    return previous, line, speaker


# ---- 1 · the three steps --------------------------------------------------------------------------------------------
def three_steps(res: svc.Replies, asked: tuple[str, str, str]) -> None:
    """Each installed model's greedy reply, judged by the rule and scored by the reward model; beside the scores, the
    reward model's ceiling on this prompt (near-equal rewards of different replies are its saturation, not a copy)."""
    st.subheader(t("alignment.steps.title"))
    st.markdown(t("alignment.steps.body"))
    by_name = {r.name: r for r in res.replies}
    order = [n for n in (svc.BASE, svc.SFT, svc.PPO, svc.DPO) if n in by_name]
    for col, name in zip(st.columns(len(order)), order):
        r = by_name[name]
        with col.container(border=True):
            st.markdown(f"**{t(f'alignment.step.{name}')}**")
            st.caption(t(f"alignment.step.{name}.how"))
            ui.markup(f'<div style="min-height:3.2em">“{esc(r.text)}{"" if r.ended else " …"}”</div>')
            ui.markup(f"<div style='font-size:0.85em'>{verdict(r)}</div>")
            if r.reward is not None:
                st.metric(t("alignment.reward"), f"{r.reward:+.2f}")
    ceiling_note(by_name.get(svc.PPO), by_name.get(svc.DPO), asked)
    if res.missing:
        st.info(t("alignment.missing", names=", ".join(res.missing)))
    scored = [r for r in res.replies if r.reward is not None]
    if scored:
        ui.figure(
            views.reply_scores(
                tuple(r.name for r in scored),
                tuple(t(f"alignment.step.{r.name}") for r in scored),
                tuple(r.reward for r in scored),
                title=t("alignment.reward"),
            ),
            {r.name: {"reply": r.text, "reward": r.reward, "rule_score": r.score} for r in scored},
            "alignment-replies",
            key="alignment_scores",
        )
    ui.readout(res)


def ceiling_note(ppo: svc.Reply | None, dpo: svc.Reply | None, asked: tuple[str, str, str]) -> None:
    """What the reward model gives kind replies on this prompt; where PPO's and DPO's different replies score the same,
    that this is the reward model's saturation and what it lets through."""
    if ppo is None or dpo is None or ppo.reward is None or dpo.reward is None:
        return
    try:
        c = svc.ceiling(*asked, backend())
    except InputError:
        return
    fields = {"lo": f"{c.lo:+.2f}", "hi": f"{c.hi:+.2f}", "probes": ", ".join(f"“{p}”" for p in svc.KIND_PROBES)}
    if ppo.text != dpo.text and abs(ppo.reward - dpo.reward) < svc.SAME:
        st.markdown(t("alignment.steps.same", ppo=f"{ppo.reward:+.3f}", dpo=f"{dpo.reward:+.3f}", **fields))
    else:
        st.caption(t("alignment.steps.ceiling", **fields))


# ---- 2 · the reward model, live -------------------------------------------------------------------------------------
def reward_model(asked: tuple[str, str, str]) -> tuple[str, str]:
    """Two typed replies to the prompt scored by the reward model, its Bradley–Terry probability against the rule's
    preference; returns the two replies (DPO reads the same pair)."""
    st.subheader(t("alignment.rm.title"))
    st.markdown(t("alignment.rm.body"))
    a_col, b_col = st.columns(2)
    reply_a = ui.text_line(
        t("alignment.rm.a"), t("alignment.rm.a_default"), key="alignment_a", max_chars=svc.MAX_REPLY, host=a_col
    )
    reply_b = ui.text_line(
        t("alignment.rm.b"), t("alignment.rm.b_default"), key="alignment_b", max_chars=svc.MAX_REPLY, host=b_col
    )
    try:
        pair = svc.pair(*asked, reply_a, reply_b, backend())
    except InputError as e:
        ui.input_error(e)
        return reply_a, reply_b
    m1, m2, m3 = st.columns(3)
    m1.metric(t("alignment.rm.ra"), f"{pair.a.reward:+.3f}")
    m2.metric(t("alignment.rm.rb"), f"{pair.b.reward:+.3f}")
    m3.metric(t("alignment.rm.p"), f"{pair.p_a:.1%}")
    rule = {1: "alignment.rm.rule_a", -1: "alignment.rm.rule_b", 0: "alignment.rm.rule_tie"}[pair.rule]
    agree = pair.rule == 0 or (pair.p_a > 0.5) == (pair.rule > 0)
    ui.markup(f"<div>A: {verdict(pair.a)}<br>B: {verdict(pair.b)}</div>")
    st.markdown(t(rule) + " " + (t("alignment.rm.agree") if agree else t("alignment.rm.disagree")))
    ui.readout(pair)
    return reply_a, reply_b


# ---- 3 · DPO, live --------------------------------------------------------------------------------------------------
def dpo(asked: tuple[str, str, str], chosen: str, rejected: str) -> None:
    """DPO's implicit rewards and loss on the pair (A chosen, B rejected), and each token's log-ratio to sft."""
    st.subheader(t("alignment.dpo.title"))
    st.markdown(t("alignment.dpo.body", beta=svc.BETA))
    try:
        d = svc.dpo(*asked, chosen, rejected, backend())
    except InputError as e:
        ui.input_error(e)
        return
    m1, m2, m3 = st.columns(3)
    m1.metric(t("alignment.dpo.rw"), f"{d.chosen.implicit:+.3f}")
    m2.metric(t("alignment.dpo.rl"), f"{d.rejected.implicit:+.3f}")
    m3.metric(
        t("alignment.dpo.loss"),
        f"{d.loss:.3f}",
        f"{d.loss - d.start_loss:+.3f} {t('alignment.dpo.vs_sft')}",
        delta_color="inverse",
    )
    ratios = [s.logp - s.logp_ref for s in (d.chosen, d.rejected)]
    extent = max(0.5, float(max(np.abs(r).max() for r in ratios)))
    ui.markup(
        views.ratio_strip(d.chosen.tokens, ratios[0], label="A", span_=extent)
        + views.ratio_strip(d.rejected.tokens, ratios[1], label="B", span_=extent)
    )
    st.caption(t("alignment.dpo.strip"))
    ui.download(
        {
            "beta": d.beta,
            "loss": d.loss,
            **{
                side: {"tokens": s.tokens, "logp_dpo": s.logp, "logp_sft": s.logp_ref, "implicit_reward": s.implicit}
                for side, s in (("chosen", d.chosen), ("rejected", d.rejected))
            },
        },
        "alignment-dpo",
        key="alignment_dpo_dl",
    )
    ui.readout(d)


# ---- 4 · PPO's record -----------------------------------------------------------------------------------------------
def ppo_record() -> None:
    """PPO's curves as the ppo card recorded them: the learned reward against the rule's score, where they part."""
    st.subheader(t("alignment.ppo.title"))
    try:
        c = svc.ppo_curves()
    except InputError as e:
        ui.input_error(e)
        return
    st.markdown(t("alignment.ppo.body", kl=svc.KL_COEF, steps=int(c.steps[-1]), peak=c.peak))
    spans = ", ".join(f"{a:.0f}–{b:.0f}" for a, b in c.diverging)
    st.markdown(t("alignment.ppo.diverging", spans=spans) if c.diverging else t("alignment.ppo.no_diverging"))
    titles = {
        k: t(f"alignment.ppo.{k}")
        for k in ("reward", "win", "kl", "reward_line", "rule_line", "reward_axis", "rule_axis")
    }
    ui.figure(
        views.ppo_curves(
            tuple(c.steps),
            tuple(c.reward),
            tuple(c.rule_score),
            tuple(c.win_rate),
            tuple(c.kl),
            peak=c.peak,
            diverging=c.diverging,
            bar=0.65,
            titles=titles,
            x_title=t("alignment.ppo.step"),
            peak_name=t("alignment.ppo.peak"),
            bar_name=t("alignment.ppo.bar"),
        ),
        {
            "step": c.steps,
            "reward": c.reward,
            "rule_score": c.rule_score,
            "win_rate_vs_sft": c.win_rate,
            "kl_to_sft": c.kl,
        },
        "alignment-ppo-curves",
        key="alignment_ppo",
    )
    st.caption(t("alignment.ppo.note", n=svc.CURVE_PROMPTS))


# ---- 5 · samples side by side ---------------------------------------------------------------------------------------
@st.fragment
def samples(asked: tuple[str, str, str]) -> None:
    """Samples of every model side by side: their number and seed rerun this part of the page alone."""
    st.subheader(t("alignment.samples.title"))
    s1, s2 = st.columns(2)
    n = s1.slider(t("alignment.samples.n"), 1, svc.MAX_SAMPLES, 3, key="alignment_n", bind="query-params")
    seed = s2.number_input(t("alignment.samples.seed"), 0, 9999, 0, key="alignment_seed", bind="query-params")
    try:
        sm = svc.samples(*asked, int(n), int(seed), backend())
    except InputError as e:
        ui.input_error(e)
        return
    rows = [
        {
            t("alignment.samples.model"): t(f"alignment.step.{name}"),
            t("alignment.samples.reply"): r.text + ("" if r.ended else " …"),
            t("alignment.samples.score"): r.score,
            t("alignment.reward"): None if r.reward is None else round(r.reward, 3),
        }
        for name, group in zip(sm.names, sm.by_model)
        for r in group
    ]
    st.dataframe(ui.arrow(rows), hide_index=True, width="stretch")
    means = {name: float(np.mean([r.score for r in g])) for name, g in zip(sm.names, sm.by_model)}
    st.caption(
        t("alignment.samples.means")
        + " "
        + " · ".join(f"{t(f'alignment.step.{k}')} {v:+.2f}" for k, v in means.items())
    )
    ui.readout(sm)


# ---- Llama 2-Chat ---------------------------------------------------------------------------------------------------
def llama2_chat() -> None:
    """How Llama 2-Chat (2307.09288) ran the same steps: two reward models, five rounds, rejection sampling then PPO,
    and Ghost Attention for a system instruction over many turns."""
    st.subheader(t("alignment.llama2.title"))
    st.markdown(t("alignment.llama2.body"))


# ---- the paper and ours ---------------------------------------------------------------------------------------------
def percent_or_dash(v, f: str = "{:.0%}") -> str:
    """A card's metric as a whole percentage (or ``f``), a dash where the card lacks it."""
    return "—" if v is None else f.format(v)


def paper_vs_here() -> None:
    """InstructGPT's and DPO's settings and results against ours (the cards' metrics), and where we departed."""
    m = {name: svc.card(name).get("metrics", {}) for name in (svc.SFT, svc.REWARD, svc.PPO, svc.DPO)}
    fmt = percent_or_dash
    ui.paper_vs_here(
        [
            (t("alignment.pvh.model"), t("alignment.pvh.model.paper"), t("alignment.pvh.model.here")),
            (t("alignment.pvh.data"), t("alignment.pvh.data.paper"), t("alignment.pvh.data.here")),
            (
                t("alignment.pvh.sft"),
                t("alignment.pvh.sft.paper"),
                t(
                    "alignment.pvh.sft.here",
                    acc=fmt(m[svc.SFT].get("format_accuracy")),
                    base=fmt(m[svc.SFT].get("gpt_format_accuracy")),
                ),
            ),
            (
                t("alignment.pvh.rm"),
                t("alignment.pvh.rm.paper"),
                t("alignment.pvh.rm.here", acc=fmt(m[svc.REWARD].get("pairwise_accuracy"))),
            ),
            (
                t("alignment.pvh.ppo"),
                t("alignment.pvh.ppo.paper"),
                t(
                    "alignment.pvh.ppo.here",
                    win=fmt(m[svc.PPO].get("win_rate_vs_sft")),
                    kl=fmt(m[svc.PPO].get("kl_to_sft"), "{:.2f}"),
                    beta=svc.KL_COEF,
                ),
            ),
            (
                t("alignment.pvh.dpo"),
                t("alignment.pvh.dpo.paper"),
                t(
                    "alignment.pvh.dpo.here",
                    win=fmt(m[svc.DPO].get("win_rate_vs_sft")),
                    kl=fmt(m[svc.DPO].get("kl_to_sft"), "{:.2f}"),
                    beta=svc.BETA,
                ),
            ),
        ],
        [t(f"alignment.dep.{k}") for k in ("size", "labellers", "value", "ptx")],
    )
