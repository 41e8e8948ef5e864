"""BERT (1810.04805): mask tokens and watch a small bidirectional encoder, trained on Shakespeare, fill them in —
or Google's released BERT-base, converted into the same class, where this machine has it.

The page in the paper's order; each section is a function of ``app.bert.sections``."""

import streamlit as st

from app.bert import knockout, sections
from app.bert import service as svc
from app.shared import ui
from app.shared.i18n import InputError, t

ui.header("bert")
name = ui.model_picker("bert_model", own=("bert",), archs=("bert",))  # ours, or a real BERT this machine has
backend = svc.backend(name, st.session_state.get("backend", "torch"))
try:
    facts = svc.facts(name)
except InputError as e:
    ui.input_error(e)
    st.stop()
st.markdown(t("bert.intro.real" if facts["real"] else "bert.intro"))
sections.about_real(facts)
ui.try_this(
    t("bert.try.do", thou=svc.TRY["thou"], you=svc.TRY["you"]),
    t(
        "bert.try.see.real" if facts["real"] else "bert.try.see",
        thou_top=sections.top_guesses(name, svc.TRY["thou"], backend),
        you_top=sections.top_guesses(name, svc.TRY["you"], backend),
    ),
    t("bert.try.why"),
)
sections.paper_vs_here(facts)

# ---- the input: sentence A, and B for next-sentence prediction -------------------------------------------------------
c_a, c_b = st.columns(2)
text_a = ui.text_line(
    t("bert.a"),
    svc.DEFAULT_A,
    key="bert_a",
    max_chars=svc.MAX_CHARS,
    help=t("bert.a.help.real" if facts["real"] else "bert.a.help"),
    host=c_a,
)
text_b = ui.text_line(
    t("bert.b"), svc.DEFAULT_B, key="bert_b", max_chars=svc.MAX_CHARS, help=t("bert.b.help"), host=c_b
)
st.pills(
    t("bert.examples"),
    svc.EXAMPLES,
    key="bert_example",
    on_change=ui.use_example,
    args=("bert_example", "bert_a"),
    kwargs={"bert_b": "", "bert_masks": []},
)
try:
    tokens = svc.tokenize(name, text_a, text_b)
except InputError as e:
    ui.input_error(e)
    st.stop()

VIEWS = {
    "example": sections.masking_recipe,  # 3.1: how a training input is masked (80% [MASK], 10% random, 10% kept)
    "nsp": sections.next_sentence,  # 3.1 task 2: next-sentence prediction
    "embeddings": sections.input_embeddings,  # 3.2: token + segment + position embeddings
    "attention": sections.bidirectional,  # every piece attends both ways, unlike a decoder
}


@st.fragment
def views(reading: sections.Reading) -> None:
    """One view at a time: choosing a view, or a control inside one, reruns this part of the page alone."""
    VIEWS[sections.pick_view(tuple(VIEWS))](reading)


# ---- 3.1 task 1: the masked language model ---------------------------------------------------------------------------
@st.fragment
def masked(tokens: svc.Tokens) -> None:
    """The mask picker and everything it drives: a click on a piece reruns this part alone, not the header, the
    paper's table and the inputs above it (which the masks do not change)."""
    masks = sections.mask_picker(name, tokens, text_a, text_b)
    try:
        # the same for every k: moving k reruns only the predictions
        a = svc.analyse(name, text_a, text_b, masks, sections.MAX_K, backend)
    except InputError as e:
        ui.input_error(e)
        return
    reading = sections.Reading(name, text_a, text_b, tokens, a, facts, backend)
    sections.what_the_model_reads(reading)
    sections.predictions(reading)
    views(reading)
    knockout.section(reading)  # one head, or a layer's attention or MLP, knocked out: the masked words before and after


masked(tokens)
sections.explanation(name, facts)
