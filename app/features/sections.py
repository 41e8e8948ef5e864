"""The feature microscope's sections: the features on each token of a text, one feature's card, and the feature
switched off or scaled inside the model."""

from __future__ import annotations

import streamlit as st

from app.features import service as svc
from app.features.views import activation_histogram, contexts_html, logit_weights, next_token, sweep_curves
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.tokens import visible


def forget_on_switch(name: str) -> None:
    """A model picked in place of another: the token, the feature number and the steering block named the other
    model's tokens, dictionary and layers. The token goes back to the first, the block to the new model's default,
    and ``pick_feature`` opens the new dictionary's strongest feature of that token (the number and the block are
    bound to the link, so they are set anew rather than removed). A link opened fresh keeps what it names."""
    if st.session_state.get("features_model_seen") not in (None, name):
        st.session_state.pop("features_token", None)
        st.query_params.pop("features_token", None)
        st.session_state.pop("features_token_seen", None)
        st.session_state["features_steer_layer"] = svc.steer_default_layer(name)
        st.session_state["features_switched"] = True
    st.session_state["features_model_seen"] = name


@st.fragment
def by_feature(name: str, text: str, reading) -> None:
    """Sections 1–4, everything that follows the token and the feature picked: a pick reruns them, not the page's
    picker, intro, text, sweep and teaching text (section 3's scale reruns section 3 alone: a fragment inside)."""
    token = tokens(name, reading)  # 1 · the features on each token
    feature = pick_feature(name, reading, token)
    card(name, feature)  # 2 · a feature: frequency, label, contexts, logit weights
    edit(name, text, feature, reading)  # 3 · switched off or scaled, the next token
    steering(name, feature)  # 4 · steering: a direction added while the model writes, plain and steered


def intro(name: str) -> None:
    f = svc.facts(name)
    m = f.metrics
    st.markdown(
        t(
            "features.intro",
            n=f.n_features,
            layer=f.layer,
            layers=f.n_layers,
            k=f.k,
            fve=m.get("fve", 0.0),
            delta=m.get("delta_nats", 0.0),
            zero=m.get("zero_ablated_nats", 0.0) - m.get("clean_nats", 0.0),
            model=t("features.model.real", title=f.title) if f.real else t("features.model.ours"),
            held=t("features.held.real", title=f.title, layer=f.layer, passthrough=f.passthrough)
            if f.real
            else t("features.held.ours"),
        )
    )


def text_help(name: str) -> str:
    f = svc.facts(name)
    about = t("features.text.real", title=f.title) if f.real else t("features.text.ours")
    return t("features.text.help", chars=svc.MAX_CHARS, tokens=svc.MAX_TOKENS, about=about)


def tokens(name: str, reading) -> int:
    """Section 1: a table of every token's strongest features; returns the token picked (an index into the text)."""
    st.subheader(t("features.s1"))
    st.caption(
        t("features.s1.caption", shown=svc.SHOWN, k=svc.facts(name).k, dense=svc.DENSE, n_dense=len(reading.dense))
    )
    rows = [
        {
            t("features.col.token"): visible(p),
            t("features.col.features"): "  ".join(
                f"#{int(i)} ({v:.2f})" for i, v in zip(reading.features[j], reading.values[j]) if i >= 0
            ),
        }
        for j, p in enumerate(reading.pieces)
    ]
    st.dataframe(rows, hide_index=False, width="stretch", height=min(35 * len(rows) + 38, 320))
    labels = {j: f"{j}: {visible(p)}" for j, p in enumerate(reading.pieces)}
    return ui.choice(st.selectbox, t("features.token"), list(labels), key="features_token", labels=labels)


def pick_feature(name: str, reading, token: int) -> int:
    firing = [int(i) for i in reading.features[token] if i >= 0]
    n = svc.facts(name).n_features
    seen = st.session_state.get("features_token_seen")
    fresh = "features_id" not in st.session_state and "features_id" not in st.query_params  # no feature asked for
    switched = st.session_state.pop("features_switched", False)  # another model picked: the number was its
    if firing and (fresh or switched or (seen is not None and seen != token)):  # a new token opens its strongest
        st.session_state["features_id"] = firing[0]
    st.session_state["features_token_seen"] = token
    return int(
        st.number_input(
            t("features.pick"),
            0,
            n - 1,
            key="features_id",
            help=t("features.pick.help", n=n),
            bind="query-params",
        )
    )


