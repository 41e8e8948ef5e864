"""The sections of the Mistral page, in the paper's order: 1 · the sliding-window band of every layer, 2 · its reach
through depth (measured with gradients), 3 · the rolling buffer cache while the model writes, 4 · the pre-fill in
chunks of W; then the model's card and the explanation."""

from __future__ import annotations

import math

import streamlit as st

from app.mistral import service as svc
from app.mistral import views
from app.shared import ui
from app.shared.formats import millions_or_billions, percent
from app.shared.i18n import InputError, t
from app.shared.tokens import visible

BAND = ("mistral_layer", "mistral_head")  # the band's controls, which rerun its view alone (its window moves in it)
BAND_CHOICE = "_mistral_band"  # {control: value}, read by the view (ui.rerun_parts)
SLOT_RUN = 48  # the slots a wide buffer shows at once, around the one last written
GENERATED = "_mistral_generated"  # set once the reader has pressed Generate: the writing follows the prompt from then


def small(x: float) -> str:
    """A difference that should be zero: "0" when it is, else in scientific notation (3.2e-07)."""
    return "0" if x == 0 else f"{x:.1e}"


def analysed(text: str, backend: str, name: str = svc.NAME) -> svc.Analysis | None:
    """The forward pass of ``text`` with its attention patterns, or None after showing why it cannot run."""
    try:
        return svc.analyse(text, backend, name)
    except InputError as e:
        ui.input_error(e)
        return None


def real_intro(name: str) -> None:
    """What the page shows on a real Gemma 3, every number from its config, and what to try on it."""
    s = svc.shape(name)
    first = s.global_[0] if s.global_ else s.n_layers - 1
    st.markdown(t("mistral.intro.real", name=svc.title(name)))
    st.info(
        t(
            "mistral.real.intro", name=svc.title(name), L=s.n_layers, n_local=len(s.local), n_global=len(s.global_),
            W=s.window, globals=svc.spans(s.global_), H=s.n_heads, G=s.n_kv_heads, max=s.limit,
        ),
        icon=":material/science:",
    )  # fmt: skip
    ui.try_this(
        t("mistral.try.real.do", g=first, W=s.window),
        t("mistral.try.real.see", g=first, reach=int(svc.bounds(s.windows)[max(first - 1, 0)]), W_1=s.window - 1),
        t("mistral.try.real.why"),
    )


def _use_ours() -> None:
    """``on_click`` of a switch back to our checkpoint: the picker set before the rerun draws it."""
    st.session_state["mistral_model"] = svc.NAME


def ours_only(title: str, why: str, name: str) -> None:
    """A section that only makes sense on our checkpoint: its title, why (one line), and a switch to ours."""
    s = svc.shape(name)
    st.subheader(t(title))
    st.info(t(why, name=svc.title(name), W=s.window, T=s.limit), icon=":material/info:")
    st.button(t("mistral.use_ours"), key=f"mistral_ours_{title}", on_click=_use_ours)


def _layer_kind(s: svc.Shape, layer: int) -> str:
    w = s.windows[layer]
    return t("mistral.layer.local", W=w) if w is not None else t("mistral.layer.global")


# ---- 1 · the band ---------------------------------------------------------------------------------------------------
def band(a: svc.Analysis, name: str = svc.NAME) -> None:
    s = svc.shape(name)
    st.subheader(t("mistral.band.title"))
    if s.real:
        st.markdown(
            t(
                "mistral.band.caption.real", W=s.window, L=s.n_layers, locals=svc.spans(s.local),
                globals=svc.spans(s.global_), n_local=len(s.local), n_global=len(s.global_),
            )
        )  # fmt: skip
        if len(a.ids) <= s.window:
            st.caption(t("mistral.band.short", T=len(a.ids), W=s.window))
    else:
        st.markdown(t("mistral.band.caption", W=s.window, L=s.n_layers))
    band_controls(name)
    band_view(a, name)


