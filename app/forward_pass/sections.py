"""The forward pass's sections: the controls (position, layer, head, temperature) with the summary, and the steps
of the pass, one at a time — tokens and embeddings, LayerNorm, Q/K/V, one head's attention, W_O and the residual
add, the MLP, every layer, the prediction, and which parts made it — each recomputed from the probes and checked."""

import numpy as np
import streamlit as st

from app.forward_pass import service as svc
from app.forward_pass.views import (
    attention_steps,
    attribution_waterfall,
    gelu_histogram,
    layer_norm_lines,
    matrix_times_vector,
    stream_norms,
    top_tokens,
    vectors,
)
from app.shared import ui
from app.shared.i18n import InputError, t
from app.shared.tokens import token_strip, visible

TOL = 1e-4  # a check passes when the largest difference is below this, relative to the values' scale


def check(label: str, diff: float, scale: float = 1.0, *, col=st) -> None:
    """A metric with the largest difference between a recomputed step and the model's probe."""
    ok = diff <= TOL * max(1.0, scale)
    col.metric(label, f"{diff:.1e}", delta=t("forward_pass.check.ok") if ok else t("forward_pass.check.off"),
               delta_color="normal" if ok else "inverse", delta_arrow="off")  # fmt: skip


def paper_vs_here(name: str = svc.NAME) -> None:
    """GPT-2 small and GPT-3 175B beside the model this page traces (its config, read through the handle)."""
    c = svc.config(name)
    llama = svc.arch(name) == "llama"
    heads = f"{c['n_heads']} × {c['dim'] // c['n_heads']}"
    if llama:
        heads += " · " + t("forward_pass.pvh.kv", kv=c["n_kv_heads"])
    rows = [
        (t("forward_pass.pvh.model"), "GPT-2 small · GPT-3 175B", svc.title(name)),
        (t("forward_pass.pvh.params"), t("forward_pass.pvh.params.paper"), f"{svc.params(name) / 1e6:.2f} M"),
        (t("forward_pass.pvh.layers"), "12 · 96", str(c["n_layers"])),
        (t("forward_pass.pvh.width"), "768 · 12,288", str(c["dim"])),
        (t("forward_pass.pvh.heads"), t("forward_pass.pvh.heads.paper"), heads),
        (t("forward_pass.pvh.context"), "1,024 · 2,048", f"{c['max_len']:,}"),
        (t("forward_pass.pvh.vocab"), t("forward_pass.pvh.vocab.paper"), f"{c['vocab']:,}"),
        (
            t("forward_pass.pvh.norm"),
            t("forward_pass.pvh.norm.paper"),
            t("forward_pass.pvh.norm.llama" if llama else "forward_pass.pvh.norm.here"),
        ),
    ]
    if llama:
        ui.paper_vs_here(
            rows, [t("forward_pass.pvh.dep.llama")], here=t("forward_pass.pvh.here.real", title=svc.title(name))
        )
        return
    ui.paper_vs_here(
        rows,
        [
            t("forward_pass.pvh.dep.ln"),
            t("forward_pass.pvh.dep.size", ratio=124e6 / max(1, svc.params(name)), vocab=c["vocab"]),
        ],
    )


# The controls and the summary are one fragment; the step picker and the picked step another. A control reruns the
# steps part, the position the summary too: a layer move redraws the one step shown, not every step.
PARTS = {
    "start": "forward_pass_part_start",  # the controls and the summary
    "steps": "forward_pass_part_steps",  # the step picker and the picked step
    "knock": "forward_pass_part_knock",  # the knock-out (app/forward_pass/knockout.py): follows the position
}
DRIVES = {  # each control: the parts it reruns
    "forward_pass_pos": list(PARTS.values()),
    "forward_pass_layer": [PARTS["steps"]],
    "forward_pass_head": [PARTS["steps"]],
    "forward_pass_temperature": [PARTS["steps"]],
}
STEPS = ("embed", "ln", "qkv", "attention", "out", "mlp", "layers", "predict", "dla")  # the picker's, in order
STEP = "forward_pass_step"  # the picked step (its id in the link: ui.choice)


HEAD_BUTTONS = 6  # heads a row of buttons picks from; more get a slider
CHOICE = "_forward_pass_choice"  # the controls' values as the parts read them: {key of the control: value}


