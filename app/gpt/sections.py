"""The GPT page's sections around the sampling part and the views: the introduction and the guided experiment, the
paper against the chosen model (ours or a real one), the next-token distribution, the model's card and the closing
explanation."""

import numpy as np
import streamlit as st

from app.gpt import service as svc
from app.gpt.views import next_token_bars
from app.shared import ui
from app.shared.i18n import t
from app.shared.numbers import entropy_bits
from app.shared.tokens import visible

SHOWN = 12  # bars in the next-token chart


def intro(facts: dict, induction_head: str) -> None:
    """What the page's model is, and the guided experiment, with the numbers of the chosen checkpoint."""
    if facts["real"]:
        st.markdown(t("gpt.intro.real", title=facts["title"], params=facts["params"] / 1e6))
    elif facts.get("dynamics"):
        n = len(svc.dynamics(facts["name"]).snapshots)
        st.markdown(
            t(
                "gpt.intro.dynamics",
                params=facts["params"] / 1e6,
                n=n,
                **{k: facts[k] for k in ("step", "steps", "formed")},
            )
        )
    else:
        st.markdown(t("gpt.intro", params=facts["params"] / 1e6))
    if facts.get("dynamics"):
        see = t(
            "gpt.try.see.dynamics",
            step=facts["step"],
            lh=induction_head,
            score=facts["best_induction"],
            ratio=facts["induction_ratio"],
            formed=facts["formed"],
        )
    else:
        see = t(
            "gpt.try.see.real" if facts["real"] else "gpt.try.see",
            vocab=facts["vocab"],
            uniform=facts["uniform_nats"],
            lh=induction_head,
        )
    ui.try_this(t("gpt.try.do"), see, t("gpt.try.why"))


def _real_paper_vs_here(facts: dict) -> None:
    """The GPT papers beside the real checkpoint: its shape from its config, what its family changed."""
    heads = t("gpt.pvh.heads.real", heads=facts["heads"], kv=facts["kv_heads"])
    ui.paper_vs_here(
        [
            (t("gpt.pvh.shape"), t("gpt.pvh.shape.paper"), f"{facts['layers']} / {facts['dim']} / {heads}"),
            (t("gpt.pvh.params"), t("gpt.pvh.params.paper"), t("gpt.pvh.params.here", params=facts["params"] / 1e6)),
            (t("gpt.pvh.context"), t("gpt.pvh.context.paper"), f"{facts['context']:,}"),
            (t("gpt.pvh.vocab"), t("gpt.pvh.vocab.paper"), t("gpt.pvh.vocab.real", vocab=facts["vocab"])),
            (t("gpt.pvh.norm"), t("gpt.pvh.norm.paper"), t(f"gpt.pvh.norm.{facts['arch']}")),
            (t("gpt.pvh.attention"), t("gpt.pvh.attention.paper"), t(f"gpt.pvh.attention.{facts['arch']}")),
            (t("gpt.pvh.data"), t("gpt.pvh.data.paper"), t("gpt.pvh.data.real", paper=facts["paper"] or "—")),
        ],
        [t(f"gpt.pvh.dep.real.{facts['arch']}"), t("gpt.pvh.dep.real.precision"), t("gpt.pvh.dep.real.chat")],
        here=t("gpt.pvh.here.real", title=facts["title"]),
    )


def _our_shape_rows(facts: dict) -> list[tuple[str, str, str]]:
    """The paper-vs-here rows every model of ours fills alike: shape, parameters, context, vocabulary, norm,
    attention."""
    return [
        (t("gpt.pvh.shape"), t("gpt.pvh.shape.paper"), f"{facts['layers']} / {facts['dim']} / {facts['heads']}"),
        (t("gpt.pvh.params"), t("gpt.pvh.params.paper"), t("gpt.pvh.params.here", params=facts["params"] / 1e6)),
        (t("gpt.pvh.context"), t("gpt.pvh.context.paper"), str(facts["context"])),
        (t("gpt.pvh.vocab"), t("gpt.pvh.vocab.paper"), t("gpt.pvh.vocab.here", vocab=facts["vocab"])),
        (t("gpt.pvh.norm"), t("gpt.pvh.norm.paper"), t("gpt.pvh.norm.here")),
        (t("gpt.pvh.attention"), t("gpt.pvh.attention.paper"), t("gpt.pvh.attention.here")),
    ]


def _dynamics_paper_vs_here(facts: dict) -> None:
    """The GPT papers beside the dynamics model at the picked step."""
    hp = svc.card(facts["name"]).get("settings", {})
    ui.paper_vs_here(
        [
            *_our_shape_rows(facts),
            (
                t("gpt.pvh.data"),
                t("gpt.pvh.data.paper"),
                t(
                    "gpt.pvh.data.dynamics",
                    batch=hp.get("batch", 0),
                    context=hp.get("context", 0),
                    steps=facts["steps"],
                ),
            ),
            (
                t("gpt.pvh.result"),
                t("gpt.pvh.result.paper"),
                t(
                    "gpt.pvh.result.dynamics",
                    step=facts["step"],
                    loss=facts["val_loss"],
                    ratio=facts["induction_ratio"],
                    formed=facts["formed"],
                ),
            ),
        ],
        [
            t("gpt.pvh.dep.norm"),
            t("gpt.pvh.dep.dense"),
            t("gpt.pvh.dep.gelu"),
            t("gpt.pvh.dep.dynamics", vocab=facts["vocab"], context=facts["context"]),
        ],
    )


