"""Sections 1 and 2 of the LLaMA page, on one text: RMSNorm against LayerNorm on the real residual stream, and
SwiGLU's gate on every hidden unit.

The token and block controls rerun the two parts that show that token in that block (its metrics and figures), not
the text box, the headings and explanations, or the normalisation cost (which depends on the text alone). Each part
draws one of its two figures, picked in the part (``NORM_VIEWS``, ``SWIGLU_VIEWS``)."""

from __future__ import annotations

import streamlit as st

from app.llama import service as svc
from app.llama import views
from app.shared import ui
from app.shared.formats import percent
from app.shared.i18n import InputError, t
from app.shared.tokens import visible

PARTS = {"norm": "llama_part_norm", "swiglu": "llama_part_swiglu"}
# Each part shows one of its two figures at a time, picked in the part: a token or block move redraws two figures,
# not four (in the browser, most of a move's time was Plotly laying out and painting four SVG charts)
NORM_VIEWS = ("channels", "points")
SWIGLU_VIEWS = ("sorted", "scatter")  # the sorted rows first: three filled lines, where the scatter is a dot per unit
CHOICE = "_llama_choice"  # {control: value} as the controls part drew them or a control's callback noted them since
MAX_BUTTONS = 8  # blocks shown as buttons up to this many (ours: 4); a real model's 30 get a slider
BLOCK_KEYS = {True: "llama_block", False: "llama_block_n"}  # by "few enough for buttons"


def analysed(text: str, name: str) -> svc.Analysis | None:
    """The forward pass of ``text`` through ``name``, or None after showing why it cannot run."""
    try:
        return svc.analyse(text, name)
    except InputError as e:
        ui.input_error(e)
        return None


def _chosen() -> tuple[int, int]:
    """The token and block the controls last noted."""
    noted = st.session_state[CHOICE]
    return noted["llama_token"], next(noted[k] for k in BLOCK_KEYS.values() if k in noted)


def controls(a: svc.Analysis) -> None:
    """The token and block that sections 1 and 2 show, in their own fragment: the blocks as buttons for a small
    model, as a slider for a real one's 30."""
    T, L = len(a.ids), svc.shape(a.name).n_layers
    token_help = t("llama.token.help.real" if svc.shape(a.name).real else "llama.token.help")
    block_key = BLOCK_KEYS[L <= MAX_BUTTONS]

    @st.fragment(key="llama_part_controls")
    def controls_part() -> None:
        c_tok, c_block = st.columns([3, 2])
        ui.slider(
            c_tok, t("llama.token"), 0, T - 1, min(T - 1, 8), help=token_help,
            **ui.drives("llama_token", CHOICE, PARTS.values()),
        )  # fmt: skip
        if L <= MAX_BUTTONS:
            c_block.segmented_control(
                t("llama.block"),
                list(range(L)),
                default=1,
                required=True,
                help=t("llama.block.help"),
                **ui.drives(block_key, CHOICE, PARTS.values()),
            )
        else:
            ui.slider(
                c_block, t("llama.block"), 0, L - 1, 1, help=t("llama.block.help"),
                **ui.drives(block_key, CHOICE, PARTS.values()),
            )  # fmt: skip
        ui.note_controls(CHOICE, ("llama_token", block_key))

    controls_part()


def _view(key: str, options: tuple[str, ...], label: str) -> str:
    """Which of a part's figures it shows: a segmented control in the part (a pick reruns the part alone), kept in
    the link."""
    return ui.choice(
        st.segmented_control,
        t(label),
        options,
        key=key,
        labels={v: t(f"llama.view.{v}") for v in options},
        required=True,
        label_visibility="collapsed",
    )


