"""Section 3 of the LLaMA page: the three trained siblings that differ only in their key/value heads (MHA, GQA,
MQA) — how the heads are grouped, what each caches per token against its validation loss, the caches growing while
the models write — and, at the end of the page, the paper's setup beside ours and the models' cards."""

from __future__ import annotations

import streamlit as st

from app.llama import service as svc
from app.llama import views
from app.shared import ui
from app.shared.formats import binary_size, kib, millions_or_billions
from app.shared.i18n import InputError, t
from app.shared.seeds import two_seed_scatter

KINDS = {4: "MHA", 2: "GQA", 1: "MQA"}  # by key/value heads, for 4 query heads
GENERATED = "_llama_generated"  # set once the reader has pressed Generate: the writings follow the prompt from then on


def title() -> None:
    """3 · MHA / GQA / MQA: the heading and what the section compares."""
    st.subheader(t("llama.gqa.title"))
    st.markdown(t("llama.gqa.caption"))


def real_cache(name: str) -> None:
    """A real model's grouping, and its KV cache as released (G key/value heads) beside the same configuration with
    MHA (G = H) and MQA (G = 1): per token and at its full context, with the parameters each would have."""
    r = svc.real_cache(name)
    per = r.n_heads // r.n_kv_heads
    st.markdown(f"**{t('llama.real.title', name=svc.title(name))}**")
    ui.figure(
        views.grouping(
            r.n_heads,
            r.n_kv_heads,
            title=f"{svc.title(name)} · GQA · H = {r.n_heads} → G = {r.n_kv_heads}",
            query_name=t("llama.query_head"),
            kv_name=t("llama.kv_head"),
        ),
        {"query_head": list(range(r.n_heads)), "kv_head": [h // per for h in range(r.n_heads)]},
        f"{name}-grouping",
        key="llama_group_real",
    )
    by = {v.kind: v for v in r.variants}
    gqa, mha, mqa = by["gqa"], by["mha"], by["mqa"]
    row = ui.row()
    row.metric(
        t("llama.m.real_kv_token"),
        f"{gqa.kv_per_token:,} B",
        help=t(
            "llama.m.real_kv_token.help",
            L=r.n_layers,
            G=r.n_kv_heads,
            D=r.head_dim,
            measured=r.measured,
            nbytes=r.measured_bytes,
        ),
    )
    row.metric(t("llama.m.real_kv_context", T=r.context), binary_size(gqa.kv_context))
    row.metric(
        t("llama.m.real_vs_mha"), f"÷ {mha.kv_per_token / gqa.kv_per_token:.0f}", help=t("llama.m.real_vs_mha.help")
    )
    ui.table(
        {
            t("llama.real.col.kind"): [t(f"llama.real.kind.{v.kind}") for v in r.variants],
            t("llama.col.G"): [v.n_kv_heads for v in r.variants],
            t("llama.real.col.kv"): [f"{v.kv_per_token:,} B" for v in r.variants],
            t("llama.real.col.kv_ctx", T=f"{r.context:,}"): [binary_size(v.kv_context) for v in r.variants],
            t("llama.col.params"): [millions_or_billions(v.params) for v in r.variants],
        }
    )
    st.caption(
        t(
            "llama.real.note",
            name=svc.title(name),
            measured=r.measured,
            nbytes=r.measured_bytes,
            half=r.measured * svc.REAL_CACHE_BYTES // r.measured_bytes,
            mha=binary_size(mha.kv_context),
            mqa=binary_size(mqa.kv_context),
            saved=millions_or_billions(mha.params - gqa.params),
            T=f"{r.context:,}",
        )
    )


def kv_heads() -> None:
    """Our three siblings: each one's grouping and cache per token, then loss against cache."""
    st.markdown(f"**{t('llama.gqa.ours')}**")
    fam = svc.family()
    for col, sib in zip(st.columns(len(fam)), fam):
        with col:
            _grouping(sib)
    trained = [s for s in fam if s.present and s.val_bpc is not None]
    if trained:
        _loss_against_cache(trained)
        ui.reading_numbers()


def _grouping(sib: svc.Sibling) -> None:
    per = sib.n_heads // sib.n_kv_heads
    ui.figure(
        views.grouping(
            sib.n_heads,
            sib.n_kv_heads,
            title=f"{sib.name} · {KINDS.get(sib.n_kv_heads, 'GQA')} · G = {sib.n_kv_heads}",
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
            help=t("llama.m.kv_token.help", L=sib.n_layers, G=sib.n_kv_heads, D=sib.head_dim, formula=sib.kv_formula),
        )
    else:
        ui.input_error(svc.model_missing(sib.name))


def _loss_against_cache(trained: list[svc.Sibling]) -> None:
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
            s.name: {"kv_bytes_per_token": s.kv_measured, "val_bpc": s.val_bpc, "other_seed_val_bpc": s.other_seed_bpc}
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


@st.fragment
def generation() -> None:
    """The caches while the models write: each installed sibling continues the prompt greedily, its cache measured
    from its tensors after every step against 2 · L · G · D · 4 bytes per position. A fragment: the prompt, the
    length and the button rerun this part alone."""
    st.markdown(f"**{t('llama.grow.title')}**")
    st.caption(t("llama.grow.caption"))
    c_p, c_n = st.columns([3, 1])
    prompt = ui.text_line(
        t("llama.prompt"), svc.DEFAULT_PROMPT, key="llama_prompt", max_chars=svc.MAX_PROMPT_CHARS, host=c_p
    )
    n = c_n.slider(t("llama.n"), 1, svc.MAX_NEW, 48, key="llama_n", bind="query-params")
    if st.button(t("llama.generate"), key="llama_generate", icon=":material/play_arrow:", type="primary"):
        st.session_state[GENERATED] = True
    if not st.session_state.get(GENERATED):
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
    colours = dict(zip(svc.SIBLINGS, views.SIBLING_COLOURS))
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


def paper_vs_here() -> None:
    """The paper's models, data and attention beside the shipped ``llama``'s."""
    shape = svc.shape()
    here = t("llama.pvh.here_model", L=shape.n_layers, C=shape.dim, H=shape.n_heads, F=shape.hidden)
    measured = svc.card("llama").get("metrics", {})
    result = t(
        "llama.pvh.result.here",
        bpc=measured.get("val_bpc", float("nan")),
        base=measured.get("baseline_val_bpc", float("nan")),
    )
    ui.paper_vs_here(
        [
            (t("llama.pvh.result"), t("llama.pvh.result.paper"), result),
            (t("llama.pvh.size"), t("llama.pvh.size.paper"), here),
            (t("llama.pvh.data"), t("llama.pvh.data.paper"), t("llama.pvh.data.here")),
            (t("llama.pvh.attn"), t("llama.pvh.attn.paper"), t("llama.pvh.attn.here")),
            (t("llama.pvh.output"), t("llama.pvh.output.paper"), t("llama.pvh.output.here")),
        ],
        [t("llama.pvh.dep.tied"), t("llama.pvh.dep.siblings")],
    )


def model_cards() -> None:
    """Each sibling's card: parameters, validation loss, and the command that trained it."""
    with st.expander(t("llama.card.title")):
        fam = svc.family()
        for col, s in zip(st.columns(len(fam)), fam):
            card = svc.card(s.name)
            col.markdown(f"**{s.name}**")
            if not card:
                col.caption(t("llama.card.missing"))
                continue
            col.metric(t("llama.card.params"), millions_or_billions(card.get("params", 0)))
            col.metric(t("llama.card.val_bpc"), f"{card.get('metrics', {}).get('val_bpc', float('nan')):.4f}")
            col.caption(t("llama.card.caption", command=card.get("command", ""), steps=card.get("steps", "–")))
