"""The Reasoning page's sections, in the papers' order: chain of thought against a direct answer on a problem
(2201.11903) and the held-out accuracy by number of operations; a GRPO group sampled, scored and turned into
advantages (2402.03300) and what training with it changed; why no value network, verifiable rewards and R1's
pipeline (2501.12948).

The problem box, its pickers, and what reads the problem (chain of thought, the accuracy curve's marker, the GRPO
group) are keyed fragments. A new problem reruns what reads it, and the box only when a control put the problem
there; the pickers (examples, difficulty, number, another) rerun only when their own state changed, and the curve's
heading and metrics, the training curves and R1's pipeline stay as drawn. The group's own controls sit in a fragment
above the group: they rerun the group alone, and a new problem does not redraw them (ui.drives). A callback that puts
a problem in the box sets the widgets' values for the parts it reruns with ``ui.set_for_part``; each part takes them
(``ui.take_pending``) before drawing its widgets."""

import numpy as np
import streamlit as st

from app.reasoning import service as svc
from app.reasoning import views
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.tokens import token_strip

BOX, PICKERS = "reasoning_part_box", "reasoning_part_pickers"
PROBLEM, CURVE, GROUP_PART = "reasoning_part_problem", "reasoning_part_curve", "reasoning_part_group"
PARTS = [PROBLEM, CURVE, GROUP_PART]  # what reads the problem, in page order
BOX_NOTE = "_reasoning_box_choice"  # the box's problem as the problem part reads it (ui.note_controls)
GROUP_CONTROLS = ("reasoning_policy", "reasoning_group", "reasoning_seed")
RUN_STEP = "reasoning_run_step"  # the watched run's kept step the group samples from (in the link)
GROUP = "_reasoning_group_choice"  # the group controls' values as the group part reads them (ui.note_controls)
TEXT = "_reasoning_text"  # the problem as the problem part last read it (None: none), for the curve and the group


def verdict(a) -> tuple[str, str]:
    """(delta text, colour) for a judged answer."""
    if not a.well_formed:
        return t("reasoning.malformed"), "orange"
    return (t("reasoning.right"), "green") if a.correct else (t("reasoning.wrong"), "red")


# ---- 1 · chain of thought, live --------------------------------------------------------------------------------------
def draw(index: int | None = None) -> None:
    """on_change of the difficulty and number controls: that held-out problem goes into the input box, and the box
    and what reads the problem rerun; with ``index`` (another problem), that number, shown in the pickers too."""
    k = int(st.session_state.get("reasoning_k", svc.DEFAULT_K))
    if index is None:  # the number box shows its own value already
        ui.set_for_part(reasoning_problem=svc.drawn(k, int(st.session_state.get("reasoning_index", 0))))
        st.rerun([BOX, *PARTS])
    else:
        ui.set_for_part(reasoning_problem=svc.drawn(k, index), reasoning_index=index)
        st.rerun([BOX, PICKERS, *PARTS])


def another() -> None:
    """on_click of "another problem": the next held-out problem of the same difficulty."""
    draw((int(st.session_state.get("reasoning_index", 0)) + 1) % svc.EVAL_N)


def example() -> None:
    """on_change of the examples: that problem in the input box, and the examples cleared, so that the same one can
    be picked again."""
    picked = st.session_state.get("reasoning_example")
    if picked:
        ui.set_for_part(reasoning_problem=picked)
    ui.set_for_part(reasoning_example=None)
    st.rerun([BOX, PICKERS, *PARTS])


def cot_heading() -> None:
    st.header(t("reasoning.cot.title"))
    st.markdown(t("reasoning.cot.caption", max=svc.MAX_STEPS))


@st.fragment(key=BOX)
def problem_box() -> None:
    """The problem's input box: typing reruns what reads the problem (the box shows what was typed)."""
    ui.take_pending("reasoning_problem")
    st.text_input(
        t("reasoning.problem"),
        svc.default_problem(),
        max_chars=svc.MAX_CHARS,
        help=t("reasoning.problem.help", max=svc.MAX_STEPS),
        **ui.drives("reasoning_problem", BOX_NOTE, PARTS),
    )
    ui.note_controls(BOX_NOTE, ["reasoning_problem"])