@st.fragment(key="mistral_part_band_controls")
def band_controls(name: str = svc.NAME) -> None:
    """The layer and the head, which rerun the view; the window moves on the map's own slider."""
    s = svc.shape(name)
    c_l, c_h = st.columns(2)
    c_l.segmented_control(
        t("view.layer"), list(range(s.n_layers)), default=0, required=True,
        **ui.drives("mistral_layer", BAND_CHOICE, ["mistral_part_band"]),
    )  # fmt: skip
    c_h.segmented_control(
        t("view.head"), list(range(s.n_heads)), default=0, required=True,
        **ui.drives("mistral_head", BAND_CHOICE, ["mistral_part_band"]),
    )  # fmt: skip
    ui.note_controls(BAND_CHOICE, BAND)


@st.fragment(key="mistral_part_band")
def band_view(a: svc.Analysis, name: str = svc.NAME) -> None:
    """The chosen head's pattern against the band of every window drawn, moved on the figure's own slider (in the
    browser: each window's edge and readout ride in the figure), opening on the link's ``mistral_window`` or W. On a
    global layer of a real Gemma no band is trained: its pattern fills the causal triangle."""
    s = svc.shape(name)
    W, L, H = s.window, s.n_layers, s.n_heads
    layer, head = (st.session_state[BAND_CHOICE][k] for k in BAND)
    layer, head = min(layer, L - 1), min(head, H - 1)  # a choice kept from another model
    T = len(a.ids)
    own = s.windows[layer]  # this layer's W, None on a global layer
    causal = T * (T + 1) // 2
    windows = list(svc.display_windows(T, name))
    lo, hi = windows[0], windows[-1]
    asked = ui.query_int("mistral_window", min(W, hi), lo, hi)  # a link's width, or W: the nearest one drawn
    active = min(range(len(windows)), key=lambda k: abs(windows[k] - asked))
    readouts = []
    for w in windows:
        pairs = svc.band_pairs(T, w)
        readouts.append(
            t(
                "mistral.band.readout",
                keys=min(w, T),
                pairs=f"{pairs:,}",
                share=percent(pairs / causal, 0),
                outside=percent(a.outside_share(w)[layer, head]),
            )
        )
    title = t("mistral.band.pattern", lh=t("view.layer_head", layer=layer, head=head))
    st.markdown(f"**{title}**" + (f" · {_layer_kind(s, layer)}" if s.real else ""))
    pattern = a.patterns[layer, head]
    labels = list(a.pieces)
    ui.figure(
        views.band_steps(
            pattern,
            labels,
            readouts,
            windows=windows,
            active=active,
            trained=own if own is not None else T,  # a global layer: no trained edge (none falls inside the map)
            prefix=t("mistral.window.prefix"),
            query_title=t("view.query"),
            key_title=t("view.key"),
            value_title=t("view.weight"),
            window_name=t("mistral.edge"),
            trained_name=t("mistral.edge.trained", W=W) if own is not None else t("mistral.edge.none"),
            cut_name=t("mistral.band.cut"),
        ),
        pattern,
        f"mistral-attention-l{layer}h{head}",
        key="mistral_band",
        row_labels=labels,
        col_labels=labels,
    )
    st.caption(
        t("mistral.band.readout.help.real" if s.real else "mistral.band.readout.help", W=W, causal=f"{causal:,}")
    )
    st.metric(
        t("mistral.m.outside_local" if s.real else "mistral.m.outside_trained", W=W),
        small(a.outside_own(s.windows)),
        help=t(
            "mistral.m.outside_local.help" if s.real else "mistral.m.outside_trained.help",
            L=L, H=H, n_local=len(s.local),
        ),
    )  # fmt: skip
    ui.readout(a)


