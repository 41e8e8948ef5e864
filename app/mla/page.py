"""DeepSeek-V3 (2412.19437): multi-head latent attention from DeepSeek-V2 (2405.04434) beside MHA, GQA and MQA
trained the same way, the absorbed inference path and why RoPE had to be decoupled; balancing experts with a
selection bias instead of an auxiliary loss; multi-token prediction drafting for speculative decoding; and the
published model's sizes."""

import streamlit as st

from app.catalog import PAPERS
from app.mla import service as svc
from app.mla import views
from app.shared import ui
from app.shared.i18n import InputError, layer_head_label, t
from app.shared.seeds import two_seed_scatter
from app.shared.tokens import visible

ui.header("mla")
st.markdown(t("mla.intro"))
ui.try_this(t("mla.try.do"), t("mla.try.see"), t("mla.try.why"))
backend = st.session_state.get("backend", "torch")


def size(n: float) -> str:
    """Bytes in the unit that reads best."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n:,.0f} B"


def percent(p: float) -> str:
    return f"{100 * p:.1f}%"


def page_link(page: str, key: str) -> None:
    paper = next(p for p in PAPERS if p.page == page)
    if paper.available:
        st.page_link(paper.script, label=t(key), icon=paper.icon)


text = st.text_area(
    t("mla.text"),
    svc.DEFAULT_TEXT,
    key="mla_text",
    bind="query-params",
    max_chars=svc.MAX_CHARS,
    height=80,
    help=t("mla.text.help", chars=svc.MAX_CHARS),
)
try:
    svc.check_text(text)
    text_ok = True
except InputError as e:
    ui.input_error(e)
    text_ok = False


# ---- 1 · multi-head latent attention ---------------------------------------------------------------------------------
def cache_section() -> None:
    st.header(t("mla.cache.title"))
    st.markdown(t("mla.cache.caption"))
    rows = svc.trained_caches()
    pub = svc.published_caches()
    left, right = st.columns(2)
    with left:
        ui.figure(
            views.cache_bars(
                [f"{r.name} ({r.kind})" for r in rows],
                [r.kind for r in rows],
                [r.numbers for r in rows],
                x_title=t("mla.numbers_per_token"),
                title=t("mla.cache.ours"),
            ),
            {
                r.name: {"kind": r.kind, "numbers_per_token": r.numbers, "bytes_measured": r.bytes_measured}
                for r in rows
            },
            "mla-cache-trained",
            key="mla_cache_trained",
        )
    with right:
        ui.figure(
            views.cache_bars(
                [t(f"mla.kind.{p.kind}") for p in pub],
                [p.kind for p in pub],
                [p.numbers for p in pub],
                x_title=t("mla.numbers_per_token"),
                title=t("mla.cache.v3"),
            ),
            {
                p.kind: {"formula": p.formula, "numbers_per_token": p.numbers, "bf16_bytes": p.bytes_per_token}
                for p in pub
            },
            "mla-cache-deepseek-v3",
            key="mla_cache_v3",
        )
    by = {r.kind: r for r in rows}
    mha, mqa, ours = by["MHA"], by["MQA"], by["MLA"]
    v3 = {p.kind: p for p in pub}
    c1, c2, c3, c4 = st.columns(4)
    c1.metric(
        t("mla.m.cache_mla"),
        f"{ours.bytes_measured:,} B" if ours.bytes_measured else f"{4 * ours.numbers:,} B",
        help=t("mla.m.cache_mla.help", formula=ours.formula, n=ours.numbers),
    )
    c2.metric(t("mla.m.vs_mha"), f"{mha.numbers / ours.numbers:.1f}×", help=t("mla.m.vs_mha.help"))
    c3.metric(t("mla.m.vs_mqa"), f"{ours.numbers / mqa.numbers:.0%}", help=t("mla.m.vs_mqa.help"))
    c4.metric(
        t("mla.m.v3_ratio"),
        f"{v3['MHA'].numbers / v3['MLA'].numbers:.1f}×",
        help=t("mla.m.v3_ratio.help", mla=v3["MLA"].numbers, mha=v3["MHA"].numbers),
    )
    st.caption(
        t(
            "mla.cache.groups",
            ours=ours.numbers / (2 * svc.shape().head_dim * svc.shape().n_layers),
            v3=v3["MLA"].numbers / (2 * svc.PUBLISHED["config"]["head_dim"] * svc.PUBLISHED["config"]["n_layers"]),
        )
    )
    trained = [r for r in rows if r.present and r.val_bpc is not None]
    if trained:
        st.caption(t("mla.cache.loss"))
        ui.figure(
            views.seed_layout(
                two_seed_scatter(
                    [f"{r.name} ({r.kind})" for r in trained],
                    [views.KIND_COLOURS[r.kind] for r in trained],
                    [(r.bytes_measured or 4 * r.numbers) / 1024 for r in trained],
                    [r.val_bpc for r in trained],
                    [r.other_seed_bpc for r in trained],
                    x_title=t("mla.kib_token"),
                    y_title=t("mla.val_bpc"),
                    seed_name=t("mla.seed0"),
                    other_seed_name=t("mla.seed1"),
                    x_unit="KiB",
                )
            ),
            {r.name: {"kind": r.kind, "val_bpc_seed0": r.val_bpc, "val_bpc_seed1": r.other_seed_bpc} for r in trained},
            "mla-loss-vs-cache",
            key="mla_loss_cache",
        )
        if ours.val_bpc is not None and mha.val_bpc is not None:
            spread = max(abs(r.val_bpc - r.other_seed_bpc) for r in trained if r.other_seed_bpc is not None)
            st.caption(t("mla.cache.compare", mla=ours.val_bpc, mha=mha.val_bpc, spread=spread))
        ui.reading_numbers()
    page_link("llama", "mla.llama_link")
    missing = [r.name for r in rows if not r.present]
    if missing:
        st.caption(t("mla.missing", names=", ".join(missing)))
    with st.expander(t("mla.cache.table")):
        ui.table(
            {
                t("mla.col.model"): [f"{r.name} ({r.kind})" for r in rows],
                t("mla.col.formula"): [r.formula for r in rows],
                t("mla.col.numbers"): [f"{r.numbers:,}" for r in rows],
                t("mla.col.bytes"): [f"{r.bytes_measured:,} B" if r.bytes_measured else "—" for r in rows],
            }
        )
        ui.table(
            {
                t("mla.col.design"): [t(f"mla.kind.{p.kind}") for p in pub],
                t("mla.col.formula"): [p.formula for p in pub],
                t("mla.col.numbers"): [f"{p.numbers:,}" for p in pub],
                t("mla.col.bf16"): [size(p.bytes_per_token) for p in pub],
                t("mla.col.context"): [size(p.context_bytes) for p in pub],
            }
        )
        st.caption(t("mla.cache.table_note", groups=svc.GQA_GROUPS))


LATENT = ("mla_token", "mla_layer")  # the latent view's controls (the token also reruns the next-token table)
LATENT_CHOICE = "_mla_latent"  # {control: value}, read by the view (ui.rerun_parts)


def latent_section(text: str) -> None:
    s = svc.shape()
    st.subheader(t("mla.latent.title"))
    st.markdown(t("mla.latent.caption", K=s.kv_latent, R=s.rope_dim, H=s.n_heads, D=s.head_dim))
    if not svc.available():
        ui.input_error(svc.model_missing())
        return
    try:
        a = svc.latent(text)
    except InputError as e:
        ui.input_error(e)
        return
    latent_controls(len(a.ids), s.n_layers)
    latent_view(a)
    # ---- the absorbed path: what the token does not change is drawn here, its next-token table in a part
    st.subheader(t("mla.absorb.title"))
    st.markdown(t("mla.absorb.caption"))
    metric_row = ui.row()
    metric_row.metric(t("mla.m.max_diff"), f"{a.max_diff:.2e}", help=t("mla.m.max_diff.help", scale=a.scale))
    metric_row.metric(t("mla.m.top1"), f"{a.top1_agree:.0%}", help=t("mla.m.top1.help", n=len(a.ids)))
    metric_row.metric(t("mla.m.naive_ms"), f"{a.ms:.1f} ms", help=t("mla.m.ms.help"))
    metric_row.metric(t("mla.m.absorbed_ms"), f"{a.absorbed_ms:.1f} ms", help=t("mla.m.ms.help"))
    absorbed_part(a)
    ui.readout(a)


@st.fragment(key="mla_part_latent_controls")
def latent_controls(T: int, n_layers: int) -> None:
    c_tok, c_layer = st.columns([3, 2])
    ui.slider(
        c_tok,
        t("mla.token"),
        0,
        T - 1,
        min(T - 1, 5),
        help=t("mla.token.help"),
        **ui.drives("mla_token", LATENT_CHOICE, ["mla_part_latent", "mla_part_absorbed"]),
    )
    c_layer.segmented_control(
        t("mla.layer"),
        list(range(n_layers)),
        default=0,
        required=True,
        **ui.drives("mla_layer", LATENT_CHOICE, ["mla_part_latent"]),
    )
    ui.note_controls(LATENT_CHOICE, LATENT)


@st.fragment(key="mla_part_latent")
def latent_view(a) -> None:
    """The chosen token's cached latent and rope key in the chosen layer, and the keys rebuilt from them."""
    s = svc.shape()
    token, layer = (st.session_state[LATENT_CHOICE][k] for k in LATENT)
    st.caption(t("mla.chosen", token=token, piece=visible(a.pieces[token]), layer=layer))
    c_kv, k_rope, keys = a.c_kv[layer, token], a.k_rope[layer, token], a.keys[layer, token]
    metric_row = ui.row()
    metric_row.metric(t("mla.m.latent_norm"), f"{float((c_kv**2).sum() ** 0.5):.3f}", help=t("mla.m.latent_norm.help"))
    metric_row.metric(t("mla.m.rope_norm"), f"{float((k_rope**2).sum() ** 0.5):.3f}", help=t("mla.m.rope_norm.help"))
    metric_row.metric(
        t("mla.m.cached_here"),
        f"{s.kv_latent + s.rope_dim} / {2 * s.n_heads * s.head_dim}",
        help=t("mla.m.cached_here.help", K=s.kv_latent, R=s.rope_dim, H=s.n_heads, D=s.head_dim),
    )
    norms = (keys**2).sum(-1) ** 0.5
    metric_row.metric(
        t("mla.m.key_norms"), f"{norms.min():.2f}–{norms.max():.2f}", help=t("mla.m.key_norms.help", H=s.n_heads)
    )
    left, right = st.columns(2)
    with left:
        st.caption(t("mla.latent.bars"))
        ui.figure(
            views.latent_bars(c_kv, k_rope, latent_name="c_KV", rope_name="k^R", y_title=t("mla.value")),
            {"c_kv": c_kv, "k_rope": k_rope},
            f"mla-latent-l{layer}-t{token}",
            key="mla_latent",
        )
    with right:
        st.caption(t("mla.latent.keys"))
        heads = [layer_head_label(head=h) for h in range(s.n_heads)]
        ui.figure(
            views.head_vectors(keys, head_labels=heads, x_title=t("mla.dim"), value_title=t("mla.value")),
            keys,
            f"mla-keys-l{layer}-t{token}",
            key="mla_keys",
            row_labels=heads,
        )


