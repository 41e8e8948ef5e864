"""T5 (1910.10683): one encoder–decoder answering every task prefix, span corruption of the user's text, relative
position buckets and the biases learned for them, and the attention masks of the three architectures compared — on
our small T5, or on Google's released T5-small (converted into the same class) where this machine has it.

The page's outline; each section is a function of ``app.t5.sections``."""

import streamlit as st

from app.shared import ui
from app.shared.i18n import t
from app.t5 import knockout, sections
from app.t5 import service as svc

ui.header("t5")
name = ui.model_picker("t5_model", own=("t5",), archs=("t5",))  # ours, or a real T5 this machine has
st.markdown(t("t5.intro.real" if svc.real(name) else "t5.intro"))
ui.try_this(t("t5.try.do"), t("t5.try.see.real" if svc.real(name) else "t5.try.see"), t("t5.try.why"))
backend = svc.backend(name, st.session_state.get("backend", "torch"))

if not svc.available(name):
    ui.input_error(svc.missing(name))
    st.stop()
cfg, card = svc.config(name), svc.card(name)
sections.about_real(cfg, card)

# ---- 1 · text-to-text (§2.4): a task prefix and a text, the input the later sections read ----------------------------
st.subheader(t("t5.tt.title.real", n=len(svc.tasks(name))) if svc.real(name) else t("t5.tt.title"))
st.markdown(t("t5.tt.caption"))
task = sections.task_picker(name)
text = ui.text_box(
    t("t5.text", prefix=svc.prefix(name, task)) if svc.prefix(name, task) else t("t5.text.none"),
    svc.EXAMPLES["reverse_words"][0],
    key="t5_text",
    max_chars=svc.MAX_CHARS,
    height=80,
    help=t("t5.text.help", chars=svc.MAX_CHARS, tokens=svc.MAX_SOURCE_TOKENS),
)
sections.task_examples(name, task)
answer = sections.text_to_text(name, task, text, backend)  # None on bad input: the sections below skip their part

sections.span_corruption(name, backend)  # 2 · span corruption and the objectives' target lengths (§3.3)
sections.position_buckets(name, answer, cfg, backend)  # 3 · relative position buckets and the learned biases (§2.1)
sections.architectures(answer)  # 4 · encoder–decoder, language model, prefix LM (§3.2)
if answer is not None:  # 5 · a head, or a whole attention or MLP, knocked out: what is left of the answer
    knockout.section(name, task, text, backend)

sections.paper_vs_here(cfg, card)
sections.model_card(card)
ui.explain(t("t5.explain"))
