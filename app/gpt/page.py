"""GPT-1 / GPT-2 / GPT-3 (2005.14165): a small decoder-only model trained on Shakespeare, probed while it writes."""

import numpy as np
import streamlit as st

from app.gpt import service as svc
from app.gpt.views import head_scores, lens_grid, loss_by_position, next_token_bars, sampling_bars
from app.shared import ui
from app.shared.heatmaps import attention_heatmap, head_grid
from app.shared.i18n import InputError, layer_head_label, t
from app.shared.numbers import entropy_bits
from app.shared.tokens import token_strip, visible

VIEWS = ("tokens", "attention", "lens", "icl")
SHOWN = 12  # bars in the next-token chart
LENS_POSITIONS = 16  # last positions in the logit-lens grid
GRID_POSITIONS = 40  # last positions in the all-heads grid


ICL_DEFAULT = (30, 0)  # the in-context-learning view's default length and seed


ui.header("gpt")
backend = st.session_state.get("backend", "torch")
facts = svc.facts()
uniform = float(np.log(facts["vocab"]))  # nats: the loss of a uniform guess over the vocabulary
default_ind = svc.induction(*ICL_DEFAULT, backend)
st.markdown(t("gpt.intro", params=facts["params"] / 1e6))
ui.try_this(
    t("gpt.try.do"),
    t("gpt.try.see", vocab=facts["vocab"], uniform=uniform, lh=layer_head_label(*default_ind.best_head)),
    t("gpt.try.why"),
)
ui.paper_vs_here(
    [
        (t("gpt.pvh.shape"), t("gpt.pvh.shape.paper"), f"{facts['layers']} / {facts['dim']} / {facts['heads']}"),
        (t("gpt.pvh.params"), t("gpt.pvh.params.paper"), t("gpt.pvh.params.here", params=facts["params"] / 1e6)),
        (t("gpt.pvh.context"), t("gpt.pvh.context.paper"), str(facts["context"])),
        (t("gpt.pvh.vocab"), t("gpt.pvh.vocab.paper"), t("gpt.pvh.vocab.here", vocab=facts["vocab"])),
        (t("gpt.pvh.norm"), t("gpt.pvh.norm.paper"), t("gpt.pvh.norm.here")),
        (t("gpt.pvh.attention"), t("gpt.pvh.attention.paper"), t("gpt.pvh.attention.here")),
        (t("gpt.pvh.data"), t("gpt.pvh.data.paper"), t("gpt.pvh.data.here", tokens=facts["stage1_tokens"] / 1e6)),
        (
            t("gpt.pvh.result"),
            t("gpt.pvh.result.paper"),
            t(
                "gpt.pvh.result.here",
                bpc=facts["val_bpc"],
                bigram=facts["bigram_bpc"],
                ratio=facts["induction_ratio"],
            ),
        ),
    ],
    [
        t("gpt.pvh.dep.norm"),
        t("gpt.pvh.dep.dense"),
        t("gpt.pvh.dep.gelu"),
        t(
            "gpt.pvh.dep.size",
            layers=facts["layers"],
            dim=facts["dim"],
            vocab=facts["vocab"],
            context=facts["context"],
        ),
        t("gpt.pvh.dep.dropout"),
        t("gpt.pvh.dep.stage2"),
    ],
)

text = st.text_area(
    t("gpt.prompt"),
    svc.EXAMPLES[0],
    key="gpt_text",
    bind="query-params",
    max_chars=svc.MAX_CHARS,
    height=90,
    help=t("gpt.prompt.help"),
)
st.pills(
    t("gpt.examples"),
    svc.EXAMPLES,
    key="gpt_example",
    on_change=ui.use_example,
    args=("gpt_example", "gpt_text"),
    format_func=lambda s: s.replace("\n", " ↵ "),
)
try:
    a = svc.analyse(text, backend)
except InputError as e:
    ui.input_error(e)
    st.stop()

vocab = svc.vocabulary()
top = int(a.probs.argmax())
m1, m2, m3, m4 = st.columns(4)
m1.metric(t("gpt.m.tokens"), len(a.tokens.ids) - 1, help=t("gpt.m.tokens.help"))
m2.metric(t("gpt.m.top"), visible(vocab[top]))
m3.metric(t("gpt.m.top_p"), f"{a.probs[top]:.1%}")
m4.metric(t("gpt.m.entropy"), f"{entropy_bits(a.probs):.2f}", help=t("gpt.m.entropy.help"))

