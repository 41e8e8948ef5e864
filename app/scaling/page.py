"""Scaling laws (2001.08361, 2203.15556) fitted on our own sweep of small GPTs, the compute-optimal size for a budget
by our fit and by the published ones, and two ways of spreading training over devices, each backed by a real run
over gloo: Megatron-LM's tensor parallelism (1909.08053) and ZeRO's sharding (1910.02054)."""

import math

import numpy as np
import streamlit as st

from app.scaling import service as svc
from app.scaling import views
from app.shared import ui
from app.shared.i18n import InputError, t

ui.header("scaling")


SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def scientific(x: float) -> str:
    """1.34·10¹⁶; a power of ten alone as 10²¹."""
    exponent = math.floor(math.log10(x))
    mantissa = f"{x / 10**exponent:.3g}"
    power = f"10{str(exponent).translate(SUPERSCRIPT)}"
    return power if mantissa == "1" else f"{mantissa}·{power}"


def count(x: float) -> str:
    """A count in the words of the session's language: 1.8B / 18亿, 793k / 79.3万; beyond trillions, 1.3·10¹⁶."""
    if x >= 1e15:
        return scientific(x)
    for pair in t("scaling.count_scales").split("|"):
        scale, unit = pair.split(" ", 1)
        if x >= float(scale):
            v = x / float(scale)  # 4,670亿 rather than 4.67e+03亿 (万亿 is the largest unit before 10¹⁵)
            return f"{v:,.0f}{unit}" if v >= 1000 else f"{v:,.3g}{unit}"
    return f"{x:,.0f}"


def size(n: float) -> str:
    """Bytes in the unit that reads best (decimal, as the ZeRO paper counts)."""
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:,.3g} {unit}"
    return f"{n:,.0f} B"


def span(first: int, k: int) -> str:
    """Indices first … first + k − 1 (zero-based), or the one index."""
    return f"{first}" if k == 1 else f"{first}–{first + k - 1}"


def flops(c: float) -> str:
    return scientific(float(f"{c:.2g}"))


try:
    sweep = svc.sweep()
except InputError as e:
    sweep, sweep_error = None, e

st.markdown(t("scaling.intro", runs=len(sweep.runs) if sweep else 24))
c24 = 1e24
kaplan24, chin24 = svc.optimum("kaplan", c24), svc.optimum("chinchilla", c24)
ui.try_this(
    t("scaling.try.do"),
    t("scaling.try.see", ratio=kaplan24.n / chin24.n, kaplan=kaplan24.tokens_per_param, chin=chin24.tokens_per_param),
    t("scaling.try.why"),
)


# ---- 1 · our runs ----------------------------------------------------------------------------------------------------
@st.fragment
def runs_section() -> None:
    st.header(t("scaling.runs.title"))
    if sweep is None:
        ui.input_error(sweep_error)
        return
    s = sweep
    st.markdown(
        t(
            "scaling.runs.caption",
            sizes=len(s.sizes),
            n_min=count(min(s.sizes)),
            n_max=count(max(s.sizes)),
            span=max(s.sizes) / min(s.sizes),
            budgets=len(s.budgets),
            d_min=count(min(s.budgets)),
            d_max=count(max(s.budgets)),
        )
    )
    if not s.fitted:
        st.info(t("scaling.runs.partial", done=len(s.runs), planned=s.planned, command=svc.SWEEP_COMMAND))
    fit = ui.choice(
        st.segmented_control,
        t("scaling.fit"),
        svc.FITS,
        key="scaling_fit",
        labels={f: t(f"scaling.fit.{f}") for f in svc.FITS},
        required=True,
        disabled=not s.fitted,
    )
    c = svc.curves(fit) if s.fitted else None
    by_d = [[r for r in s.runs if r.tokens == d] for d in s.budgets]
    by_n = [[r for r in s.runs if r.n == n] for n in s.sizes]
    left, right = st.columns(2)
    with left:
        st.caption(t("scaling.runs.vs_n"))
        ui.figure(
            views.loss_lines(
                [np.array([r.n for r in g]) for g in by_d],
                [np.array([r.loss for r in g]) for g in by_d],
                [f"D = {count(d)}" for d in s.budgets],
                c.n_grid if c else None,
                c.by_budget if c else None,
                c.n_limit if c else None,
                limit_name=t(f"scaling.limit_n.{fit}"),
                x_title=t("scaling.n_axis"),
                y_title=t("scaling.loss_axis"),
            ),
            {
                "runs": [{"name": r.name, "N": r.n, "D": r.tokens, "C": r.flops, "val_loss": r.loss} for r in s.runs],
                "fit": fit if c else None,
                "N_grid": c.n_grid if c else None,
                "fitted_by_budget": dict(zip(map(str, s.budgets), c.by_budget)) if c else None,
                "D_infinite": c.n_limit if c else None,
            },
            "scaling-loss-vs-n",
            key="scaling_vs_n",
        )
    with right:
        st.caption(t("scaling.runs.vs_d"))
        ui.figure(
            views.loss_lines(
                [np.array([r.tokens for r in g]) for g in by_n],
                [np.array([r.loss for r in g]) for g in by_n],
                [f"N = {count(n)}" for n in s.sizes],
                c.d_grid if c else None,
                c.by_size if c else None,
                c.d_limit if c else None,
                limit_name=t(f"scaling.limit_d.{fit}"),
                x_title=t("scaling.d_axis"),
                y_title=t("scaling.loss_axis"),
            ),
            {
                "fit": fit if c else None,
                "D_grid": c.d_grid if c else None,
                "fitted_by_size": dict(zip(map(str, s.sizes), c.by_size)) if c else None,
                "N_infinite": c.d_limit if c else None,
            },
            "scaling-loss-vs-d",
            key="scaling_vs_d",
        )
    if not s.fitted:
        return
    exponents(s, fit)
    ui.reading_numbers()


