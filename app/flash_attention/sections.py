"""The sections of the FlashAttention page, in the paper's order: Algorithm 1 step by step on one real head of the
trained GPT (the block sizes, the tile each step computes, the running max and sum, the output rows it updates), HBM
accesses against standard attention (Theorem 2), live kernel timings, and what FlashAttention-2 and -3 changed."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.flash_attention import service as svc
from app.flash_attention import views
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.tokens import visible

MODES = ("memory", "blocks")  # the block sizes chosen from the on-chip memory M, or B_r and B_c directly
KERNELS = "flash_kernels"  # the timings of the last measurement, kept for the session


def try_this() -> None:
    """The guided experiment, with the numbers of the page's default walk."""
    w = svc.walk(svc.DEFAULT_TEXT, 0, 0, *svc.blocks_from_memory(svc.MEMORY[0]), True)
    ui.try_this(
        t("flash.try.do"),
        t(
            "flash.try.see",
            tiles=len(w.j),
            skipped=int(w.skipped.sum()),
            block=w.block_r,
            block2=2 * w.block_r,
            n=len(w.pieces),
            err=float(max(w.final_error, 1e-12)),
        ),
        t("flash.try.why"),
    )


# ---- 1 · Algorithm 1, step by step ----------------------------------------------------------------------------------
def tiled(text: str, layer: int, head: int, causal: bool) -> svc.Walk | None:
    """The block sizes (from M, or B_r and B_c) and the tiled loop over them; a bad input shows its message and
    returns None."""
    c_mode, c_a, c_b = st.columns([1.3, 1, 1])
    mode = ui.choice(
        c_mode.segmented_control,
        t("flash.mode"),
        MODES,
        key="flash_mode",
        labels={m: t(f"flash.mode.{m}") for m in MODES},
        required=True,
    )
    try:
        if mode == "memory":
            M = c_a.select_slider(
                t("flash.memory"),
                svc.MEMORY,
                svc.MEMORY[0],
                key="flash_m",
                bind="query-params",
                format_func=lambda v: f"{v:,}",
                help=t("flash.memory.help", d=svc.head_width()),
            )
            block_r, block_c = svc.blocks_from_memory(M)
        else:
            block_r = c_a.select_slider(t("flash.block_r"), svc.BLOCKS, 8, key="flash_br", bind="query-params")
            block_c = c_b.select_slider(t("flash.block_c"), svc.BLOCKS, 8, key="flash_bc", bind="query-params")
        return svc.walk(text, int(layer), int(head), block_r, block_c, causal)
    except InputError as e:
        ui.input_error(e)
        return None