def rmsnorm(a: svc.Analysis, text: str) -> None:
    """1 · RMSNorm: the chosen token's stream and how much of its RMS is its mean, then what dropping the mean costs
    and saves on the whole text."""
    L, C = svc.shape(a.name).n_layers, svc.shape(a.name).dim
    s = svc.norm_stats(a)  # every token and block at once: once per text, not on each move
    st.subheader(t("llama.norm.title"))
    st.markdown(t("llama.norm.caption"))

    @st.fragment(key=PARTS["norm"])
    def norm_part() -> None:
        token, block = _chosen()
        st.caption(t("llama.chosen", token=token, piece=visible(a.pieces[token]), block=block))
        guesses = " · ".join(f"{visible(p)} {percent(q, 0)}" for p, q in zip(a.top_pieces[token], a.top_p[token]))
        st.caption(t("llama.next", k=svc.TOP_K, guesses=guesses, V=svc.shape(a.name).vocab))
        metric_row = ui.row()
        metric_row.metric(
            t("llama.m.mean_share"), percent(s.mean_share[block, token]), help=t("llama.m.mean_share.help")
        )
        metric_row.metric(t("llama.m.cosine"), f"{s.cosine[block, token]:.4f}", help=t("llama.m.cosine.help"))
        metric_row.metric(t("llama.m.change"), percent(s.change[block, token]), help=t("llama.m.change.help"))
        if L <= MAX_BUTTONS:
            points = [t("llama.point", block=i) for i in range(L)] + [t("llama.point.final")]
        else:  # 31 names along one axis: the block's number, the axis says what it counts
            points = [str(i) for i in range(L)] + [t("llama.point.final_short")]
        view = _view("llama_norm_view", NORM_VIEWS, "llama.view.norm")
        x = a.stream[block, token]
        data = {  # the part's numbers, under whichever figure it shows
            "block": block,
            "token": token,
            "stream": x,
            "points": points,
            "mean_share": s.mean_share,
            "change": s.change,
            "cosine": s.cosine,
        }
        if view == "channels":
            st.caption(t("llama.norm.channels", token=token, block=block))
            fig = views.channels(
                x,
                channel_title=t("llama.channel"),
                value_title=t("llama.value"),
                mean_name=t("llama.mean"),
                rms_name=t("llama.rms"),
            )
        else:
            st.caption(t("llama.norm.points"))
            fig = views.mean_share(
                s.mean_share,
                s.change,
                (block, token),
                point_names=points,
                share_name=t("llama.m.mean_share"),
                change_name=t("llama.m.change"),
                token_name=t("llama.this_token"),
                y_title=t("llama.percent"),
                x_title=t("llama.points_axis") if L > MAX_BUTTONS else "",
            )
        key = {"channels": "llama_channels", "points": "llama_mean_share"}[view]
        ui.figure(fig, data, f"llama-norm-b{block}-t{token}", key=key)

    norm_part()
    cost = svc.norm_cost(text, a.name)
    metric_row = ui.row()
    metric_row.metric(
        t("llama.m.centred_loss"),
        f"{a.loss_centred:.3f}",
        f"{a.loss_centred - a.loss:+.3f}",
        delta_color="inverse",
        help=t("llama.m.centred_loss.help", loss=a.loss),
    )
    metric_row.metric(t("llama.m.norm_params"), f"{C} / {2 * C}", help=t("llama.m.norm_params.help"))
    metric_row.metric(t("llama.m.norm_ops"), f"≈ {4 * C} / {7 * C}", help=t("llama.m.norm_ops.help", C=C))
    metric_row.metric(
        t("llama.m.norm_time"),
        f"{cost.rms_us:.0f} / {cost.ln_us:.0f} µs",
        help=t("llama.m.norm_time.help", n=cost.vectors, C=C, fused=cost.ln_fused_us),
    )
    st.caption(t("llama.norm.cost", rms=cost.rms_us, ln=cost.ln_us, fused=cost.ln_fused_us, n=cost.vectors))


def swiglu(a: svc.Analysis) -> None:
    """2 · SwiGLU: the chosen token's gate, up projection and their product over the hidden units, then why the
    width is ⅔ · 4C."""
    C, F = svc.shape(a.name).dim, svc.shape(a.name).hidden
    st.subheader(t("llama.swiglu.title"))
    st.markdown(t("llama.swiglu.caption", C=C, F=F))  # F's value; why ⅔ · 4C under the part (llama.swiglu.width)

    @st.fragment(key=PARTS["swiglu"])
    def swiglu_part() -> None:
        token, block = _chosen()
        g = svc.gating(a, block, token)
        metric_row = ui.row()
        metric_row.metric(
            t("llama.m.closed"), percent(g.closed, 0), help=t("llama.m.closed.help", share=percent(svc.CLOSED, 0), F=F)
        )
        metric_row.metric(t("llama.m.negative"), percent(g.negative, 0), help=t("llama.m.negative.help"))
        metric_row.metric(
            t("llama.m.top"),
            percent(g.top_energy, 0),
            help=t("llama.m.top.help", share=percent(svc.TOP_UNITS, 0), n=round(svc.TOP_UNITS * F)),
        )
        names = (t("llama.gate"), t("llama.up"), t("llama.product"))
        if _view("llama_swiglu_view", SWIGLU_VIEWS, "llama.view.swiglu") == "scatter":
            st.caption(t("llama.swiglu.scatter"))
            fig = views.gating(
                g.gate,
                g.up,
                g.product,
                svc.CLOSED * float(abs(g.gate).max()),
                gate_title=names[0],
                up_title=names[1],
                product_title=names[2],
                closed_name=t("llama.closed_band"),
            )
            key = "llama_gating"
        else:
            st.caption(t("llama.swiglu.sorted"))
            fig = views.sorted_units(g.gate, g.up, g.product, names=names, unit_title=t("llama.unit_rank"))
            key = "llama_sorted"
        data = {"gate": g.gate, "up": g.up, "product": g.product}
        ui.figure(fig, data, f"llama-swiglu-b{block}-t{token}", key=key)

    swiglu_part()
    st.markdown(t("llama.swiglu.width", C=C, F=F, four=4 * C, params=3 * C * F, mlp=2 * C * 4 * C))
