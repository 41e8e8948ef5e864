"""The LLaMA family (2302.13971, 2307.09288, 2412.15115): RMSNorm against LayerNorm on the real residual stream,
SwiGLU's gate, MHA / GQA / MQA trained side by side with their KV caches, and the published configurations with a
parameter and KV-cache calculator."""

import streamlit as st

from app.llama import service as svc
from app.llama import views
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.seeds import two_seed_scatter
from app.shared.tokens import visible

ui.header("llama")
st.markdown(t("llama.intro"))
ui.try_this(t("llama.try.do"), t("llama.try.see"), t("llama.try.why"))


def kib(n: float) -> str:
    return f"{n / 1024:,.2f} KiB"


def size(n: float) -> str:
    """Bytes in the unit that reads best."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n:,.0f} B"


def billions(n: float) -> str:
    return f"{n / 1e9:,.2f} B" if n >= 1e9 else f"{n / 1e6:,.2f} M"


# ---- 1 · RMSNorm and 2 · SwiGLU, on one text ------------------------------------------------------------------------
# The token and block controls rerun the two parts that show that token in that block (its metrics and figures), not
# the text box, the headings and explanations, or the normalisation cost (which depends on the text alone).
PARTS = {"norm": "llama_part_norm", "swiglu": "llama_part_swiglu"}
CHOICE = "_llama_choice"  # {control: value} as the controls part drew them or a control's callback noted them since


def activations_section() -> None:
    shape = svc.shape()
    L, C, F = shape.n_layers, shape.dim, shape.hidden
    text = st.text_area(
        t("llama.text"),
        svc.DEFAULT_TEXT,
        key="llama_text",
        bind="query-params",
        max_chars=svc.MAX_CHARS,
        height=90,
        help=t("llama.text.help", chars=svc.MAX_CHARS, tokens=shape.max_len),
    )
    try:
        a = svc.analyse(text)
    except InputError as e:
        ui.input_error(e)
        return
    T = len(a.ids)
    s = svc.norm_stats(a)  # every token and block at once: once per text, not on each move

    @st.fragment(key="llama_part_controls")
    def controls_part() -> None:
        c_tok, c_block = st.columns([3, 2])
        ui.slider(
            c_tok, t("llama.token"), 0, T - 1, min(T - 1, 8), help=t("llama.token.help"),
            **ui.drives("llama_token", CHOICE, PARTS.values()),
        )  # fmt: skip
        c_block.segmented_control(
            t("llama.block"),
            list(range(L)),
            default=1,
            required=True,
            help=t("llama.block.help"),
            **ui.drives("llama_block", CHOICE, PARTS.values()),
        )
        ui.note_controls(CHOICE, ("llama_token", "llama_block"))

    controls_part()

    # ---- 1 · RMSNorm ----
    # What the token and block do not change is drawn here, outside the parts they rerun.
    st.subheader(t("llama.norm.title"))
    st.markdown(t("llama.norm.caption"))

    @st.fragment(key=PARTS["norm"])
    def norm_part() -> None:
        token, block = (st.session_state[CHOICE][k] for k in ("llama_token", "llama_block"))
        st.caption(t("llama.chosen", token=token, piece=visible(a.pieces[token]), block=block))
        metric_row = ui.row()
        metric_row.metric(
            t("llama.m.mean_share"), f"{s.mean_share[block, token]:.1%}", help=t("llama.m.mean_share.help")
        )
        metric_row.metric(t("llama.m.cosine"), f"{s.cosine[block, token]:.4f}", help=t("llama.m.cosine.help"))
        metric_row.metric(t("llama.m.change"), f"{s.change[block, token]:.1%}", help=t("llama.m.change.help"))
        points = [t("llama.point", block=i) for i in range(L)] + [t("llama.point.final")]
        left, right = st.columns(2)
        with left:
            st.caption(t("llama.norm.channels", token=token, block=block))
            x = a.stream[block, token]
            ui.figure(
                views.channels(
                    x,
                    channel_title=t("llama.channel"),
                    value_title=t("llama.value"),
                    mean_name=t("llama.mean"),
                    rms_name=t("llama.rms"),
                ),
                x,
                f"llama-stream-b{block}-t{token}",
                key="llama_channels",
            )
        with right:
            st.caption(t("llama.norm.points"))
            ui.figure(
                views.mean_share(
                    s.mean_share,
                    s.change,
                    (block, token),
                    point_names=points,
                    share_name=t("llama.m.mean_share"),
                    change_name=t("llama.m.change"),
                    token_name=t("llama.this_token"),
                    y_title=t("llama.percent"),
                ),
                {"points": points, "mean_share": s.mean_share, "change": s.change, "cosine": s.cosine},
                "llama-mean-share",
                key="llama_mean_share",
            )

    norm_part()
    cost = svc.norm_cost(text)
    metric_row = ui.row()
    metric_row.metric(
        t("llama.m.centred_loss"),
        f"{a.loss_centred:.3f}",
        f"{a.loss_centred - a.loss:+.3f}",
        delta_color="inverse",
        help=t("llama.m.centred_loss.help", loss=a.loss),
    )
    metric_row.metric(t("llama.m.norm_params"), f"{C} / {2 * C}", help=t("llama.m.norm_params.help"))
    metric_row.metric(t("llama.m.norm_ops"), f"≈ {4 * C} / {7 * C}", help=t("llama.m.norm_ops.help", C=C))
    metric_row.metric(
        t("llama.m.norm_time"),
        f"{cost.rms_us:.0f} / {cost.ln_us:.0f} µs",
        help=t("llama.m.norm_time.help", n=cost.vectors, C=C, fused=cost.ln_fused_us),
    )
    st.caption(t("llama.norm.cost", rms=cost.rms_us, ln=cost.ln_us, fused=cost.ln_fused_us, n=cost.vectors))

    # ---- 2 · SwiGLU ----
    st.subheader(t("llama.swiglu.title"))
    st.markdown(t("llama.swiglu.caption", C=C, F=F))  # F's value; why ⅔ · 4C under the part (llama.swiglu.width)

    @st.fragment(key=PARTS["swiglu"])
    def swiglu_part() -> None:
        token, block = (st.session_state[CHOICE][k] for k in ("llama_token", "llama_block"))
        g = svc.gating(a, block, token)
        metric_row = ui.row()
        metric_row.metric(
            t("llama.m.closed"), f"{g.closed:.0%}", help=t("llama.m.closed.help", share=f"{svc.CLOSED:.0%}", F=F)
        )
        metric_row.metric(t("llama.m.negative"), f"{g.negative:.0%}", help=t("llama.m.negative.help"))
        metric_row.metric(
            t("llama.m.top"),
            f"{g.top_energy:.0%}",
            help=t("llama.m.top.help", share=f"{svc.TOP_UNITS:.0%}", n=round(svc.TOP_UNITS * F)),
        )
        left, right = st.columns(2)
        names = (t("llama.gate"), t("llama.up"), t("llama.product"))
        with left:
            st.caption(t("llama.swiglu.scatter"))
            ui.figure(
                views.gating(
                    g.gate,
                    g.up,
                    g.product,
                    svc.CLOSED * float(abs(g.gate).max()),
                    gate_title=names[0],
                    up_title=names[1],
                    product_title=names[2],
                    closed_name=t("llama.closed_band"),
                ),
                {"gate": g.gate, "up": g.up, "product": g.product},
                f"llama-swiglu-b{block}-t{token}",
                key="llama_gating",
            )
        with right:
            st.caption(t("llama.swiglu.sorted"))
            ui.figure(
                views.sorted_units(g.gate, g.up, g.product, names=names, unit_title=t("llama.unit_rank")),
                {"gate": g.gate, "up": g.up, "product": g.product},
                f"llama-swiglu-sorted-b{block}-t{token}",
                key="llama_sorted",
            )

    swiglu_part()
    st.markdown(t("llama.swiglu.width", C=C, F=F, four=4 * C, params=3 * C * F, mlp=2 * C * 4 * C))
    ui.readout(a)


# ---- 3 · MHA / GQA / MQA ---------------------------------------------------------------------------------------------
def family_section() -> None:
    st.subheader(t("llama.gqa.title"))
    st.markdown(t("llama.gqa.caption"))
    fam = svc.family()
    kinds = {4: "MHA", 2: "GQA", 1: "MQA"}
    for col, sib in zip(st.columns(len(fam)), fam):
        with col:
            per = sib.n_heads // sib.n_kv_heads
            ui.figure(
                views.grouping(
                    sib.n_heads,
                    sib.n_kv_heads,
                    title=f"{sib.name} · {kinds.get(sib.n_kv_heads, 'GQA')} · G = {sib.n_kv_heads}",
                    query_name=t("llama.query_head"),
                    kv_name=t("llama.kv_head"),
                ),
                {"query_head": list(range(sib.n_heads)), "kv_head": [h // per for h in range(sib.n_heads)]},
                f"{sib.name}-grouping",
                key=f"llama_group_{sib.n_kv_heads}",
            )
            if sib.present:
                st.metric(
                    t("llama.m.kv_token"),
                    f"{sib.kv_measured:,} B",
                    help=t(
                        "llama.m.kv_token.help",
                        L=sib.n_layers,
                        G=sib.n_kv_heads,
                        D=sib.head_dim,
                        formula=sib.kv_formula,
                    ),
                )
            else:
                ui.input_error(svc.model_missing(sib.name))
    trained = [s for s in fam if s.present and s.val_bpc is not None]
    if trained:
        st.caption(t("llama.gqa.loss"))
        ui.figure(
            views.seed_layout(
                two_seed_scatter(
                    [s.name for s in trained],
                    [views.SIBLING_COLOURS[svc.SIBLINGS.index(s.name)] for s in trained],
                    [s.kv_measured / 1024 for s in trained],
                    [s.val_bpc for s in trained],
                    [s.other_seed_bpc for s in trained],
                    x_title=t("llama.kv_kib_token"),
                    y_title=t("llama.val_bpc"),
                    seed_name=t("llama.seed_shipped"),
                    other_seed_name=t("llama.seed_other"),
                    x_unit="KiB",
                )
            ),
            {
                s.name: {
                    "kv_bytes_per_token": s.kv_measured,
                    "val_bpc": s.val_bpc,
                    "other_seed_val_bpc": s.other_seed_bpc,
                }
                for s in trained
            },
            "llama-loss-vs-kv",
            key="llama_loss_kv",
        )
        by = {s.name: s for s in trained}
        if "llama-mha" in by and "llama-mqa" in by:
            mha, mqa = by["llama-mha"], by["llama-mqa"]
            trio = [s for s in (mha, mqa, by.get("llama")) if s is not None and s.other_seed_bpc is not None]
            spread = max(abs(s.val_bpc - s.other_seed_bpc) for s in trio) if trio else 0.0
            st.caption(
                t(
                    "llama.gqa.compare",
                    share=mqa.kv_measured / mha.kv_measured,
                    diff=mqa.val_bpc - mha.val_bpc,
                    mqa=mqa.val_bpc,
                    mha=mha.val_bpc,
                    spread=spread,
                )
            )
            if "llama" in by:
                gqa = by["llama"]
                st.caption(
                    t(
                        "llama.gqa.compare_gqa",
                        share=gqa.kv_measured / mha.kv_measured,
                        diff=gqa.val_bpc - mha.val_bpc,
                        mean_diff=(gqa.val_bpc + (gqa.other_seed_bpc or gqa.val_bpc)) / 2
                        - (mha.val_bpc + (mha.other_seed_bpc or mha.val_bpc)) / 2,
                    )
                )
        if "llama" in by:
            gqa = by["llama"]
            st.caption(t("llama.gqa.llama_note", gqa=gqa.val_bpc, shipped=gqa.shipped_bpc))
        ui.reading_numbers()
    growth_section()


@st.fragment
def growth_section() -> None:
    st.markdown(f"**{t('llama.grow.title')}**")
    st.caption(t("llama.grow.caption"))
    c_p, c_n = st.columns([3, 1])
    prompt = c_p.text_input(
        t("llama.prompt"), svc.DEFAULT_PROMPT, key="llama_prompt", bind="query-params", max_chars=svc.MAX_PROMPT_CHARS
    )
    n = c_n.slider(t("llama.n"), 1, svc.MAX_NEW, 48, key="llama_n", bind="query-params")
    if st.button(t("llama.generate"), key="llama_generate", icon=":material/play_arrow:", type="primary"):
        st.session_state["_llama_generated"] = True
    if not st.session_state.get("_llama_generated"):
        st.caption(t("llama.grow.press"))
        return
    try:
        with st.spinner(t("llama.grow.spinner")):
            g = svc.grow(prompt, n)
    except InputError as e:
        ui.input_error(e)
        return
    if g.missing:
        st.caption(t("llama.grow.missing", names=", ".join(g.missing)))
    if not g.writings:
        return
    for col, w in zip(st.columns(len(g.writings)), g.writings):
        exact = bool((w.measured == w.formula).all())
        col.metric(
            t("llama.m.cache_end", name=w.name),
            kib(w.measured[-1]),
            t("llama.formula_equal") if exact else t("llama.formula_differs"),
            delta_color="off" if exact else "inverse",
            delta_arrow="off",
            help=t("llama.m.cache_end.help", positions=int(w.positions[-1]), formula=kib(w.formula[-1])),
        )
        col.metric(t("llama.m.tps", name=w.name), f"{w.tokens_per_s:.0f}")
    colours = {s: c for s, c in zip(svc.SIBLINGS, views.SIBLING_COLOURS)}
    ui.figure(
        views.cache_growth(
            [w.name for w in g.writings],
            [w.positions for w in g.writings],
            [w.measured / 1024 for w in g.writings],
            [w.formula / 1024 for w in g.writings],
            x_title=t("llama.cached_positions"),
            y_title=t("llama.kib"),
            formula_name=t("llama.formula"),
            colours=[colours[w.name] for w in g.writings],
        ),
        {
            w.name: {"positions": w.positions, "measured_bytes": w.measured, "formula_bytes": w.formula}
            for w in g.writings
        },
        "llama-kv-growth",
        key="llama_growth",
    )
    with st.expander(t("llama.grow.texts")):
        for w in g.writings:
            st.markdown(f"**{w.name}**")
            st.text(prompt + w.text)
    ui.readout(g)


# ---- 4 · the published configurations ------------------------------------------------------------------------------
def load_preset() -> None:
    """``on_change`` of the preset picker: copy its configuration into the calculator's inputs."""
    row = next(r for r in svc.published() if r.name == st.session_state["llama_preset"])
    for field, value in row.config.items():
        st.session_state[f"llama_calc_{field}"] = value