def paper_vs_here(facts: dict) -> None:
    if facts["real"]:
        _real_paper_vs_here(facts)
        return
    if facts.get("dynamics"):
        _dynamics_paper_vs_here(facts)
        return
    ui.paper_vs_here(
        [
            *_our_shape_rows(facts),
            (t("gpt.pvh.data"), t("gpt.pvh.data.paper"), t("gpt.pvh.data.here", tokens=facts["stage1_tokens"] / 1e6)),
            (
                t("gpt.pvh.result"),
                t("gpt.pvh.result.paper"),
                t(
                    "gpt.pvh.result.here",
                    bpc=facts["val_bpc"],
                    bigram=facts["bigram_bpc"],
                    ratio=facts["induction_ratio"],
                ),
            ),
        ],
        [
            t("gpt.pvh.dep.norm"),
            t("gpt.pvh.dep.dense"),
            t("gpt.pvh.dep.gelu"),
            t(
                "gpt.pvh.dep.size",
                layers=facts["layers"],
                dim=facts["dim"],
                vocab=facts["vocab"],
                context=facts["context"],
            ),
            t("gpt.pvh.dep.dropout"),
            t("gpt.pvh.dep.stage2"),
        ],
    )


def next_token(a) -> None:
    """The prompt's size and the model's next-token distribution: the top token, its probability, the entropy and
    the likeliest tokens."""
    vocab = svc.vocabulary(a.name)
    top = int(a.probs.argmax())
    bits = float(np.log2(len(a.probs)))
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(
        t("gpt.m.tokens"),
        len(a.tokens.ids) - a.tokens.prefix,
        help=t("gpt.m.tokens.help" if a.tokens.prefix else "gpt.m.tokens.help.real"),
    )
    m2.metric(t("gpt.m.top"), visible(vocab[top]))
    m3.metric(t("gpt.m.top_p"), f"{a.probs[top]:.1%}")
    m4.metric(
        t("gpt.m.entropy"), f"{entropy_bits(a.probs):.2f}", help=t("gpt.m.entropy.help", vocab=len(a.probs), bits=bits)
    )
    st.subheader(t("gpt.next.title"))
    order = np.argsort(-a.probs, kind="stable")[:SHOWN]
    ui.figure(
        next_token_bars([vocab[i] for i in order], a.probs[order], value_title=t("gpt.probability")),
        {"id": order, "token": [vocab[i] for i in order], "probability": a.probs[order]},
        "gpt-next-token",
        key="gpt_next",
    )
    ui.readout(a)


def _real_card(facts: dict) -> None:
    """A real checkpoint's card: its size and shape, where it came from and in what precision (its conversion's
    record)."""
    about = svc.real_about(facts["name"])
    with st.expander(t("gpt.card.title")):
        k1, k2, k3, k4 = st.columns(4)
        k1.metric(t("gpt.card.params"), f"{facts['params'] / 1e6:.1f} M")
        k2.metric(t("gpt.card.vocab"), f"{facts['vocab']:,}")
        k3.metric(t("gpt.card.context"), f"{facts['context']:,}")
        k4.metric(t("gpt.card.precision"), "/".join(about.get("quantised", [])) or about.get("dtype", "float32"))
        st.caption(
            t("gpt.card.real", title=facts["title"], origin=about.get("origin", "?"), license=about.get("license", "?"))
        )


def model_card(facts: dict) -> None:
    """The model's card (collapsed): ours, size, held-out loss against the bigram baseline, induction; a real one,
    what it is and where it came from."""
    if facts["real"]:
        _real_card(facts)
        return
    with st.expander(t("gpt.card.title")):
        card = svc.card(facts["name"])
        metrics = card.get("metrics", {})
        k1, k2, k3, k4 = st.columns(4)
        k1.metric(t("gpt.card.params"), f"{card.get('params', 0) / 1e6:.2f} M")
        k2.metric(t("gpt.card.val_bpc"), f"{metrics.get('val_bpc', float('nan')):.3f}")
        k3.metric(t("gpt.card.bigram"), f"{metrics.get('bigram_val_bpc', float('nan')):.3f}")
        k4.metric(t("gpt.card.induction"), f"{metrics.get('induction_loss_ratio', float('nan')):.3f}")
        minutes, command = svc.training_summary(card)
        st.caption(t("gpt.card.caption", data=card.get("data", ""), minutes=minutes, command=command))
    ui.reading_numbers()


def explanation(facts: dict, induction_head: str, a) -> None:
    if facts["real"]:
        lens = svc.lens_summary(a)
        vocab = svc.vocabulary(a.name)
        ui.explain(
            t(
                "gpt.explain.real",
                title=facts["title"],
                layers=facts["layers"],
                heads=facts["heads"],
                kv=facts["kv_heads"],
                dim=facts["dim"],
                vocab=facts["vocab"],
                lh=induction_head,
                inner=visible(vocab[lens.inner_token]),
                n_inner=lens.inner_layers,
            )
        )
        return
    if facts.get("dynamics"):
        d = svc.dynamics(facts["name"])
        at = int(np.searchsorted(d.measured, d.formed))
        prev = float(d.prev_token[min(at, len(d.measured) - 1)].max())
        ui.explain(t("gpt.explain.dynamics", formed=facts["formed"], steps=facts["steps"], prev=prev))
        return
    ui.explain(
        t(
            "gpt.explain",
            layers=facts["layers"],
            heads=facts["heads"],
            dim=facts["dim"],
            vocab=facts["vocab"],
            context=facts["context"],
            m1=facts["stage1_minutes"],
            m2=facts["stage2_minutes"],
            tokens=facts["stage1_tokens"] / 1e6,
            bpc=facts["val_bpc"],
            bigram=facts["bigram_bpc"],
            lh=induction_head,
            ratio=facts["induction_ratio"],
        )
    )