# ---- 2 · reach through depth ----------------------------------------------------------------------------------------
@st.fragment
def reach(a: svc.Analysis, text: str, name: str = svc.NAME) -> None:
    s = svc.shape(name)
    W, L = s.window, s.n_layers
    st.subheader(t("mistral.reach.title"))
    if s.real:
        first = s.global_[0] if s.global_ else L
        st.markdown(
            t(
                "mistral.reach.caption.real", W=W, W_1=W - 1, g=first, n=len(s.local[:first]) if s.global_ else L,
                reach=int(svc.bounds(s.windows)[first - 1]) if first else 0,
            )
        )  # fmt: skip
    else:
        st.markdown(t("mistral.reach.caption", W=W, W_1=W - 1, L=L, reach=L * (W - 1)))
    T = len(a.ids)
    position = ui.slider(
        st,
        t("mistral.position"),
        0,
        T - 1,
        T - 1,
        key="mistral_position",
        bind="query-params",
        help=t("mistral.position.help"),
    )
    try:
        with st.spinner(t("mistral.reach.spinner")):
            r = svc.reach(text, position, name)
    except InputError as e:
        ui.input_error(e)
        return
    per_row, n = (3 if s.real else 6), len(r.layers)  # a real model's numbers run to four digits
    cols = [c for start in range(0, n + 1, per_row) for c in st.columns(per_row)][: n + 1]
    for row, (layer, col) in enumerate(zip(r.layers, cols)):
        bound = r.bound[row]
        if math.isinf(bound):
            shown, why = t("mistral.reach.all"), t("mistral.m.farthest.help.global", layer=layer)
        elif s.real:
            shown, why = f"{bound:.0f}", t("mistral.m.farthest.help.local", bound=f"{bound:.0f}", layer=layer, W=W)
        else:
            shown, why = f"{bound:.0f}", t("mistral.m.farthest.help", bound=f"{bound:.0f}", layer=layer, W=W)
        col.metric(t("mistral.m.farthest", layer=layer), f"{r.farthest[row]} / {shown}", help=why)
    cols[n].metric(t("mistral.m.beyond"), small(float(r.beyond.max())), help=t("mistral.m.beyond.help"))
    labels = list(a.pieces[: position + 1])
    layer_names = [t("mistral.reach.after", layer=layer) for layer in r.layers]
    if n < L:
        st.caption(t("mistral.reach.some", layers=svc.spans(r.layers)))
    st.caption(t("mistral.reach.map", position=position, token=visible(a.pieces[position])))
    ui.figure(
        views.reach_map(
            r.influence,
            labels,
            r.bound,
            layer_names=layer_names,
            value_title=t("mistral.reach.log"),
            position_title=t("mistral.reach.input"),
            bound_name=t("mistral.reach.bound.real" if s.real else "mistral.reach.bound"),
        ),
        r.influence,
        f"mistral-influence-p{position}",
        key="mistral_reach",
        row_labels=layer_names,
        col_labels=labels,
    )
    ui.readout(r)


