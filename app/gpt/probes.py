"""Inside the model, one view at a time: how the prompt is tokenised, causal attention (over the continuation too),
the logit lens, in-context learning (induction heads, few-shot prompts), and two interventions (intervening.py):
knock-outs and activation patching."""

import numpy as np
import streamlit as st

from app.gpt import intervening, sampling
from app.gpt import service as svc
from app.gpt.views import head_scores, lens_grid, loss_by_position
from app.shared import ui
from app.shared.heatmaps import attention_heatmap, head_grid
from app.shared.i18n import InputError, layer_head_label, t
from app.shared.tokens import token_strip, visible

VIEWS = ("tokens", "attention", "lens", "icl", "knockout", "patching")
LENS_POSITIONS = 16  # last positions in the logit-lens grid
GRID_POSITIONS = 40  # last positions in the all-heads grid
GRID_MAPS = 48  # heads the all-heads grid draws at most; a bigger model's grid shows the chosen layer's heads
LAYER_BUTTONS = 12  # layers a row of buttons picks from; more get a slider
ICL_DEFAULT = svc.ICL_DEFAULT  # the in-context-learning view's default length and seed


@st.fragment(key=sampling.VIEWS_PART)
def views(a, backend: str) -> None:
    """One view at a time: a control of the view reruns only the view."""
    st.session_state[sampling.VIEW_IDS] = None  # which generated tokens this view draws, if any (the attention view)
    view = ui.choice(
        st.segmented_control,
        t("gpt.view"),
        VIEWS,
        key="gpt_view",
        default="tokens",
        labels={v: t(f"gpt.view.{v}") for v in VIEWS},
        required=True,
    )
    draw = {"tokens": tokenisation, "attention": attention, "lens": logit_lens, "icl": in_context}
    draw |= {"knockout": intervening.knock_out, "patching": intervening.patching}
    draw[view](a, backend)


