"""DeepSeek-V3 (2412.19437): multi-head latent attention from DeepSeek-V2 (2405.04434) beside MHA, GQA and MQA
trained the same way, the absorbed inference path and why RoPE had to be decoupled; balancing experts with a
selection bias instead of an auxiliary loss; multi-token prediction drafting for speculative decoding; and the
published model's sizes. Each story is a module of this folder; this script draws them in the paper's order."""

import streamlit as st

from app.mla import absorbed, balancing, knockout, latent, mtp, sizes
from app.mla import service as svc
from app.shared import ui
from app.shared.i18n import InputError, t

ui.header("mla")
st.markdown(t("mla.intro"))
ui.try_this(t("mla.try.do"), t("mla.try.see"), t("mla.try.why"))
backend = st.session_state.get("backend", "torch")

text = ui.text_box(
    t("mla.text"),
    svc.DEFAULT_TEXT,
    key="mla_text",
    max_chars=svc.MAX_CHARS,
    help=t("mla.text.help", chars=svc.MAX_CHARS),
)
try:
    svc.check_text(text)
    text_ok = True
except InputError as e:
    ui.input_error(e)
    text_ok = False

# 1 · multi-head latent attention: the cache per token, a token's latent, the absorbed path, decoupled RoPE
latent.cache_per_token()
if text_ok:
    forward = latent.latent_of_a_token(text)
    if forward is not None:
        absorbed.absorbed_path(forward)
    absorbed.decoupled_rope(text)
knockout.fewer_latents(backend)  # r of the d_c latent dimensions kept: the loss against the cache saved
knockout.knock_out(backend)  # a head, attention or MLP knocked out, on held-out text

# 2 · balancing the experts without an auxiliary loss
balancing.load_over_training()
if text_ok:
    balancing.routing(text, backend)

# 3 · multi-token prediction, and its module drafting for speculative decoding
mtp.heading()
if text_ok:
    mtp.both_heads_and_speculation(text, backend)

# 4 · DeepSeek-V3's sizes
sizes.published_sizes()

ui.paper_vs_here(
    [(t(f"mla.pvh.{k}.what"), t(f"mla.pvh.{k}.paper"), t(f"mla.pvh.{k}.here")) for k in svc.PVH_ROWS],
    [t(f"mla.pvh.departure.{k}") for k in svc.PVH_DEPARTURES],
)
ui.explain(t("mla.explain"))
