"""The BERT page's sections (1810.04805), in the paper's order: the model against the paper's, the masked language
model (3.1, task 1: the positions to mask, what the model reads, its predictions, the 80/10/10 recipe that made its
training inputs), next-sentence prediction (3.1, task 2), the input representation (3.2, figure 2: token + segment +
position) and the bidirectional self-attention that sets BERT apart from a left-to-right decoder."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from app.bert import service as svc
from app.bert.views import ACTION_COLOURS, embedding_panels, prediction_bars
from app.shared import ui
from app.shared.formats import percent
from app.shared.heatmaps import attention_heatmap, head_grid
from app.shared.i18n import layer_head_label, t
from app.shared.tokens import token_strip, visible

ACTIONS = ("none", "mask", "random", "keep")  # Example.action's values: not chosen, [MASK], a random piece, kept
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")  # a pill shows its position: be² and be⁷ differ
MAX_K = 10  # the k slider's end: the analysis ranks this many and the slider shows the first k of them


@dataclass(frozen=True)
class Reading:
    """The pair as typed, what the model made of it, and what every section below reads."""

    name: str  # the checkpoint
    text_a: str
    text_b: str
    tokens: svc.Tokens
    a: svc.Analysis
    facts: dict
    backend: str

    @property
    def pieces(self) -> list[str]:
        return list(self.tokens.pieces)

    @property
    def seen(self) -> list[str]:
        """The pieces as the model read them: [MASK] at the masked positions."""
        return [p if i not in self.a.masked else "[MASK]" for i, p in enumerate(self.tokens.pieces)]


def top_guesses(name: str, a: str, backend: str, n: int = 3) -> str:
    """The model's ``n`` best guesses for the first [MASK] of sentence ``a`` alone, as `a`, `b`, `c`."""
    res = svc.analyse(name, a, "", (), n, backend)
    vocab = svc.vocabulary(name)
    return ", ".join(f"`{vocab[i]}`" for i in res.top_ids[0])


def about_real(facts: dict) -> None:
    """On a real checkpoint: what it is, and what on this page still describes ours."""
    if facts["real"]:
        st.info(t("bert.real.note", **facts), icon=":material/public:")


def paper_vs_here(facts: dict) -> None:
    """BERT-Base beside our Shakespeare BERT (and what we changed), or beside the real checkpoint shown."""
    if facts["real"]:
        shape = f"{facts['layers']} / {facts['dim']} / {facts['heads']}"
        ui.paper_vs_here(
            [
                (t("bert.pvh.shape"), t("bert.pvh.shape.paper"), shape),
                (
                    t("bert.pvh.params"),
                    t("bert.pvh.params.paper"),
                    t("bert.pvh.params.here", params=facts["params"] / 1e6),
                ),
                (t("bert.pvh.len"), t("bert.pvh.len.paper"), t("bert.pvh.len.real", **facts)),
                (t("bert.pvh.vocab"), t("bert.pvh.vocab.paper"), t("bert.pvh.vocab.real", vocab=facts["vocab"])),
                (t("bert.pvh.norm"), t("bert.pvh.norm.paper"), t(f"bert.pvh.norm.{facts['norm']}")),
                (
                    t("bert.pvh.nsp"),
                    t("bert.pvh.nsp.paper"),
                    t("bert.pvh.nsp.real" if facts["nsp"] else "bert.pvh.nsp.none"),
                ),
                (t("bert.pvh.data"), t("bert.pvh.data.paper"), t("bert.pvh.real.same")),
            ],
            [t("bert.pvh.dep.real")],
        )
        return
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


# ---- 3.1 task 1: the masked language model ---------------------------------------------------------------------------


def _masks_from_url() -> None:
    """Start the mask picker from the URL (``bert_masks=3,6``; empty = none), else the default."""
    if "bert_masks" in st.session_state:
        return
    raw = st.query_params.get("bert_masks")
    if raw is None:
        st.session_state["bert_masks"] = list(svc.DEFAULT_MASKS)
    else:
        st.session_state["bert_masks"] = [int(x) for x in raw.split(",") if x.strip().isdigit()]


def _masks_follow_text(name: str, text_a: str, text_b: str) -> None:
    """Picked positions belong to the sentences (and the model's tokens) they were picked on: once the text or the
    model changes, none are picked (a typed [MASK] is then the only mask), except on the default pair, whose default
    mask comes back with it."""
    pair = [text_a, text_b, name]
    before = st.session_state.get("bert_masks_for")
    st.session_state["bert_masks_for"] = pair
    if before is not None and before != pair:
        default = pair[:2] == [svc.DEFAULT_A, svc.DEFAULT_B]
        st.session_state["bert_masks"] = list(svc.DEFAULT_MASKS) if default else []