@st.fragment(key=PICKERS)
def pickers() -> None:
    """What puts a problem in the box: the examples, a held-out problem's difficulty and number, another one."""
    ui.take_pending("reasoning_example", "reasoning_index")
    st.pills(
        t("reasoning.examples"),
        svc.examples(),
        key="reasoning_example",
        on_change=example,
        format_func=svc.pretty,
    )
    row = ui.row(vertical_alignment="bottom")
    row.slider(
        t("reasoning.k"),
        1,
        svc.MAX_STEPS,
        svc.DEFAULT_K,
        key="reasoning_k",
        bind="query-params",
        on_change=draw,
        help=t("reasoning.k.help", n=svc.EVAL_N, single=svc.SINGLE),
    )
    row.number_input(
        t("reasoning.index"),
        0,
        svc.EVAL_N - 1,
        0,
        key="reasoning_index",
        bind="query-params",
        on_change=draw,
        help=t("reasoning.index.help", n=svc.EVAL_N),
    )
    row.button(t("reasoning.another"), key="reasoning_another", on_click=another, icon=":material/casino:")


@st.fragment(key=PROBLEM)
def chain_of_thought() -> None:
    """Chain of thought against a direct answer on the problem in the box."""
    text = st.session_state.get(BOX_NOTE, {}).get("reasoning_problem", svc.default_problem())
    try:
        problem = svc.problem(text)
    except InputError as e:
        ui.input_error(e)
        problem = None
    st.session_state[TEXT] = None if problem is None else text
    if problem is not None:
        answers(text)


def answers(text: str) -> None:
    """Both models' greedy answers to the problem, judged, with each written token's probability."""
    missing = svc.missing(svc.DIRECT, svc.COT)
    for error in missing:
        ui.input_error(error)
    if missing:
        return
    try:
        a = svc.answers(text, st.session_state.get("backend", "torch"))
    except InputError as e:
        ui.input_error(e)
        return
    st.caption(t("reasoning.problem_is", prompt=a.prompt, k=a.k))
    metrics = ui.row()
    metrics.metric(t("reasoning.m.truth"), a.answer, help=t("reasoning.m.truth.help"))
    for ans, key in ((a.direct, "reasoning.m.direct"), (a.cot, "reasoning.m.cot")):
        delta, colour = verdict(ans)
        metrics.metric(
            t(key),
            "—" if ans.answer is None else ans.answer,
            delta,
            delta_color=colour,
            delta_arrow="off",
            help=t("reasoning.m.answer.help", completion=ans.completion),
        )
    right_steps = sum(w == v for w, v in zip(a.cot.steps, a.values))
    metrics.metric(t("reasoning.m.steps"), f"{right_steps} / {a.k}", help=t("reasoning.m.steps.help"))
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('reasoning.direct')}**")
        ui.markup(
            token_strip(list(a.direct.tokens), a.direct.probs, vmin=0, vmax=1, fmt="{:.3f}", label=t("reasoning.strip"))
        )
        st.caption(t("reasoning.direct.note"))
    with right:
        st.markdown(f"**{t('reasoning.cot')}**")
        ui.markup(  # the strip and the chain's chips as one element: a new problem redraws both
            token_strip(list(a.cot.tokens), a.cot.probs, vmin=0, vmax=1, fmt="{:.3f}", label=t("reasoning.strip"))
            + views.step_chips(a.ops, a.values, a.cot.steps, a.start)
        )
        st.caption(t("reasoning.cot.note"))
    low = min(np.concatenate([a.direct.probs, a.cot.probs]), default=1.0)
    st.caption(t("reasoning.strip.note", low=f"{low:.2f}"))
    ui.readout(a)


def by_steps_figure(ks, ours: tuple, baseline: tuple, *, bar: int, current: int | None, name: str, key: str) -> None:
    """Held-out exact match by number of operations for two models, each given as (values, id, label), with the
    numbers' download (columns k, baseline, ours)."""
    (ours_y, ours_id, ours_label), (base_y, base_id, base_label) = ours, baseline
    ui.figure(
        views.accuracy_curve(
            ks,
            ours_y,
            base_y,
            bar=bar,
            chance=svc.CHANCE,
            current=current,
            cot_name=ours_label,
            direct_name=base_label,
            bar_name=t("reasoning.curve.bar", k=bar),
            chance_name=t("reasoning.curve.chance"),
            x_title=t("reasoning.k_axis"),
            y_title=t("reasoning.exact_match"),
        ),
        np.stack([ks, base_y, ours_y], axis=1),
        name,
        key=key,
        col_labels=["k", base_id, ours_id],
    )