def exponents(s: svc.Sweep, fit: str) -> None:
    ci = s.intervals

    def interval(name: str) -> str | None:
        return t("scaling.ci", lo=ci[name][0], hi=ci[name][1]) if name in ci else None

    m = s.metrics
    cols = st.columns(4)
    if fit == "chinchilla":
        ch = s.chinchilla
        shown = (
            ("scaling.m.alpha", f"{ch.alpha:.3f}", interval("alpha")),
            ("scaling.m.beta", f"{ch.beta:.3f}", interval("beta")),
            ("scaling.m.E", f"{ch.E:.3f}", interval("E")),
            ("scaling.m.residual", f"{m.get('fit_residual', math.nan):.4f}", None),
        )
    else:
        k = s.kaplan
        shown = (
            ("scaling.m.alpha_n", f"{k.alpha_n:.3f}", interval("alpha_n")),
            ("scaling.m.alpha_d", f"{k.alpha_d:.3f}", interval("alpha_d")),
            ("scaling.m.n_c", scientific(k.n_c), None),
            ("scaling.m.residual", f"{m.get('kaplan_fit_residual', math.nan):.4f}", None),
        )
    for col, (key, value, delta) in zip(cols, shown):
        col.metric(t(key), value, delta, delta_color="off", delta_arrow="off", help=t(f"{key}.help"))
    st.caption(t("scaling.ci.caption", reps=s.reps))
    ch = s.chinchilla
    st.markdown(
        t(
            "scaling.read",
            alpha=ch.alpha,
            fa=2**-ch.alpha,
            beta=ch.beta,
            fb=2**-ch.beta,
            alpha_n=s.kaplan.alpha_n,
            fn=2**-s.kaplan.alpha_n,
        )
    )
    with st.expander(t("scaling.limits.title")):
        steps = [r.steps for r in s.runs]
        st.markdown(
            t(
                "scaling.limits.body",
                tokens=count(svc.TRAIN_TOKENS),
                d_max=count(max(s.budgets)),
                steps_min=f"{min(steps):,}",
                steps_max=f"{max(steps):,}",
            )
        )
    ui.paper_vs_here(
        [
            (t("scaling.pvh.sizes"), t("scaling.pvh.sizes.paper"), f"{count(min(s.sizes))} – {count(max(s.sizes))}"),
            (
                t("scaling.pvh.tokens"),
                t("scaling.pvh.tokens.paper"),
                f"{count(min(s.budgets))} – {count(max(s.budgets))}",
            ),
            (t("scaling.pvh.data"), t("scaling.pvh.data.paper"), t("scaling.pvh.data.here")),
            (
                t("scaling.pvh.kaplan"),
                "α_N ≈ 0.076, α_D ≈ 0.095",
                f"α_N = {s.kaplan.alpha_n:.3f}, α_D = {s.kaplan.alpha_d:.3f}",
            ),
            (
                t("scaling.pvh.chinchilla"),
                "E = 1.69, α = 0.34, β = 0.28",
                f"E = {ch.E:.2f}, α = {ch.alpha:.3f}, β = {ch.beta:.3f}",
            ),
            (t("scaling.pvh.schedule"), t("scaling.pvh.schedule.paper"), t("scaling.pvh.schedule.here")),
        ],
        [t("scaling.pvh.dep.n"), t("scaling.pvh.dep.seed")],
    )