# ---- next-token distribution ----------------------------------------------------------------------------------------
st.subheader(t("gpt.next.title"))
order = np.argsort(-a.probs, kind="stable")[:SHOWN]
ui.figure(
    next_token_bars([vocab[i] for i in order], a.probs[order], value_title=t("gpt.probability")),
    {"id": order, "token": [vocab[i] for i in order], "probability": a.probs[order]},
    "gpt-next-token",
    key="gpt_next",
)
ui.readout(a)


def after_sampling() -> None:
    """``on_change`` of the KV-cache toggle: when the attention view shows the generated tokens, rerun it after the
    sampling part (both fragments, in page order), not the sampling part alone."""
    if st.session_state.get("_gpt_view_ids") is not None:
        st.rerun(["gpt_sampling_part", "gpt_views_part"])


def rerun_sampling() -> None:
    """``on_change`` of the sampling controls: rerun the sampling part (and the attention view, when it shows the
    generated tokens). The controls are a fragment of their own, so moving one does not send them all again."""
    views_too = st.session_state.get("_gpt_view_ids") is not None
    st.rerun(["gpt_sampling_part", "gpt_views_part"] if views_too else ["gpt_sampling_part"])


# ---- sampling: what temperature, top-k and top-p do; then generate ---------------------------------------------------
st.subheader(t("gpt.sampling.title"))
st.caption(t("gpt.sampling.caption"))
SAMPLING_DEFAULTS = {"gpt_temperature": 0.8, "gpt_top_k": 0, "gpt_top_p": 0.9, "gpt_seed": 0, "gpt_n": 32}


@st.fragment(key="gpt_controls_part")
def sampling_controls() -> None:
    """Temperature, top-k, top-p, seed and length; each change reruns the sampling part (``rerun_sampling``)."""
    c1, c2, c3, c4, c5 = st.columns(5)
    c1.slider(
        t("gpt.temperature"),
        0.0,
        2.0,
        SAMPLING_DEFAULTS["gpt_temperature"],
        0.05,
        key="gpt_temperature",
        on_change=rerun_sampling,
        bind="query-params",
        help=t("gpt.temperature.help"),
    )
    c2.slider(
        t("gpt.top_k"),
        0,
        100,
        SAMPLING_DEFAULTS["gpt_top_k"],
        key="gpt_top_k",
        on_change=rerun_sampling,
        bind="query-params",
        help=t("gpt.top_k.help"),
    )
    c3.slider(
        t("gpt.top_p"),
        0.05,
        1.0,
        SAMPLING_DEFAULTS["gpt_top_p"],
        0.05,
        key="gpt_top_p",
        on_change=rerun_sampling,
        bind="query-params",
        help=t("gpt.top_p.help"),
    )
    c4.number_input(
        t("gpt.seed"),
        0,
        9999,
        SAMPLING_DEFAULTS["gpt_seed"],
        key="gpt_seed",
        on_change=rerun_sampling,
        bind="query-params",
        help=t("gpt.seed.help"),
    )
    c5.slider(
        t("gpt.n"),
        1,
        svc.MAX_NEW,
        SAMPLING_DEFAULTS["gpt_n"],
        key="gpt_n",
        on_change=rerun_sampling,
        bind="query-params",
    )


sampling_controls()