def accuracy_curve(curves: svc.Curves | None, error: InputError | None) -> None:
    """Held-out accuracy against the number of operations, from the card; the figure's marker in a part of its own."""
    st.subheader(t("reasoning.curve.title"))
    if curves is None:
        ui.input_error(error)
    else:
        c = curves
        metrics = ui.row()
        metrics.metric(
            t("reasoning.m.direct_at_bar", k=c.bar_steps), f"{c.direct_at_bar:.0%}", help=t("reasoning.m.card.help")
        )
        metrics.metric(
            t("reasoning.m.cot_at_bar", k=c.bar_steps), f"{c.cot_at_bar:.0%}", help=t("reasoning.m.card.help")
        )
        metrics.metric(
            t("reasoning.m.gain"),
            f"{c.cot_at_bar - c.direct_at_bar:+.0%}",
            help=t("reasoning.m.gain.help", bar="—" if c.bar_gain is None else f"{c.bar_gain:+.0%}"),
        )
    curve_part(curves)  # drawn either way: the problem's controls rerun it by its key
    if curves is not None:
        st.caption(t("reasoning.curve.note", n=svc.EVAL_N, k=curves.bar_steps, easy=curves.easy_steps))


@st.fragment(key=CURVE)
def curve_part(c: svc.Curves | None) -> None:
    """The curves, marked at the problem's number of operations (nothing without the card's curves)."""
    text = st.session_state.get(TEXT)
    if c is None:
        return
    by_steps_figure(
        c.ks,
        (c.cot, "cot", t("reasoning.cot")),
        (c.direct, "direct", t("reasoning.direct")),
        bar=c.bar_steps,
        current=None if text is None else svc.problem(text).k,
        name="reasoning-accuracy-by-steps",
        key="reasoning_curve",
    )


# ---- 2 · GRPO, live --------------------------------------------------------------------------------------------------
def grpo_heading() -> None:
    """The section's heading and what GRPO does, with the training's group size and temperature (drawn once)."""
    s, start = svc.grpo_settings(), svc.start_settings()
    st.header(t("reasoning.grpo.title"))
    st.markdown(
        t(
            "reasoning.grpo.caption",
            G=s["group"],
            T=s["temperature"],
            examples=start["examples"],
            share=start["direct_share"],
        )
    )


@st.fragment(key="reasoning_part_group_controls")
def group_controls() -> None:
    """The group's policy, size and seed: each reruns the group part alone."""
    row = ui.row(vertical_alignment="bottom")
    ui.choice(
        row.segmented_control,
        t("reasoning.policy"),
        svc.policies(),
        labels={
            svc.START: t("reasoning.policy.start"),
            svc.GRPO: t("reasoning.policy.grpo"),
            svc.RUN: t("reasoning.policy.run"),
        },
        required=True,
        **ui.drives("reasoning_policy", GROUP, [GROUP_PART], bind=False),  # ui.choice writes the link itself
    )
    row.slider(t("reasoning.group"), 2, svc.MAX_GROUP, svc.GROUP, **ui.drives("reasoning_group", GROUP, [GROUP_PART]))
    row.number_input(
        t("reasoning.seed"), 0, 9999, 0, help=t("reasoning.seed.help"),
        **ui.drives("reasoning_seed", GROUP, [GROUP_PART]),
    )  # fmt: skip
    ui.note_controls(GROUP, GROUP_CONTROLS)


