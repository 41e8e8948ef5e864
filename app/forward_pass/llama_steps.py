"""The forward pass's steps for a Llama-family checkpoint (SmolLM2, ...): the token embedding alone, RMSNorm, q/k/v
with RoPE and grouped-query attention, W_O and the add, SwiGLU, every layer, the final RMSNorm and the unembedding.
The attention step and the attribution are the GPT walk's (sections.py), which read the same fields."""

import numpy as np
import streamlit as st

from app.forward_pass import sections
from app.forward_pass import service as svc
from app.forward_pass.sections import attention_step, check
from app.forward_pass.views import (
    gelu_histogram,
    layer_norm_lines,
    matrix_times_vector,
    vectors,
)
from app.shared import ui
from app.shared.i18n import t
from app.shared.tokens import token_strip


def embed_step(v: svc.LlamaView, layer: int, head: int, temperature: float) -> None:
    st.subheader(t("forward_pass.llama.s1.title"))
    marks = np.zeros(len(v.ids))
    marks[v.pos] = 1
    ui.markup(token_strip(list(v.pieces), marks, vmin=0, vmax=1, colorscale="Greens", fmt="{:.0f}",
                          label=t("forward_pass.s1.strip")))  # fmt: skip
    row = ui.row()
    row.metric(t("forward_pass.s1.m.id"), v.ids[v.pos])
    row.metric("‖E[id]‖", f"{np.linalg.norm(v.token_row):.2f}")
    row.metric(t("forward_pass.llama.s1.m.angles"), f"{v.angles[0]:.2f} · {v.angles[-1]:.2e}",
               help=t("forward_pass.llama.s1.m.angles.help"))  # fmt: skip
    ui.figure(
        vectors(v.token_row[None], [f"x₀ = E[{v.ids[v.pos]}]"], dim_title=t("forward_pass.dim")),
        v.token_row[None],
        f"forward-pass-embedding-t{v.pos}",
        key="forward_pass_embed",
        row_labels=["x0"],
    )
    st.markdown(t("forward_pass.llama.s1.text", d=len(v.token_row), t=v.pos))


def ln_step(v: svc.LlamaView, layer: int, head: int, temperature: float) -> None:
    st.subheader(t("forward_pass.llama.s2.title", layer=layer))
    row = ui.row()
    row.metric(t("forward_pass.llama.s2.m.rms"), f"{v.ln_rms:.3f}")
    row.metric(t("forward_pass.llama.s2.m.mean"), f"{v.ln_x.mean():+.3f}")
    row.metric(t("forward_pass.llama.s2.m.hat"), f"{np.sqrt((v.ln_hat**2).mean()):.3f}")
    check(t("forward_pass.llama.s2.m.check"), v.check_ln, float(np.abs(v.ln_out).max()), col=row)
    names = (t("forward_pass.s2.before"), t("forward_pass.llama.s2.hat"), t("forward_pass.llama.s2.after"))
    ui.figure(
        layer_norm_lines(v.ln_x, v.ln_hat, v.ln_out, names=names, dim_title=t("forward_pass.dim")),
        np.stack([v.ln_x, v.ln_hat, v.ln_out]),
        f"forward-pass-rmsnorm-l{layer}-t{v.pos}",
        key="forward_pass_ln",
        row_labels=["x", "x_hat", "RMSNorm(x)"],
    )
    st.markdown(t("forward_pass.llama.s2.text"))


