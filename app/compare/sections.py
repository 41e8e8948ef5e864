"""The Compare page's sections: the models and the text, bits per character along it, the guesses at a character,
the cards side by side, what each costs, and what to look at."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.compare import align
from app.compare import service as svc
from app.compare.views import bits_chart
from app.shared import formats, services, ui
from app.shared.heatmaps import attention_bars
from app.shared.i18n import InputError, layer_head_label, t
from app.shared.tokens import token_strip, visible

MODELS = "compare_models"


def _label(name: str) -> str:
    card = svc.facts(name)
    return f"{name} · {formats.millions_or_billions(card.params)}" if card.params else name


def pick_models() -> tuple[str, ...]:
    """The multiselect of models (2 or 3), mirrored in the link as ``compare_models=a,b``; a real one is converted
    and loaded under a progress bar on first use."""
    offered, absent = svc.offered()
    if MODELS not in st.session_state:
        linked = [n for n in st.query_params.get(MODELS, "").split(",") if n in offered]
        st.session_state[MODELS] = linked[: svc.MAX_MODELS] or [n for n in svc.DEFAULT if n in offered]
    else:
        st.session_state[MODELS] = [n for n in st.session_state[MODELS] if n in offered]
    names = st.multiselect(
        t("compare.models"),
        offered,
        key=MODELS,
        max_selections=svc.MAX_MODELS,
        format_func=_label,
        help=t("compare.models.help"),
    )
    st.query_params[MODELS] = ",".join(names)
    with st.expander(t("compare.skipped.title"), icon=":material/info:"):
        st.markdown(t("compare.skipped"))
        if absent:
            st.markdown(t("picker.absent.how"))
            st.markdown(
                "\n".join(f"- **{title}** (`{k}`): `{how}`" for k in absent for title, how in [svc.how_to_get(k)])
            )
    for name in names:
        ck = services.checkpoint(name)
        if ck.real and ck.available and not ck.loaded:
            bar = st.progress(0.0, text=t("compare.loading", name=name, what="…"))
            ck.load(
                lambda f, what, b=bar, n=name: b.progress(
                    min(max(f, 0.0), 1.0), t("compare.loading", name=n, what=what)
                )
            )
            bar.empty()
    return tuple(names)


def pick_text() -> str:
    st.pills(
        t("compare.examples"),
        list(svc.EXAMPLES.values()),
        key="compare_example",
        format_func=lambda text: next(k for k, v in svc.EXAMPLES.items() if v == text).replace("_", " ").title(),
        on_change=ui.use_example,
        args=("compare_example", "compare_text"),
    )
    return ui.text_box(
        t("compare.text", max=svc.MAX_CHARS), svc.DEFAULT_TEXT, key="compare_text", max_chars=svc.MAX_CHARS, height=180
    )


def bits(names: tuple[str, ...], text: str, scored: tuple[svc.Scored, ...]) -> None:
    st.subheader(t("compare.bits.title"))
    with ui.row():
        for s in scored:
            st.metric(
                t("compare.bpc", name=s.name),
                f"{s.bpc:.3f}",
                help=t("compare.bpc.help", n=s.n_chars, tokens=len(s.tokens)),
                width="content",
            )
    width = ui.slider(st, t("compare.smooth"), 1, 32, 4, key="compare_smooth", bind="query-params",
                      help=t("compare.smooth.help"))  # fmt: skip
    curves = tuple(align.rolling_mean(s.bits, width) for s in scored)
    fig = bits_chart(names, curves, text, x_title=t("compare.bits.x"), y_title=t("compare.bits.y"))
    ui.figure(fig, np.stack([s.bits for s in scored]), "compare-bits", key="compare_bits", row_labels=list(names))
    st.caption(t("compare.bits.note"))
    ui.readout(scored[0])


def _shown(token: str) -> str:
    return token.replace("\n", "⏎").replace("`", "ˋ").replace(" ", "␣") or "∅"


@st.fragment
def guesses(names: tuple[str, ...], text: str, scored: tuple[svc.Scored, ...]) -> None:
    st.subheader(t("compare.guess.title"))
    pos = ui.slider(st, t("compare.position"), 0, len(text) - 1, min(40, len(text) - 1), key="compare_pos",
                    bind="query-params")  # fmt: skip
    before, here, after = text[max(pos - 30, 0) : pos], text[pos], text[pos + 1 : pos + 30]
    st.markdown(t("compare.at", pos=pos, context=f"`{_shown(before)}` **`{_shown(here)}`** `{_shown(after)}`"))
    for col, s in zip(st.columns(len(scored)), scored, strict=True):
        g = svc.guesses(s, pos)
        col.markdown(
            t(
                "compare.guess.head",
                name=s.name,
                i=g.index,
                token=_shown(g.token),
                a=g.span[0],
                b=g.span[1] - 1,
                p=formats.percent(g.prob),
            )  # fmt: skip
        )
        with col:
            ui.table(
                {
                    t("compare.guess.rank"): list(range(1, len(g.guesses) + 1)),
                    t("compare.guess.token"): [_shown(tok) for tok, _ in g.guesses],
                    t("compare.guess.prob"): [formats.percent(p) for _, p in g.guesses],
                }
            )
    st.caption(t("compare.guess.note"))
    mixing(names, text, scored, pos)


@st.fragment
def mixing(names: tuple[str, ...], text: str, scored: tuple[svc.Scored, ...], pos: int) -> None:
    """3 · what each model mixes to guess the token at the character ``pos``, drawn as its page draws it, with a
    link to that page in the same state. One layer and head for all, clamped to each model's size: moving them
    reruns this part alone; the position reruns it with the guesses."""
    st.subheader(t("compare.mix.title"))
    try:
        mixed = tuple(svc.mixing(s.name, text, svc.guesses(s, pos).index) for s in scored)
    except InputError as e:
        ui.input_error(e)
        return
    n_layers, n_heads = max(m.n_layers for m in mixed), max(m.n_heads for m in mixed)
    c_layer, c_head = st.columns(2)
    layer = ui.slider(c_layer, t("view.layer"), 0, n_layers - 1, 0, key="compare_layer", bind="query-params",
                      help=t("compare.mix.clamped"))  # fmt: skip
    head = ui.slider(c_head, t("view.head"), 0, max(n_heads, 1) - 1, 0, key="compare_head", bind="query-params",
                     help=t("compare.mix.clamped"))  # fmt: skip
    for j, (col, m) in enumerate(zip(st.columns(len(mixed)), mixed, strict=True)):
        with col:
            _mixed(m, text, min(layer, m.n_layers - 1), min(head, max(m.n_heads, 1) - 1), j)
    state = " " + t("compare.mix.note.state") if any(m.kind == "state" for m in mixed) else ""
    st.caption(t("compare.mix.note") + state)
    ui.readout(mixed[0])


def _mixed(m: svc.Mixing, text: str, layer: int, head: int, j: int) -> None:
    """One model's column: an attention row as bars (Mistral's window and Transformer-XL's memory shaded), or
    Mamba's Δ as its page's strip; the number that grows or does not; the link to its page."""
    query = visible(m.labels[-1])
    if m.kind == "state":
        st.markdown(t("compare.mix.head.state", name=m.name, layer=layer_head_label(layer), i=m.index, token=query))
        st.metric(t("compare.mix.state", name=m.name), formats.binary_size(m.state_bytes),
                  help=t("compare.mix.state.help"))  # fmt: skip
        delta = m.rows[layer]
        label = t("compare.mix.delta", layer=layer, a=float(delta.min()), b=float(delta.max()))
        ui.markup(token_strip(list(m.labels), delta, colorscale="Reds", fmt="{:.4f}", label=label))
        ui.download({"tokens": list(m.labels), "positions": list(range(m.first, m.index + 1)), "delta": delta},
                    f"compare-{m.name}-delta-l{layer}-q{m.index}", key=f"compare_mix_{j}_dl")  # fmt: skip
    else:
        row = m.rows[layer, head]
        lh = layer_head_label(layer, head)
        st.markdown(t("compare.mix.head", name=m.name, lh=lh, i=m.index, token=query))
        K = len(row)
        if m.kind == "window":
            read = f"{min(K, m.window)} / {K}"
        elif m.kind == "memory":
            read = f"{m.n_marked} + {K - m.n_marked}"
        else:
            read = f"{K}"
        st.metric(t("compare.mix.keys", name=m.name), read, help=t(f"compare.mix.keys.{m.kind}"))
        marked = {"window": "compare.mix.outside", "memory": "compare.mix.memory"}.get(m.kind)
        ui.figure(
            attention_bars(
                row,
                list(m.labels),
                m.n_marked,
                key_title=t("view.key"),
                value_title=t("view.weight"),
                marked_name=t(marked) if marked else "",
                rest_name=t(f"compare.mix.rest.{m.kind}", w=m.window),
                height=280,
            ),
            {"keys": list(m.labels), "positions": list(range(m.first, m.index + 1)), "weights": row},
            f"compare-{m.name}-l{layer}h{head}-q{m.index}",
            key=f"compare_mix_{j}",
        )
        if m.first and m.kind != "memory":
            st.caption(t("compare.mix.cut", a=m.first, b=m.index))
        if m.kind == "memory" and not m.n_marked:
            st.caption(t("compare.mix.no_memory", L=services.checkpoint(m.name).config["segment"]))
    page, params = svc.link(m.name, text, m.index, layer, head)
    ui.page_link(page, t("compare.open", name=m.name), params)
    sent = svc.for_page(m.name, text)
    if len(sent) < len(text):
        moved = " " + t("compare.open.cut.query") if m.index > svc.last_position(m.name, sent) else ""
        st.caption(t("compare.open.cut", name=m.name, n=len(sent), total=len(text)) + moved)


def _count(n: int | None) -> str:
    return "—" if n is None else f"{n:,}"


def cards(names: tuple[str, ...], scored: tuple[svc.Scored, ...]) -> None:
    st.subheader(t("compare.cards.title"))
    rows = []
    for name, s in zip(names, scored, strict=True):
        f = svc.facts(name)
        steps = _count(f.steps)
        if f.later_steps:
            steps = t("compare.later", steps=steps, later=f"{f.later_steps:,}")
        rows.append(
            {
                t("compare.col.model"): name,
                t("compare.col.params"): formats.millions_or_billions(f.params),
                t("compare.col.data"): t("compare.real_data", origin=f.data) if f.real else f.data,
                t("compare.col.steps"): steps,
                t("compare.col.batch"): f"{f.batch} × {f.context}" if f.batch else "—",
                t("compare.col.tokens"): _count(f.tokens),
                t("compare.col.context"): f.window,
                t("compare.col.vocab"): f"{f.vocab:,}",
                t("compare.col.val"): "—" if f.val_bpc is None else f"{f.val_bpc:.3f}",
                t("compare.col.here"): f"{s.bpc:.3f}",
            }
        )
    ui.table(rows)
    st.caption(t("compare.cards.note"))
    if any(services.checkpoint(n).real for n in names):
        st.caption(t("compare.cards.real"))


def costs(names: tuple[str, ...], text: str) -> None:
    st.subheader(t("compare.costs.title"))
    measured = [svc.costs(name, text) for name in names]
    ui.table(
        [
            {
                t("compare.col.model"): c.name,
                t("compare.col.params"): formats.millions_or_billions(c.params),
                t("compare.col.kind"): t(f"compare.kind.{c.kind}"),
                t("compare.col.held"): formats.binary_size(c.held_bytes),
                t("compare.col.per_token"): formats.binary_size(c.held_bytes / c.n_tokens)
                if c.kind in ("kv", "latent")
                else t("compare.fixed"),
                t("compare.col.ms", n=svc.STEPS): f"{c.ms_per_token:.2f}",
            }
            for c in measured
        ]
    )
    st.caption(t("compare.costs.note", n=svc.STEPS, device=measured[0].device))
    ui.readout(measured[0])


def why(names: tuple[str, ...]) -> None:
    kinds = {svc.kind(n) for n in names}
    attention = kinds & {"kv", "latent", "window", "memory"}
    shown = []
    if "state" in kinds and attention:
        shown.append("state")
    if {"llama-mha", "llama-mqa", "mla"} & set(names):
        shown.append("heads")
    if "mistral" in names:
        shown.append("window")
    if "transformer-xl" in names:
        shown.append("memory")
    if "mtp" in names:
        shown.append("mtp")
    texts = [t(f"compare.why.{k}") for k in shown]
    for n in names:
        if services.checkpoint(n).real:
            cache = svc.real_cache(n)
            texts.append(t("compare.why.real", **cache) if cache else t("compare.why.real.other", name=n))
    if not texts or ("gpt" in names and set(names) & {"llama", "llama-mha", "llama-mqa"}):
        texts.append(t("compare.why.kv"))
    ui.explain(f"**{t('compare.why.title')}**\n\n" + "\n\n".join(texts))