def mask_picker(name: str, tokens: svc.Tokens, text_a: str, text_b: str) -> tuple[int, ...]:
    """The positions to mask: pills of the word pieces, mirrored in the URL; returns them sorted."""
    _masks_from_url()
    _masks_follow_text(name, text_a, text_b)
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
    return masks


def what_the_model_reads(r: Reading) -> None:
    """The key numbers (tokens, masks, top guess, IsNext) and the input with its masks."""
    a, vocab = r.a, svc.vocabulary(r.name)
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(t("bert.m.tokens"), len(r.tokens.ids), help=t("bert.m.tokens.help", max=r.facts["read_len"]))
    m2.metric(t("bert.m.masked"), len(a.masked))
    m3.metric(t("bert.m.top"), visible(vocab[a.top_ids[0, 0]]) if a.masked else "—", help=t("bert.m.top.help"))
    m4.metric(
        t("bert.m.is_next"),
        percent(a.is_next) if r.tokens.has_b and r.facts["nsp"] else "—",
        help=t("bert.m.is_next.help", nsp=r.facts["nsp_accuracy"])
        if not r.facts["real"]
        else t("bert.m.is_next.real" if r.facts["nsp"] else "bert.m.is_next.none"),
    )

    st.subheader(t("bert.pred.title"))
    seen = r.seen
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
def predictions(r: Reading) -> None:
    """The k slider and the top-k predictions under it: moving k reruns this part alone. The analysis ranks the top
    ``MAX_K`` once; the first k of that ranking are the top k."""
    a, pieces, vocab = r.a, r.pieces, svc.vocabulary(r.name)
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
        for rank in range(k):
            rows.append(
                {
                    t("bert.col.pos"): m,
                    t("bert.col.original"): pieces[m],
                    t("bert.col.rank"): rank + 1,
                    t("bert.col.prediction"): top_pieces[j][rank],
                    t("bert.col.prob"): round(float(top_probs[j, rank]), 4),
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


def pick_view(views) -> str:
    """One of ``views`` (ids) at a time: only the chosen one runs."""
    return ui.choice(
        st.segmented_control,
        t("bert.view"),
        views,
        key="bert_view",
        default="example",
        labels={v: t(f"bert.view.{v}") for v in views},
        required=True,
    )


def masking_recipe(r: Reading) -> None:
    """A training input made from the pair with the paper's recipe: 15% chosen, of those 80% [MASK], 10% a random
    piece, 10% kept; a seed draws another."""
    pieces, vocab = r.pieces, svc.vocabulary(r.name)
    st.caption(t("bert.ex.caption"))
    seed = st.number_input(t("bert.seed"), 0, 9999, 0, key="bert_seed", bind="query-params", help=t("bert.seed.help"))
    ex = svc.training_example(r.name, r.text_a, r.text_b, int(seed))
    e1, e2, e3, e4 = st.columns(4)
    e1.metric(
        t("bert.ex.m.chosen"),
        f"{ex.chosen} / {len(ex.tokens.ids) - (3 if r.tokens.has_b else 2)}",
        help=t("bert.ex.m.chosen.help"),
    )
    e2.metric(t("bert.ex.m.mask"), ex.count(1))
    e3.metric(t("bert.ex.m.random"), ex.count(2))
    e4.metric(t("bert.ex.m.keep"), ex.count(3))
    action = np.array(ex.action, dtype=float)
    strip = dict(vmin=0, vmax=3, colorscale=ACTION_COLOURS, fmt="{:.0f}")
    ui.markup(token_strip(pieces, action, label=t("bert.ex.original"), **strip))
    ui.markup(token_strip([vocab[i] for i in ex.inputs], action, label=t("bert.ex.inputs"), **strip))
    ui.markup(token_strip([vocab[y] if y >= 0 else "·" for y in ex.labels], action, label=t("bert.ex.labels"), **strip))
    ui.markup(
        token_strip([t(f"bert.action.{name}") for name in ACTIONS], np.arange(4.0), label=t("bert.ex.legend"), **strip)
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


# ---- 3.1 task 2: next-sentence prediction ----------------------------------------------------------------------------


def _use_pair() -> None:
    """``on_change`` of the next-sentence examples: put the picked pair in the two boxes, unmask, clear the picker."""
    pair = svc.NSP_PAIRS.get(st.session_state.get("bert_nsp_example") or "")
    if pair:
        st.session_state.update(bert_a=pair["a"], bert_b=pair["b"], bert_masks=[])
    st.session_state["bert_nsp_example"] = None


def _pair_label(key: str) -> str:
    pair = svc.NSP_PAIRS[key]
    if pair["is_next"]:
        return t("bert.nsp.ex.next", play=t(f"bert.play.{pair['play_a']}"))
    return t("bert.nsp.ex.other", play=t(f"bert.play.{pair['play_a']}"), other=t(f"bert.play.{pair['play_b']}"))


def next_sentence(r: Reading) -> None:
    """P(IsNext) of the pair and of the pair swapped, the two segments, and how well the head does on held-out
    plays."""
    st.caption(t("bert.nsp.caption"))
    st.pills(
        t("bert.nsp.examples"),
        list(svc.NSP_PAIRS),
        key="bert_nsp_example",
        on_change=_use_pair,
        format_func=_pair_label,
    )
    if not r.facts["nsp"]:
        st.info(t("bert.nsp.none"), icon=":material/info:")
        return
    if not r.tokens.has_b:
        st.info(t("bert.nsp.need_b"), icon=":material/info:")
    else:
        swapped = svc.is_next(r.name, r.text_b, r.text_a, r.backend)
        n1, n2 = st.columns(2)
        ab = svc.is_next(r.name, r.text_a, r.text_b, r.backend)
        n1.metric(t("bert.nsp.m.ab"), percent(ab), help=t("bert.nsp.m.ab.help"))
        n2.metric(t("bert.nsp.m.ba"), percent(swapped), help=t("bert.nsp.m.ba.help"))
        ui.markup(
            token_strip(
                r.pieces,
                np.array(r.tokens.segments, dtype=float),
                vmin=0,
                vmax=1,
                colorscale=[[0, "#dbe9f6"], [1, "#fde0c5"]],
                fmt=t("bert.nsp.segment"),
                label=t("bert.nsp.segments"),
            )
        )
    first = next(iter(svc.NSP_PAIRS.values()))
    swapped = svc.is_next(r.name, first["b"], first["a"], r.backend)
    if r.facts["real"]:
        st.markdown(t("bert.nsp.real", swapped=swapped))
    else:
        st.markdown(t("bert.nsp.honest", nsp=r.facts["nsp_accuracy"], swapped=swapped))


# ---- 3.2 the input representation ------------------------------------------------------------------------------------


def input_embeddings(r: Reading) -> None:
    """The token, segment and position embeddings of every piece, and their sum: what the first layer reads."""
    a = r.a
    st.caption(t("bert.emb.caption", dim=r.facts["dim"]))
    total = a.token_emb + a.segment_emb + a.position_emb
    titles = [t("bert.emb.token"), t("bert.emb.segment"), t("bert.emb.position"), t("bert.emb.sum")]
    panels = [a.token_emb, a.segment_emb, a.position_emb, total]
    norms = [float(np.linalg.norm(p, axis=-1).mean()) for p in panels]
    cols = st.columns(4)
    for col, title, norm in zip(cols, titles, norms):
        col.metric(t("bert.emb.m.norm", name=title), f"{norm:.3f}")
    seen = r.seen
    ui.figure(
        embedding_panels(panels, titles, seen, dim_title=t("bert.emb.dim"), value_title=t("bert.emb.value")),
        {"tokens": seen, "token": a.token_emb, "segment": a.segment_emb, "position": a.position_emb},
        "bert-embeddings",
        key="bert_embeddings",
    )


# ---- bidirectional self-attention ------------------------------------------------------------------------------------


def bidirectional(r: Reading) -> None:
    """One head's attention beside a decoder's causal mask: how much of it goes to later pieces, which a
    left-to-right model could never see; and every head of every layer."""
    a, seen = r.a, r.seen
    n_layers, n_heads = a.patterns.shape[:2]
    for key, n in (("bert_layer", n_layers), ("bert_head", n_heads)):  # a pick made on a model with more of them
        if st.session_state.get(key) is not None and st.session_state[key] >= n:
            st.session_state[key] = n - 1
    c_layer, c_head = st.columns([n_layers, n_heads])
    layer = c_layer.segmented_control(
        t("view.layer"),
        list(range(n_layers)),
        default=0,
        required=True,
        key="bert_layer",
        bind="query-params",
        help=t("bert.index.help"),
    )
    head = c_head.segmented_control(
        t("view.head"), list(range(n_heads)), default=0, required=True, key="bert_head", bind="query-params"
    )
    labels = [f"{i}:{visible(p)}" for i, p in enumerate(seen)]
    pattern = a.patterns[layer, head]
    n = len(labels)
    later = float((pattern * np.triu(np.ones((n, n)), 1)).sum(-1).mean())
    at1, at2 = st.columns(2)
    at1.metric(t("bert.att.m.later"), percent(later, 0), help=t("bert.att.m.later.help"))
    at2.metric(t("bert.att.m.later_all"), percent(a.later_attention, 0))
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
                svc.decoder_mask(n),
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


def explanation(name: str, facts: dict) -> None:
    """What the paper changed and what the model card measured (a real checkpoint: what it is)."""
    if facts["real"]:
        ui.explain(t("bert.explain.real", **facts, millions=facts["params"] / 1e6))
        return
    metrics = svc.card(name)["metrics"]
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