def qkv_step(v: svc.LlamaView, layer: int, head: int, temperature: float) -> None:
    st.subheader(t("forward_pass.llama.s3.title", layer=layer))
    D, H, G = v.d_head, v.n_heads, v.n_kv_heads
    row = ui.row()
    row.metric(t("forward_pass.llama.s3.m.heads"), f"{H} / {G}", help=t("forward_pass.llama.s3.m.heads.help"))
    row.metric(t("forward_pass.llama.s3.m.kv"), t("forward_pass.llama.s3.kv", head=head, g=v.kv_head))
    check(t("forward_pass.llama.s3.m.check"), v.check_rope, float(np.abs(v.qkv).max()), col=row)
    ui.figure(
        matrix_times_vector(
            v.w_q_head, v.ln_out, v.q_plain,
            titles=(t("forward_pass.s3.w", head=head), "RMSNorm(x)", f"q (h={head})"), dim_title=t("forward_pass.dim"),
        ),
        {"W_Q_head": v.w_q_head, "rmsnorm_x": v.ln_out, "q_head": v.q_plain},
        f"forward-pass-wq-l{layer}h{head}",
        key="forward_pass_wq",
    )  # fmt: skip
    labels = [
        t("forward_pass.llama.s3.q"),
        t("forward_pass.llama.s3.q_rot"),
        f"k (g={v.kv_head})",
        f"v (g={v.kv_head})",
    ]
    ui.figure(
        vectors(v.qkv, labels, dim_title=t("forward_pass.llama.s3.dim")),
        v.qkv,
        f"forward-pass-qkv-l{layer}h{head}-t{v.pos}",
        key="forward_pass_qkv",
        row_labels=["q", "q_rope", "k_rope", "v"],
    )
    st.markdown(t("forward_pass.llama.s3.text", h=H, g=G, d=D, share=H // G, t=v.pos))


def llama_attention_step(v: svc.LlamaView, layer: int, head: int, temperature: float) -> None:
    attention_step(v, layer, head, temperature)
    st.caption(t("forward_pass.llama.s4.gqa", head=head, g=v.kv_head, share=v.n_heads // v.n_kv_heads))


def out_step(v: svc.LlamaView, layer: int, head: int, temperature: float) -> None:
    st.subheader(t("forward_pass.s5.title", layer=layer))
    row = ui.row()
    check(t("forward_pass.llama.s5.m.check"), v.check_mid, float(np.abs(v.gate).max()), col=row)
    row.metric("‖x‖ → ‖x + Attn‖", f"{np.linalg.norm(v.ln_x):.1f} → {np.linalg.norm(v.mid):.1f}")
    labels = [t("forward_pass.s5.concat"), "W_O · concat", "x", "x + Attn(RMSNorm(x))"]
    rows = np.stack([v.concat, v.attn_out, v.ln_x, v.mid])
    ui.figure(
        vectors(rows, labels, dim_title=t("forward_pass.dim"), head_size=v.d_head, head=head, box_rows=1, height=250),
        rows,
        f"forward-pass-attn-out-l{layer}-t{v.pos}",
        key="forward_pass_wo",
        row_labels=labels,
    )
    st.markdown(t("forward_pass.llama.s5.text", d=v.d_head))


def mlp_step(v: svc.LlamaView, layer: int, head: int, temperature: float) -> None:
    st.subheader(t("forward_pass.llama.s6.title", layer=layer))
    row = ui.row()
    row.metric(
        t("forward_pass.s6.m.active"), f"{(v.mlp_pre > 0).mean():.0%}", help=t("forward_pass.llama.s6.m.active.help")
    )
    check(t("forward_pass.llama.s6.m.check_up"), v.check_up, float(np.abs(v.up).max()), col=row)
    check(t("forward_pass.llama.s6.m.check_act"), v.check_act, float(np.abs(v.act).max()), col=row)
    check(t("forward_pass.llama.s6.m.check_add"), v.check_add2, float(np.abs(v.resid).max()), col=row)
    ui.figure(
        gelu_histogram(v.mlp_pre, count_title=t("forward_pass.s6.count"), gelu_name="SiLU(u)",
                       value_title=t("forward_pass.llama.s6.pre"), silu=True),
        {"gate_pre_activation": v.mlp_pre, "silu": v.gate, "up": v.up, "product": v.act},
        f"forward-pass-swiglu-l{layer}-t{v.pos}",
        key="forward_pass_mlp",
    )  # fmt: skip
    labels = ["W₂ · (SiLU(W₁x) ⊙ W₃x)", "x + SwiGLU(RMSNorm(x))"]
    ui.figure(
        vectors(np.stack([v.mlp_out, v.resid]), labels, dim_title=t("forward_pass.dim")),
        np.stack([v.mlp_out, v.resid]),
        f"forward-pass-mlp-out-l{layer}-t{v.pos}",
        key="forward_pass_mlp_out",
        row_labels=labels,
    )
    st.markdown(t("forward_pass.llama.s6.text", f=len(v.mlp_pre)))


def layers_step(v: svc.LlamaView, layer: int, head: int, temperature: float) -> None:
    sections.layers_step(v, layer, head, temperature, text="forward_pass.llama.s7.text")


def predict_step(v: svc.LlamaView, layer: int, head: int, temperature: float) -> None:
    sections.predict_step(
        v, layer, head, temperature, title="forward_pass.llama.s8.title", text="forward_pass.llama.s8.text"
    )


DRAW = {
    "embed": embed_step,
    "ln": ln_step,
    "qkv": qkv_step,
    "attention": llama_attention_step,
    "out": out_step,
    "mlp": mlp_step,
    "layers": layers_step,
    "predict": predict_step,
}
