"""BERT (1810.04805): mask tokens and watch a small bidirectional encoder, trained on Shakespeare, fill them in."""

import numpy as np
import streamlit as st

from app.bert import service as svc
from app.bert.views import ACTION_COLOURS, embedding_panels, prediction_bars
from app.shared import ui
from app.shared.heatmaps import attention_heatmap, head_grid
from app.shared.i18n import InputError, layer_head_label, t
from app.shared.tokens import token_strip, visible

VIEWS = ("example", "nsp", "embeddings", "attention")
ACTIONS = ("none", "mask", "random", "keep")  # models.data.masking.NOT_CHOSEN, MASKED, RANDOM, KEPT
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")  # a pill shows its position: be² and be⁷ differ


def _masks_from_url() -> None:
    """Start the mask picker from the URL (``bert_masks=3,6``; empty = none), else the default."""
    if "bert_masks" in st.session_state:
        return
    raw = st.query_params.get("bert_masks")
    if raw is None:
        st.session_state["bert_masks"] = list(svc.DEFAULT_MASKS)
    else:
        st.session_state["bert_masks"] = [int(x) for x in raw.split(",") if x.strip().isdigit()]


def _masks_follow_text(text_a: str, text_b: str) -> None:
    """Picked positions belong to the sentences they were picked on: once the text changes, none are picked (a typed
    [MASK] is then the only mask), except on the default pair, whose default mask comes back with it."""
    pair = [text_a, text_b]
    before = st.session_state.get("bert_masks_for")
    st.session_state["bert_masks_for"] = pair
    if before is not None and before != pair:
        st.session_state["bert_masks"] = list(svc.DEFAULT_MASKS) if pair == [svc.DEFAULT_A, svc.DEFAULT_B] else []


def _use_pair() -> None:
    """``on_change`` of the next-sentence examples: put the picked pair in the two boxes, unmask, clear the picker."""
    pair = svc.NSP_PAIRS.get(st.session_state.get("bert_nsp_example") or "")
    if pair:
        st.session_state.update(bert_a=pair["a"], bert_b=pair["b"], bert_masks=[])
    st.session_state["bert_nsp_example"] = None


def _top_guesses(a: str, backend: str, n: int = 3) -> str:
    """The model's ``n`` best guesses for the first [MASK] of sentence ``a`` alone, as `a`, `b`, `c`."""
    res = svc.analyse(a, "", (), n, backend)
    vocab = svc.vocabulary()
    return ", ".join(f"`{vocab[i]}`" for i in res.top_ids[0])


ui.header("bert")
backend = st.session_state.get("backend", "torch")
facts = svc.facts()
st.markdown(t("bert.intro"))
ui.try_this(
    t("bert.try.do", thou=svc.TRY["thou"], you=svc.TRY["you"]),
    t("bert.try.see", thou_top=_top_guesses(svc.TRY["thou"], backend), you_top=_top_guesses(svc.TRY["you"], backend)),
    t("bert.try.why"),
)
ui.paper_vs_here(
    [
        (t("bert.pvh.shape"), t("bert.pvh.shape.paper"), f"{facts['layers']} / {facts['dim']} / {facts['heads']}"),
        (t("bert.pvh.params"), t("bert.pvh.params.paper"), t("bert.pvh.params.here", params=facts["params"] / 1e6)),
        (t("bert.pvh.len"), t("bert.pvh.len.paper"), t("bert.pvh.len.here", max_len=facts["max_len"])),
        (t("bert.pvh.vocab"), t("bert.pvh.vocab.paper"), t("bert.pvh.vocab.here", vocab=facts["vocab"])),
        (t("bert.pvh.norm"), t("bert.pvh.norm.paper"), t(f"bert.pvh.norm.{facts['norm']}")),
        (t("bert.pvh.masking"), t("bert.pvh.masking.paper"), t("bert.pvh.masking.here")),
        (t("bert.pvh.nsp"), t("bert.pvh.nsp.paper"), t("bert.pvh.nsp.here")),
        (t("bert.pvh.data"), t("bert.pvh.data.paper"), t("bert.pvh.data.here")),
        (
            t("bert.pvh.training"),
            t("bert.pvh.training.paper"),
            t(
                "bert.pvh.training.here",
                steps=facts["steps"],
                batch=facts["batch"],
                minutes=facts["minutes"],
                device=t(f"bert.device.{facts['device']}"),
            ),
        ),
        (
            t("bert.pvh.result"),
            t("bert.pvh.result.paper"),
            t("bert.pvh.result.here", top1=facts["mlm_top1"], top5=facts["mlm_top5"], nsp=facts["nsp_accuracy"]),
        ),
    ],
    [
        t(
            "bert.pvh.dep.size",
            layers=facts["layers"],
            dim=facts["dim"],
            max_len=facts["max_len"],
            vocab=facts["vocab"],
        ),
        *([t("bert.pvh.dep.pre_ln")] if facts["norm"] == "pre" else []),
        t("bert.pvh.dep.masking"),
        t("bert.pvh.dep.nsp", short=facts["p_short"]),
        t("bert.pvh.dep.rest"),
    ],
)