@st.fragment(key="gpt_sampling_part")
def sampling() -> None:
    """What the sampling controls do to the next-token distribution, and the continuation they generate: reruns alone
    when a control moves (``rerun_sampling``) or Generate is clicked."""
    temperature, top_k, top_p, seed, n_new = (st.session_state.get(k, v) for k, v in SAMPLING_DEFAULTS.items())
    s = svc.sampling_steps(a.logits, temperature, top_k, top_p, shown=20)
    effect = ui.row()
    effect.metric(t("gpt.m.kept"), s.kept, help=t("gpt.m.kept.help", vocab=facts["vocab"]))
    effect.metric(t("gpt.m.entropy_before"), f"{s.entropy_before:.2f}")
    effect.metric(t("gpt.m.entropy_after"), f"{s.entropy_after:.2f}")
    ui.figure(
        sampling_bars(
            [vocab[i] for i in s.order],
            s.before,
            s.after,
            s.cumulative,
            top_p,
            before_name=t("gpt.before"),
            after_name=t("gpt.after"),
            cumulative_name=t("gpt.cumulative"),
            cut_name=t("gpt.nucleus"),
            value_title=t("gpt.probability"),
        ),
        {
            "id": s.order,
            "token": [vocab[i] for i in s.order],
            "before": s.before,
            "tempered": s.tempered,
            "after": s.after,
            "cumulative_tempered": s.cumulative,
        },
        "gpt-sampling",
        key="gpt_sampling",
    )

    row = st.container(horizontal=True, vertical_alignment="center", gap="medium")
    # Generate streams the same tokens the views already show (same arguments, same seed), so the sampling part
    # alone reruns
    clicked = row.button(t("gpt.generate"), key="gpt_generate", icon=":material/play_arrow:", type="primary")
    cache = row.toggle(
        t("gpt.kv_cache"),
        True,
        key="gpt_cache",
        on_change=after_sampling,
        bind="query-params",
        help=t("gpt.cache.help"),
    )
    box = st.container(border=True)
    box.markdown(f"**{t('gpt.prompt.short')}**")
    box.text(text)
    box.markdown(f"**{t('gpt.continuation')}**")
    try:
        if clicked:  # stream the tokens live as they are decoded
            stats: dict = {}
            box.write_stream(svc.stream(text, n_new, temperature, top_k, top_p, int(seed), backend, stats, cache))
            gen = svc.Generation(
                prompt=a.tokens,
                new_ids=stats["ids"],
                text="",
                ms=stats["ms"],
                tokens_per_s=stats["tokens_per_s"],
                backend=backend,
                device=svc.device(backend),
                cache=cache,
            )
            # this reader's own measurements, one per backend and decoding, to compare cache and no cache
            st.session_state.setdefault("gpt_measured", {})[f"{backend}:{cache}"] = gen.tokens_per_s
        else:  # the same continuation (same seed), from the cache
            gen = svc.generate(text, n_new, temperature, top_k, top_p, int(seed), backend, cache)
            box.text(gen.text)
    except InputError as e:
        ui.input_error(e)
        st.stop()
    measured = st.session_state.get("gpt_measured", {})
    other = measured.get(f"{backend}:{not cache}") if clicked else None
    faster = bool(other) and gen.tokens_per_s >= other
    speed = ui.row()
    speed.metric(t("gpt.m.generated"), len(gen.new_ids))
    speed.container(key="gpt_tps").metric(
        t("gpt.m.tps"),
        f"{gen.tokens_per_s:.0f}",
        # against the other way of decoding, as this reader measured it last on this backend
        delta=t("gpt.m.tps.vs", ratio=gen.tokens_per_s / other, other=t("gpt.no_cache" if cache else "gpt.kv_cache"))
        if other
        else None,
        delta_arrow="up" if faster else "down",
        delta_color="normal" if faster else "inverse",  # the text never starts with "-": inverse makes it red
        help=t("gpt.m.tps.help"),
    )
    speed.metric(t("gpt.m.decoding"), t("gpt.kv_cache") if cache else t("gpt.no_cache"), help=t("gpt.m.decoding.help"))
    ui.readout(gen)
    st.session_state["_gpt_new_ids"] = tuple(gen.new_ids)


