"""The MoE page's training section: three small Switch runs recorded step by step, one per way of balancing the
load (Switch's auxiliary loss, DeepSeek-V3's bias, neither). A run picker and a training-step slider (both in the
link) pick the weights: the page's text is routed through them (tokens by expert, the expert loads against the
capacity), and the run's recorded history is drawn over the steps (each expert's share of the tokens, the dropped
share, the aux-free run's biases) with the picked step marked. The text says what each paper reports and, read from
the run's card, what happened here."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.moe import sections, views
from app.moe import service as svc
from app.shared import ui
from app.shared.i18n import InputError, current_lang, t

PART = "moe_train_part"


def section(text: str, backend: str) -> None:
    st.subheader(t("moe.h.train"))
    names = svc.runs()
    if not names:
        st.info(t("moe.train.missing"))
        return
    _part(text, backend)


def _titles(L: int) -> tuple[str, ...]:
    return tuple(t("moe.strip.layer.short", layer=i) for i in range(L))


@st.fragment(key=PART)
def _part(text: str, backend: str) -> None:
    """The run and step controls and everything drawn from them: a move reruns this part alone."""
    names = svc.runs()
    name = ui.choice(
        st.segmented_control,
        t("moe.train.run"),
        names,
        key="moe_run",
        labels={n: t(f"moe.train.run.{svc.RUN_KINDS[n]}") for n in names},
        help=t("moe.train.run.help"),
    )
    run = svc.training_run(name)
    steps = list(run.snapshots)
    step = ui.step_slider(
        t("moe.train.step"), steps, key="moe_step", help=t("moe.train.step.help", n=len(steps), last=steps[-1])
    )
    f, cfg = run.facts, run.config
    st.markdown(
        t(
            "moe.train.intro",
            layers=cfg["n_layers"],
            dim=cfg["dim"],
            E=cfg["n_experts"],
            shared=cfg["n_shared"],
            cf=cfg["capacity_factor"],
            steps=f["steps"],
            n=len(steps),
        )
    )
    try:  # the last step is the trained weights themselves; every other one a float16 snapshot
        res = svc.analyse_run(text, name, None if step == steps[-1] else step, backend)
    except InputError as e:
        ui.input_error(e)
        return
    at = min(int(np.searchsorted(run.steps, step)), len(run.steps) - 1)
    m = st.columns(3)
    m[0].metric(t("moe.train.m.val"), f"{run.snapshot_loss[steps.index(step)]:.3f}", help=t("moe.train.m.val.help"))
    share_help = t("moe.train.m.share.help", n=svc.SMOOTH, single=svc.SINGLE)
    m[1].metric(t("moe.train.m.share"), f"{run.load[at].max():.0%}", help=share_help)
    m[2].metric(t("moe.train.m.dropped"), f"{run.dropped[at].mean():.1%}", help=t("moe.train.m.dropped.help"))

    L, T, E = res.probs.shape
    sections.token_strips(res)
    dropped_slots = res.routed - res.kept
    ui.figure(
        views.load_bars(
            res.kept,
            dropped_slots,
            res.capacity,
            layer_titles=_titles(L),
            expert_title=t("moe.expert"),
            kept_title=t("moe.kept"),
            dropped_title=t("moe.dropped"),
            capacity_title=t("moe.capacity.line"),
            count_title=t("moe.slots"),
        ),
        np.stack([res.kept, dropped_slots], axis=1).reshape(2 * L, E),
        f"moe-training-load-step{step}",
        key="moe_train_load",
        row_labels=[f"layer {i} {n}" for i in range(L) for n in ("kept", "dropped")],
        col_labels=[f"expert {e}" for e in range(E)],
    )
    with st.expander(t("moe.train.routes")):
        rows = {t("moe.token"): list(res.tokens)}
        for i in range(L):
            rows[t("moe.train.col.expert", layer=i)] = res.index[i, :, 0]
            rows[t("moe.train.col.dropped", layer=i)] = res.dropped[i, :, 0]
        st.dataframe(ui.arrow(rows), hide_index=True, key="moe_train_routes")
    ui.readout(res)

    step_title = t("moe.train.step_axis")
    ui.figure(
        views.over_steps(
            run.steps,
            run.load,
            step,
            layer_titles=_titles(L),
            step_title=step_title,
            value_title=t("moe.train.share"),
            expert_title=t("moe.expert"),
            level=1.0 / E,
            level_text=t("moe.train.uniform", E=E),
        ),
        {"step": run.steps, **{f"layer {i} expert {e}": run.load[:, i, e] for i in range(L) for e in range(E)}},
        f"moe-training-shares-{name}",
        key="moe_train_shares",
    )
    st.caption(t("moe.train.shares.caption", n=svc.SMOOTH, single=svc.SINGLE))
    ui.figure(
        views.over_steps(
            run.steps,
            run.dropped[:, :, None],
            step,
            layer_titles=_titles(L),
            step_title=step_title,
            value_title=t("moe.train.dropped"),
            expert_title=t("moe.expert"),
        ),
        {"step": run.steps, **{f"layer {i}": run.dropped[:, i] for i in range(L)}},
        f"moe-training-dropped-{name}",
        key="moe_train_dropped",
    )
    st.caption(t("moe.train.dropped.caption", n=svc.SMOOTH, single=svc.SINGLE))
    if run.bias is not None:
        ui.figure(
            views.over_steps(
                run.steps,
                run.bias,
                step,
                layer_titles=_titles(L),
                step_title=step_title,
                value_title=t("moe.train.bias"),
                expert_title=t("moe.expert"),
                level=0.0,
                level_text="0",
                percent=False,
            ),
            {"step": run.steps, **{f"layer {i} expert {e}": run.bias[:, i, e] for i in range(L) for e in range(E)}},
            f"moe-training-bias-{name}",
            key="moe_train_bias",
        )
        st.caption(t("moe.train.bias.caption", n=svc.SMOOTH, single=svc.SINGLE))
    st.markdown(t(f"moe.train.paper.{run.kind}"))
    st.markdown(here(run))


def here(run: svc.TrainingRun) -> str:
    """What happened in the run, in the page's language: numbers read from its card."""
    f = run.facts
    parts = [t("moe.train.here", **f), t("moe.train.here.peak", n=svc.SMOOTH, **f)]
    if f["starved_step"]:
        parts.append(t("moe.train.here.starved", starved=svc.STARVED, n=svc.SMOOTH, total=f["E"] * f["layers"], **f))
    else:
        parts.append(t("moe.train.here.never", starved=svc.STARVED, n=svc.SMOOTH))
    if "bias_min" in f:
        parts.append(t("moe.train.here.bias", **f))
    return ("" if current_lang() == "zh" else " ").join(parts)  # Chinese sentences run on without a space