# ---- 3 · the rolling buffer -----------------------------------------------------------------------------------------
@st.fragment
def rolling(name: str = svc.NAME, text: str = "") -> None:
    """Greedy decoding with the rolling buffers. A real model's window is far longer than a prompt: it may write
    after the text of section 1 instead, whose positions pass W, so its local buffers wrap."""
    s = svc.shape(name)
    W = s.window
    st.subheader(t("mistral.roll.title"))
    if s.real:
        st.markdown(t("mistral.roll.caption.real", W=W, globals=svc.spans(s.global_), name=svc.title(name)))
    else:
        st.markdown(t("mistral.roll.caption", W=W))
    after_text = s.real and st.toggle(
        t("mistral.roll.after_text", W=W), key="mistral_after_text", help=t("mistral.roll.after_text.help", W=W)
    )
    c_p, c_n = st.columns([3, 1])
    if after_text:
        prompt, most_chars = text, svc.max_text_chars(name)
        c_p.caption(t("mistral.roll.after_text.on"))
    else:
        prompt = ui.text_line(
            t("mistral.prompt"), svc.DEFAULT_PROMPT, key="mistral_prompt", max_chars=svc.MAX_PROMPT_CHARS, host=c_p
        )
        most_chars = svc.MAX_PROMPT_CHARS
    most = svc.max_new(name)
    n = c_n.slider(
        t("mistral.n"), 1, most, min(64, most), key="mistral_n_real" if s.real else "mistral_n", bind="query-params",
        help=t("mistral.n.help"),
    )  # fmt: skip
    if st.button(t("mistral.generate"), key="mistral_generate", icon=":material/play_arrow:", type="primary"):
        st.session_state[GENERATED] = True
    if not st.session_state.get(GENERATED):
        st.caption(t("mistral.roll.press"))
        return
    try:
        with st.spinner(t("mistral.roll.spinner")):
            g = svc.generate(prompt, n, name, most_chars)
    except InputError as e:
        ui.input_error(e)
        return
    box = st.container(border=True)
    box.markdown(f"**{t('mistral.roll.text')}**")
    box.text(prompt + g.text if not after_text else "… " + prompt[-300:] + g.text)  # the text is in section 1
    metric_row = ui.row()
    metric_row.metric(
        t("mistral.m.generated"),
        len(g.new_ids),
        help=t("mistral.m.generated.help.real" if s.real else "mistral.m.generated.help", P=len(g.prompt)),
    )
    metric_row.metric(t("mistral.m.tps"), f"{g.tokens_per_s:.0f}")
    metric_row.metric(
        t("mistral.m.memory"),
        f"{g.rolling_bytes[-1] / 1024:.0f} / {g.full_bytes[-1] / 1024:.0f} KiB",
        help=t(
            "mistral.m.memory.help.real" if s.real else "mistral.m.memory.help",
            ratio=g.full_bytes[-1] / g.rolling_bytes[-1], W=W,
        ),
    )  # fmt: skip
    metric_row.metric(
        t("mistral.m.same"), t("mistral.yes") if g.same_tokens else t("mistral.no"), help=t("mistral.m.same.help")
    )
    if s.real:
        real_row = ui.row()
        real_row.metric(
            t("mistral.m.local_rows"), f"{g.local_rows} / {W}", help=t("mistral.m.local_rows.help", W=W, n=len(s.local))
        )
        real_row.metric(
            t("mistral.m.global_rows"), g.global_rows, help=t("mistral.m.global_rows.help", n=len(s.global_))
        )
        real_row.metric(
            t("mistral.m.split"),
            f"{g.local_bytes[-1] / 1024:.0f} + {g.global_bytes[-1] / 1024:.0f} KiB",
            help=t("mistral.m.split.help"),
        )
    _slots(g, name)
    ui.readout(g)


def _slots(g: svc.Rolling, name: str = svc.NAME) -> None:
    """What the buffer's W slots hold after the chosen step, and its memory against a full cache."""
    s = svc.shape(name)
    W = s.window
    st.markdown(f"**{t('mistral.roll.slots')}**")
    steps = len(g.new_ids)
    step = ui.slider(st, t("mistral.step"), 1, steps, steps, key="mistral_step", bind="query-params")
    slots = g.slots[step - 1]
    held = slots[slots >= 0]
    newest = int(g.lengths[step - 1]) - 1
    metric_row = ui.row()
    metric_row.metric(t("mistral.m.filled"), f"{held.size} / {W}", help=t("mistral.m.filled.help"))
    metric_row.metric(t("mistral.m.held"), f"{held.min()}–{held.max()}", help=t("mistral.m.held.help", W=W))
    metric_row.metric(t("mistral.m.overwritten"), max(0, newest + 1 - W), help=t("mistral.m.overwritten.help", W=W))
    first, boxes = 0, slots
    if W > svc.DISPLAY_WINDOWS[1] and held.size <= SLOT_RUN:  # a wide buffer, little filled: its filled slots
        boxes = slots[: max(held.size, 1)]
    elif W > svc.DISPLAY_WINDOWS[1]:  # a wide buffer, filled further: the run around the slot written last
        first = min(max(newest % W - SLOT_RUN + 8, 0), W - SLOT_RUN)
        boxes = slots[first : first + SLOT_RUN]
        st.caption(t("mistral.roll.run", lo=first, hi=first + SLOT_RUN - 1, W=W))
    ui.markup(
        views.slots_html(
            boxes, list(g.pieces), newest, slot_name=t("mistral.slot"), empty=t("mistral.empty"), first=first, W=W
        )
    )
    c_map, c_mem = st.columns([3, 2])
    with c_map:
        st.caption(t("mistral.roll.map.real" if s.real else "mistral.roll.map"))
        ui.figure(
            views.slot_map(
                g.slots,
                step,
                slot_title=t("mistral.slot"),
                step_title=t("mistral.step.short"),
                value_title=t("mistral.position.short"),
            ),
            g.slots,
            "mistral-rolling-slots",
            key="mistral_slots",
            row_labels=[str(s) for s in range(1, steps + 1)],
            col_labels=[str(i) for i in range(W)],
        )
    with c_mem:
        st.caption(t("mistral.roll.memory.real" if s.real else "mistral.roll.memory"))
        kib = {t("mistral.cache.rolling"): g.rolling_bytes / 1024, t("mistral.cache.full"): g.full_bytes / 1024}
        ui.figure(
            views.memory_lines(
                g.lengths,
                kib,
                x_title=t("mistral.cached_positions"),
                y_title=t("mistral.kib"),
                window=W,
                window_name=f"W = {W}",
            ),
            {"positions": g.lengths, "rolling_bytes": g.rolling_bytes, "full_bytes": g.full_bytes},
            "mistral-cache-memory",
            key="mistral_memory",
        )