@st.fragment(key=GROUP_PART)
def group() -> None:
    """A group sampled for the problem (None: the problem part found none) by the group controls' policy."""
    text = st.session_state.get(TEXT)
    policy, size, seed = (st.session_state[GROUP][k] for k in GROUP_CONTROLS)
    if text is None:
        st.info(t("reasoning.grpo.no_problem"), icon=":material/info:")
        return
    if policy == svc.RUN:  # the watched run: its weights at a kept step (moving the slider reruns this part)
        policy = ui.training_step(svc.RUN, RUN_STEP)
    else:
        st.query_params.pop(RUN_STEP, None)
    try:
        g = svc.group(text, policy, int(size), int(seed))
    except InputError as e:
        ui.input_error(e)
        return
    G = len(g.completions)
    labels = [f"o{i + 1}" for i in range(G)]
    metrics = ui.row()
    metrics.metric(t("reasoning.m.mean_reward"), f"{g.rewards.mean():.3f}", help=t("reasoning.m.mean_reward.help"))
    metrics.metric(t("reasoning.m.correct"), f"{int(g.correct.sum())} / {G}")
    metrics.metric(t("reasoning.m.formed"), f"{int(g.well_formed.sum())} / {G}")
    metrics.metric(t("reasoning.m.std"), f"{g.rewards.std():.3f}", help=t("reasoning.m.std.help"))
    if np.ptp(g.rewards) == 0:
        st.warning(t("reasoning.grpo.flat"), icon=":material/horizontal_rule:")
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
            "question": g.question,
            "policy": g.policy,
            "completions": list(g.completions),
            "rewards": g.rewards,
            "advantages": g.advantages,
            "lengths": g.lengths,
            "token_weights": g.weights,
        },
        f"reasoning-group-{g.policy.replace('@', '-step')}-G{G}-seed{seed}",
        key="reasoning_group_bars",
    )
    ui.table(
        {
            t("reasoning.col.output"): labels,
            t("reasoning.col.completion"): [c or "∅" for c in g.completions],
            t("reasoning.col.answer"): ["—" if x is None else str(x) for x in g.answers],
            t("reasoning.col.right"): ["✓" if c else "✗" for c in g.correct],
            t("reasoning.col.reward"): [f"{r:.1f}" for r in g.rewards],
            t("reasoning.col.advantage"): [f"{a:+.2f}" for a in g.advantages],
            t("reasoning.col.length"): [str(int(n)) for n in g.lengths],
            t("reasoning.col.weight"): [f"{w:+.3f}" for w in g.weights],
        }
    )
    st.markdown(f"**{t('reasoning.push.title')}**")
    ui.markup(
        views.pushed_strips(
            g.completions,
            g.weights,
            [
                f"{lab} · {t('reasoning.reward')} {r:.1f} · Â {a:+.2f}"
                for lab, r, a in zip(labels, g.rewards, g.advantages)
            ],
        )
    )
    st.caption(t("reasoning.push.note", G=G))
    ui.readout(g)


def training() -> None:
    """What GRPO training changed, from the grpo card: exact match before and after, what sharpened, the curves."""
    st.subheader(t("reasoning.train.title"))
    try:
        tr = svc.training()
    except InputError as e:
        ui.input_error(e)
        return
    m, s = tr.metrics, tr.settings
    c1, c2, c3, c4 = st.columns(4)
    if "start_exact_match" in m:
        c1.metric(t("reasoning.m.start_em"), f"{m['start_exact_match']:.1%}", help=t("reasoning.m.em.help"))
    if "exact_match" in m:
        gain = m.get("exact_match_gain")
        c2.metric(
            t("reasoning.m.grpo_em"),
            f"{m['exact_match']:.1%}",
            None if gain is None else f"{gain:+.1%}",
            help=t("reasoning.m.em.help"),
        )
    if "well_formed" in m:
        c3.metric(t("reasoning.m.well_formed"), f"{m['well_formed']:.1%}")
    c4.metric(t("reasoning.m.steps_trained"), f"{s['steps']:,}", help=t("reasoning.m.steps_trained.help", **s))
    sharp = svc.sharpening(m)
    if sharp is not None:
        d1, d2, d3 = st.columns(3)
        for col, key, (before, after) in (
            (d1, "reasoning.m.writes_steps", sharp.steps),
            (d2, "reasoning.m.maj", sharp.maj),
            (d3, "reasoning.m.pass", sharp.passed),
        ):
            col.metric(
                t(key, K=svc.PASS_K, k=svc.BAR_STEPS),
                f"{after:.1%}",
                f"{after - before:+.1%}",
                help=t(f"{key}.help", K=svc.PASS_K, k=svc.BAR_STEPS, before=f"{before:.1%}"),
            )
        st.markdown(
            t(
                "reasoning.sharpen.rerank" if sharp.mostly_reranking else "reasoning.sharpen.reach",
                K=svc.PASS_K,
                k=svc.BAR_STEPS,
                g0=f"{sharp.greedy[0]:.1%}",
                g1=f"{sharp.greedy[1]:.1%}",
                m0=f"{sharp.maj[0]:.1%}",
                m1=f"{sharp.maj[1]:.1%}",
                p0=f"{sharp.passed[0]:.1%}",
                p1=f"{sharp.passed[1]:.1%}",
                s0=f"{sharp.steps[0]:.0%}",
                s1=f"{sharp.steps[1]:.0%}",
            )
        )
    if tr.by_steps is not None and tr.mix:
        ks, before, after = tr.by_steps
        by_steps_figure(
            ks,
            (after, "grpo", t("reasoning.policy.grpo")),
            (before, "grpo_start", t("reasoning.policy.start")),
            bar=svc.BAR_STEPS,
            current=None,
            name="reasoning-rl-by-steps",
            key="reasoning_rl_curve",
        )
        st.caption(t("reasoning.rl_curve.note", n=svc.EVAL_N, k=svc.BAR_STEPS, easy=svc.BAR_STEPS - 1, **tr.mix))
    ui.figure(
        views.training_curves(
            tr.curves,
            titles={
                "reward": t("reasoning.curve.reward"),
                "accuracy": t("reasoning.curve.accuracy"),
                "length": t("reasoning.curve.length"),
                "kl": t("reasoning.curve.kl"),
            },
            x_title=t("reasoning.step"),
            full_length=tr.full_length,
            full_length_name=t("reasoning.curve.full_length"),
            train_accuracy_name=t("reasoning.curve.train_accuracy"),
            held_out_name=t("reasoning.curve.held_out"),
        ),
        tr.curves,
        "reasoning-grpo-curves",
        key="reasoning_train_curves",
    )
    length = svc.first_last(tr.curves.get("length", []))
    if length is not None:
        first, last = length
        trend = "up" if last > first * 1.05 else "down" if last < first * 0.95 else "flat"
        st.markdown(
            t(
                f"reasoning.length.{trend}",
                first=f"{first:.1f}",
                last=f"{last:.1f}",
                full=f"{tr.full_length:.1f}",
                steps=f"{s['steps']:,}",
                kmax=s["max_steps_in_question"],
            )
        )
    st.markdown(t("reasoning.length.aha", params=f"{svc.params(svc.GRPO) or 0:,}"))