def card(name: str, i: int) -> None:
    """Section 2: the feature's frequency, label, strongest held-out contexts and logit weights."""
    st.subheader(t("features.s2", i=i))
    f = svc.feature(name, i)
    facts = svc.facts(name)
    if f.fired == 0:
        st.info(t("features.dead", i=i, dead=facts.dead, n=facts.n_features))
    m1, m2 = st.columns(2)
    m1.metric(t("features.m.freq"), f"{f.frequency:.3%}", help=t("features.m.freq.help", tokens=facts.tokens))
    m2.metric(
        t("features.m.label"),
        t("features.label", token=visible(f.label), count=f.label_count, n=len(f.contexts)) if f.label else "—",
        help=t("features.m.label.help", promoted=" / ".join(visible(p) for p, _ in f.promoted[:3])),
    )
    histogram(name, i)
    if f.contexts:
        st.markdown(f"**{t('features.contexts')}**")
        ui.markup(contexts_html(f.contexts))
        st.caption(t("features.contexts.caption"))
    ui.figure(
        logit_weights(
            f.promoted, f.suppressed, promoted_name=t("features.promoted"), suppressed_name=t("features.suppressed")
        ),
        {
            "promoted": [p for p, _ in f.promoted],
            "weight": [w for _, w in f.promoted],
            "suppressed": [p for p, _ in f.suppressed],
            "suppressed_weight": [w for _, w in f.suppressed],
        },
        f"feature-{i}-logit-weights",
        key="features_weights",
    )
    st.caption(
        t(
            "features.effect.caption",
            layer=facts.layer,
            norm=facts.norm,
            next=facts.layer + 1,
            last=facts.n_layers - 1,
        )
    )


@st.fragment
def edit(name: str, text: str, i: int, reading) -> None:
    """Section 3: the next token with the feature scaled (0: off) at every position. A fragment: its scale reruns it
    alone, not the page's table, card, steering and sweep."""
    st.subheader(t("features.s3"))
    scale = st.slider(
        t("features.scale", i=i), 0.0, 4.0, 0.0, 0.25, key="features_scale", help=t("features.scale.help")
    )
    try:
        e = svc.edit(name, text, i, float(scale))
    except InputError as err:
        ui.input_error(err)
        return
    if not (reading.features == i).any() and e.activation == 0:
        st.caption(t("features.unused", i=i))
    ui.figure(
        next_token(
            e.pieces,
            e.clean,
            e.edited,
            names=(t("features.clean"), t("features.edited", scale=scale)),
            value_title=t("features.probability"),
        ),
        {"token": list(e.pieces), "clean": e.clean, "edited": e.edited},
        f"feature-{i}-edit",
        key="features_edit",
    )
    st.caption(t("features.s3.caption", i=i, scale=scale, act=e.activation, change=e.max_change))


def histogram(name: str, i: int) -> None:
    """In the card: how strongly the feature fires on the held-out tokens where it fires (log-count bars)."""
    h = svc.histogram(name, i)
    if h.fired == 0:
        return
    st.markdown(f"**{t('features.hist')}**")
    ui.figure(
        activation_histogram(h.edges, h.counts, x_title=t("features.hist.x"), y_title=t("features.hist.y")),
        {"edges": h.edges.tolist(), "counts": h.counts.tolist(), "fired": h.fired, "tokens": h.tokens},
        f"feature-{i}-histogram",
        key="features_hist",
    )
    lo, hi = h.median
    st.caption(t("features.hist.caption", fired=h.fired, tokens=h.tokens, freq=h.frequency, lo=lo, hi=hi))


def price(name: str) -> None:
    """Section 5: the card's sweep, reconstruction and Δ loss against L0, one line per dictionary size, the shipped
    dictionary marked."""
    s = svc.sweep(name)
    st.subheader(t("features.s5"))
    if s is None:
        st.info(t("features.s5.none", minutes=svc.card(name).get("wall_time_s", 0.0) / 60))
        return
    size, k, l0, fve, delta = s.shipped
    ui.figure(
        sweep_curves(
            s.sizes,
            s.l0,
            s.fve,
            s.delta,
            s.shipped,
            size_name=t("features.sweep.size"),
            shipped_name=t("features.sweep.shipped"),
            l0_title=t("features.sweep.l0"),
            fve_title=t("features.sweep.fve"),
            delta_title=t("features.sweep.delta"),
        ),
        {
            "sizes": list(s.sizes),
            "k": [list(r) for r in s.k],
            "l0": [list(r) for r in s.l0],
            "fve": [list(r) for r in s.fve],
            "delta_nats": [list(r) for r in s.delta],
            "dead_share": [list(r) for r in s.dead],
            "shipped": {"n_features": size, "k": k, "l0": l0, "fve": fve, "delta_nats": delta},
        },
        "feature-dictionary-sweep",
        key="features_sweep",
    )
    big = len(s.sizes) - 1  # the largest size: its first and last k
    st.caption(
        t(
            "features.s5.caption",
            steps=s.steps,
            tokens=s.tokens,
            shipped_steps=s.shipped_steps,
            size=s.sizes[big],
            k_lo=s.k[big][0],
            k_hi=s.k[big][-1],
            d_lo=s.delta[big][0],
            d_hi=s.delta[big][-1],
            dead=s.dead[big][0],
            fve_min=min(min(r) for r in s.fve),
            fve_max=max(max(r) for r in s.fve),
            d_min=min(min(r) for r in s.delta),
            d_max=max(max(r) for r in s.delta),
            fve=fve,
            delta=delta,
        )
    )