c_a, c_b = st.columns(2)
text_a = c_a.text_input(
    t("bert.a"), svc.DEFAULT_A, key="bert_a", bind="query-params", max_chars=svc.MAX_CHARS, help=t("bert.a.help")
)
text_b = c_b.text_input(
    t("bert.b"), svc.DEFAULT_B, key="bert_b", bind="query-params", max_chars=svc.MAX_CHARS, help=t("bert.b.help")
)
st.pills(
    t("bert.examples"),
    svc.EXAMPLES,
    key="bert_example",
    on_change=ui.use_example,
    args=("bert_example", "bert_a"),
    kwargs={"bert_b": "", "bert_masks": []},
)
try:
    tokens = svc.tokenize(text_a, text_b)
except InputError as e:
    ui.input_error(e)
    st.stop()

# ---- pick positions to mask (pills of the word pieces, mirrored in the URL) ----------------------------------------
_masks_from_url()
_masks_follow_text(text_a, text_b)
options = list(tokens.maskable)
st.session_state["bert_masks"] = [m for m in st.session_state["bert_masks"] if m in options]
masks = st.pills(
    t("bert.masks"),
    options,
    selection_mode="multi",
    key="bert_masks",
    help=t("bert.masks.help"),
    format_func=lambda i: visible(tokens.pieces[i]) + str(i).translate(SUPERSCRIPT),
)
masks = tuple(sorted(masks or ()))
if masks == svc.DEFAULT_MASKS:
    st.query_params.pop("bert_masks", None)
else:
    st.query_params["bert_masks"] = ",".join(map(str, masks))
MAX_K = 10  # the k slider's end: the analysis ranks this many and the slider shows the first k of them

try:
    a = svc.analyse(text_a, text_b, masks, MAX_K, backend)  # the same for every k: moving k reruns only predictions()
except InputError as e:
    ui.input_error(e)
    st.stop()

vocab = svc.vocabulary()
pieces = list(tokens.pieces)
seen = [p if i not in a.masked else "[MASK]" for i, p in enumerate(pieces)]
m1, m2, m3, m4 = st.columns(4)
m1.metric(t("bert.m.tokens"), len(tokens.ids), help=t("bert.m.tokens.help"))
m2.metric(t("bert.m.masked"), len(a.masked))
m3.metric(t("bert.m.top"), visible(vocab[a.top_ids[0, 0]]) if a.masked else "—", help=t("bert.m.top.help"))
m4.metric(
    t("bert.m.is_next"),
    f"{a.is_next:.1%}" if tokens.has_b else "—",
    help=t("bert.m.is_next.help", nsp=facts["nsp_accuracy"]),
)

st.subheader(t("bert.pred.title"))
ui.markup(
    token_strip(
        seen,
        np.array([1.0 if i in a.masked else 0.0 for i in range(len(seen))]),
        vmin=0,
        vmax=1,
        colorscale=[[0, "#f3f3f3"], [1, "#d62728"]],
        fmt="{:.0f}",
        label=t("bert.pred.strip"),
    )
)