@st.fragment(key="mla_part_absorbed")
def absorbed_part(a) -> None:
    """The naive and the absorbed path's next tokens at the chosen token (the layer does not change them)."""
    token = st.session_state[LATENT_CHOICE]["mla_token"]
    naive, absorbed = svc.next_tokens(a, token)
    st.caption(t("mla.absorb.next", token=token, piece=visible(a.pieces[token])))
    ui.table(
        {
            t("mla.col.rank"): [str(i + 1) for i in range(len(naive.pieces))],
            t("mla.col.naive"): [f"{visible(p)} · {q:.4f}" for p, q in zip(naive.pieces, naive.probs)],
            t("mla.col.absorbed"): [f"{visible(p)} · {q:.4f}" for p, q in zip(absorbed.pieces, absorbed.probs)],
        }
    )


@st.fragment
def rope_section(text: str) -> None:
    s = svc.shape()
    st.subheader(t("mla.rope.title"))
    st.markdown(t("mla.rope.caption"))
    if not svc.available():
        ui.input_error(svc.model_missing())
        return
    c_layer, c_head = st.columns(2)
    layer = c_layer.segmented_control(
        t("mla.layer"), list(range(s.n_layers)), default=0, required=True, key="mla_rope_layer", bind="query-params"
    )
    head = c_head.segmented_control(
        t("mla.head"), list(range(s.n_heads)), default=0, required=True, key="mla_head", bind="query-params"
    )
    try:
        r = svc.rope_check(text, layer)
        a = svc.latent(text)
    except InputError as e:
        ui.input_error(e)
        return
    m1, m2 = st.columns(2)
    m1.metric(t("mla.m.decoupled_error"), f"{r.decoupled_error:.1e}", help=t("mla.m.rope_error.help"))
    m2.metric(t("mla.m.coupled_error"), percent(r.coupled_error), help=t("mla.m.rope_error.help"))
    ui.figure(
        views.scores_pair(
            r.coupled[head],
            r.coupled_absorbed[head],
            list(a.pieces),
            titles=(t("mla.rope.exact"), t("mla.rope.attempt")),
            query_title=t("view.query"),
            key_title=t("view.key"),
            value_title=t("mla.score"),
        ),
        {"exact": r.coupled[head], "absorbed_attempt": r.coupled_absorbed[head], "tokens": list(a.pieces)},
        f"mla-rope-l{layer}-h{head}",
        key="mla_rope_scores",
    )
    st.caption(t("mla.rope.by_key"))
    decoupled_gap = abs(r.decoupled_absorbed - r.decoupled).max(axis=(0, 1))
    ui.figure(
        views.error_by_key(
            r.error_by_key,
            decoupled_gap,
            coupled_name=t("mla.rope.coupled"),
            decoupled_name=t("mla.rope.decoupled"),
            x_title=t("mla.key_position"),
            y_title=t("mla.abs_error"),
        ),
        {"coupled": r.error_by_key, "decoupled": decoupled_gap},
        f"mla-rope-error-l{layer}",
        key="mla_rope_error",
    )
    st.markdown(t("mla.rope.why"))