# ---- 2 · IsoFLOP profiles ----------------------------------------------------------------------------------------
def isoflop_section() -> None:
    st.header(t("scaling.iso.title"))
    st.markdown(t("scaling.iso.caption"))
    if sweep is None:
        ui.input_error(sweep_error)
        return
    s = sweep
    if not s.fitted:
        ui.input_error(InputError("scaling.error.no_card", command=svc.SWEEP_COMMAND))
        return
    if not s.profiles:
        st.info(t("scaling.iso.empty"))
        return
    interior = [p for p in s.profiles if p.interior]
    metric_row = ui.row()
    metric_row.metric(t("scaling.m.profiles"), f"{len(s.profiles)}", help=t("scaling.m.profiles.help"))
    metric_row.metric(
        t("scaling.m.interior"), f"{len(interior)} / {len(s.profiles)}", help=t("scaling.m.interior.help")
    )
    if "isoflop_a" in s.metrics:
        metric_row.metric(t("scaling.m.iso_a"), f"{s.metrics['isoflop_a']:.2f}", help=t("scaling.m.iso_a.help"))
    else:
        metric_row.metric(t("scaling.m.iso_a"), "—", help=t("scaling.m.iso_a.none"))
    drawn = []
    for p in s.profiles:
        pn, pl = svc.parabola(p)
        drawn.append(
            (
                np.array(p.n),
                np.array(p.loss),
                pn,
                pl,
                p.n_opt,
                min(p.loss) if p.kind == "none" else float(np.polyval(p.parabola, math.log(p.n_opt))),
                p.kind,
            )
        )
    names = [f"C ≈ {flops(p.flops)}" for p in s.profiles]
    ui.figure(
        views.isoflop(
            drawn,
            names,
            {kind: t(f"scaling.iso.{kind}") for kind in ("inside", "outside", "none")},
            x_title=t("scaling.n_axis"),
            y_title=t("scaling.loss_axis"),
        ),
        [
            {
                "flops": p.flops,
                "N": p.n,
                "val_loss": p.loss,
                "parabola_in_ln_N": p.parabola,
                "N_opt": p.n_opt,
                "interior": p.interior,
                "kind": p.kind,
            }
            for p in s.profiles
        ],  # fmt: skip
        "scaling-isoflop",
        key="scaling_isoflop",
    )
    ui.table(
        {
            t("scaling.col.flops"): [flops(p.flops) for p in s.profiles],
            t("scaling.col.sizes"): [", ".join(count(n) for n in p.n) for p in s.profiles],
            t("scaling.col.n_opt"): [count(p.n_opt) for p in s.profiles],
            t("scaling.col.interior"): [t(f"scaling.iso.kind.{p.kind}") for p in s.profiles],
        }
    )
    st.caption(t("scaling.iso.compare", a=s.chinchilla.a, a_pub=svc.PUBLISHED_A))


