"""Multi-head latent attention: what each design caches per token (ours trained the same way, DeepSeek-V3's under
each design) and, on the text, the latent a token caches and the keys the naive path rebuilds from it."""

import streamlit as st

from app.mla import service as svc
from app.mla import views
from app.shared import ui
from app.shared.formats import binary_size
from app.shared.html import esc
from app.shared.i18n import InputError, layer_head_label, t
from app.shared.seeds import two_seed_scatter
from app.shared.tokens import visible

CONTROLS = ("mla_layer",)  # the latent view's control (its token moves on the figure's own slider)
CHOICE = "_mla_latent"  # {control: value}, read by the parts they rerun (ui.rerun_parts)


def cache_per_token() -> None:
    """The section's heading, the cache per token of the four trained decoders and of DeepSeek-V3's designs, the
    loss each trained one reached, and the table of formulas."""
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
    _loss_against_cache(rows, mha, ours)
    ui.page_link("llama", t("mla.llama_link"))
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
                t("mla.col.bf16"): [binary_size(p.bytes_per_token) for p in pub],
                t("mla.col.context"): [binary_size(p.context_bytes) for p in pub],
            }
        )
        st.caption(t("mla.cache.table_note", groups=svc.GQA_GROUPS))


def _loss_against_cache(rows, mha, ours) -> None:
    """Each installed decoder's held-out loss (two seeds) against what it caches per token."""
    trained = [r for r in rows if r.present and r.val_bpc is not None]
    if not trained:
        return
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


def latent_of_a_token(text: str):
    """The latent view of the text: its heading, the layer control, and the part it reruns (the token moves on its
    figure's own slider). Returns the forward pass (``svc.Latent``) for the absorbed check, or None when the model
    or the text cannot run."""
    s = svc.shape()
    st.subheader(t("mla.latent.title"))
    st.markdown(t("mla.latent.caption", K=s.kv_latent, R=s.rope_dim, H=s.n_heads, D=s.head_dim))
    if not svc.MODEL.available:
        ui.input_error(svc.MODEL.missing())
        return None
    try:
        a = svc.latent(text)
    except InputError as e:
        ui.input_error(e)
        return None
    _controls(s.n_layers)
    _latent_view(a)
    return a


@st.fragment(key="mla_part_latent_controls")
def _controls(n_layers: int) -> None:
    """The layer, which reruns the view; the token moves on the figure's own slider, in the browser."""
    st.segmented_control(
        t("mla.layer"),
        list(range(n_layers)),
        default=0,
        required=True,
        **ui.drives("mla_layer", CHOICE, ["mla_part_latent"]),
    )
    ui.note_controls(CHOICE, CONTROLS)


@st.fragment(key="mla_part_latent")
def _latent_view(a) -> None:
    """Every token's cached latent and rope key in the chosen layer, the keys rebuilt from them and the next tokens on
    both paths, moved on the figure's own slider (in the browser: every token's numbers ride in the figure), opening
    on the link's ``mla_token`` or token 5."""
    s = svc.shape()
    layer = st.session_state[CHOICE]["mla_layer"]
    T = len(a.ids)
    c_kv, k_rope, keys = a.c_kv[layer], a.k_rope[layer], a.keys[layer]
    st.metric(
        t("mla.m.cached_here"),
        f"{s.kv_latent + s.rope_dim} / {2 * s.n_heads * s.head_dim}",
        help=t("mla.m.cached_here.help", K=s.kv_latent, R=s.rope_dim, H=s.n_heads, D=s.head_dim),
    )
    latent_norms = (c_kv**2).sum(-1) ** 0.5
    rope_norms = (k_rope**2).sum(-1) ** 0.5
    key_norms = (keys**2).sum(-1) ** 0.5  # (T, H)
    readouts = [
        t("mla.readout", token=k, piece=esc(visible(a.pieces[k])), latent=f"{latent_norms[k]:.3f}",
          rope=f"{rope_norms[k]:.3f}")
        for k in range(T)
    ]  # fmt: skip
    key_readouts = [
        t("mla.readout.keys", lo=f"{key_norms[k].min():.2f}", hi=f"{key_norms[k].max():.2f}") for k in range(T)
    ]
    nexts = [svc.next_tokens(a, k) for k in range(T)]
    st.caption(t("mla.latent.steps", layer=layer))
    heads = [layer_head_label(head=h) for h in range(s.n_heads)]
    fig = views.latent_steps(
        c_kv,
        k_rope,
        keys,
        readouts=readouts,
        key_readouts=key_readouts,
        next_naive=[_column(t("mla.col.naive"), n) for n, _ in nexts],
        next_absorbed=[_column(t("mla.col.absorbed"), b) for _, b in nexts],
        titles=(t("mla.latent.bars.title"), t("mla.latent.keys.title")),
        head_labels=heads,
        latent_name="c_KV",
        rope_name="k^R",
        x_title=t("mla.dim"),
        y_title=t("mla.value"),
        active=ui.query_int("mla_token", min(T - 1, 5), 0, T - 1),
        prefix=t("mla.token") + " ",
    )
    ui.figure(
        fig,
        {"pieces": list(a.pieces), "c_kv": c_kv, "k_rope": k_rope, "keys": keys},
        f"mla-latent-l{layer}",
        key="mla_latent",
    )
    st.caption(t("mla.readout.help", H=s.n_heads))


def _column(header: str, pred) -> list[str]:
    """One path's next tokens at a position, as lines of the figure's table: its name, then rank · piece · p."""
    lines = (f"{i + 1}. {esc(visible(p))} · {q:.4f}" for i, (p, q) in enumerate(zip(pred.pieces, pred.probs)))
    return [f"<b>{header}</b>", *lines]