def paper(name: str) -> None:
    f = svc.facts(name)
    m = f.metrics
    st.markdown(
        t(
            "features.is_not",
            n=f.n_features,
            dead_share=m.get("dead_share", 0.0),
            dense=svc.DENSE,
            fve_rest=1 - m.get("fve", 0.0),
            delta=m.get("delta_nats", 0.0),
        )
    )
    st.markdown(
        t(
            "features.paper",
            n=f.n_features,
            width=svc.model(name).config["dim"],
            layer=f.layer,
            layers=f.n_layers,
            k=f.k,
        )
    )


STEER_PROMPT = "First Citizen.\nBefore we proceed"
STEER_A = "I love thee, my sweet lord\nO happy day, my joy\nGentle love and gladness"
STEER_B = "I hate thee, vile traitor\nO wretched day, my grief\nBitter hate and anger"


def steering(name: str, feature: int) -> None:
    """Section 4: a prompt continued plainly and with a direction added to the stream (this feature's, or the
    difference of two lists' means), side by side, and how the first new token's distribution moved."""
    st.subheader(t("features.s4"))
    st.caption(t("features.s4.caption"))
    source = ui.choice(
        st.radio,
        t("features.steer.source"),
        svc.SOURCES,
        key="features_steer_source",
        labels={"feature": t("features.steer.by_feature", i=feature), "prompts": t("features.steer.by_prompts")},
        horizontal=True,
        help=t("features.steer.source.help"),
    )
    prompt = ui.text_box(
        t("features.steer.prompt"), STEER_PROMPT, key="features_steer_prompt", max_chars=None, height=68
    )
    positive = negative = ""
    layer = None
    if source == "prompts":
        a, b = st.columns(2)
        positive = ui.text_box(
            t("features.steer.a"),
            STEER_A,
            key="features_steer_a",
            max_chars=None,
            host=a,
            help=t("features.steer.list.help"),
        )
        negative = ui.text_box(
            t("features.steer.b"),
            STEER_B,
            key="features_steer_b",
            max_chars=None,
            host=b,
            help=t("features.steer.list.help"),
        )
        n_layers = svc.steer_layers(name)
        layer = ui.slider(
            st,
            t("features.steer.layer"),
            0,
            n_layers - 1,
            svc.steer_default_layer(name),
            key="features_steer_layer",
            help=t("features.steer.layer.help", layers=n_layers),
            bind="query-params",
        )
    c1, c2 = st.columns([2, 1])
    alpha = c1.slider(
        t("features.steer.alpha"),
        -svc.ALPHA_MAX,
        svc.ALPHA_MAX,
        0.0,
        0.05,
        key="features_steer_alpha",
        help=t("features.steer.alpha.help"),
        bind="query-params",
    )
    most = svc.STEER_MAX_NEW[name]
    n = ui.slider(c2, t("features.steer.n"), 1, most, min(24, most), key="features_steer_n", bind="query-params")
    try:
        with st.spinner(t("features.steer.running")):
            r = svc.steer(name, prompt, int(n), float(alpha), source, feature, positive, negative, layer)
    except InputError as err:
        ui.input_error(err)
        return
    st.caption(t("features.steer.unit", norm=r.norm, layer=r.layer, added=abs(r.alpha) * r.norm))
    left, right = st.columns(2)
    left.markdown(f"**{t('features.steer.plain')}**")
    left.code(r.plain, language=None, wrap_lines=True)
    right.markdown(f"**{t('features.steer.steered', alpha=r.alpha)}**")
    right.code(r.steered, language=None, wrap_lines=True)
    if r.same:
        st.caption(t("features.steer.same"))
    m1, m2, m3 = st.columns(3)
    m1.metric(t("features.steer.m.kl"), f"{r.kl:.3f}", help=t("features.steer.m.kl.help"))
    m2.metric(t("features.steer.m.first"), f"{visible(r.top_plain)} → {visible(r.top_steered)}")
    m3.metric(t("features.steer.m.logit"), f"{r.max_logit_change:.2f}", help=t("features.steer.m.logit.help"))
    if r.max_logit_change == 0:  # nothing moved (α = 0): no bars to draw
        return
    ui.figure(
        logit_weights(
            tuple((p, b - a) for p, a, b in r.rises),
            tuple((p, b - a) for p, a, b in r.falls),
            promoted_name=t("features.steer.rises"),
            suppressed_name=t("features.steer.falls"),
        ),
        {
            "rises": [p for p, _, _ in r.rises],
            "rises_p": [[a, b] for _, a, b in r.rises],
            "falls": [p for p, _, _ in r.falls],
            "falls_p": [[a, b] for _, a, b in r.falls],
        },
        "steering-shift",
        key="features_steer_shift",
    )
    st.caption(t("features.steer.shift.caption"))