# ---- 3 · a compute budget ------------------------------------------------------------------------------------------
@st.fragment
def budget_section() -> None:
    st.header(t("scaling.budget.title"))
    st.markdown(t("scaling.budget.caption"))
    label = st.select_slider(
        t("scaling.budget"),
        svc.BUDGETS,
        svc.DEFAULT_BUDGET,
        format_func=lambda b: flops(float(b)) + " FLOPs",
        key="scaling_budget",
        bind="query-params",
    )
    c = svc.budget(label)
    s = sweep if sweep is not None and sweep.fitted else None
    found = svc.optima(c, s)
    names = {law: t(f"scaling.law.{law}") for law in ("ours", "kaplan", "chinchilla")}
    cols = st.columns(3)
    for col, o in zip(cols, found):
        col.metric(t(f"scaling.m.n_opt.{o.law}"), count(o.n), help=t(f"scaling.m.n_opt.{o.law}.help"))
    if s is None:
        st.caption(t("scaling.budget.no_ours", command=svc.SWEEP_COMMAND))
    else:
        lo, hi = s.flops_range
        if not lo <= c <= hi:
            orders = math.log10(c / hi) if c > hi else math.log10(lo / c)
            st.warning(
                t(
                    "scaling.budget.beyond",
                    n_min=count(min(s.sizes)),
                    n_max=count(max(s.sizes)),
                    d_max=count(max(s.budgets)),
                    lo=flops(lo),
                    hi=flops(hi),
                    orders=orders,
                ),
                icon=":material/warning:",
            )
        else:
            st.caption(t("scaling.budget.inside", lo=flops(lo), hi=flops(hi)))
    ui.table(
        {
            t("scaling.col.law"): [names[o.law] for o in found],
            t("scaling.col.n"): [count(o.n) for o in found],
            t("scaling.col.d"): [count(o.d) for o in found],
            t("scaling.col.ratio"): [
                f"{o.tokens_per_param:,.3g}" if o.tokens_per_param < 1e4 else scientific(o.tokens_per_param)
                for o in found
            ],
        }
    )
    lines = svc.frontier(s)
    trained = [(m.name, m.flops, m.n) for m in svc.PUBLISHED_MODELS]
    ui.figure(
        views.frontier(
            svc.FRONTIER,
            lines,
            names,
            c,
            trained,
            s.flops_range if s else None,
            sweep_name=t("scaling.budget.sweep_range"),
            x_title=t("scaling.c_axis"),
            y_title=t("scaling.nopt_axis"),
        ),
        {
            "C": svc.FRONTIER,
            **{f"N_opt_{law}": n for law, n in lines.items()},
            "trained": [{"name": m.name, "N": m.n, "D": m.d, "C": m.flops} for m in svc.PUBLISHED_MODELS],
        },  # fmt: skip
        "scaling-n-opt",
        key="scaling_frontier",
    )
    gopher = svc.optimum("chinchilla", svc.GOPHER_FLOPS)
    st.markdown(
        t(
            "scaling.budget.trained",
            gpt3=svc.PUBLISHED_MODELS[0].d / svc.PUBLISHED_MODELS[0].n,
            chin=svc.PUBLISHED_MODELS[2].d / svc.PUBLISHED_MODELS[2].n,
            n=count(gopher.n),
            ratio=gopher.tokens_per_param,
        )
    )