def configs_section() -> None:
    st.subheader(t("llama.configs.title"))
    st.markdown(t("llama.configs.caption"))
    rows = svc.published()
    columns = (
        "model",
        "L",
        "C",
        "H",
        "G",
        "F",
        "F_ratio",
        "V",
        "ctx",
        "other",
        "params",
        "pub",
        "diff",
        "kv",
        "kv_ctx",
    )
    table: dict[str, list[str]] = {k: [] for k in columns}
    for r in rows:
        c = svc.calculate(**r.config)
        table["model"].append(r.name)
        for key, field in (("L", "n_layers"), ("C", "dim"), ("H", "n_heads"), ("G", "n_kv_heads"), ("F", "hidden")):
            table[key].append(f"{r.config[field]:,}")
        table["F_ratio"].append(f"{c.ffn_ratio:.2f}")
        table["V"].append(f"{r.config['vocab']:,}")
        table["ctx"].append(f"{r.config['context']:,}")
        table["other"].append(", ".join(t(f"llama.col.{k}") for k in ("tied", "qkv_bias") if r.config[k]))
        table["params"].append(billions(c.params))
        note = (
            "" if not r.label else t("llama.label_is") if r.label == r.published_as else t("llama.label", label=r.label)
        )
        table["pub"].append(r.published_as + note)
        table["diff"].append(f"{c.params / r.published - 1:+.1%}")
        table["kv"].append(size(c.kv_per_token))
        table["kv_ctx"].append(size(c.kv_context))
    ui.table({t(f"llama.col.{k}"): v for k, v in table.items()})
    st.caption(t("llama.configs.note"))

    st.markdown(f"**{t('llama.calc.title')}**")
    by_name = {r.name: r for r in rows}
    preset = ui.choice(
        st.selectbox,
        t("llama.calc.preset"),
        list(by_name),
        key="llama_preset",
        labels={name: name for name in by_name},
        default=svc.DEFAULT_PRESET,
        on_change=load_preset,
    )
    base = by_name[svc.DEFAULT_PRESET].config
    cols = st.columns(7)
    values = {}
    for col, field in zip(cols, ("n_layers", "dim", "n_heads", "n_kv_heads", "hidden", "vocab", "context")):
        lo, hi = svc.LIMITS[field]
        values[field] = int(
            col.number_input(
                t(f"llama.calc.{field}"), lo, hi, base[field], step=1, key=f"llama_calc_{field}", bind="query-params"
            )
        )
    c_t, c_b, c_bytes = st.columns(3)
    values["tied"] = c_t.toggle(t("llama.calc.tied"), base["tied"], key="llama_calc_tied", bind="query-params")
    values["qkv_bias"] = c_b.toggle(
        t("llama.calc.qkv_bias"), base["qkv_bias"], key="llama_calc_qkv_bias", bind="query-params"
    )
    nbytes = ui.choice(
        c_bytes.segmented_control,
        t("llama.calc.bytes"),
        svc.BYTES,
        key="llama_calc_bytes",
        labels={1: t("llama.bytes.1"), 2: t("llama.bytes.2"), 4: t("llama.bytes.4")},
        default=2,
        required=True,
    )
    try:
        calc = svc.calculate(**values, bytes_per_value=nbytes)
    except InputError as e:
        ui.input_error(e)
        return
    row = by_name[preset]
    same = all(values[k] == v for k, v in row.config.items())
    metric_row = ui.row()
    metric_row.metric(
        t("llama.m.params"),
        billions(calc.params),
        f"{calc.params / row.published - 1:+.1%} {t('llama.vs_published', published=row.published_as)}"
        if same
        else None,
        delta_color="off",
        delta_arrow="off",
        help=t("llama.m.params.help", embedding=billions(calc.embedding)),
    )
    metric_row.metric(
        t("llama.m.kv_per_token"), kib(calc.kv_per_token), help=t("llama.m.kv_per_token.help", D=calc.head_dim)
    )
    metric_row.metric(t("llama.m.kv_context"), size(calc.kv_context), help=t("llama.m.kv_context.help"))
    metric_row.metric(t("llama.m.ffn_ratio"), f"{calc.ffn_ratio:.2f}", help=t("llama.m.ffn_ratio.help"))
    if same:
        st.caption(t("llama.calc.source", source=row.source))
    else:
        st.caption(t("llama.calc.custom", name=row.name))


