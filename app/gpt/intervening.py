"""Two views of the GPT page that change the model while it runs (models/interventions.py, through the probe
points): knock out one head, or a layer's attention or MLP, and see what gets worse; patch the clean prompt's
residual stream into a corrupted one, one (layer, position) at a time, and see where the answer lives."""

import streamlit as st

from app.gpt import service as svc
from app.gpt.views import patching_map
from app.shared import interventions as ko_controls
from app.shared import ui
from app.shared.i18n import InputError, layer_head_label, t
from app.shared.interventions import knock_out_losses
from app.shared.tokens import visible


def _held(key: str, default: int) -> int:
    """A control of the in-context-learning view, which this view does not draw: its state, else its link's value."""
    value = st.session_state.get(key)
    if value is None:
        value = st.query_params.get(key, default)
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def knock_out(a, backend: str) -> None:
    """Knock out a head (or a layer's attention or MLP): the loss on the repeat and the prompt's top token, before
    and after, side by side. Defaults to the page's induction head."""
    facts = svc.facts(a.name)
    length, seed = (_held(k, d) for k, d in zip(("gpt_icl_length", "gpt_icl_seed"), svc.ICL_DEFAULT))
    best = svc.induction(length, seed, "torch", a.name).best_head
    st.caption(t("gpt.ko.caption", lh=layer_head_label(*best), length=length, seed=seed))
    choice = ko_controls.controls("gpt", facts["layers"], facts["heads"], default=best)
    layer, part, mode, head = choice.layer, choice.part, choice.mode, choice.head
    try:
        ko = svc.knock_out(svc.text_of(a), length, seed, layer, part, mode, head, a.name)
    except InputError as e:
        ui.input_error(e)
        return
    what = choice.what
    vocab = svc.vocabulary(a.name)
    k1, k2, k3 = st.columns(3)
    k1.metric(
        t("gpt.ko.m.repeat", what=what),
        f"{ko.second_before:.3f} → {ko.second_after:.3f}",
        delta=f"{ko.second_after - ko.second_before:+.3f}",
        delta_color="inverse",
        help=t("gpt.ko.m.repeat.help"),
    )
    k2.metric(
        t("gpt.ko.m.first"),
        f"{ko.first_before:.2f} → {ko.first_after:.2f}",
        delta=f"{ko.first_after - ko.first_before:+.2f}",
        delta_color="inverse",
    )
    k3.metric(
        t("gpt.ko.m.target", token=visible(vocab[ko.target])),
        f"{ko.p_before:.1%} → {ko.p_after:.1%}",
        delta=f"{(ko.p_after - ko.p_before) * 100:+.1f} pp",
        help=t("gpt.ko.m.target.help", top=visible(vocab[ko.top_after])),
    )
    ui.figure(
        knock_out_losses(
            ko.loss_before,
            ko.loss_after,
            length,
            loss_title=t("gpt.icl.loss"),
            position_title=t("gpt.lens.position"),
            before_name=t("view.ko.plain"),
            after_name=t("view.ko.knocked", what=what),
        ),
        {"plain": ko.loss_before, "knocked_out": ko.loss_after},
        f"gpt-knock-out-l{layer}-{part}",
        key="gpt_ko_loss",
    )
    st.caption(t("gpt.ko.read") + " " + _best_reading(a, length, seed, best, mode))
    ko_controls.torch_only(backend)
    ui.readout(ko)


def _best_reading(a, length: int, seed: int, best: tuple[int, int], mode: str) -> str:
    """What knocking out the page's induction head does to the repeat, measured on the picked model now."""
    ko = svc.knock_out(svc.text_of(a), length, seed, best[0], "head", mode, best[1], a.name)
    saved = ko.first_before - ko.second_before  # what copying from the first copy saves
    share = (ko.second_after - ko.second_before) / saved if saved > 0 else 0.0
    reading = t(
        "gpt.ko.read.best", lh=layer_head_label(*best), mode=t(f"view.ko.mode.{mode}"), before=ko.second_before,
        after=ko.second_after, first=ko.first_before, share=max(share, 0.0),
    )  # fmt: skip
    return reading + " " + t("gpt.ko.read.one" if share >= 0.5 else "gpt.ko.read.many")


def patching(a, backend: str) -> None:
    """Activation patching: two prompts of the same length, the restored logit difference per (layer, position)."""
    most = svc.patch_limit(a.name)
    st.caption(t("gpt.patch.caption", max=most))
    clean_default, corrupt_default = svc.PATCH_DEFAULTS
    c1, c2 = st.columns(2)
    clean = ui.text_box(t("gpt.patch.clean"), clean_default, key="gpt_patch_clean", max_chars=300, host=c1)
    corrupt = ui.text_box(t("gpt.patch.corrupt"), corrupt_default, key="gpt_patch_corrupt", max_chars=300, host=c2)
    bar = st.progress(0.0, text=t("gpt.patch.running"))
    try:
        p = svc.patching(clean, corrupt, a.name, progress=lambda f: bar.progress(f, text=t("gpt.patch.running")))
    except InputError as e:
        bar.empty()
        ui.input_error(e)
        return
    bar.empty()
    vocab = svc.vocabulary(a.name)
    labels = [
        visible(c) if c == w else f"{visible(c)}/{visible(w)}" for c, w in zip(p.clean.pieces, p.corrupted.pieces)
    ]
    layers = [t("gpt.lens.embedding") if i == 0 else t("gpt.lens.after", layer=i - 1) for i in p.layers]
    m1, m2, m3 = st.columns(3)
    m1.metric(t("gpt.patch.m.answer"), visible(vocab[p.answer]), help=t("gpt.patch.m.answer.help"))
    m2.metric(t("gpt.patch.m.wrong"), visible(vocab[p.wrong]))
    m3.metric(t("gpt.patch.m.ld"), f"{p.ld_clean:.2f} / {p.ld_corrupted:.2f}", help=t("gpt.patch.m.ld.help"))
    ui.figure(
        patching_map(
            p.restored,
            labels,
            layers,
            value_title=t("gpt.patch.restored"),
            position_title=t("gpt.lens.position"),
            layer_title=t("view.layer"),
        ),
        p.restored,
        "gpt-activation-patching",
        key="gpt_patch_map",
        row_labels=layers,
        col_labels=labels,
    )
    st.caption(t("gpt.patch.read"))
    n_blocks = svc.facts(a.name)["layers"]
    if len(p.layers) < n_blocks + 1:
        st.caption(t("gpt.patch.every", step=p.layers[1], rows=len(p.layers), all=n_blocks + 1))
    ko_controls.torch_only(backend)
    ui.readout(p)