# ---- 2 · balancing without an auxiliary loss -------------------------------------------------------------------------
def balance_section() -> None:
    st.header(t("mla.balance.title"))
    st.markdown(t("mla.balance.caption"))
    try:
        b = svc.balance()
    except InputError as e:
        ui.input_error(e)
        return
    L = b.curve.shape[0]
    layers = [layer_head_label(layer=i) for i in range(L)]
    m = b.val_loss
    c1, c2, c3, c4 = st.columns(4)
    if svc.SWITCH in m:
        c1.metric(t("mla.m.val_loss", name=svc.SWITCH), f"{m[svc.SWITCH]:.4f}", help=t("mla.m.val_loss.help"))
    c2.metric(
        t("mla.m.val_loss", name=svc.AUXFREE),
        f"{m[svc.AUXFREE]:.4f}",
        f"{m[svc.AUXFREE] - m[svc.SWITCH]:+.4f}" if svc.SWITCH in m else None,
        delta_color="inverse",
        help=t("mla.m.val_loss.help"),
    )
    held, worst = b.held_out_routed, b.cv_max
    if svc.SWITCH in worst:
        c3.metric(t("mla.m.cv_max", name=svc.SWITCH), f"{worst[svc.SWITCH]:.4f}", help=t("mla.m.cv.help"))
    c4.metric(
        t("mla.m.cv_max", name=svc.AUXFREE),
        f"{worst[svc.AUXFREE]:.4f}",
        f"{worst[svc.AUXFREE] - worst[svc.SWITCH]:+.4f}" if svc.SWITCH in worst else None,
        delta_color="inverse",
        help=t("mla.m.cv.help"),
    )
    st.caption(t("mla.balance.curves", every=b.every, N=b.batch_tokens, floor=b.noise_floor))
    ui.figure(
        views.load_curves(
            b.steps,
            b.curve,
            b.switch_curve,
            held,
            b.noise_floor,
            layer_names=layers,
            auxfree_name=svc.AUXFREE,
            switch_name=svc.SWITCH,
            held_out_name=t("mla.held_out"),
            floor_name=t("mla.floor"),
            x_title=t("mla.step"),
            y_title=t("mla.load_cv"),
        ),
        {
            "step": b.steps,
            "auxfree_load_cv": b.curve,
            "switch_load_cv": b.switch_curve,
            "held_out_routed_cv": held,
            "random_router_cv": b.noise_floor,
        },
        "mla-load-over-training",
        key="mla_load_curves",
    )
    if b.switch_curve is None:
        st.caption(t("mla.balance.no_switch_curve"))
    elif b.twin:
        shipped = b.val_loss.get(svc.SWITCH)
        st.caption(t("mla.balance.twin", loss=b.twin["val_loss"], cv=b.twin["load_cv_max"], shipped=shipped))
    st.caption(t("mla.balance.bias", gamma=b.gamma))
    ui.figure(
        views.bias_map(b.bias, layer_labels=layers, expert_title=t("mla.expert"), value_title="b"),
        b.bias,
        "mla-selection-bias",
        key="mla_bias",
        row_labels=layers,
        col_labels=[str(e) for e in range(b.bias.shape[1])],
    )