# ---- 5 · Qwen2.5 ----------------------------------------------------------------------------------------------------
def qwen_section() -> None:
    st.subheader(t("llama.qwen.title"))
    small = next(r for r in svc.published() if r.name == svc.SMALL_QWEN)
    c = svc.calculate(**small.config)
    st.markdown(t("llama.qwen.bias", n=c.qkv_bias_per_layer))
    st.markdown(t("llama.qwen.yarn"))
    st.markdown(t("llama.qwen.tied", emb=billions(c.embedding), total=billions(c.params), share=c.embedding / c.params))


if svc.available():
    activations_section()
    family_section()
else:
    ui.input_error(svc.model_missing())
configs_section()
qwen_section()

if svc.available():
    shape = svc.shape()
    fam = {s.name: s for s in svc.family()}
    here = t("llama.pvh.here_model", L=shape.n_layers, C=shape.dim, H=shape.n_heads, F=shape.hidden)
    ui.paper_vs_here(
        [
            (t("llama.pvh.size"), t("llama.pvh.size.paper"), here),
            (t("llama.pvh.data"), t("llama.pvh.data.paper"), t("llama.pvh.data.here")),
            (t("llama.pvh.attn"), t("llama.pvh.attn.paper"), t("llama.pvh.attn.here")),
            (t("llama.pvh.output"), t("llama.pvh.output.paper"), t("llama.pvh.output.here")),
        ],
        [t("llama.pvh.dep.tied"), t("llama.pvh.dep.siblings")],
    )
    with st.expander(t("llama.card.title")):
        cols = st.columns(len(fam))
        for col, s in zip(cols, fam.values()):
            card = svc.card(s.name)
            col.markdown(f"**{s.name}**")
            if not card:
                col.caption(t("llama.card.missing"))
                continue
            col.metric(t("llama.card.params"), f"{card.get('params', 0) / 1e6:.2f} M")
            col.metric(t("llama.card.val_bpc"), f"{card.get('metrics', {}).get('val_bpc', float('nan')):.4f}")
            col.caption(t("llama.card.caption", command=card.get("command", ""), steps=card.get("steps", "–")))

ui.explain(t("llama.explain"))