# ---- 4 · pre-fill in chunks of W ------------------------------------------------------------------------------------
@st.fragment
def prefill(a: svc.Analysis, text: str, name: str = svc.NAME) -> None:
    s = svc.shape(name)
    W = s.window
    st.subheader(t("mistral.prefill.title"))
    st.markdown(t("mistral.prefill.caption", W=W))
    if s.real:
        st.markdown(t("mistral.prefill.caption.real", name=svc.title(name), globals=svc.spans(s.global_)))
    try:
        with st.spinner(t("mistral.prefill.spinner")):
            p = svc.prefill(text, name)
    except InputError as e:
        ui.input_error(e)
        return
    n_chunks = len(p.masks)
    chunk = ui.slider(st, t("mistral.chunk"), 0, n_chunks - 1, 1, key="mistral_chunk", bind="query-params")
    mask = p.masks[chunk]
    T_c, S = mask.shape
    n_cached = S - T_c
    metric_row = ui.row()
    metric_row.metric(t("mistral.m.chunks"), n_chunks, help=t("mistral.m.chunks.help", W=W, T=len(a.ids)))
    metric_row.metric(t("mistral.m.chunk_keys"), f"{n_cached} + {T_c}", help=t("mistral.m.chunk_keys.help", W=W))
    metric_row.metric(
        t("mistral.m.prefill_diff"), small(p.max_diff), help=t("mistral.m.prefill_diff.help", scale=p.logit_scale)
    )
    pieces = a.pieces
    start, first = p.starts[chunk], p.first_key[chunk]
    q_labels = [f"{i}: {visible(pieces[i])}" for i in range(start, start + T_c)]
    k_labels = [f"{i}: {visible(pieces[i])}" for i in range(first, first + S)]
    st.caption(t("mistral.prefill.map", c=chunk, start=start, end=start + T_c - 1))
    ui.figure(
        views.chunk_mask(
            mask,
            q_labels,
            k_labels,
            query_title=t("view.query"),
            key_title=t("view.key"),
            n_cached=n_cached,
        ),
        mask.astype(int),
        f"mistral-prefill-chunk{chunk}",
        key="mistral_prefill",
        row_labels=q_labels,
        col_labels=k_labels,
    )
    ui.readout(p)


# ---- the model, and what the paper changed ---------------------------------------------------------------------------
def model_card() -> None:
    with st.expander(t("mistral.card.title")):
        card = svc.card()
        metrics = card.get("metrics", {})
        metric_row = ui.row()
        metric_row.metric(t("mistral.card.params"), millions_or_billions(svc.shape().params))
        metric_row.metric(t("mistral.card.val_bpc"), f"{metrics.get('val_bpc', float('nan')):.3f}")
        metric_row.metric(
            t("mistral.card.llama_bpc"),
            f"{metrics.get('llama_val_bpc', float('nan')):.3f}",
            help=t("mistral.card.llama_bpc.help"),
        )
        metric_row.metric(t("mistral.card.rolling"), f"{metrics.get('rolling_cache_max_diff', float('nan')):.1e}")
        if versus := _versus_llama():
            st.caption(versus)
        st.caption(
            t(
                "mistral.card.caption",
                data=card.get("data", ""),
                minutes=card.get("wall_time_s", 0) / 60,
                command=card.get("command", ""),
            )
        )