def chosen(text: str, name: str = svc.NAME) -> tuple[svc.View, int, int, int, float]:
    """The analysis at the controls' values, and those values: as the start part drew them, or as a control's
    callback noted it since (a part rerun by a control's callback does not draw the other controls)."""
    c = st.session_state[CHOICE]
    pos, layer, head, temperature = (c[k] for k in DRIVES)
    return svc.analyse(text, pos, layer, head, temperature, name), pos, layer, head, temperature


@st.fragment(key=PARTS["start"])
def controls_and_summary(text: str, n_tokens: int, name: str = svc.NAME) -> None:
    """The position, layer, head and temperature, and the summary. Stops the page, with the reason, where the text
    cannot be analysed at the chosen position."""
    cfg = svc.config(name)
    L, H = cfg["n_layers"], cfg["n_heads"]
    if st.session_state.get("forward_pass_head") is not None and st.session_state["forward_pass_head"] >= H:
        st.session_state["forward_pass_head"] = 0  # a head of a model with more heads, kept from another model
    c_pos, c_layer, c_head, c_temp = st.columns([3, 2, 3, 2])
    ui.slider(
        c_pos, t("forward_pass.pos"), 0, n_tokens - 1, n_tokens - 1, help=t("forward_pass.pos.help"),
        **ui.drives("forward_pass_pos", CHOICE, DRIVES["forward_pass_pos"]),
    )  # fmt: skip
    ui.slider(
        c_layer, t("view.layer"), 0, L - 1, 0, **ui.drives("forward_pass_layer", CHOICE, DRIVES["forward_pass_layer"])
    )
    if H > HEAD_BUTTONS:  # 9 heads do not fit a row of buttons in a quarter of the page
        ui.slider(
            c_head, t("view.head"), 0, H - 1, 0, **ui.drives("forward_pass_head", CHOICE, DRIVES["forward_pass_head"])
        )
    else:
        c_head.segmented_control(
            t("view.head"), list(range(H)), default=0, required=True,
            **ui.drives("forward_pass_head", CHOICE, DRIVES["forward_pass_head"]),
        )  # fmt: skip
    c_temp.slider(
        t("forward_pass.temperature"), 0.1, 2.0, 1.0, 0.05, help=t("forward_pass.temperature.help"),
        **ui.drives("forward_pass_temperature", CHOICE, DRIVES["forward_pass_temperature"]),
    )  # fmt: skip
    ui.note_controls(CHOICE, DRIVES)
    try:
        v, *_ = chosen(text, name)
    except InputError as e:
        ui.input_error(e)
        st.stop()

    piece = visible(v.pieces[v.pos])
    metrics = ui.row()
    tokens_help = "forward_pass.m.tokens.help.real" if svc.is_real(name) else "forward_pass.m.tokens.help"
    metrics.metric(t("forward_pass.m.tokens"), len(v.ids), help=t(tokens_help))
    metrics.metric(t("forward_pass.m.token"), f"{v.pos}: {piece}")
    metrics.metric(t("forward_pass.m.predicted"), visible(v.predicted_piece))
    check(t("forward_pass.m.check_logits"), v.check_logits, float(np.abs(v.logits).max()), col=metrics)
    llama = svc.arch(name) == "llama"
    caption = "forward_pass.llama.check_logits.caption" if llama else "forward_pass.m.check_logits.caption"
    st.caption(t(caption, numpy=f"{v.check_numpy:.1e}"))


def embed_step(v: svc.View, layer: int, head: int, temperature: float) -> None:
    # ---- 1. tokens and embeddings ------------------------------------------------------------------------------------
    st.subheader(t("forward_pass.s1.title"))
    marks = np.zeros(len(v.ids))
    marks[v.pos] = 1
    ui.markup(token_strip(list(v.pieces), marks, vmin=0, vmax=1, colorscale="Greens", fmt="{:.0f}",
                          label=t("forward_pass.s1.strip")))  # fmt: skip
    embed = ui.row()
    embed.metric(t("forward_pass.s1.m.id"), v.ids[v.pos])
    embed.metric("‖E[id]‖ · ‖P[t]‖", f"{np.linalg.norm(v.token_row):.2f} · {np.linalg.norm(v.position_row):.2f}")
    check(t("forward_pass.s1.m.check"), v.check_embed, col=embed)
    emb_labels = [f"E[{v.ids[v.pos]}]", f"P[{v.pos}]", "x₀ = E + P"]
    ui.figure(
        vectors(np.stack([v.token_row, v.position_row, v.x0]), emb_labels, dim_title=t("forward_pass.dim")),
        np.stack([v.token_row, v.position_row, v.x0]),
        f"forward-pass-embedding-t{v.pos}",
        key="forward_pass_embed",
        row_labels=emb_labels,
    )
    st.markdown(t("forward_pass.s1.text", d=len(v.x0)))


