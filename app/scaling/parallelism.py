"""Two ways of spreading one model's training over devices, each backed by a real run over gloo: Megatron-LM's tensor
parallelism (1909.08053), one layer's weights split over t devices and the all-reduces it costs, and ZeRO's sharding
(1910.02054), the bytes each device holds at each stage."""

import streamlit as st

from app.scaling import service as svc
from app.scaling import views
from app.shared import ui
from app.shared.formats import count_in_words, decimal_size, index_span
from app.shared.i18n import InputError, t


# ---- 4 · Megatron ----------------------------------------------------------------------------------------------------
@st.fragment
def megatron() -> None:
    """One layer's weights split over t devices, the all-reduces that costs, and the recorded gloo run."""
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
        t("scaling.m.weights_device"),
        count_in_words(each, t("scaling.count_scales")),
        help=t("scaling.m.weights_device.help", whole=count_in_words(whole, t("scaling.count_scales"))),
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
    lanes_attn = [
        t("scaling.lane.attn", i=i, heads=index_span(i * heads_per, heads_per), w=width) for i in range(degree)
    ]
    lanes_mlp = [t("scaling.lane.mlp", i=i, cols=index_span(i * mlp_per, mlp_per)) for i in range(degree)]
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
    metric_row.metric(t("scaling.m.allreduce"), decimal_size(tr.size), help=t("scaling.m.allreduce.help"))
    metric_row.metric(t("scaling.m.ring"), decimal_size(tr.ring_sent), help=t("scaling.m.ring.help", t=degree))
    metric_row.metric(
        t("scaling.m.model_step"),
        decimal_size(tr.ring_sent * tr.per_layer_step * x.n_layers),
        help=t("scaling.m.model_step.help", L=x.n_layers),
    )
    recorded_run()


def recorded_run() -> None:
    """The gloo run: the split layer's outputs against the whole layer's, and the all-reduces counted."""
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
            t("scaling.col.allreduce"): [
                f"{r['allreduces_forward']} × {decimal_size(r['allreduce_bytes'])}" for r in runs
            ],
            t("scaling.col.ring"): [decimal_size(r["ring_bytes_sent_per_device"]) for r in runs],
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
def zero() -> None:
    """Bytes per device at each ZeRO stage for the model and number of devices picked, and the paper's Figure 1."""
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
            labels={
                k: t(f"scaling.zero.model.{k}", psi=count_in_words(psi, t("scaling.count_scales")))
                for k, psi in models.items()
            },
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
            f"{totals[stage] / svc.GB:,.1f} GB" if totals[0] >= svc.GB else decimal_size(totals[stage]),
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
    """The recorded ZeRO run: the mixed-precision bytes per parameter, and the Adam states sharded over ranks."""
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