def tokenisation(a, backend: str) -> None:
    """The prompt's tokens: bytes per token, byte-level pieces, the strip and the table of ids."""
    tk = a.tokens
    n_bytes = sum(tk.n_bytes)
    t1, t2, t3 = st.columns(3)
    t1.metric(t("gpt.tok.m.bytes"), n_bytes)
    t2.metric(t("gpt.tok.m.per_token"), f"{n_bytes / max(1, len(tk.ids) - tk.prefix):.2f}")
    t3.metric(
        t("gpt.tok.m.byte_pieces"),
        sum(1 for n in tk.n_bytes[tk.prefix :] if n == 1),  # a merge is never one byte: these are the byte tokens
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
    widths = {"pos": 56, "token": 80, "id": 44, "bytes": 44, "hex": 128}  # px: the five fit a phone (390 px)
    columns = {t(f"gpt.tok.col.{c}"): st.column_config.Column(width=w) for c, w in widths.items()}
    st.dataframe(ui.arrow(table), hide_index=True, key="gpt_tokens_table", column_config=columns)
    ui.download(
        {"id": list(tk.ids), "token": list(tk.pieces), "bytes": list(tk.n_bytes), "hex": list(tk.hex)},
        "gpt-tokens",
        key="gpt_dl_tokens",
    )
    if tk.prefix:
        st.caption(t("gpt.tok.caption"))
    else:
        st.caption(t("gpt.tok.caption.real", title=svc.facts(a.name)["title"], vocab=len(a.probs)))


def attention(a, backend: str) -> None:
    """One head's causal attention over the prompt (and, by default, the continuation generated above), and every
    head over the last positions."""
    with_generated = st.toggle(t("gpt.att.generated"), True, key="gpt_att_generated", bind="query-params")
    new_ids = st.session_state.get(sampling.NEW_IDS, ()) if with_generated else None
    st.session_state[sampling.VIEW_IDS] = new_ids
    seq = a if not with_generated else svc.analyse_ids(a.tokens.ids + new_ids, backend, a.name)
    L, H = seq.patterns.shape[:2]
    c_layer, c_head = st.columns([1, 2])
    if L > LAYER_BUTTONS:  # 30 layers: a slider, not a row of 30 buttons
        layer = ui.slider(
            c_layer, t("view.layer"), 0, L - 1, L - 1, key="gpt_layer", bind="query-params", help=t("gpt.index.help")
        )
    else:
        layer = c_layer.segmented_control(
            t("view.layer"),
            list(range(L)),
            default=L - 1,
            required=True,
            key="gpt_layer",
            bind="query-params",
            help=t("gpt.index.help"),
        )
    if st.session_state.get("gpt_head") is not None and st.session_state["gpt_head"] >= H:
        st.session_state["gpt_head"] = 0  # a head of a model with more heads
    head = c_head.segmented_control(
        t("view.head"), list(range(H)), default=0, required=True, key="gpt_head", bind="query-params"
    )
    layer, head = min(int(layer), L - 1), min(int(head), H - 1)
    n_prompt = len(a.tokens.ids)
    labels = [("▸" if i >= n_prompt else "") + visible(p) for i, p in enumerate(seq.tokens.pieces)]
    pattern = seq.patterns[layer, head]
    last = pattern[-1]
    a1, a2 = st.columns(2)
    a1.metric(t("gpt.att.m.last_looks"), f"{int(last.argmax())}: {labels[int(last.argmax())]}")
    a2.metric(t("gpt.att.m.self"), f"{np.diag(pattern).mean():.2f}", help=t("gpt.att.m.self.help"))
    st.caption(t("gpt.att.caption", n=len(labels) - n_prompt))
    if svc.is_real(a.name) and len(labels) > 1:  # measured on this head: how much of its weight the first token takes
        mean = float(seq.patterns[:, :, 1:, 0].mean())
        st.caption(t("gpt.att.sink", share=float(pattern[1:, 0].mean()), heads=L * H, mean=mean))
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
    if L * H <= GRID_MAPS:
        st.caption(t("gpt.att.grid", n=window.shape[-1]))
        grid = head_grid(window, layer_title=t("view.layer"), head_title=t("view.head"), selected=(layer, head))
    else:  # 270 maps would be unreadable: the chosen layer's heads side by side
        st.caption(t("gpt.att.grid.layer", n=window.shape[-1], layer=layer, heads=H, layers=L))
        grid = head_grid(
            window[layer : layer + 1],
            layer_title=t("view.layer"),
            head_title=t("view.head"),
            selected=(0, head),
            first_layer=layer,
        )
    ui.plot(grid, key="gpt_grid")
    ui.readout(seq)


def logit_lens(a, backend: str) -> None:
    """The top next token read from the residual stream after each block, over the last positions."""
    vocab = svc.vocabulary(a.name)
    T = len(a.tokens.ids)
    cols = slice(max(0, T - LENS_POSITIONS), T)
    ids = a.lens_ids[:, cols]
    pieces = np.array([[vocab[i] for i in row] for row in ids], dtype=object)
    n_layers = a.lens_ids.shape[0] - 1
    layer_labels = [t("gpt.lens.embedding")] + [t("gpt.lens.after", layer=i) for i in range(n_layers)]
    agree = [int(i) for i in np.flatnonzero(a.lens_ids[:, -1] == a.lens_ids[-1, -1])]
    path = [f"{p:.2f}" for p in a.final_top_by_layer]
    if len(path) > 8:  # 31 numbers do not fit a metric: the last few, where the answer forms
        path = ["…", *path[-3:]]
    l1, l2 = st.columns(2)
    l1.metric(t("gpt.lens.m.first"), layer_labels[agree[0]], help=t("gpt.lens.m.first.help"))
    l2.metric(t("gpt.lens.m.final_prob"), " → ".join(path), help=t("gpt.lens.m.final_prob.help"))
    st.caption(t("gpt.lens.caption.real" if svc.facts(a.name)["arch"] == "llama" else "gpt.lens.caption"))
    if svc.is_real(a.name):
        _lens_on_real(a, backend, layer_labels)
    ui.figure(
        lens_grid(
            pieces,
            a.lens_probs[:, cols],
            list(a.tokens.pieces[cols]),
            layer_labels,
            value_title=t("gpt.probability"),
            position_title=t("gpt.lens.position"),
            layer_title=t("view.layer"),
            title=t("gpt.lens.title", token=visible(vocab[a.lens_ids[-1, -1]])),
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


def in_context(a, backend: str) -> None:
    """A random sequence repeated: the loss on its second copy and the induction head that copies; then few-shot
    prompts the model continues (or not)."""
    facts = svc.facts(a.name)
    uniform = facts["uniform_nats"]
    st.markdown(f"**{t('gpt.icl.repeat.title')}**")
    c_len, c_seed = st.columns(2)
    most = min(60, svc.longest_repeat(a.name))
    length = c_len.slider(
        t("gpt.icl.length"), 10, most, min(ICL_DEFAULT[0], most), key="gpt_icl_length", bind="query-params"
    )
    icl_seed = c_seed.number_input(t("gpt.icl.seed"), 0, 9999, ICL_DEFAULT[1], key="gpt_icl_seed", bind="query-params")
    ind = svc.induction(length, int(icl_seed), backend, a.name)
    best = ind.best_head
    i1, i2, i3, i4, i5 = st.columns(5)
    i1.metric(t("gpt.icl.m.first"), f"{ind.loss_first:.2f}")
    i2.metric(t("gpt.icl.m.second"), f"{ind.loss_second:.3f}")
    if facts["real"]:
        ratio_help = t("gpt.icl.m.ratio.help.real")
    elif facts.get("dynamics"):
        ratio_help = t("gpt.icl.m.ratio.help.dynamics", step=facts["step"], card=facts["induction_ratio"])
    else:
        ratio_help = t("gpt.icl.m.ratio.help", card=facts["induction_ratio"])
    i3.metric(t("gpt.icl.m.ratio"), f"{ind.ratio:.2%}", help=ratio_help)
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
    if facts["real"]:
        _induction_beside_ours(ind, length, int(icl_seed), backend)
    st.caption(
        t(
            "gpt.icl.note.real" if facts["real"] else "gpt.icl.note",
            first=ind.loss_first,
            second=ind.loss_second,
            times=ind.loss_first / uniform,
            vocab=facts["vocab"],
            uniform=uniform,
        )
    )
    many = ind.scores.size > GRID_MAPS  # 30 × 9 scores: the grid gets the page's width, the map goes under it
    c_scores, c_map = (st.container(), st.container()) if many else st.columns([2, 3])
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
    _few_shot(backend, a.name)


def _few_shot(backend: str, name: str) -> None:
    """A few-shot prompt, greedy: whether the model continues the pattern."""
    st.markdown(f"**{t('gpt.icl.few.title.real' if svc.is_real(name) else 'gpt.icl.few.title')}**")
    st.caption(t("gpt.icl.few.caption.real" if svc.is_real(name) else "gpt.icl.few.caption"))
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
    few = svc.generate(prompt, 6, 0.0, 0, 1.0, 0, backend, name=name)
    ok = few.text.startswith(expected)
    f1, f2 = st.columns(2)
    f1.metric(t("gpt.icl.few.m.continues"), t("gpt.yes") if ok else t("gpt.no"))
    f2.metric(t("gpt.icl.few.m.expected"), visible(expected))
    st.text(prompt + few.text)


def _ours_available() -> bool:
    return svc.handle(svc.NAME).available


def _induction_beside_ours(ind, length: int, seed: int, backend: str) -> None:
    """Ours and the real model on a random sequence of the same length and seed (each its own vocabulary's ids):
    the top induction head of each, its score, and the loss on the repeat ÷ the first copy."""
    if not _ours_available():
        return
    ours = svc.induction(length, seed, backend, svc.NAME)
    rows = [(svc.NAME, ours), (svc.facts(ind.name)["title"], ind)]
    st.caption(t("gpt.compare.icl"))
    ui.table(
        {
            t("gpt.compare.model"): [n for n, _ in rows],
            t("gpt.icl.m.head"): [layer_head_label(*x.best_head) for _, x in rows],
            t("gpt.icl.m.score"): [f"{x.scores[x.best_head]:.2f}" for _, x in rows],
            t("gpt.compare.heads"): [int((x.scores > 0.3).sum()) for _, x in rows],
            t("gpt.icl.m.ratio"): [f"{x.ratio:.2%}" for _, x in rows],
        }
    )


def _lens_on_real(a, backend: str, layer_labels: list[str]) -> None:
    """What the plain lens shows on a real model, said plainly, and ours beside it on the same prompt."""
    vocab = svc.vocabulary(a.name)
    s = svc.lens_summary(a)
    final = visible(vocab[int(a.lens_ids[-1, -1])])
    st.info(
        t(
            "gpt.lens.real",
            token=final,
            first=layer_labels[s.first_on_top],
            p=s.final_p,
            inner=visible(vocab[s.inner_token]),
            n=s.inner_layers,
            inner_layers=len(layer_labels) - 2,
            inner_p=s.inner_p,
        ),
        icon=":material/info:",
    )
    if not _ours_available():
        return
    try:
        ours = svc.analyse(svc.text_of(a), backend, svc.NAME)
    except InputError:  # a prompt ours cannot read
        return
    rows = []
    for label, x in ((svc.NAME, ours), (svc.facts(a.name)["title"], a)):
        lens = svc.lens_summary(x)
        v = svc.vocabulary(x.name)
        n = x.lens_ids.shape[0] - 1  # blocks
        first = t("gpt.lens.embedding") if lens.first_on_top == 0 else t("gpt.lens.after", layer=lens.first_on_top - 1)
        rows.append((label, visible(v[int(x.lens_ids[-1, -1])]), f"{first} / {n}", lens.final_p))
    st.caption(t("gpt.compare.lens"))
    ui.table(
        {
            t("gpt.compare.model"): [r[0] for r in rows],
            t("gpt.compare.final"): [r[1] for r in rows],
            t("gpt.compare.first"): [r[2] for r in rows],
            t("gpt.compare.p"): [f"{r[3]:.2f}" for r in rows],
        }
    )