def ln_step(v: svc.View, layer: int, head: int, temperature: float) -> None:
    # ---- 2. LayerNorm ------------------------------------------------------------------------------------------------
    st.subheader(t("forward_pass.s2.title", layer=layer))
    norms = ui.row()
    norms.metric(t("forward_pass.s2.m.mean"), f"{v.ln_mean:+.3f}")
    norms.metric(t("forward_pass.s2.m.std"), f"{v.ln_std:.3f}")
    norms.metric(t("forward_pass.s2.m.hat"), f"{round(v.ln_hat.mean(), 3) + 0.0:.3f} / {v.ln_hat.var():.3f}")
    check(t("forward_pass.s2.m.check"), v.check_ln, col=norms)
    ln_names = (t("forward_pass.s2.before"), t("forward_pass.s2.hat"), t("forward_pass.s2.after"))
    ui.figure(
        layer_norm_lines(v.ln_x, v.ln_hat, v.ln_out, names=ln_names, dim_title=t("forward_pass.dim")),
        np.stack([v.ln_x, v.ln_hat, v.ln_out]),
        f"forward-pass-layernorm-l{layer}-t{v.pos}",
        key="forward_pass_ln",
        row_labels=["x", "x_hat", "LN(x)"],
    )
    st.markdown(t("forward_pass.s2.text"))


def qkv_step(v: svc.View, layer: int, head: int, temperature: float) -> None:
    H = svc.config()["n_heads"]
    # ---- 3. Q, K, V --------------------------------------------------------------------------------------------------
    st.subheader(t("forward_pass.s3.title", layer=layer))
    D = v.d_head
    qkv = ui.row()
    qkv.metric(t("forward_pass.s3.m.dhead"), f"{len(v.x0)} / {H} = {D}")
    check(t("forward_pass.s3.m.check"), v.check_qkv, col=qkv)
    q_head = v.qkv[0, head * D : (head + 1) * D]
    ui.figure(
        matrix_times_vector(
            v.w_q_head, v.ln_out, q_head,
            titles=(t("forward_pass.s3.w", head=head), "LN₁(x)", f"q (h={head})"), dim_title=t("forward_pass.dim"),
        ),
        {"W_Q_head": v.w_q_head, "ln_x": v.ln_out, "q_head": q_head},
        f"forward-pass-wq-l{layer}h{head}",
        key="forward_pass_wq",
    )  # fmt: skip
    ui.figure(
        vectors(v.qkv, ["q", "k", "v"], dim_title=t("forward_pass.dim"), head_size=D, head=head),
        v.qkv,
        f"forward-pass-qkv-l{layer}-t{v.pos}",
        key="forward_pass_qkv",
        row_labels=["q", "k", "v"],
    )
    st.markdown(t("forward_pass.s3.text", h=H, d=D))


def attention_step(v: svc.View, layer: int, head: int, temperature: float) -> None:
    lh = t("forward_pass.lh", layer=layer, head=head)
    D = v.d_head
    # ---- 4. one head's attention -------------------------------------------------------------------------------------
    st.subheader(t("forward_pass.s4.title", lh=lh))
    top_key = int(np.nanargmax(v.weights))
    head_row = ui.row()
    head_row.metric(t("forward_pass.s4.m.top"), f"{top_key}: {visible(v.pieces[top_key])}", f"{v.weights[top_key]:.1%}",
              delta_arrow="off", delta_color="off")  # fmt: skip
    check(t("forward_pass.s4.m.check"), v.check_pattern, col=head_row)
    check(t("forward_pass.s4.m.check_v"), v.check_context, float(np.abs(v.context).max()), col=head_row)
    ui.figure(
        attention_steps(
            list(v.pieces), v.scaled, v.weights, v.pattern,
            titles=(t("forward_pass.s4.scores", d=D), t("forward_pass.s4.weights")), probe_name=t("forward_pass.probe"),
            masked_name=t("forward_pass.s4.masked"), key_title=t("view.key"),
        ),
        {"token": list(v.pieces), "q_dot_k": v.dots, "scaled": v.scaled, "softmax": v.weights, "probe": v.pattern},
        f"forward-pass-attention-l{layer}h{head}-t{v.pos}",
        key="forward_pass_attention",
    )  # fmt: skip
    st.markdown(t("forward_pass.s4.text", d=D, t=v.pos))


