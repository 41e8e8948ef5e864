"""The scaling laws of the Scaling page, in the papers' order: our sweep of small GPTs with Kaplan's (2001.08361) and
Chinchilla's (2203.15556) fits and their exponents, the IsoFLOP profiles of Chinchilla's Approach 2, and the
compute-optimal size for a budget by our fit and by the published ones.

The sections take the sweep (None when it is not recorded) and the message to show instead."""

import math

import numpy as np
import streamlit as st

from app.scaling import service as svc
from app.scaling import views
from app.shared import ui
from app.shared.formats import count_in_words, scientific
from app.shared.i18n import InputError, t


def count(x: float) -> str:
    """A count in the words of the reader's language: 1.8B / 18亿."""
    return count_in_words(x, t("scaling.count_scales"))


def flops(c: float) -> str:
    """A compute budget to two significant figures: 1.3·10¹⁶."""
    return scientific(float(f"{c:.2g}"))


# ---- 1 · our runs ----------------------------------------------------------------------------------------------------
@st.fragment
def runs(s: svc.Sweep | None, error: InputError | None) -> None:
    """The sweep's losses against N and against D with the fit picked, then its exponents."""
    st.header(t("scaling.runs.title"))
    if s is None:
        ui.input_error(error)
        return
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
    """The fit's constants with their bootstrap intervals, how to read them, the sweep's limits, paper vs here."""
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


# ---- 1b · training curves over compute: their envelope (Chinchilla's Approach 1) ----------------------------------
@st.fragment
def training() -> None:
    """Every run's training loss against the compute it had spent, their lower envelope, and a compute slider that
    names the run at the envelope: the sweep's training, watched."""
    st.subheader(t("scaling.train.title"))
    try:
        tr = svc.training()
    except InputError as e:
        ui.input_error(e)
        return
    st.markdown(t("scaling.train.caption", runs=len(tr.names)))
    at = ui.choice(  # the index of the compute on the envelope's grid, kept in the link
        st.select_slider,
        t("scaling.train.at"),
        range(tr.grid.size),
        key="scaling_compute",
        labels={i: flops(float(c)) + " FLOPs" for i, c in enumerate(tr.grid)},
        default=tr.grid.size - 1,
    )
    sizes = sorted(set(tr.n))
    w = int(tr.winner[at])
    ui.figure(
        views.training_curves(
            list(tr.flops),
            list(tr.loss),
            [sizes.index(n) for n in tr.n],
            [f"N = {count(n)}" for n in sizes],
            tr.grid,
            tr.best,
            at,
            w,
            envelope_name=t("scaling.train.envelope"),
            x_title=t("scaling.train.c_axis"),
            y_title=t("scaling.train.loss_axis"),
        ),
        {
            "runs": [
                {"name": name, "N": n, "D": d, "C": c, "train_loss": loss}
                for name, n, d, c, loss in zip(tr.names, tr.n, tr.tokens, tr.flops, tr.loss)
            ],
            "envelope": {"C": tr.grid, "loss": tr.best, "run": [tr.names[i] for i in tr.winner]},
        },
        "scaling-training-curves",
        key="scaling_training",
    )
    spent = tr.grid[at] / (6.0 * tr.n[w] * tr.tokens[w])
    st.markdown(
        t(
            "scaling.train.readout",
            c=flops(float(tr.grid[at])),
            loss=float(tr.best[at]),
            n=count(tr.n[w]),
            d=count(tr.tokens[w]),
            spent=100 * spent,
        )
    )
    late = [i for i in range(tr.grid.size) if tr.grid[i] >= math.sqrt(tr.grid[0] * tr.grid[-1])]
    ended = sum(tr.grid[i] / (6.0 * tr.n[tr.winner[i]] * tr.tokens[tr.winner[i]]) >= 0.5 for i in late)
    sizes_won = [tr.n[tr.winner[i]] for i in range(tr.grid.size)]
    st.caption(
        t(
            "scaling.train.pvh",
            late=len(late),
            ended=ended,
            first=count(sizes_won[0]),
            last=count(sizes_won[-1]),
        )
    )


# ---- 2 · IsoFLOP profiles ----------------------------------------------------------------------------------------
def isoflops(s: svc.Sweep | None, error: InputError | None) -> None:
    """Chinchilla's Approach 2: the runs of about one compute, each profile's parabola and its minimum."""
    st.header(t("scaling.iso.title"))
    st.markdown(t("scaling.iso.caption"))
    if s is None:
        ui.input_error(error)
        return
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
def budget(sweep: svc.Sweep | None) -> None:
    """The compute-optimal N and D for the budget picked, by our fit and by the published laws."""
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
            gpt3=svc.published("GPT-3 175B").tokens_per_param,
            chin=svc.published("Chinchilla 70B").tokens_per_param,
            n=count(gopher.n),
            ratio=gopher.tokens_per_param,
        )
    )
