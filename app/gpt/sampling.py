"""Sampling: what temperature, top-k and top-p do to the next-token distribution (live on every move), and the
continuation they generate on request (streamed live on Generate, with or without the KV cache; kept, and marked out of
date, when the controls move)."""

from typing import NamedTuple

import streamlit as st

from app.gpt import service as svc
from app.gpt.views import sampling_bars
from app.shared import ui
from app.shared.i18n import InputError, t

DEFAULTS = {"gpt_temperature": 0.8, "gpt_top_k": 0, "gpt_top_p": 0.9, "gpt_seed": 0, "gpt_n": 32}
CONTROLS_PART, PART = "gpt_controls_part", "gpt_sampling_part"
VIEWS_PART = "gpt_views_part"  # the views' part (probes.py), rerun after this one when it draws the continuation
NEW_IDS = "_gpt_new_ids"  # the continuation's ids, which the attention view can draw after the prompt's
VIEW_IDS = "_gpt_view_ids"  # the generated ids the views' part draws now (None: none), written by that part
LAST = "_gpt_last"  # (Settings, Generation) of the last continuation this reader generated
REQUESTED = "_gpt_requested"  # set by Generate's callback, taken by the sampling part


def section(text: str, a, backend: str) -> None:
    """The heading, the controls (a part of their own, so moving one does not send them all again) and the part
    they drive."""
    st.subheader(t("gpt.sampling.title"))
    st.caption(t("gpt.sampling.caption"))
    if svc.is_real(a.name):
        st.caption(t("gpt.sampling.real", max=svc.limits(a.name)[1]))
    _controls(svc.limits(a.name)[1])
    _sampling(text, a, backend)


class Settings(NamedTuple):
    """What a continuation depends on (the KV cache does not change the tokens, only the speed)."""

    text: str
    n: int
    temperature: float
    top_k: int
    top_p: float
    seed: int
    backend: str
    name: str = svc.NAME
    chat: bool = False


def _rerun() -> None:
    """``on_change`` of the sampling controls and the KV-cache toggle: rerun the sampling part alone (the
    distribution; the continuation is kept, and the views draw the one they drew)."""
    st.rerun([PART])


def _request() -> None:
    """``on_click`` of Generate: generate in the sampling part, and rerun the views' part after it when that draws
    the generated tokens."""
    st.session_state[REQUESTED] = True
    views_too = st.session_state.get(VIEW_IDS) is not None
    st.rerun([PART, VIEWS_PART] if views_too else [PART])


@st.fragment(key=CONTROLS_PART)
def _controls(max_new: int) -> None:
    """Temperature, top-k, top-p, seed and length (at most ``max_new`` tokens: fewer on a real model)."""
    c1, c2, c3, c4, c5 = st.columns(5)
    bound = {"on_change": _rerun, "bind": "query-params"}
    c1.slider(
        t("gpt.temperature"),
        0.0,
        2.0,
        DEFAULTS["gpt_temperature"],
        0.05,
        key="gpt_temperature",
        help=t("gpt.temperature.help"),
        **bound,
    )
    c2.slider(t("gpt.top_k"), 0, 100, DEFAULTS["gpt_top_k"], key="gpt_top_k", help=t("gpt.top_k.help"), **bound)
    c3.slider(
        t("gpt.top_p"), 0.05, 1.0, DEFAULTS["gpt_top_p"], 0.05, key="gpt_top_p", help=t("gpt.top_p.help"), **bound
    )
    c4.number_input(t("gpt.seed"), 0, 9999, DEFAULTS["gpt_seed"], key="gpt_seed", help=t("gpt.seed.help"), **bound)
    ui.slider(c5, t("gpt.n"), 1, max_new, DEFAULTS["gpt_n"], key="gpt_n", **bound)


