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
STEP = "_flash_step_choice"  # {"flash_step": the step shown}, as the step parts read it (ui.drives)
STEP_PARTS = ["flash_part_step_maps", "flash_part_step_tile"]
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
    """The step slider, then what it changes in two parts it reruns alone; what it does not change (the block
    sizes, the final error, the figures' titles and captions) is drawn once around them."""
    N = len(w.pieces)
    step_control(len(w.j))
    metric_row = ui.row()
    metric_row.metric(
        t("flash.m.blocks"),
        f"{w.block_r} × {w.block_c} · {w.t_r} × {w.t_c}",
        help=t("flash.m.blocks.help", N=N, d=w.d),
    )
    metric_row.metric(t("flash.m.final"), f"{w.final_error:.1e}", help=t("flash.m.final.help"))
    step_maps(w)
    c_map, c_state = st.columns([1, 1])
    c_map.caption(t("flash.tiles.caption"))
    c_state.caption(t("flash.state.caption"))
    st.markdown(f"**{t('flash.block.title')}**")
    step_tile(w)


@st.fragment(key="flash_part_step_control")
def step_control(S: int) -> None:
    """The step slider over the walk's S steps (none for a single step); fewer tiles than before keep the last."""
    step = ui.slider(
        st, t("flash.step"), 1, S, 1, help=t("flash.step.help"), **ui.drives("flash_step", STEP, STEP_PARTS)
    )
    st.session_state[STEP] = {"flash_step": step}


def token_labels(w: svc.Walk) -> list[str]:
    """Each position with its token, as the figures' axes show them."""
    return [f"{p}: {visible(x)}" for p, x in enumerate(w.pieces)]


def shown_step(w: svc.Walk) -> int:
    """The step the slider chose, 0-based, within this walk's steps."""
    return min(int(st.session_state[STEP]["flash_step"]), len(w.j)) - 1


@st.fragment(key=STEP_PARTS[0])
def step_maps(w: svc.Walk) -> None:
    """Where the step is: its tile on the score map, and the running max and sum per row after it."""
    s = shown_step(w)
    N = len(w.pieces)
    j, i = int(w.j[s]), int(w.i[s])
    computed = ~w.skipped
    metric_row = ui.row()
    metric_row.metric(t("flash.m.step"), f"({j + 1}, {i + 1})", help=t("flash.m.step.help"))
    metric_row.metric(
        t("flash.m.tiles"),
        f"{int(computed[: s + 1].sum())} / {int(computed.sum())}",
        help=t("flash.m.tiles.help", skipped=int(w.skipped.sum()), total=len(w.j)),
    )
    metric_row.metric(t("flash.m.rows"), f"{int(w.finished[s])} / {N}", help=t("flash.m.rows.help"))
    err = w.error[s]
    metric_row.metric(
        t("flash.m.err"), "—" if np.isnan(err) else f"{err:.1e}", help=t("flash.m.err.help", scale=w.scale)
    )

    state = np.zeros((w.t_r, w.t_c), dtype=int)
    state[w.i[computed[: s + 1].nonzero()[0]], w.j[computed[: s + 1].nonzero()[0]]] = 1
    state[w.i[w.skipped], w.j[w.skipped]] = 2
    rows = w.rows[i]
    labels = token_labels(w)

    c_map, c_state = st.columns([1, 1])
    with c_map:
        st.markdown(f"**{t('flash.tiles.title')}**")
        ui.figure(
            views.tile_grid(
                w.scores,
                w.rows,
                w.cols,
                state,
                (i, j),
                query_title=t("flash.tiles.query"),
                key_title=t("flash.tiles.key"),
                value_title=t("flash.tiles.score"),
            ),
            w.scores,
            "flash-scores",
            key="flash_tiles",
            row_labels=labels,
            col_labels=labels,
        )
    with c_state:
        st.markdown(f"**{t('flash.state.title')}**")
        ui.figure(
            views.running_state(
                w.m[s],
                w.l[s],
                w.m[-1],
                w.l[-1],
                rows,
                row_title=t("flash.state.row"),
                now_name=t("flash.state.now"),
                final_name=t("flash.state.final"),
            ),
            {"step": s + 1, "j": j + 1, "i": i + 1, "m": w.m[s], "l": w.l[s]},
            f"flash-m-l-step{s + 1}",
            key="flash_state",
        )


@st.fragment(key=STEP_PARTS[1])
def step_tile(w: svc.Walk) -> None:
    """Inside the step's tile: P̃ and the output rows before and after it."""
    s = shown_step(w)
    j, i = int(w.j[s]), int(w.i[s])
    if w.skipped[s]:
        st.info(t("flash.block.skipped", j=j + 1, i=i + 1))
        return
    rows, cols = w.rows[i], w.cols[j]
    labels = token_labels(w)
    st.caption(t("flash.block.caption"))
    ui.figure(
        views.tile_update(
            w.P[s],
            w.O_before[s],
            w.O_after[s],
            w.kept[s],
            labels[rows[0] : rows[1]],
            [visible(x) for x in w.pieces[cols[0] : cols[1]]],
            titles=(t("flash.block.P"), t("flash.block.before"), t("flash.block.after"), t("flash.block.kept")),
            key_title=t("flash.block.key"),
            dim_title=t("flash.block.dim"),
        ),
        {"P": w.P[s], "O_before": w.O_before[s], "O_after": w.O_after[s], "weight_of_old_O": w.kept[s]},
        f"flash-tile-j{j + 1}-i{i + 1}",
        key="flash_tile",
    )


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