@st.fragment(key="gpt_views_part")
def views() -> None:
    """One view at a time: a control of the view reruns only the view."""
    st.session_state["_gpt_view_ids"] = None  # which generated tokens this view draws, if any (see sampling)
    # ---- one view at a time ------------------------------------------------------------------------------------------
    view = ui.choice(
        st.segmented_control,
        t("gpt.view"),
        VIEWS,
        key="gpt_view",
        default="tokens",
        labels={v: t(f"gpt.view.{v}") for v in VIEWS},
        required=True,
    )

    if view == "tokens":
        tk = a.tokens
        n_bytes = sum(tk.n_bytes)
        t1, t2, t3 = st.columns(3)
        t1.metric(t("gpt.tok.m.bytes"), n_bytes)
        t2.metric(t("gpt.tok.m.per_token"), f"{n_bytes / max(1, len(tk.ids) - 1):.2f}")
        t3.metric(
            t("gpt.tok.m.byte_pieces"),
            sum(1 for i in tk.ids[1:] if 1 <= i <= 256),
            help=t("gpt.tok.m.byte_pieces.help"),
        )
        ui.markup(
            token_strip(
                list(tk.pieces),
                np.array(tk.n_bytes, dtype=float),
                vmin=0,
                vmax=8,
                colorscale="Greens",
                fmt=t("gpt.tok.bytes"),
                label=t("gpt.tok.strip"),
            )
        )
        table = {
            t("gpt.tok.col.pos"): list(range(len(tk.ids))),
            t("gpt.tok.col.token"): [visible(p) for p in tk.pieces],
            t("gpt.tok.col.id"): list(tk.ids),
            t("gpt.tok.col.bytes"): list(tk.n_bytes),
            t("gpt.tok.col.hex"): list(tk.hex),
        }
        st.dataframe(ui.arrow(table), hide_index=True, key="gpt_tokens_table")
        ui.download(
            {"id": list(tk.ids), "token": list(tk.pieces), "bytes": list(tk.n_bytes), "hex": list(tk.hex)},
            "gpt-tokens",
            key="gpt_dl_tokens",
        )
        st.caption(t("gpt.tok.caption"))

    elif view == "attention":
        with_generated = st.toggle(t("gpt.att.generated"), True, key="gpt_att_generated", bind="query-params")
        new_ids = st.session_state.get("_gpt_new_ids", ()) if with_generated else None
        st.session_state["_gpt_view_ids"] = new_ids
        seq = a if not with_generated else svc.analyse_ids(a.tokens.ids + new_ids, backend)
        L, H = seq.patterns.shape[:2]
        c_layer, c_head = st.columns([1, 2])
        layer = c_layer.segmented_control(
            t("view.layer"),
            list(range(L)),
            default=L - 1,
            required=True,
            key="gpt_layer",
            bind="query-params",
            help=t("gpt.index.help"),
        )
        head = c_head.segmented_control(
            t("view.head"), list(range(H)), default=0, required=True, key="gpt_head", bind="query-params"
        )
        n_prompt = len(a.tokens.ids)
        labels = [("▸" if i >= n_prompt else "") + visible(p) for i, p in enumerate(seq.tokens.pieces)]
        pattern = seq.patterns[layer, head]
        last = pattern[-1]
        a1, a2 = st.columns(2)
        a1.metric(t("gpt.att.m.last_looks"), f"{int(last.argmax())}: {labels[int(last.argmax())]}")
        a2.metric(t("gpt.att.m.self"), f"{np.diag(pattern).mean():.2f}", help=t("gpt.att.m.self.help"))
        st.caption(t("gpt.att.caption", n=len(labels) - n_prompt))
        ui.figure(
            attention_heatmap(
                pattern,
                labels,
                labels,
                title=layer_head_label(layer, head),
                zmax=1,
                query_title=t("view.query"),
                key_title=t("view.key"),
                value_title=t("view.weight"),
            ),
            pattern,
            f"gpt-attention-l{layer}h{head}",
            key="gpt_attention",
            row_labels=labels,
            col_labels=labels,
        )
        window = seq.patterns[:, :, -GRID_POSITIONS:, -GRID_POSITIONS:]
        st.caption(t("gpt.att.grid", n=window.shape[-1]))
        ui.plot(
            head_grid(window, layer_title=t("view.layer"), head_title=t("view.head"), selected=(layer, head)),
            key="gpt_grid",
        )
        ui.readout(seq)

    elif view == "lens":
        T = len(a.tokens.ids)
        cols = slice(max(0, T - LENS_POSITIONS), T)
        ids = a.lens_ids[:, cols]
        pieces = np.array([[vocab[i] for i in row] for row in ids], dtype=object)
        n_layers = a.lens_ids.shape[0] - 1
        layer_labels = [t("gpt.lens.embedding")] + [t("gpt.lens.after", layer=i) for i in range(n_layers)]
        agree = [int(i) for i in np.flatnonzero(a.lens_ids[:, -1] == a.lens_ids[-1, -1])]
        l1, l2 = st.columns(2)
        l1.metric(t("gpt.lens.m.first"), layer_labels[agree[0]], help=t("gpt.lens.m.first.help"))
        l2.metric(
            t("gpt.lens.m.final_prob"),
            " → ".join(f"{p:.2f}" for p in a.final_top_by_layer),
            help=t("gpt.lens.m.final_prob.help"),
        )
        st.caption(t("gpt.lens.caption"))
        ui.figure(
            lens_grid(
                pieces,
                a.lens_probs[:, cols],
                list(a.tokens.pieces[cols]),
                layer_labels,
                value_title=t("gpt.probability"),
                position_title=t("gpt.lens.position"),
                layer_title=t("view.layer"),
            ),
            {
                "layers": layer_labels,
                "positions": list(a.tokens.pieces[cols]),
                "top_id": ids,
                "top_token": pieces.tolist(),
                "probability": a.lens_probs[:, cols],
            },
            "gpt-logit-lens",
            key="gpt_lens",
        )

    else:
        st.markdown(f"**{t('gpt.icl.repeat.title')}**")
        c_len, c_seed = st.columns(2)
        length = c_len.slider(t("gpt.icl.length"), 10, 60, ICL_DEFAULT[0], key="gpt_icl_length", bind="query-params")
        icl_seed = c_seed.number_input(
            t("gpt.icl.seed"), 0, 9999, ICL_DEFAULT[1], key="gpt_icl_seed", bind="query-params"
        )
        ind = svc.induction(length, int(icl_seed), backend)
        best = ind.best_head
        i1, i2, i3, i4, i5 = st.columns(5)
        i1.metric(t("gpt.icl.m.first"), f"{ind.loss_first:.2f}")
        i2.metric(t("gpt.icl.m.second"), f"{ind.loss_second:.3f}")
        i3.metric(
            t("gpt.icl.m.ratio"), f"{ind.ratio:.2%}", help=t("gpt.icl.m.ratio.help", card=facts["induction_ratio"])
        )
        i4.metric(t("gpt.icl.m.head"), layer_head_label(*best), help=t("gpt.icl.m.head.help"))
        i5.metric(t("gpt.icl.m.score"), f"{ind.scores[best]:.2f}")
        ui.figure(
            loss_by_position(
                ind.loss,
                length,
                loss_title=t("gpt.icl.loss"),
                position_title=t("gpt.lens.position"),
                first_name=t("gpt.icl.first"),
                second_name=t("gpt.icl.second"),
                uniform=uniform,
                uniform_name=t("gpt.icl.uniform", uniform=uniform),
            ),
            ind.loss,
            "gpt-induction-loss",
            key="gpt_icl_loss",
        )
        st.caption(
            t(
                "gpt.icl.note",
                first=ind.loss_first,
                second=ind.loss_second,
                times=ind.loss_first / uniform,
                vocab=facts["vocab"],
                uniform=uniform,
            )
        )
        c_scores, c_map = st.columns([2, 3])
        with c_scores:
            st.caption(t("gpt.icl.scores"))
            ui.figure(
                head_scores(
                    ind.scores, layer_title=t("view.layer"), head_title=t("view.head"), value_title=t("gpt.icl.score")
                ),
                ind.scores,
                "gpt-induction-scores",
                key="gpt_icl_scores",
            )
        with c_map:
            st.caption(t("gpt.icl.stripe.caption"))
            labels = [visible(p) for p in ind.tokens.pieces]
            ui.figure(
                attention_heatmap(
                    ind.patterns[best],
                    labels,
                    labels,
                    zmax=1,
                    title=layer_head_label(*best),
                    query_title=t("view.query"),
                    key_title=t("view.key"),
                    value_title=t("view.weight"),
                ),
                ind.patterns[best],
                "gpt-induction-head",
                key="gpt_icl_map",
            )
        ui.readout(ind)

        st.markdown(f"**{t('gpt.icl.few.title')}**")
        st.caption(t("gpt.icl.few.caption"))
        shot = ui.choice(
            st.segmented_control,
            t("gpt.icl.few.pattern"),
            list(svc.FEW_SHOT),
            key="gpt_icl_shot",
            default="refrain",
            labels={k: t(f"gpt.icl.few.{k}") for k in svc.FEW_SHOT},
            required=True,
        )
        prompt, expected = svc.FEW_SHOT[shot]
        few = svc.generate(prompt, 6, 0.0, 0, 1.0, 0, backend)
        ok = few.text.startswith(expected)
        f1, f2 = st.columns(2)
        f1.metric(t("gpt.icl.few.m.continues"), t("gpt.yes") if ok else t("gpt.no"))
        f2.metric(t("gpt.icl.few.m.expected"), visible(expected))
        st.text(prompt + few.text)