@st.fragment
def predictions() -> None:
    """The k slider and the top-k predictions under it: moving k reruns this part alone. The analysis ranks the top
    ``MAX_K`` once; the first k of that ranking are the top k."""
    k = st.slider(t("bert.k"), 1, MAX_K, 5, key="bert_k", bind="query-params")
    if not a.masked:
        st.info(t("bert.pred.none"), icon=":material/touch_app:")
        ui.readout(a)
        return
    top_ids, top_probs = a.top_ids[:, :k], a.top_probs[:, :k]
    titles = [f"{m}: {visible(pieces[m])}" for m in a.masked]
    top_pieces = [[vocab[i] for i in row] for row in top_ids]
    originals = [pieces[m] if pieces[m] != "[MASK]" else None for m in a.masked]
    rows = []
    for j, m in enumerate(a.masked):
        for r in range(k):
            rows.append(
                {
                    t("bert.col.pos"): m,
                    t("bert.col.original"): pieces[m],
                    t("bert.col.rank"): r + 1,
                    t("bert.col.prediction"): top_pieces[j][r],
                    t("bert.col.prob"): round(float(top_probs[j, r]), 4),
                }
            )
    ui.figure(
        prediction_bars(titles, top_pieces, top_probs, originals, value_title=t("bert.probability")),
        {
            "positions": list(a.masked),
            "original": originals,
            "top_tokens": top_pieces,
            "probabilities": top_probs,
            "probability_of_original": a.original_prob,
        },
        "bert-predictions",
        key="bert_pred_fig",
    )
    ui.table(rows, border="horizontal")
    st.caption(t("bert.pred.caption"))
    ui.readout(a)


predictions()


