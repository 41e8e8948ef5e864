"""The LLaMA family (2302.13971, 2307.09288, 2412.15115): RMSNorm against LayerNorm on the real residual stream,
SwiGLU's gate, MHA / GQA / MQA trained side by side with their KV caches, and the published configurations with a
parameter and KV-cache calculator.

The page in the papers' order; each section lives in the module of its story: ``activations`` (1 · RMSNorm and
2 · SwiGLU, on one text), ``siblings`` (3 · the key/value heads, the caches while the models write, the models'
cards), ``published`` (4 · the real configurations and the calculator, 5 · Qwen2.5)."""

import streamlit as st

from app.llama import activations, published, siblings
from app.llama import service as svc
from app.shared import ui
from app.shared.i18n import t

ui.header("llama")
st.markdown(t("llama.intro"))
ui.try_this(t("llama.try.do"), t("llama.try.see"), t("llama.try.why"))

if svc.available():
    text = ui.text_box(
        t("llama.text"),
        svc.DEFAULT_TEXT,
        key="llama_text",
        max_chars=svc.MAX_CHARS,
        height=90,
        help=t("llama.text.help", chars=svc.MAX_CHARS, tokens=svc.shape().max_len),
    )
    if (a := activations.analysed(text)) is not None:
        activations.controls(a)  # the token and block that sections 1 and 2 show
        activations.rmsnorm(a, text)  # 1 · RMSNorm: no mean to subtract
        activations.swiglu(a)  # 2 · SwiGLU: a gate on every hidden unit
        ui.readout(a)
    siblings.kv_heads()  # 3 · MHA, GQA, MQA: how many key/value heads
    siblings.generation()  # the caches while the models write
else:
    ui.input_error(svc.model_missing())
published.configurations()  # 4 · the real configurations
published.calculator()
published.qwen()  # 5 · where Qwen2.5 departs
if svc.available():
    siblings.paper_vs_here()
    siblings.model_cards()

ui.explain(t("llama.explain"))