def steps(w: svc.Walk) -> None:
    """The walk's steps on the figure's own slider (in the browser: every step's numbers ride in the figure), opening
    on a link's ``flash_step`` or the first iteration; what a step does not change (the block sizes, the final error)
    is drawn once above it, the help of its readouts in a caption under it."""
    N, S = len(w.pieces), len(w.j)
    metric_row = ui.row()
    metric_row.metric(
        t("flash.m.blocks"),
        f"{w.block_r} × {w.block_c} · {w.t_r} × {w.t_c}",
        help=t("flash.m.blocks.help", N=N, d=w.d),
    )
    metric_row.metric(t("flash.m.final"), f"{w.final_error:.1e}", help=t("flash.m.final.help"))
    labels = token_labels(w)
    computed = np.cumsum(~w.skipped)
    total = int((~w.skipped).sum())
    readouts, notes = [t("flash.readout.start")], [t("flash.readout.start.note")]
    for s in range(S):
        j, i = int(w.j[s]) + 1, int(w.i[s]) + 1
        err = w.error[s]
        readouts.append(
            f"s = {s + 1} · {t('flash.m.step')} ({j}, {i})<br>{t('flash.m.tiles')} {int(computed[s])} / {total}"
            f" · {t('flash.m.rows')} {int(w.finished[s])} / {N}<br>{t('flash.m.err')} "
            + ("—" if np.isnan(err) else f"{err:.1e}")
        )
        notes.append(t("flash.block.skipped", j=j, i=i) if w.skipped[s] else "")
    st.markdown(f"**{t('flash.tiles.title')}** · **{t('flash.state.title')}** · **{t('flash.block.title')}**")
    order = np.stack([w.j, w.i, w.skipped.astype(int)], axis=1)
    fig = views.algorithm_steps(
        w.scores, w.m, w.l, order, w.P, w.O_before, w.O_after, w.kept, (w.block_r, w.block_c),
        readouts=tuple(readouts), notes=tuple(notes), row_labels=tuple(labels),
        col_labels=tuple(visible(x) for x in w.pieces),
        titles=(t("flash.block.P"), t("flash.block.O"), t("flash.block.kept")),
        query_title=t("flash.tiles.query"), key_title=t("flash.tiles.key"), value_title=t("flash.tiles.score"),
        row_title=t("flash.state.row"), now_name=t("flash.state.now"), final_name=t("flash.state.final"),
        dim_title=t("flash.block.dim"), tile_key_title=t("flash.block.key"), before_name=t("flash.block.before"),
        after_name=t("flash.block.after"), active=ui.query_int("flash_step", 1, 0, S), prefix=t("flash.step") + " ",
    )  # fmt: skip
    ui.figure(
        fig,
        {"pieces": list(w.pieces), "j": w.j + 1, "i": w.i + 1, "skipped": w.skipped, "m": w.m, "l": w.l},
        "flash-steps",
        key="flash_steps",
    )
    st.caption(
        " ".join(
            (
                t("flash.step.help"),
                t("flash.m.step.help"),
                t("flash.m.tiles.help", skipped=int(w.skipped.sum()), total=S),
                t("flash.m.rows.help"),
                t("flash.m.err.help", scale=w.scale),
            )
        )
    )
    st.caption(t("flash.tiles.caption"))
    st.caption(t("flash.state.caption"))
    st.caption(t("flash.block.caption"))


def token_labels(w: svc.Walk) -> list[str]:
    """Each position with its token, as the figures' axes show them."""
    return [f"{p}: {visible(x)}" for p, x in enumerate(w.pieces)]


# ---- 2 · IO accounting -----------------------------------------------------------------------------------------------
@st.fragment
def io() -> None:
    """2 · HBM accesses of standard attention and of FlashAttention (Theorem 2), over N and over M."""
    st.subheader(t("flash.io.title"))
    st.caption(t("flash.io.caption", d=svc.IO_D))
    c_n, c_m = st.columns(2)
    N = c_n.select_slider(
        t("flash.io.n"), svc.IO_NS, 1024, key="flash_io_n", bind="query-params", format_func=lambda v: f"{v:,}"
    )
    M = c_m.select_slider(
        t("flash.io.m"), svc.IO_MEMORY, 65536, key="flash_io_m", bind="query-params", format_func=lambda v: f"{v:,}"
    )
    try:
        over_n = [svc.io(n, M) for n in svc.IO_NS]
        over_m = [svc.io(N, m) for m in svc.IO_MEMORY]
    except InputError as e:
        ui.input_error(e)
        return
    here = over_n[svc.IO_NS.index(N)]
    metric_row = ui.row()
    metric_row.metric(t("flash.io.m_standard", N=N), f"{here.standard:,}")
    metric_row.metric(t("flash.io.m_flash", M=M), f"{here.flash:,}")
    metric_row.metric(
        t("flash.io.m_ratio"),
        f"{here.standard / here.flash:.2f}×",
        help=t("flash.io.m_ratio.help", br=here.block_r, bc=here.block_c, d2=here.d**2),
    )
    names = {k: t(f"flash.io.{k}") for k in ("standard", "flash", "theorem")}
    charts = (
        (svc.IO_NS, over_n, t("flash.io.over_n", M=M), "flash-io-over-n"),
        (svc.IO_MEMORY, over_m, t("flash.io.over_m", N=N), "flash-io-over-m"),
    )
    for col, (x, runs, x_title, name) in zip(st.columns(2), charts):
        data = {
            "N": [r.N for r in runs],
            "M": [r.M for r in runs],
            "B_r": [r.block_r for r in runs],
            "B_c": [r.block_c for r in runs],
            **{k: [getattr(r, k) for r in runs] for k in names},
        }
        with col:
            ui.figure(
                views.loglog(
                    np.array(x),
                    {names[k]: np.array(data[k], dtype=float) for k in names},
                    x_title=x_title,
                    y_title=t("flash.io.accesses"),
                    dashed=(names["theorem"],),
                ),
                data,
                name,
                key=name.replace("-", "_"),
            )