@st.fragment(key=PART)
def _sampling(text: str, a, backend: str) -> None:
    """What the sampling controls do to the next-token distribution, and the continuation they generate: reruns alone
    when a control moves or Generate is clicked."""
    temperature, top_k, top_p, seed, n_new = (st.session_state.get(k, v) for k, v in DEFAULTS.items())
    name = a.name
    n_new = min(int(n_new), svc.limits(name)[1])
    vocab = svc.vocabulary(name)
    s = svc.sampling_steps(a.logits, temperature, top_k, top_p, shown=20)
    effect = ui.row()
    effect.metric(t("gpt.m.kept"), s.kept, help=t("gpt.m.kept.help", vocab=len(a.logits)))
    effect.metric(t("gpt.m.entropy_before"), f"{s.entropy_before:.2f}")
    effect.metric(t("gpt.m.entropy_after"), f"{max(0.0, s.entropy_after):.2f}")  # never "-0.00"
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
    # Generation runs on request only: a move of a control redraws the distribution above (cheap) and keeps the last
    # continuation, marked out of date when the controls no longer match the ones it was made with
    row.button(t("gpt.generate"), key="gpt_generate", icon=":material/play_arrow:", type="primary", on_click=_request)
    cache = row.toggle(
        t("gpt.kv_cache"), True, key="gpt_cache", on_change=_rerun, bind="query-params", help=t("gpt.cache.help")
    )
    chat = bool(svc.chat_template(name)) and row.toggle(
        t("gpt.chat"), False, key="gpt_chat", on_change=_rerun, bind="query-params", help=t("gpt.chat.help")
    )
    settings = Settings(
        text,
        int(n_new),
        float(temperature),
        int(top_k),
        float(top_p),
        int(seed),
        svc.decode_backend(backend, name),
        name,
        chat,
    )
    last = st.session_state.get(LAST)
    box = st.container(border=True)
    try:
        if st.session_state.pop(REQUESTED, False):  # Generate: stream the tokens live as they are decoded
            box.markdown(f"**{t('gpt.prompt.short')}**")
            box.text(text)
            box.markdown(f"**{t('gpt.continuation')}**")
            live = svc.stream(text, n_new, temperature, top_k, top_p, int(seed), backend, cache, name, chat)
            if svc.is_real(name):  # a few tokens a second: say how far it has got
                bar = box.progress(0.0, text=t("gpt.progress", done=0, n=n_new))
                live.on_token = lambda done, n: bar.progress(done / n, text=t("gpt.progress", done=done, n=n))
            box.write_stream(live)
            if svc.is_real(name):
                bar.empty()  # done (it may stop early, at the model's end of turn: the caption below says so)
            last = st.session_state[LAST] = (settings, live.generation)
            # this reader's own measurements, one per backend and decoding, to compare cache and no cache
            st.session_state.setdefault("gpt_measured", {})[f"{backend}:{cache}"] = live.generation.tokens_per_s
        elif last is not None:  # the last continuation, with the prompt it continues
            box.markdown(f"**{t('gpt.prompt.short')}**")
            box.text(last[0].text)
            box.markdown(f"**{t('gpt.continuation')}**")
            box.text(last[1].text)
    except InputError as e:
        ui.input_error(e)
        st.stop()
    if last is None:
        box.caption(t("gpt.not_generated"))
        st.session_state[NEW_IDS] = ()
        return
    made, gen = last
    current = made == settings
    made_with = t(
        "gpt.made_with",
        temperature=made.temperature,
        top_k=made.top_k,
        top_p=made.top_p,
        seed=made.seed,
        n=made.n,
        backend=made.backend,
    )
    if made.name != name:
        made_with = f"{made.name} · {made_with}"
    if made.chat:
        made_with = f"{t('gpt.chat')} · {made_with}"
    box.container(key="gpt_made_with").caption(t("gpt.current" if current else "gpt.stale", made_with=made_with))
    if gen.stopped:
        box.caption(t("gpt.stopped", token=gen.stopped, n=len(gen.new_ids)))
    _speed(gen)
    # the attention view draws the continuation after the prompt only when it continues this prompt as typed
    same = (made.text, made.name, made.chat) == (text, name, False)
    st.session_state[NEW_IDS] = tuple(gen.new_ids) if same else ()


def _speed(gen) -> None:
    """Tokens generated, tokens per second (against the other decoding as this reader measured it last on the
    generation's backend), and which decoding ran."""
    cache = gen.cache
    measured = st.session_state.get("gpt_measured", {})
    other = measured.get(f"{gen.backend}:{not cache}")
    faster = bool(other) and gen.tokens_per_s >= other
    speed = ui.row()
    speed.metric(t("gpt.m.generated"), len(gen.new_ids))
    speed.container(key="gpt_tps").metric(
        t("gpt.m.tps"),
        f"{gen.tokens_per_s:.0f}",
        delta=t("gpt.m.tps.vs", ratio=gen.tokens_per_s / other, other=t("gpt.no_cache" if cache else "gpt.kv_cache"))
        if other
        else None,
        delta_arrow="up" if faster else "down",
        delta_color="normal" if faster else "inverse",  # the text never starts with "-": inverse makes it red
        help=t("gpt.m.tps.help"),
    )
    speed.metric(t("gpt.m.decoding"), t("gpt.kv_cache") if cache else t("gpt.no_cache"), help=t("gpt.m.decoding.help"))
    ui.readout(gen)