@st.fragment
def routing_section(text: str) -> None:
    st.subheader(t("mla.route.title"))
    st.markdown(t("mla.route.caption"))
    try:
        r = svc.route(text, backend)
    except InputError as e:
        ui.input_error(e)
        return
    L = r.models[0].expert.shape[0]
    E = r.models[0].probs.shape[-1]
    layer = st.segmented_control(
        t("mla.moe_layer"), list(range(L)), default=0, required=True, key="mla_moe_layer", bind="query-params"
    )
    for name in r.missing:
        ui.input_error(svc.model_missing(name))
    ui.markup(views.expert_legend(E, t("mla.expert")))
    strips = []
    for m in r.models:
        strips.append(
            views.routing_strip(
                m.pieces,
                m.expert[layer],
                None if m.changed is None else m.changed[layer],
                label=m.name,
                expert_word=t("mla.expert"),
                changed_word=t("mla.route.changed_word"),
            )
        )
    ui.markup("".join(strips))
    aux = next((m for m in r.models if m.changed is not None), None)
    cols = st.columns(4)
    for col, m in zip(cols, r.models):
        c = m.counts[layer]
        col.metric(t("mla.m.route_cv", name=m.name), f"{c.std() / c.mean():.2f}", help=t("mla.m.route_cv.help"))
    if aux is not None:
        cols[2].metric(
            t("mla.m.changed"),
            f"{int(aux.changed[layer].sum())} / {aux.changed.shape[1]}",
            help=t("mla.m.changed.help"),
        )
        cols[3].metric(t("mla.m.weight_gap"), f"{aux.weight_gap:.1e}", help=t("mla.m.weight_gap.help"))
    ui.figure(
        views.expert_counts(
            [m.counts[layer] for m in r.models],
            [m.name for m in r.models],
            expert_title=t("mla.expert"),
            y_title=t("mla.tokens"),
        ),
        {m.name: m.counts for m in r.models},
        f"mla-expert-counts-l{layer}",
        key="mla_counts",
    )
    st.caption(t("mla.route.note"))
    ui.readout(r)
    page_link("moe", "mla.moe_link")


