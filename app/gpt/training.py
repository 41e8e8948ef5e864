"""The GPT page's training section: how the picked model learnt, for a model whose training was recorded (the
dynamics model, ``gpt-induction``): every head's previous-token and induction scores over the steps, the loss on a
sequence's first copy and on its repeat, Olsson et al.'s in-context-learning score, the step where the induction
head formed, and the step the page's views run on. Any other model: what it lacks, and a button to the one that
has it."""

import numpy as np
import streamlit as st

from app.gpt import service as svc
from app.gpt.views import head_scores_over_steps, loss_by_position, losses_over_steps
from app.shared import ui
from app.shared.heatmaps import attention_heatmap
from app.shared.i18n import InputError, layer_head_label, t
from app.shared.training_jobs import LEARNING_RATES, SNAPSHOT_EVERY, cap_s


def _pick_dynamics() -> None:
    st.session_state["gpt_model"] = svc.DYNAMICS
    st.session_state.pop("gpt_step", None)  # the run's last step: the trained weights


def section(facts: dict) -> None:
    st.header(t("gpt.train.title"))
    if not facts.get("dynamics"):
        st.markdown(t("gpt.train.none.real" if facts["real"] else "gpt.train.none", name=facts["name"]))
        if svc.handle(svc.DYNAMICS).available:
            st.markdown(t("gpt.train.offer", n=len(svc.handle(svc.DYNAMICS).snapshots)))
            st.button(t("gpt.train.open"), on_click=_pick_dynamics, icon=":material/timeline:")
            live()
        return
    d = svc.dynamics(facts["name"])
    step, formed = facts["step"], d.formed
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(t("gpt.train.m.formed"), f"{formed:,}", help=t("gpt.train.m.formed.help"))
    m2.metric(t("gpt.train.m.induction"), f"{facts['best_induction']:.2f}", help=t("gpt.train.m.induction.help"))
    m3.metric(t("gpt.train.m.ratio"), f"{facts['induction_ratio']:.0%}", help=t("gpt.train.m.ratio.help"))
    m4.metric(
        t("gpt.train.m.icl"), f"{facts['icl']:+.2f}", help=t("gpt.train.m.icl.help", **svc.icl_tokens(facts["name"]))
    )
    layers, heads = d.induction.shape[1:]
    labels = [layer_head_label(layer, head) for layer in range(layers) for head in range(heads)]
    step_title, formed_name = t("gpt.train.step"), t("gpt.train.formed", step=formed)
    ui.figure(
        head_scores_over_steps(
            d.measured,
            d.induction,
            d.prev_token,
            labels,
            formed,
            step,
            titles=(t("gpt.train.fig.induction"), t("gpt.train.fig.prev")),
            step_title=step_title,
            formed_name=formed_name,
        ),
        {
            "step": d.measured,
            **{f"induction {lab}": d.induction[:, i // heads, i % heads] for i, lab in enumerate(labels)},
        },
        "gpt-training-heads",
        key="gpt_train_heads",
    )
    ui.figure(
        losses_over_steps(
            d.steps,
            d.loss,
            d.measured,
            d.loss_first,
            d.loss_repeat,
            d.icl,
            formed,
            step,
            names=(t("gpt.train.loss"), t("gpt.train.first"), t("gpt.train.repeat"), t("gpt.train.icl")),
            titles=(t("gpt.train.fig.loss"), t("gpt.train.fig.icl")),
            step_title=step_title,
            formed_name=formed_name,
        ),
        {"step": d.measured, "first": d.loss_first, "repeat": d.loss_repeat, "icl": d.icl},
        "gpt-training-losses",
        key="gpt_train_losses",
    )
    before, after = svc.around_formation(d)
    st.markdown(
        t(
            "gpt.train.here",
            formed=formed,
            steps=facts["steps"],
            minutes=facts["minutes"],
            before_step=before.step,
            before_ratio=before.ratio,
            before_icl=before.icl,
            before_score=before.score,
            after_step=after.step,
            after_ratio=after.ratio,
            after_icl=after.icl,
            after_score=after.score,
            head=layer_head_label(*after.head),
        )
    )
    icl = "gpt.train.icl.fell" if after.icl < before.icl else "gpt.train.icl.rose"
    st.markdown(t(icl, before_icl=before.icl, after_icl=after.icl))
    st.caption(t("gpt.train.paper"))
    live()


# ---- train it yourself -----------------------------------------------------------------------------------------------

JOB = "gpt_live_job"  # the session's live run (its id in the process's queue)


def _start() -> None:
    try:
        job = svc.live_trainer().submit(int(st.session_state["gpt_live_seed"]), float(st.session_state["gpt_live_lr"]))
    except InputError as e:
        st.session_state["gpt_live_error"] = e
        return
    st.session_state[JOB] = job.id
    st.session_state.pop("gpt_live_step", None)


def _cancel() -> None:
    job = svc.live_trainer().job(st.session_state.get(JOB))
    if job is not None:
        svc.live_trainer().cancel(job)


def live() -> None:
    """A learner trains the dynamics model from scratch: seed and learning rate, start and cancel; the run's place in
    the queue, then its progress, scores and losses as they arrive, and a step slider over its snapshots."""
    st.subheader(t("gpt.live.title"))
    if not svc.handle(svc.DYNAMICS).available:
        ui.input_error(svc.handle(svc.DYNAMICS).missing())
        return
    trainer = svc.live_trainer()
    st.markdown(t("gpt.live.intro", steps=trainer.settings["steps"], cap=cap_s() / 60))
    job = trainer.job(st.session_state.get(JOB))
    c1, c2, c3 = st.columns([1, 2, 1], vertical_alignment="bottom")
    c1.number_input(t("gpt.live.seed"), 0, 9999, 0, key="gpt_live_seed")
    recorded = trainer.settings["lr"]  # the recorded run's, where it is one of the choices
    c2.select_slider(
        t("gpt.live.lr"),
        LEARNING_RATES,
        value=recorded if recorded in LEARNING_RATES else LEARNING_RATES[1],
        key="gpt_live_lr",
        format_func=lambda r: f"{r:g}",
    )
    if job is not None and job.active:
        c3.button(t("gpt.live.cancel"), on_click=_cancel, icon=":material/stop:", key="gpt_live_cancel")
    else:
        c3.button(t("gpt.live.start"), on_click=_start, icon=":material/play_arrow:", key="gpt_live_start")
    error = st.session_state.pop("gpt_live_error", None)
    if error is not None:
        ui.input_error(error)
    if job is None:
        return
    st.fragment(_progress, run_every=1.0 if job.active else None)(job.id)


def _progress(job_id: int) -> None:
    """Where the run stands, redrawn every second while it runs; the whole page once it ends (the button turns
    back into Start)."""
    trainer = svc.live_trainer()
    job = trainer.job(job_id)
    if job is None:
        return
    if job.status == "queued":
        st.info(t("gpt.live.queued", place=trainer.place(job)), icon=":material/hourglass_top:")
        return
    formed = svc.live_formed(job)
    status = t(f"gpt.live.status.{job.status}", step=job.step, steps=job.steps, seconds=job.elapsed, error=job.error)
    st.progress(min(1.0, job.step / max(1, job.steps)), text=status)
    if not job.active and st.session_state.get("gpt_live_seen") != job.id:  # done, cancelled, capped or failed
        st.session_state["gpt_live_seen"] = job.id
        st.rerun()  # the whole page: Start again instead of Cancel, and no more polling
    if len(job.measured) < 2:
        return
    m1, m2, m3 = st.columns(3)
    m1.metric(t("gpt.live.m.steps_s"), f"{job.step / max(job.elapsed, 1e-9):.1f}")
    m2.metric(t("gpt.live.m.best"), f"{job.scores('induction')[-1].max():.2f}")
    m3.metric(t("gpt.train.m.formed"), f"{formed:,}" if formed is not None else t("gpt.live.not_yet"))
    layers, heads = job.scores("induction").shape[1:]
    labels = [layer_head_label(layer, head) for layer in range(layers) for head in range(heads)]
    measured = np.asarray(job.measured)
    first = np.asarray([m["loss_first"] for m in job.measures])
    repeat = np.asarray([m["loss_repeat"] for m in job.measures])
    icl = np.asarray([m["icl"] for m in job.measures])
    ui.plot(
        head_scores_over_steps.uncached(
            measured,
            job.scores("induction"),
            job.scores("prev_token"),
            labels,
            formed,
            job.step,
            titles=(t("gpt.train.fig.induction"), t("gpt.train.fig.prev")),
            step_title=t("gpt.train.step"),
            formed_name=t("gpt.train.formed", step=formed or 0),
        ),
        key="gpt_live_heads",
    )
    ui.plot(
        losses_over_steps.uncached(
            measured,
            np.asarray(job.loss),
            measured,
            first,
            repeat,
            icl,
            formed,
            job.step,
            names=(t("gpt.train.loss"), t("gpt.train.first"), t("gpt.train.repeat"), t("gpt.train.icl")),
            titles=(t("gpt.train.fig.loss"), t("gpt.train.fig.icl")),
            step_title=t("gpt.train.step"),
            formed_name=t("gpt.train.formed", step=formed or 0),
            smooth=1,
        ),
        key="gpt_live_losses",
    )
    _snapshot_view(job)


def _snapshot_view(job) -> None:
    """The run's kept weights, a step slider over them: the repeat's loss per position and the best head's map on a
    random sequence shown twice, computed on that step's weights."""
    steps = sorted(job.snapshots)
    if len(steps) < 2:
        st.caption(t("gpt.live.snapshots.wait", every=SNAPSHOT_EVERY))
        return
    step = st.select_slider(t("gpt.live.snapshot"), steps, value=steps[-1], key="gpt_live_step")
    look = svc.live_look(job.id, step)
    left, right = st.columns(2)
    with left:
        ui.plot(
            loss_by_position(
                look.loss,
                look.length,
                loss_title=t("gpt.icl.loss"),
                position_title=t("gpt.lens.position"),
                first_name=t("gpt.icl.first"),
                second_name=t("gpt.icl.second"),
            ),
            key="gpt_live_loss",
        )
    labels = [str(i) for i in range(look.pattern.shape[0])]
    with right:
        st.caption(t("gpt.live.map", head=layer_head_label(*look.head), score=float(look.scores.max())))
        ui.plot(
            attention_heatmap(
                look.pattern,
                labels,
                labels,
                query_title=t("view.query"),
                key_title=t("view.key"),
                value_title=t("view.weight"),
                zmax=1.0,
                height=360,
            ),
            key="gpt_live_map",
        )
