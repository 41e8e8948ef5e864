"""The Compare page's sections: the models and the text, bits per character along it, the guesses at a character,
the cards side by side, what each costs, and what to look at."""

from __future__ import annotations

import numpy as np
import streamlit as st

from app.compare import align
from app.compare import service as svc
from app.compare.views import bits_chart
from app.shared import formats, services, ui
from app.shared.i18n import t

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
            ui.page_link(svc.page_of(s.name), t("compare.open", name=s.name))
    st.caption(t("compare.guess.note"))


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
    if any(services.checkpoint(n).real for n in names):
        shown.append("real")
    if not shown or ("gpt" in names and set(names) & {"llama", "llama-mha", "llama-mqa"}):
        shown.append("kv")
    ui.explain(f"**{t('compare.why.title')}**\n\n" + "\n\n".join(t(f"compare.why.{k}") for k in shown))