# ---- 3 · multi-token prediction ------------------------------------------------------------------------------------
def heads_table(h) -> dict[str, list[str]]:
    def fmt(p) -> str:
        return " · ".join(f"{visible(x)} {q:.0%}" for x, q in zip(p.pieces, p.probs))

    T = len(h.pieces)
    return {
        "#": [str(i) for i in range(T)],
        t("mla.col.token"): [visible(p) for p in h.pieces],
        t("mla.col.main"): [fmt(p) for p in h.main],
        t("mla.col.next"): [visible(h.pieces[i + 1]) if i + 1 < T else "" for i in range(T)],
        t("mla.col.ahead"): [fmt(p) for p in h.ahead],
        t("mla.col.after_next"): [visible(h.pieces[i + 2]) if i + 2 < T else "" for i in range(T)],
    }


@st.fragment
def mtp_section(text: str) -> None:
    st.header(t("mla.mtp.title"))
    st.markdown(t("mla.mtp.caption"))
    if not svc.available(svc.MTP):
        ui.input_error(svc.model_missing(svc.MTP))
        return
    try:
        h = svc.heads(text, backend)
    except InputError as e:
        ui.input_error(e)
        return
    c1, c2 = st.columns(2)
    c1.metric(t("mla.m.main_hit"), f"{h.main_hit.mean():.0%}", help=t("mla.m.main_hit.help", n=len(h.main_hit)))
    c2.metric(
        t("mla.m.ahead_hit"),
        f"{h.ahead_hit.mean():.0%}" if len(h.ahead_hit) else "—",
        help=t("mla.m.ahead_hit.help", n=len(h.ahead_hit)),
    )
    st.dataframe(ui.arrow(heads_table(h)), hide_index=True, height=260)
    ui.readout(h)

    st.subheader(t("mla.spec.title"))
    st.markdown(t("mla.spec.caption"))
    n = st.slider(t("mla.n"), 1, svc.MAX_NEW, 32, key="mla_n", bind="query-params")
    try:
        with st.spinner(t("mla.spec.spinner")):
            sp = svc.speculate(text, n, backend)
    except InputError as e:
        ui.input_error(e)
        return
    paper = svc.PUBLISHED["mtp"]
    measured = svc.mtp_card().metrics
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(
        t("mla.m.acceptance"),
        f"{sp.acceptance:.0%}",
        help=t("mla.m.acceptance.help", accepted=sp.accepted, proposed=sp.proposals),
    )
    m2.metric(t("mla.m.tpf"), f"{sp.tokens_per_forward:.2f}", help=t("mla.m.tpf.help", n=n, forwards=sp.forwards))
    if "acceptance_rate" in measured:
        m3.metric(t("mla.m.card_acceptance"), f"{measured['acceptance_rate']:.0%}", help=t("mla.m.card.help"))
        m4.metric(t("mla.m.card_tpf"), f"{measured['tokens_per_forward']:.2f}", help=t("mla.m.card.help"))
    ui.markup(
        views.legend_chips(
            [
                (t("mla.spec.accepted"), views.ACCEPTED, "#fff"),
                (t("mla.spec.own"), views.OWN, "#111"),
                (t("mla.spec.refused"), "#fff", views.REFUSED),
            ]
        )
    )
    ui.markup(
        views.speculation_strip(
            text,
            sp.pieces,
            sp.drafted,
            list(sp.rejected),
            accepted_word=t("mla.spec.accepted"),
            own_word=t("mla.spec.own"),
            refused_word=t("mla.spec.refused"),
        )
    )
    st.caption(
        t(
            "mla.spec.paper",
            low=paper["acceptance_low"],
            high=paper["acceptance_high"],
            tps=paper["tps_speedup"],
        )
    )
    ui.readout(sp)
    card = svc.mtp_card()
    if card.curves:
        with st.expander(t("mla.mtp.curves")):
            c = card.curves
            ui.figure(
                views.mtp_losses(
                    c["step"],
                    c["main_loss"],
                    c["mtp_loss"],
                    c["lambda"],
                    main_name=t("mla.mtp.main_loss"),
                    ahead_name=t("mla.mtp.ahead_loss"),
                    lambda_name="λ",
                    x_title=t("mla.step"),
                    y_title=t("mla.mtp.loss"),
                ),
                c,
                "mla-mtp-loss-curves",
                key="mla_mtp_curves",
            )
            if "val_bpc" in card.metrics:
                control = card.control_bpc or {}
                st.caption(
                    t(
                        "mla.mtp.bpc",
                        bpc=card.metrics["val_bpc"],
                        control=", ".join(f"{v:.4f}" for v in control.values()) or "—",
                    )
                )


