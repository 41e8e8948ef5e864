"""GPT-1 / GPT-2 / GPT-3 (2005.14165): a small decoder-only model trained on Shakespeare, probed while it writes —
or, picked at the top, a real pretrained decoder converted into our classes (SmolLM2-135M-Instruct, ...).
This script is the page's outline; the sections live beside it (sections.py, sampling.py, probes.py)."""

import streamlit as st

from app.gpt import probes, sampling, sections, training
from app.gpt import service as svc
from app.shared import ui
from app.shared.i18n import InputError, layer_head_label, t

ui.header("gpt")
name = ui.model_picker("gpt_model", own=(svc.NAME, svc.DYNAMICS), archs=("gpt", "llama"))


@st.fragment(key="gpt_body")
def body(name: str) -> None:
    """Everything the training step drives: a step move reruns this, not the shell or the picker above."""
    name = ui.training_step(name, "gpt_step")  # gpt-induction's recorded training: NAME@STEP
    backend = st.session_state.get("backend", "torch")
    try:
        facts = svc.facts(name)
        induction_head = layer_head_label(*svc.induction(*probes.ICL_DEFAULT, backend, name).best_head)
    except InputError as e:  # the checkpoint is not installed: what to run
        ui.input_error(e)
        return
    sections.intro(facts, induction_head)
    sections.paper_vs_here(facts)

    prompt_help = t("gpt.prompt.help", tokens=svc.limits(name)[0], chars=svc.MAX_CHARS)
    text = ui.text_box(  # not cut at MAX_CHARS: the service refuses a long prompt once, in tokens where they bind first
        t("gpt.prompt"), svc.EXAMPLES[0], key="gpt_text", max_chars=None, height=90, help=prompt_help
    )
    st.pills(
        t("gpt.examples"),
        svc.EXAMPLES,
        key="gpt_example",
        on_change=ui.use_example,
        args=("gpt_example", "gpt_text"),
        format_func=lambda s: s.replace("\n", " ↵ "),
    )
    try:
        a = svc.analyse(text, backend, name)
    except InputError as e:
        ui.input_error(e)
        return

    # the next-token distribution
    sections.next_token(a)
    # sampling: what temperature, top-k and top-p do; then generate
    sampling.section(text, a, backend)
    # inside the model, one view at a time: tokenisation, attention, logit lens, in-context learning
    probes.views(a, backend)
    # how the model learnt: its recorded training (gpt-induction), or where to find one
    training.section(facts)
    # the model's card, and what the paper changed
    sections.model_card(facts)
    sections.explanation(facts, induction_head, a)


body(name)