def _versus_llama() -> str | None:
    """How mistral's run differs from llama's, from the two cards' training settings (None when either is missing)."""
    ours, theirs = svc.card().get("training", {}), svc.llama_card().get("training", {})
    if not ours or not theirs:
        return None
    return t(
        "mistral.card.versus",
        ctx=ours["context"],
        batch=ours["batch"],
        llama_ctx=theirs["context"],
        llama_batch=theirs["batch"],
        steps=svc.card().get("steps", "–"),
        budget=ours["budget_s"],
        llama_steps=svc.llama_card().get("steps", "–"),
        llama_budget=theirs["budget_s"],
    )


def paper_vs_here() -> None:
    """Table 1's shape and the headline result beside our checkpoint's."""
    s, metrics = svc.shape(), svc.card().get("metrics", {})
    shape = t(
        "mistral.pvh.shape.here",
        dim=s.dim,
        L=s.n_layers,
        D=s.dim // s.n_heads,
        F=s.hidden,
        H=s.n_heads,
        G=s.n_kv_heads,
        V=s.vocab,
    )
    result = t(
        "mistral.pvh.result.here",
        bpc=metrics.get("val_bpc", float("nan")),
        llama=metrics.get("llama_val_bpc", float("nan")),
    )
    ui.paper_vs_here(
        [
            (t("mistral.pvh.shape"), t("mistral.pvh.shape.paper"), shape),
            (
                t("mistral.pvh.window"),
                t("mistral.pvh.window.paper"),
                t("mistral.pvh.window.here", W=s.window, ctx=s.max_len),
            ),
            (t("mistral.pvh.result"), t("mistral.pvh.result.paper"), result),
        ],
        [v] if (v := _versus_llama()) else None,
    )


def real_paper_vs_here(name: str) -> None:
    """The Gemma 3 report's choices beside the picked checkpoint's, every number here from its config."""
    s, c = svc.shape(name), svc.handle(name).config
    ui.paper_vs_here(
        [
            (
                t("mistral.pvh.layers"),
                t("mistral.pvh.layers.paper"),
                t(
                    "mistral.pvh.layers.here",
                    n_local=len(s.local),
                    n_global=len(s.global_),
                    globals=svc.spans(s.global_),
                ),
            ),
            (t("mistral.pvh.window"), t("mistral.pvh.window.gemma"), t("mistral.pvh.window.here.real", W=s.window)),
            (
                t("mistral.pvh.rope"),
                t("mistral.pvh.rope.paper"),
                t(
                    "mistral.pvh.rope.here",
                    local=f"{c.get('rope_local_base', 0):,.0f}",
                    glob=f"{c.get('rope_base', 0):,.0f}",
                ),
            ),
            (t("mistral.pvh.qknorm"), t("mistral.pvh.qknorm.paper"), t("mistral.pvh.qknorm.here")),
            (
                t("mistral.pvh.shape"),
                "—",
                t(
                    "mistral.pvh.shape.here",
                    dim=s.dim,
                    L=s.n_layers,
                    D=s.head_dim,
                    F=s.hidden,
                    H=s.n_heads,
                    G=s.n_kv_heads,
                    V=s.vocab,
                ),
            ),
        ],
        here=svc.title(name),
    )


def explanation(name: str = svc.NAME) -> None:
    if svc.available(name) and svc.is_real(name):
        ui.explain(t("mistral.explain.real", name=svc.title(name)))
    else:
        ui.explain(t("mistral.explain"))
    ui.page_link("moe", t("mistral.moe_link"))