# ---- 4 · Megatron ----------------------------------------------------------------------------------------------------
@st.fragment
def megatron_section() -> None:
    st.header(t("scaling.mega.title"))
    st.markdown(t("scaling.mega.caption"))
    found = {x.key: x for x in svc.layers()}
    c_model, c_t = st.columns([3, 2])
    with c_model:
        key = ui.choice(
            st.radio,
            t("scaling.mega.model"),
            list(found),
            key="scaling_model",
            labels={k: t(f"scaling.layer.{k}", L=x.n_layers, C=x.dim, H=x.n_heads, F=x.mlp) for k, x in found.items()},
        )
    x = found[key]
    with c_t:
        degree = st.segmented_control(
            t("scaling.mega.t"),
            x.degrees,
            default=x.degrees[1] if len(x.degrees) > 1 else x.degrees[0],
            required=True,
            key=f"scaling_t_{key}",
            bind="query-params",
            help=t("scaling.mega.t.help", H=x.n_heads, F=x.mlp),
        )
    try:
        splits = svc.split(key, degree)
    except InputError as e:
        ui.input_error(e)
        return
    whole = sum(a * b for a, b in (s.shape for s in splits))
    each = sum(a * b for a, b in (s.per_device for s in splits))
    metric_row = ui.row()
    metric_row.metric(
        t("scaling.m.weights_device"), count(each), help=t("scaling.m.weights_device.help", whole=count(whole))
    )
    metric_row.metric(t("scaling.m.heads_device"), f"{x.n_heads // degree}", help=t("scaling.m.heads_device.help"))
    metric_row.metric(t("scaling.m.allreduces"), "2 + 2", help=t("scaling.m.allreduces.help"))
    ui.table(
        {
            t("scaling.col.matrix"): [s.name for s in splits],
            t("scaling.col.split"): [t(f"scaling.split.{s.split}") for s in splits],
            t("scaling.col.whole"): [f"{s.shape[0]:,} × {s.shape[1]:,}" for s in splits],
            t("scaling.col.device"): [f"{s.per_device[0]:,} × {s.per_device[1]:,}" for s in splits],
        }
    )
    heads_per = x.n_heads // degree
    mlp_per = x.mlp // degree
    width = heads_per * x.dim // x.n_heads
    lanes_attn = [t("scaling.lane.attn", i=i, heads=span(i * heads_per, heads_per), w=width) for i in range(degree)]
    lanes_mlp = [t("scaling.lane.mlp", i=i, cols=span(i * mlp_per, mlp_per)) for i in range(degree)]
    ui.markup(
        views.megatron_diagram(
            [(t("scaling.lane.attn_title"), lanes_attn), (t("scaling.lane.mlp_title"), lanes_mlp)],
            input_label=t("scaling.lane.x", C=x.dim),
            output_label=t("scaling.lane.y", C=x.dim),
            f_title=t("scaling.lane.f"),
            g_title=t("scaling.lane.g"),
        )
    )
    st.caption(t("scaling.lane.legend"))
    st.subheader(t("scaling.comm.title"))
    b1, b2, b3 = st.columns(3)
    batch = b1.number_input(t("scaling.comm.batch"), 1, 4096, 8, key="scaling_batch", bind="query-params")
    tokens = b2.number_input(t("scaling.comm.tokens"), 1, 65536, 2048, key="scaling_tokens", bind="query-params")
    dtype = ui.choice(
        b3.segmented_control,
        t("scaling.comm.dtype"),
        (2, 4),
        key="scaling_dtype",
        labels={2: t("scaling.comm.fp16"), 4: t("scaling.comm.fp32")},
        required=True,
    )
    tr = svc.traffic(key, int(batch), int(tokens), dtype, degree)
    metric_row = ui.row()
    metric_row.metric(t("scaling.m.allreduce"), size(tr.size), help=t("scaling.m.allreduce.help"))
    metric_row.metric(t("scaling.m.ring"), size(tr.ring_sent), help=t("scaling.m.ring.help", t=degree))
    metric_row.metric(
        t("scaling.m.model_step"),
        size(tr.ring_sent * tr.per_layer_step * x.n_layers),
        help=t("scaling.m.model_step.help", L=x.n_layers),
    )
    recorded_run()


def recorded_run() -> None:
    st.subheader(t("scaling.rec.title"))
    try:
        rec = svc.parallel_runs()
    except InputError as e:
        ui.input_error(e)
        return
    runs = rec["runs"]
    worst = max(max(r["mlp_max_abs_diff"], r["attention_max_abs_diff"]) / r["output_scale"] for r in runs)
    st.markdown(t("scaling.rec.caption", shape=" × ".join(map(str, rec["input_shape"])), layer=rec["layer"]))
    ui.table(
        {
            "t": [str(r["t"]) for r in runs],
            t("scaling.col.mlp_diff"): [f"{r['mlp_max_abs_diff'] / r['output_scale']:.1e}" for r in runs],
            t("scaling.col.attn_diff"): [f"{r['attention_max_abs_diff'] / r['output_scale']:.1e}" for r in runs],
            t("scaling.col.allreduce"): [f"{r['allreduces_forward']} × {size(r['allreduce_bytes'])}" for r in runs],
            t("scaling.col.ring"): [size(r["ring_bytes_sent_per_device"]) for r in runs],
            t("scaling.col.ms"): [f"{r['rank0_ms']:.1f}" for r in runs],
        }
    )
    B, T, C = rec["input_shape"]
    counted = {r["allreduce_bytes"] for r in runs}
    st.caption(t("scaling.rec.note", worst=worst, scale=runs[0]["output_scale"]))
    if counted == {4 * B * T * C}:
        st.caption(t("scaling.rec.bytes", bytes=f"{4 * B * T * C:,}", B=B, T=T, C=C))


