"""T5 (1910.10683): one encoder–decoder answering every task prefix, span corruption of the user's text, relative
position buckets and the biases learned for them, and the attention masks of the three architectures compared.

The page's outline; each section is a function of ``app.t5.sections``."""

import streamlit as st

from app.shared import ui
from app.shared.i18n import t
from app.t5 import sections
from app.t5 import service as svc

ui.header("t5")
st.markdown(t("t5.intro"))
ui.try_this(t("t5.try.do"), t("t5.try.see"), t("t5.try.why"))
backend = st.session_state.get("backend", "torch")

if not svc.available():
    ui.input_error(svc.MODEL.missing())
    st.stop()
cfg, card = svc.config(), svc.card()

# ---- 1 · text-to-text (§2.4): a task prefix and a text, the input the later sections read ----------------------------
st.subheader(t("t5.tt.title"))
st.markdown(t("t5.tt.caption"))
task = sections.task_picker()
text = ui.text_box(
    t("t5.text", prefix=svc.PREFIX[task]),
    svc.EXAMPLES["reverse_words"][0],
    key="t5_text",
    max_chars=svc.MAX_CHARS,
    height=80,
    help=t("t5.text.help", chars=svc.MAX_CHARS, tokens=svc.MAX_SOURCE_TOKENS),
)
sections.task_examples(task)
answer = sections.text_to_text(task, text, backend)  # None on bad input: the sections below then skip their part

sections.span_corruption(backend)  # 2 · span corruption and the objectives' target lengths (§3.3)
sections.position_buckets(answer, cfg, backend)  # 3 · relative position buckets and the learned biases (§2.1)
sections.architectures(answer)  # 4 · encoder–decoder, language model, prefix LM (§3.2)

sections.paper_vs_here(cfg, card)
sections.model_card(card)
ui.explain(t("t5.explain"))