sampling()
views()

with st.expander(t("gpt.card.title")):
    card = svc.card()
    metrics = card.get("metrics", {})
    k1, k2, k3, k4 = st.columns(4)
    k1.metric(t("gpt.card.params"), f"{card.get('params', 0) / 1e6:.2f} M")
    k2.metric(t("gpt.card.val_bpc"), f"{metrics.get('val_bpc', float('nan')):.3f}")
    k3.metric(t("gpt.card.bigram"), f"{metrics.get('bigram_val_bpc', float('nan')):.3f}")
    k4.metric(t("gpt.card.induction"), f"{metrics.get('induction_loss_ratio', float('nan')):.3f}")
    minutes, command = svc.training_summary(card)
    st.caption(t("gpt.card.caption", data=card.get("data", ""), minutes=minutes, command=command))
ui.reading_numbers()

ui.explain(
    t(
        "gpt.explain",
        layers=facts["layers"],
        heads=facts["heads"],
        dim=facts["dim"],
        vocab=facts["vocab"],
        context=facts["context"],
        m1=facts["stage1_minutes"],
        m2=facts["stage2_minutes"],
        tokens=facts["stage1_tokens"] / 1e6,
        bpc=facts["val_bpc"],
        bigram=facts["bigram_bpc"],
        lh=layer_head_label(*default_ind.best_head),
        ratio=facts["induction_ratio"],
    )
)