# ---- 5 · ZeRO ------------------------------------------------------------------------------------------------------
@st.fragment
def zero_section() -> None:
    st.header(t("scaling.zero.title"))
    st.markdown(t("scaling.zero.caption"))
    models = svc.zero_models()
    c_model, c_nd = st.columns([3, 2])
    with c_model:
        key = ui.choice(
            st.radio,
            t("scaling.zero.model"),
            list(models),
            key="scaling_zero_model",
            labels={k: t(f"scaling.zero.model.{k}", psi=count(psi)) for k, psi in models.items()},
        )
    with c_nd:
        n_d = st.select_slider(
            t("scaling.zero.n_d"),
            svc.N_D_CHOICES,
            64,
            key="scaling_n_d",
            bind="query-params",
            help=t("scaling.zero.n_d.help"),
        )
    parts = svc.zero(models[key], n_d)
    totals = parts.sum(1)
    cols = st.columns(4)
    for stage, col in enumerate(cols):
        col.metric(
            t(f"scaling.stage.{stage}"),
            f"{totals[stage] / svc.GB:,.1f} GB" if totals[0] >= svc.GB else size(totals[stage]),
            f"{totals[stage] / totals[0]:.1%}" if stage else None,
            delta_color="off",
            delta_arrow="off",
            help=t(f"scaling.stage.{stage}.help"),
        )
    unit, scale = ("GB", svc.GB) if totals[0] >= svc.GB else ("MB", 1e6)
    stages = [t(f"scaling.stage.{s}") for s in range(4)]
    part_names = [t("scaling.part.params"), t("scaling.part.grads"), t("scaling.part.states")]
    ui.figure(
        views.zero_bars(stages, parts, part_names, unit=unit, scale=scale),
        parts,
        f"scaling-zero-{key}-{n_d}",
        key="scaling_zero",
        row_labels=[f"stage {s}" for s in range(4)],
        col_labels=["parameters_fp16", "gradients_fp16", "optimizer_states"],
    )
    st.caption(t("scaling.fig1.title"))
    ui.table(
        {
            t("scaling.col.stage"): stages,
            t("scaling.col.paper_gb"): [f"{paper:g}" for paper, _ in svc.figure1()],
            t("scaling.col.computed_gb"): [f"{got:.3f}" for _, got in svc.figure1()],
        }
    )
    measured()


def measured() -> None:
    st.subheader(t("scaling.meas.title"))
    try:
        z = svc.zero_measured()
    except InputError as e:
        ui.input_error(e)
        return
    psi, mp = z["params"], z["mixed_precision_bytes"]
    rows = (
        ("parameters_fp16", "scaling.meas.params", 2),
        ("gradients_fp16", "scaling.meas.grads", 2),
        ("master_fp32", "scaling.meas.master", 4),
        ("adam_states_fp32", "scaling.meas.adam", 8),
    )
    st.markdown(t("scaling.meas.caption", psi=f"{psi:,}"))
    ui.table(
        {
            t("scaling.col.what"): [t(k) for _, k, _ in rows],
            t("scaling.col.formula"): [f"{f}Ψ = {f * psi:,}" for _, _, f in rows],
            t("scaling.col.measured"): [f"{mp[name]:,}" for name, _, _ in rows],
            t("scaling.col.per_psi"): [f"{mp[name] / psi:.5f}" for name, _, _ in rows],
        }
    )
    extra = mp["adam_states_fp32"] - 8 * psi
    st.caption(t("scaling.meas.extra", extra=extra, total=sum(mp.values()) / psi))
    full, ranks = z["adam_state_bytes_one_process"], z["adam_state_bytes_per_rank"]
    cols = st.columns(len(ranks) + 1)
    cols[0].metric(t("scaling.m.one_process"), f"{full:,} B", help=t("scaling.m.one_process.help"))
    for i, (col, b) in enumerate(zip(cols[1:], ranks)):
        col.metric(
            t("scaling.m.rank", rank=i),
            f"{b:,} B",
            f"{b / full:.1%}",
            delta_color="off",
            delta_arrow="off",
            help=t("scaling.m.rank.help", world=z["world"]),
        )
    st.caption(t("scaling.meas.zro" if sum(ranks) == full else "scaling.meas.zro_differs", world=z["world"]))


runs_section()
isoflop_section()
budget_section()
megatron_section()
zero_section()