# ---- 3 · live kernels ------------------------------------------------------------------------------------------------
@st.fragment
def kernels() -> None:
    """3 · The kernels timed on this machine, on the reader's request."""
    device = svc.device()
    st.subheader(t("flash.kern.title"))
    st.caption(t("flash.kern.caption", d=svc.IO_D, device=device.upper()))
    if st.button(t("flash.kern.run"), key="flash_measure", icon=":material/timer:", type="primary"):
        bar = st.progress(0.0)
        timings = []
        for k, N in enumerate(svc.KERNEL_NS):
            bar.progress(k / len(svc.KERNEL_NS), text=t("flash.kern.progress", N=N))
            timings += svc.measure(N)
        bar.empty()
        st.session_state[KERNELS] = tuple(timings)
    timings = st.session_state.get(KERNELS)
    if not timings:
        st.info(t("flash.kern.none", ns=", ".join(f"{n:,}" for n in svc.KERNEL_NS)))
        return
    names = {}
    for x in timings:  # one line per kernel and the backend it ran on
        label = t(f"flash.kern.{x.kernel}") + ("" if x.kernel == "tiled" else f" · {x.backend}")
        names.setdefault((x.kernel, x.backend), label)
    Ns = np.array(sorted({x.N for x in timings}))
    for col, (field, title, name) in zip(
        st.columns(2),
        (("ms", t("flash.kern.time"), "flash-kernel-time"), ("peak_mb", t("flash.kern.memory"), "flash-kernel-memory")),
    ):
        series = {
            label: np.array(
                [
                    next((getattr(x, field) for x in timings if (x.kernel, x.backend) == key and x.N == n), np.nan)
                    for n in Ns
                ]
            )
            for key, label in names.items()
        }
        with col:
            ui.figure(
                views.loglog(Ns, series, x_title=t("flash.kern.n"), y_title=title),
                [x.__dict__ for x in timings],
                name,
                key=name.replace("-", "_"),
            )
    st.caption(
        t("flash.kern.source", device=timings[0].device, source=", ".join(sorted({x.memory_source for x in timings})))
    )


# ---- 4 · FlashAttention-2 and -3 ------------------------------------------------------------------------------------
def what_came_next() -> None:
    st.subheader(t("flash.next.title"))
    st.markdown(t("flash.next.v2"))
    st.markdown(t("flash.next.v3"))


# ---- the paper's results beside what this page does -----------------------------------------------------------------
def paper_vs_here() -> None:
    """The headline results of the paper's §4 beside what runs here: the speed-ups are the paper's alone."""
    none = t("flash.pvh.here.none")
    ui.paper_vs_here(
        [
            (t("flash.pvh.bert"), t("flash.pvh.bert.paper"), none),
            (t("flash.pvh.gpt2"), t("flash.pvh.gpt2.paper"), none),
            (t("flash.pvh.lra"), t("flash.pvh.lra.paper"), none),
            (t("flash.pvh.long"), t("flash.pvh.long.paper"), none),
            (t("flash.pvh.kernel"), t("flash.pvh.kernel.paper"), t("flash.pvh.here.kernel")),
        ],
        [t("flash.pvh.dep.speed")],
    )
