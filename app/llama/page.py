"""The LLaMA family (2302.13971, 2307.09288, 2412.15115): RMSNorm against LayerNorm on the real residual stream,
SwiGLU's gate, MHA / GQA / MQA trained side by side with their KV caches, and the published configurations with a
parameter and KV-cache calculator.

The page in the papers' order; each section lives in the module of its story: ``activations`` (1 · RMSNorm and
2 · SwiGLU, on one text), ``siblings`` (3 · the key/value heads: a real model's cache against MHA and MQA, our
siblings, the caches while the models write, the models' cards), ``heads`` (3 · the probed model's query heads
grouped by the key/value head they read), ``published`` (4 · the real configurations and the calculator,
5 · Qwen2.5). The model picker puts a real Llama-family checkpoint (SmolLM2, Qwen2.5, TinyLlama) under sections
1–3 in place of ours; the siblings stay ours."""

import streamlit as st

from app.llama import activations, heads, knockout, published, siblings
from app.llama import service as svc
from app.shared import ui
from app.shared.i18n import t

ui.header("llama")
st.markdown(t("llama.intro"))
name = ui.model_picker("llama_model", own=svc.OWN, archs=("llama",))  # ours, or a real Llama-family model
real = svc.available(name) and svc.shape(name).real
if real:
    s = svc.shape(name)
    st.info(
        t("llama.real.intro", name=svc.title(name), L=s.n_layers, H=s.n_heads, G=s.n_kv_heads, max=s.limit),
        icon=":material/science:",
    )
    c = svc.copying(name)  # measured on one sentence typed twice
    heads_named = ", ".join(f"Q{q}" for q in c.heads)
    ui.try_this(
        t("llama.try.real.do", layer=c.layer, last=s.n_heads - 1),
        t(
            "llama.try.real.see" if len(c.heads) > 1 else "llama.try.real.see.one",
            heads=heads_named,
            best=c.best,
            kvs=", ".join(f"KV{g}" for g in c.kv),
            layer=c.layer,
        ),  # fmt: skip
        t("llama.try.real.why", G=s.n_kv_heads, H=s.n_heads),
    )
elif svc.available(name):
    s = svc.shape(name)
    st.markdown(t("llama.intro.ours", L=s.n_layers, H=s.n_heads, G=s.n_kv_heads))
    ui.try_this(t("llama.try.do"), t("llama.try.see"), t("llama.try.why"))

a = None
if svc.available(name):
    text = ui.text_box(
        t("llama.text"),
        svc.DEFAULT_TEXT,
        key="llama_text",
        max_chars=svc.MAX_CHARS,
        height=90,
        help=t(
            "llama.text.help.real" if real else "llama.text.help", chars=svc.MAX_CHARS, tokens=svc.shape(name).limit
        ),
    )
    if (a := activations.analysed(text, name)) is not None:
        activations.controls(a)  # the token and block that sections 1 and 2 show
        activations.rmsnorm(a, text)  # 1 · RMSNorm: no mean to subtract
        activations.swiglu(a)  # 2 · SwiGLU: a gate on every hidden unit
        ui.readout(a)
    siblings.title()  # 3 · MHA, GQA, MQA: how many key/value heads
    if real:
        siblings.real_cache(name)  # the real configuration's cache against MHA and MQA
    if a is not None:
        heads.shared_keys(a, text)  # the probed model's heads, grouped by the key/value head they read
if svc.available():
    with st.container(key="llama_ours"):  # ours whichever model is picked: only models trained alike compare fairly
        siblings.kv_heads()  # our three siblings, trained alike but for G
        siblings.generation()  # the caches while the models write
else:
    ui.input_error(svc.model_missing())
if svc.available(name):
    knockout.section(name, st.session_state.get("backend", "torch"))  # a head, attention or MLP knocked out
published.configurations()  # 4 · the real configurations
published.calculator()
published.qwen()  # 5 · where Qwen2.5 departs
if svc.available():
    with st.container(key="llama_ours_cards"):
        siblings.paper_vs_here()
        siblings.model_cards()

ui.explain(t("llama.explain"))