# ---- 3 · no value network, verifiable rewards, R1's pipeline ---------------------------------------------------------
def why() -> None:
    """Why GRPO needs no value network, why the reward is a rule, and DeepSeek-R1's pipeline."""
    st.header(t("reasoning.why.title"))
    st.markdown(t("reasoning.why.critic"))
    ui.page_link("alignment", t("reasoning.alignment_link"))
    st.subheader(t("reasoning.verifiable.title"))
    st.markdown(t("reasoning.verifiable.body", bonus=f"{svc.chains_bonus():.1f}"))
    st.subheader(t("reasoning.r1.title"))
    st.markdown(t("reasoning.r1.caption"))
    stages = [
        ("base", "model", t("reasoning.r1.base"), t("reasoning.r1.base.detail")),
        ("cold", "sft", t("reasoning.r1.cold"), t("reasoning.r1.cold.detail")),
        ("rl1", "rl", t("reasoning.r1.rl1"), t("reasoning.r1.rl1.detail")),
        ("reject", "data", t("reasoning.r1.reject"), t("reasoning.r1.reject.detail")),
        ("rl2", "rl", t("reasoning.r1.rl2"), t("reasoning.r1.rl2.detail")),
        ("r1", "model", t("reasoning.r1.r1"), ""),
        ("distill", "sft", t("reasoning.r1.distill"), t("reasoning.r1.distill.detail")),
    ]
    zero = (t("reasoning.r1.zero"), t("reasoning.r1.zero.detail"))
    ui.figure(
        views.pipeline(stages, zero=zero),
        {
            "R1-Zero": {"title": zero[0], "detail": zero[1]},
            **{sid: {"title": a, "detail": b} for sid, _, a, b in stages},
        },
        "reasoning-r1-pipeline",
        key="reasoning_r1",
    )
    st.caption(t("reasoning.r1.note"))


def paper_vs_here() -> None:
    """The papers' settings against ours, and where we departed from them."""
    ours = svc.here()
    ui.paper_vs_here(
        [
            (t(f"reasoning.pvh.{k}.what"), t(f"reasoning.pvh.{k}.paper"), t(f"reasoning.pvh.{k}.here", **ours))
            for k in svc.PVH_ROWS
        ],
        [t(f"reasoning.pvh.departure.{k}", **ours) for k in svc.PVH_DEPARTURES],
    )