def out_step(v: svc.View, layer: int, head: int, temperature: float) -> None:
    D = v.d_head
    # ---- 5. concatenate the heads, W_O, residual add -----------------------------------------------------------------
    st.subheader(t("forward_pass.s5.title", layer=layer))
    out = ui.row()
    check(t("forward_pass.s5.m.check_wo"), v.check_wo, float(np.abs(v.attn_out).max()), col=out)
    check(t("forward_pass.s5.m.check_add"), v.check_add1, float(np.abs(v.mid).max()), col=out)
    out.metric("‖x‖ → ‖x + Attn‖", f"{np.linalg.norm(v.ln_x):.1f} → {np.linalg.norm(v.mid):.1f}")
    add_labels = [t("forward_pass.s5.concat"), "W_O · concat + b_O", "x", "x + Attn(LN₁(x))"]
    add_rows = np.stack([v.concat, v.attn_out, v.ln_x, v.mid])
    ui.figure(
        vectors(add_rows, add_labels, dim_title=t("forward_pass.dim"), head_size=D, head=head, box_rows=1, height=250),
        add_rows,
        f"forward-pass-attn-out-l{layer}-t{v.pos}",
        key="forward_pass_wo",
        row_labels=add_labels,
    )
    st.markdown(t("forward_pass.s5.text", d=D))


def mlp_step(v: svc.View, layer: int, head: int, temperature: float) -> None:
    # ---- 6. MLP ------------------------------------------------------------------------------------------------------
    st.subheader(t("forward_pass.s6.title", layer=layer))
    mlp = ui.row()
    mlp.metric(t("forward_pass.s6.m.active"), f"{(v.mlp_pre > 0).mean():.0%}", help=t("forward_pass.s6.m.active.help"))
    check(t("forward_pass.s6.m.check_fc1"), v.check_fc1, float(np.abs(v.mlp_pre).max()), col=mlp)
    check(t("forward_pass.s6.m.check_gelu"), v.check_gelu, col=mlp)
    check(t("forward_pass.s6.m.check_fc2"), max(v.check_mlp, v.check_add2), float(np.abs(v.resid).max()), col=mlp)
    ui.figure(
        gelu_histogram(v.mlp_pre, count_title=t("forward_pass.s6.count"), gelu_name="GELU(u)",
                       value_title=t("forward_pass.s6.pre")),
        {"pre_activation": v.mlp_pre, "gelu": v.mlp_act},
        f"forward-pass-mlp-l{layer}-t{v.pos}",
        key="forward_pass_mlp",
    )  # fmt: skip
    mlp_labels = ["MLP(LN₂(x))", "x + MLP(LN₂(x))"]
    ui.figure(
        vectors(np.stack([v.mlp_out, v.resid]), mlp_labels, dim_title=t("forward_pass.dim")),
        np.stack([v.mlp_out, v.resid]),
        f"forward-pass-mlp-out-l{layer}-t{v.pos}",
        key="forward_pass_mlp_out",
        row_labels=mlp_labels,
    )
    st.markdown(t("forward_pass.s6.text", f=len(v.mlp_pre)))


def layers_step(v: svc.View, layer: int, head: int, temperature: float, *, text: str = "forward_pass.s7.text") -> None:
    """Step 7 of either walk (GPT's or a Llama's): the stream's size after every sub-layer; ``text`` says what it
    shows for the walk's model."""
    L = (len(v.stages) - 1) // 2  # the embedding, then attention and MLP of each layer
    # ---- 7. every layer ----------------------------------------------------------------------------------------------
    st.subheader(t("forward_pass.s7.title"))
    stage_labels = [
        t("forward_pass.s7.embed") if kind == "embed" else t(f"forward_pass.s7.{kind}", layer=i) for kind, i in v.stages
    ]
    st.metric(t("forward_pass.s7.m.norm", layer=layer), f"{np.linalg.norm(v.resid):.1f}")
    ui.figure(
        stream_norms(stage_labels, v.stream_norms, v.write_norms, [1 + 2 * layer, 2 + 2 * layer],
                     stream_name=t("forward_pass.s7.stream"), write_name=t("forward_pass.s7.write")),
        {"step": stage_labels, "stream_norm": v.stream_norms, "write_norm": v.write_norms},
        f"forward-pass-stream-t{v.pos}",
        key="forward_pass_stream",
    )  # fmt: skip
    st.markdown(t(text, layers=L))