# ---- 4 · DeepSeek-V3's sizes ---------------------------------------------------------------------------------------
def sizes_section() -> None:
    st.header(t("mla.sizes.title"))
    p = svc.PUBLISHED
    c, params = p["config"], p["params"]
    s1, s2, s3, s4 = st.columns(4)
    s1.metric(t("mla.m.total"), f"{params['total'] / 1e9:.0f}B")
    s2.metric(t("mla.m.active"), f"{params['active'] / 1e9:.0f}B", help=t("mla.m.active.help"))
    s3.metric(t("mla.m.layers"), f"{c['n_layers']}", help=t("mla.m.layers.help", dense=c["dense_layers"]))
    s4.metric(
        t("mla.m.experts"),
        f"{c['routed_experts']} + {c['shared_experts']}",
        help=t("mla.m.experts.help", k=c["active_experts"], nodes=c["max_nodes"]),
    )
    pub = {x.kind: x for x in svc.published_caches()}
    b = p["balance"]["ablation_pile_bpb"]
    rows = [
        ("mla.saved.mla", {"share": pub["MLA"].numbers / pub["MHA"].numbers, "v2": p["v2"]["kv_cache_reduction"]}),
        ("mla.saved.moe", {"share": params["active"] / params["total"], "k": c["active_experts"]}),
        (
            "mla.saved.balance",
            {
                "small_aux": b["small"]["aux_loss"],
                "small_free": b["small"]["aux_free"],
                "large_aux": b["large"]["aux_loss"],
                "large_free": b["large"]["aux_free"],
                "alpha": p["balance"]["sequence_alpha"],
            },
        ),
        (
            "mla.saved.mtp",
            {
                "low": p["mtp"]["acceptance_low"],
                "high": p["mtp"]["acceptance_high"],
                "tps": p["mtp"]["tps_speedup"],
                "extra": params["mtp_module"] / 1e9,
            },
        ),
    ]
    ui.table(
        {
            t("mla.col.part"): [t(f"{k}.part") for k, _ in rows],
            t("mla.col.what"): [t(f"{k}.what", **f) for k, f in rows],
            t("mla.col.saved"): [t(f"{k}.saved", **f) for k, f in rows],
        }
    )
    st.caption(t("mla.sizes.note", tokens=p["training"]["tokens"] / 1e12, hours=p["training"]["gpu_hours"] / 1e6))


cache_section()
if text_ok:
    latent_section(text)
    rope_section(text)
balance_section()
if text_ok:
    routing_section(text)
    mtp_section(text)
else:
    st.header(t("mla.mtp.title"))
    st.markdown(t("mla.mtp.caption"))
sizes_section()
ui.paper_vs_here(
    [(t(f"mla.pvh.{k}.what"), t(f"mla.pvh.{k}.paper"), t(f"mla.pvh.{k}.here")) for k in svc.PVH_ROWS],
    [t(f"mla.pvh.departure.{k}") for k in svc.PVH_DEPARTURES],
)
ui.explain(t("mla.explain"))