@st.fragment
def views() -> None:
    """One view at a time: choosing a view, or a control inside one, reruns this part of the page alone."""
    # ---- one view at a time ------------------------------------------------------------------------------------------
    view = ui.choice(
        st.segmented_control,
        t("bert.view"),
        VIEWS,
        key="bert_view",
        default="example",
        labels={v: t(f"bert.view.{v}") for v in VIEWS},
        required=True,
    )

    if view == "example":
        st.caption(t("bert.ex.caption"))
        seed = st.number_input(
            t("bert.seed"), 0, 9999, 0, key="bert_seed", bind="query-params", help=t("bert.seed.help")
        )
        ex = svc.training_example(text_a, text_b, int(seed))
        e1, e2, e3, e4 = st.columns(4)
        e1.metric(
            t("bert.ex.m.chosen"),
            f"{ex.chosen} / {len(ex.tokens.ids) - (3 if tokens.has_b else 2)}",
            help=t("bert.ex.m.chosen.help"),
        )
        e2.metric(t("bert.ex.m.mask"), ex.count(1))
        e3.metric(t("bert.ex.m.random"), ex.count(2))
        e4.metric(t("bert.ex.m.keep"), ex.count(3))
        action = np.array(ex.action, dtype=float)
        strip = dict(vmin=0, vmax=3, colorscale=ACTION_COLOURS, fmt="{:.0f}")
        ui.markup(token_strip(pieces, action, label=t("bert.ex.original"), **strip))
        ui.markup(token_strip([vocab[i] for i in ex.inputs], action, label=t("bert.ex.inputs"), **strip))
        ui.markup(
            token_strip([vocab[y] if y >= 0 else "·" for y in ex.labels], action, label=t("bert.ex.labels"), **strip)
        )
        ui.markup(
            token_strip(
                [t(f"bert.action.{name}") for name in ACTIONS], np.arange(4.0), label=t("bert.ex.legend"), **strip
            )
        )
        table = {
            t("bert.col.pos"): list(range(len(pieces))),
            t("bert.col.original"): pieces,
            t("bert.col.action"): [t(f"bert.action.{ACTIONS[x]}") for x in ex.action],
            t("bert.col.input"): [vocab[i] for i in ex.inputs],
            t("bert.col.label"): [vocab[y] if y >= 0 else "—" for y in ex.labels],
        }
        ui.table(table, border="horizontal")
        ui.download(
            {
                "tokens": pieces,
                "action": [ACTIONS[x] for x in ex.action],
                "inputs": list(ex.inputs),
                "labels": list(ex.labels),
            },
            "bert-training-example",
            key="bert_dl_example",
        )

    elif view == "nsp":
        st.caption(t("bert.nsp.caption"))
        st.pills(
            t("bert.nsp.examples"),
            list(svc.NSP_PAIRS),
            key="bert_nsp_example",
            on_change=_use_pair,
            format_func=lambda k: (
                t("bert.nsp.ex.next", play=t(f"bert.play.{svc.NSP_PAIRS[k]['play_a']}"))
                if svc.NSP_PAIRS[k]["is_next"]
                else t(
                    "bert.nsp.ex.other",
                    play=t(f"bert.play.{svc.NSP_PAIRS[k]['play_a']}"),
                    other=t(f"bert.play.{svc.NSP_PAIRS[k]['play_b']}"),
                )
            ),
        )
        if not tokens.has_b:
            st.info(t("bert.nsp.need_b"), icon=":material/info:")
        else:
            swapped = svc.is_next(text_b, text_a, backend)
            n1, n2 = st.columns(2)
            n1.metric(t("bert.nsp.m.ab"), f"{svc.is_next(text_a, text_b, backend):.1%}", help=t("bert.nsp.m.ab.help"))
            n2.metric(t("bert.nsp.m.ba"), f"{swapped:.1%}", help=t("bert.nsp.m.ba.help"))
            ui.markup(
                token_strip(
                    pieces,
                    np.array(tokens.segments, dtype=float),
                    vmin=0,
                    vmax=1,
                    colorscale=[[0, "#dbe9f6"], [1, "#fde0c5"]],
                    fmt=t("bert.nsp.segment"),
                    label=t("bert.nsp.segments"),
                )
            )
        first = next(iter(svc.NSP_PAIRS.values()))
        st.markdown(
            t("bert.nsp.honest", nsp=facts["nsp_accuracy"], swapped=svc.is_next(first["b"], first["a"], backend))
        )

    elif view == "embeddings":
        st.caption(t("bert.emb.caption", dim=facts["dim"]))
        total = a.token_emb + a.segment_emb + a.position_emb
        titles = [t("bert.emb.token"), t("bert.emb.segment"), t("bert.emb.position"), t("bert.emb.sum")]
        panels = [a.token_emb, a.segment_emb, a.position_emb, total]
        norms = [float(np.linalg.norm(p, axis=-1).mean()) for p in panels]
        cols = st.columns(4)
        for col, title, norm in zip(cols, titles, norms):
            col.metric(t("bert.emb.m.norm", name=title), f"{norm:.3f}")
        ui.figure(
            embedding_panels(panels, titles, seen, dim_title=t("bert.emb.dim"), value_title=t("bert.emb.value")),
            {"tokens": seen, "token": a.token_emb, "segment": a.segment_emb, "position": a.position_emb},
            "bert-embeddings",
            key="bert_embeddings",
        )

    else:
        L, H = a.patterns.shape[:2]
        c_layer, c_head = st.columns([1, 2])
        layer = c_layer.segmented_control(
            t("view.layer"),
            list(range(L)),
            default=0,
            required=True,
            key="bert_layer",
            bind="query-params",
            help=t("bert.index.help"),
        )
        head = c_head.segmented_control(
            t("view.head"), list(range(H)), default=0, required=True, key="bert_head", bind="query-params"
        )
        labels = [f"{i}:{visible(p)}" for i, p in enumerate(seen)]
        pattern = a.patterns[layer, head]
        T = len(labels)
        later = float((pattern * np.triu(np.ones((T, T)), 1)).sum(-1).mean())
        at1, at2 = st.columns(2)
        at1.metric(t("bert.att.m.later"), f"{later:.0%}", help=t("bert.att.m.later.help"))
        at2.metric(t("bert.att.m.later_all"), f"{a.later_attention:.0%}")
        st.caption(t("bert.att.caption"))
        keys = [visible(p) for p in seen]  # short column labels: two maps share the width
        left, right = st.columns(2)
        with left:
            st.markdown(f"**{t('bert.att.title', lh=layer_head_label(layer, head))}**")
            ui.figure(
                attention_heatmap(
                    pattern,
                    labels,
                    keys,
                    zmax=1,
                    query_title=t("view.query"),
                    key_title=t("view.key"),
                    value_title=t("view.weight"),
                ),
                pattern,
                f"bert-attention-l{layer}h{head}",
                key="bert_attention",
                row_labels=labels,
                col_labels=labels,
            )
        with right:
            st.markdown(f"**{t('bert.att.causal')}**")
            ui.plot(
                attention_heatmap(
                    svc.decoder_mask(T),
                    labels,
                    keys,
                    zmax=1,
                    colorscale="Greys",
                    query_title=t("view.query"),
                    key_title=t("view.key"),
                    value_title=t("bert.att.allowed"),
                ),
                key="bert_causal",
            )
        st.caption(t("bert.att.grid"))
        ui.plot(
            head_grid(a.patterns, layer_title=t("view.layer"), head_title=t("view.head"), selected=(layer, head)),
            key="bert_grid",
        )


views()

metrics = svc.card()["metrics"]
ui.explain(
    t(
        "bert.explain",
        params=facts["params"] / 1e6,
        minutes=facts["minutes"],
        device=t(f"bert.device.{facts['device']}"),
        card=t(
            "bert.card",
            top1=metrics["mlm_top1"],
            top5=metrics["mlm_top5"],
            unigram=metrics["unigram_top1"],
            nsp=metrics["nsp_accuracy"],
        ),
    )
)