def predict_step(
    v: svc.View, layer: int, head: int, temperature: float, *, title: str = "forward_pass.s8.title",
    text: str = "forward_pass.s8.text",
) -> None:  # fmt: skip
    """Step 8 of either walk: the final norm, the unembedding and the softmax at the temperature."""
    # ---- 8. final norm, unembedding, softmax -------------------------------------------------------------------------
    st.subheader(t(title))
    final = ui.row()
    final.metric(t("forward_pass.s8.m.logit"), f"{v.logits[v.predicted]:.3f}")
    final.metric(t("forward_pass.s8.m.p"), f"{v.top_probs[0]:.1%}")
    final.metric(t("forward_pass.s8.m.next"), visible(v.next_piece) if v.next_piece else "—")
    ui.figure(
        top_tokens(list(v.top_pieces), v.top_probs, value_title=t("forward_pass.s8.prob", tau=f"{temperature:.2f}")),
        {"id": v.top_ids, "token": list(v.top_pieces), "probability": v.top_probs},
        f"forward-pass-top-t{v.pos}",
        key="forward_pass_top",
    )
    st.markdown(t(text, vocab=len(v.logits)))


def dla_step(v: svc.View, layer: int, head: int, temperature: float) -> None:
    # ---- which parts made the prediction -----------------------------------------------------------------------------
    st.subheader(t("forward_pass.dla.title", token=visible(v.predicted_piece)))

    def part_label(kind: str, i: int, h: int) -> str:
        if kind == "head":
            return t("forward_pass.lh", layer=i, head=h)
        if kind == "rest":
            return t("forward_pass.dla.rest", n=i)
        if kind in ("bias", "mlp"):
            return t(f"forward_pass.dla.{kind}", layer=i)
        return t(f"forward_pass.dla.{kind}")

    dla_labels = [part_label(*p) for p in v.dla_parts]
    best = int(np.argmax(v.dla))
    dla = ui.row()
    dla.metric(t("forward_pass.dla.m.best"), dla_labels[best], f"{v.dla[best]:+.2f}", delta_arrow="off")
    dla.metric(t("forward_pass.dla.m.sum"), f"{v.dla.sum() + v.dla_bias:.4f}")
    check(t("forward_pass.dla.m.check"), v.dla_check, float(abs(v.logits[v.predicted])), col=dla)
    ui.figure(
        attribution_waterfall(dla_labels, v.dla, v.dla_bias, bias_name=t("forward_pass.dla.ln_bias"),
                              total_name=t("forward_pass.dla.total"), value_title=t("forward_pass.dla.value")),
        {"part": [*dla_labels, "ln_f bias"], "contribution": [*v.dla.tolist(), v.dla_bias]},
        f"forward-pass-dla-t{v.pos}",
        key="forward_pass_dla",
    )  # fmt: skip
    llama = isinstance(v, svc.LlamaView)
    st.markdown(
        t("forward_pass.llama.dla.text", shown=len(v.dla) - 1, n=v.dla_total_parts)
        if llama
        else t("forward_pass.dla.text")
    )

    st.caption(t("forward_pass.readout"))
    ui.readout(v)


DRAW = {
    "embed": embed_step,
    "ln": ln_step,
    "qkv": qkv_step,
    "attention": attention_step,
    "out": out_step,
    "mlp": mlp_step,
    "layers": layers_step,
    "predict": predict_step,
    "dla": dla_step,
}


LLAMA_TABS = {"ln", "qkv", "mlp"}  # steps a Llama block does otherwise (RMSNorm, RoPE and GQA, SwiGLU)


@st.fragment(key=PARTS["steps"])
def steps(text: str, name: str = svc.NAME) -> None:
    """The step picker and the step it picks (a Llama block's own steps for a Llama-family checkpoint)."""
    v, pos, layer, head, temperature = chosen(text, name)
    llama = isinstance(v, svc.LlamaView)
    tab = {s: f"forward_pass.llama.tab.{s}" if llama and s in LLAMA_TABS else f"forward_pass.tab.{s}" for s in STEPS}
    step = ui.choice(
        st.segmented_control,
        t("forward_pass.step"),
        STEPS,
        key=STEP,
        labels={s: t(tab[s]) for s in STEPS},
        required=True,
        label_visibility="collapsed",
    )
    if llama:
        from app.forward_pass import llama_steps

        llama_steps.DRAW.get(step, DRAW[step])(v, layer, head, temperature)
    else:
        DRAW[step](v, layer, head, temperature)
