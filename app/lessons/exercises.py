"""One exercise per model page, checked against the live model: each check asks the page's own service for the
numbers the page shows (never a stored answer) and returns a verdict, with a hint in the reader's language when the
answer is wrong. An exercise is answered either on the page itself (its controls' values in ``st.session_state``)
or in a small answer box drawn under the page. The shell draws the exercise after the page (``exercise``), so page
folders need no code of their own."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

from app.lessons import progress
from app.shared.formats import percent
from app.shared.i18n import InputError, current_lang, layer_head_label, t, translate


def _svc(page: str):
    """The service of the page at url_path ``page``, imported when an exercise first needs it (the shell and the
    home page import this module without loading a model)."""
    return importlib.import_module(f"app.{page.replace('-', '_')}.service")


@dataclass(frozen=True)
class Verdict:
    ok: bool
    key: str  # i18n: why it is right, or the hint
    fields: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Exercise:
    page: str
    check: Callable[[object], Verdict]  # the answer (an option, or None when the page's controls are the answer)
    answer: Callable[[str], str]  # the answer key in a language, from the same numbers as the check
    options: Callable[[], tuple] | None = None  # the answers offered in the answer box; None: act on the page
    label: Callable[[object, str], str] = lambda option, lang: str(option)  # an option in a language
    # Where the question makes sense on our model only: () -> (the page's model picker key, our model's name). With
    # another model picked the exercise says so and offers to switch the page back to ours.
    ours: Callable[[], tuple[str, str]] | None = None
    # The question's i18n key, where it depends on the page's state (GPT: the recorded model asks about its
    # training); None: ``lessons.ex.<page>.q``.
    question: Callable[[], str] | None = None


# The settings an answer key is computed at: a stop's prepared state (its query parameters) while the worksheet is
# written, else None and the reader's own page state.
_PREPARED: ContextVar[dict | None] = ContextVar("prepared", default=None)


@contextmanager
def prepared(params: dict):
    """Read the page's settings from ``params`` (a stop's query parameters) instead of the session, for an answer
    key: the same functions then give the answer at the state the stop opens in."""
    token = _PREPARED.set(dict(params))
    try:
        yield
    finally:
        _PREPARED.reset(token)


def _state(key: str, default):
    """A control of the page as the reader set it (or as a stop prepares it; query parameters are text)."""
    params = _PREPARED.get()
    if params is None:
        return st.session_state.get(key, default)
    return params.get(key, default)


def _backend() -> str:
    return "torch" if _PREPARED.get() is not None else st.session_state.get("backend", "torch")


# ---- GPT: the induction head -----------------------------------------------------------------------------------------


def _gpt_name() -> str:
    """The model picked at the top of the GPT page (ours unless the reader picked a real one)."""
    return _state("gpt_model", _svc("gpt").NAME)


def _gpt_heads() -> tuple:
    c = _svc("gpt").handle(_gpt_name()).config
    return tuple((layer, head) for layer in range(int(c["n_layers"])) for head in range(int(c["n_heads"])))


def _gpt_label(head: tuple[int, int], lang: str) -> str:
    """The shared label ("L3 · H3" / "层 3 · 头 3", ``layer_head_label``), in a given language for the worksheet."""
    return (
        layer_head_label(*head)
        if lang == current_lang()
        else translate("view.layer_head", lang, layer=head[0], head=head[1])
    )


def _gpt_best() -> tuple[tuple[int, int], float, tuple[int, int]]:
    """The head with the highest induction score on the page's repeated sequence (length and seed as set there), in
    the page's model."""
    svc = _svc("gpt")
    length = int(_state("gpt_icl_length", svc.ICL_DEFAULT[0]))
    seed = int(_state("gpt_icl_seed", svc.ICL_DEFAULT[1]))
    ind = svc.induction(length, seed, "torch", _gpt_name())
    return ind.best_head, float(ind.scores.max()), (length, seed)


def _gpt_check(answer) -> Verdict:
    best, score, (length, seed) = _gpt_best()
    if answer is None:
        return Verdict(False, "lessons.pick")
    svc = _svc("gpt")
    scores = svc.induction(length, seed, "torch", _gpt_name()).scores
    if not (0 <= answer[0] < scores.shape[0] and 0 <= answer[1] < scores.shape[1]):  # an answer left from a model
        return Verdict(False, "lessons.pick")  # switched away from: no such head in this one
    got = float(scores[tuple(answer)])
    if tuple(answer) == best:
        return Verdict(True, "lessons.ex.gpt.right", {"score": f"{score:.2f}"})
    return Verdict(False, "lessons.ex.gpt.hint", {"score": f"{got:.2f}"})


def _gpt_answer(lang: str) -> str:
    if _gpt_recorded():
        return _gpt_step_answer(lang)
    (layer, head), score, (length, seed) = _gpt_best()
    label = translate("view.layer_head", lang, layer=layer, head=head)
    return translate("lessons.ex.gpt.key", lang, head=label, score=f"{score:.2f}", length=length, seed=seed)


# ---- GPT on the recorded model: when the induction head forms --------------------------------------------------------

FORMED = 0.3  # the best head's induction score from which a kept step counts as "formed"


def _gpt_recorded() -> bool:
    """The page shows a model whose training was recorded (gpt-induction): the question is about its training."""
    return bool(_svc("gpt").handle(_gpt_name()).snapshots)


def _gpt_kept() -> list[tuple[int, float]]:
    """(step, best head's induction score) of every kept step of the recorded run, as its card holds them."""
    return [(r["step"], float(np.max(r["metrics"]["induction"]))) for r in _svc("gpt").handle(_gpt_name()).snapshots]


def _gpt_first_formed() -> tuple[int, float, int, float]:
    """The first kept step whose best head scores at least ``FORMED``, its score, and the kept step before it with
    its score."""
    kept = _gpt_kept()
    i = next((i for i, (_, score) in enumerate(kept) if score >= FORMED), len(kept) - 1)
    before = kept[max(0, i - 1)]
    return kept[i][0], kept[i][1], before[0], before[1]


def _gpt_question() -> str:
    return "lessons.ex.gpt.step.q" if _gpt_recorded() else "lessons.ex.gpt.q"


def _gpt_options():
    return None if _gpt_recorded() else _gpt_heads()  # the recorded model: the page's step slider is the answer


def _gpt_step_check(_answer) -> Verdict:
    step, score, before, before_score = _gpt_first_formed()
    kept = dict(_gpt_kept())
    shown = int(_state("gpt_step", max(kept)))
    shown = shown if shown in kept else max(kept)
    fields = {"step": f"{shown:,}", "score": f"{kept[shown]:.2f}", "formed": f"{FORMED:.1f}"}
    if shown == step:
        return Verdict(
            True, "lessons.ex.gpt.step.right", {**fields, "before": f"{before:,}", "b": f"{before_score:.2f}"}
        )
    return Verdict(False, "lessons.ex.gpt.step.early" if shown < step else "lessons.ex.gpt.step.late", fields)


def _gpt_step_answer(lang: str) -> str:
    step, score, before, before_score = _gpt_first_formed()
    return translate(
        "lessons.ex.gpt.step.key",
        lang,
        step=f"{step:,}",
        score=f"{score:.2f}",
        before=f"{before:,}",
        b=f"{before_score:.2f}",
        formed=f"{FORMED:.1f}",
    )


def _gpt_any_check(answer) -> Verdict:
    return _gpt_step_check(answer) if _gpt_recorded() else _gpt_check(answer)


# ---- BERT: one masked word right, one wrong --------------------------------------------------------------------------


def _bert_reading():
    """Which of the page's masked words our BERT (or the picked one) puts first, and which it misses."""
    svc = _svc("bert")
    name = _state("bert_model", svc.NAME)
    a = _state("bert_a", svc.DEFAULT_A)
    b = _state("bert_b", svc.DEFAULT_B)
    masks = _state("bert_masks", svc.DEFAULT_MASKS)
    masks = tuple(sorted(int(m) for m in (masks.split(",") if isinstance(masks, str) else masks)))
    res = svc.analyse(name, a, b, masks, 1, _backend())
    right = [m for i, m in enumerate(res.masked) if res.top_ids[i, 0] == res.tokens.ids[m]]
    wrong = [m for m in res.masked if m not in right]
    vocab = svc.vocabulary(name)
    return right, wrong, res.tokens.pieces, [vocab[res.top_ids[i, 0]] for i in range(len(res.masked))]


def _bert_check(_answer) -> Verdict:
    right, wrong, pieces, _ = _bert_reading()
    if not right and not wrong:
        return Verdict(False, "lessons.ex.bert.none")
    if not right:
        return Verdict(False, "lessons.ex.bert.no_right")
    if not wrong:
        return Verdict(False, "lessons.ex.bert.no_wrong")
    return Verdict(
        True, "lessons.ex.bert.right", {"right": pieces[right[0]].strip(), "wrong": pieces[wrong[0]].strip()}
    )


def _bert_answer(lang: str) -> str:
    """Every word piece of sentence A, masked alone: which ones our BERT puts first."""
    svc = _svc("bert")
    name = _state("bert_model", svc.NAME)
    a, b = _state("bert_a", svc.DEFAULT_A), _state("bert_b", svc.DEFAULT_B)
    tokens = svc.tokenize(name, a, b)
    end_of_a = len(svc.tokenize(name, a).ids) - 1  # its [SEP]
    hits, misses = [], []
    for m in (m for m in tokens.maskable if m < end_of_a):
        res = svc.analyse(name, a, b, (m,), 1)
        (hits if res.top_ids[0, 0] == tokens.ids[m] else misses).append(tokens.pieces[m].strip())
    return translate("lessons.ex.bert.key", lang, hits=quoted(hits), misses=quoted(misses))


def quoted(pieces) -> str:
    """Word pieces in a list, each quoted, so that a punctuation piece reads as one: “to”, “,”, “be” (— for none)."""
    return ", ".join(f"“{p}”" for p in pieces) or "—"


# ---- MoE: the smallest capacity factor that drops nothing ------------------------------------------------------------

CF_STEP = 0.05  # the capacity slider's step


def _moe_state() -> tuple[str, int, float]:
    svc = _svc("moe")
    text = _state("moe_text", svc.SAMPLES["mixed"])
    return text, int(_state("moe_topk", 1) or 1), float(_state("moe_capacity", 1.25))


def _moe_dropped(text: str, top_k: int, cf: float) -> int:
    return int(_svc("moe").analyse(text, top_k, round(cf, 2), _backend()).dropped.sum())


def _moe_check(_answer) -> Verdict:
    text, top_k, cf = _moe_state()
    if cf < CF_STEP / 2:  # 0 is the slider's "no limit" (Mixtral's way), not a capacity
        return Verdict(False, "lessons.ex.moe.zero")
    dropped = _moe_dropped(text, top_k, cf)
    if dropped:
        return Verdict(False, "lessons.ex.moe.low", {"n": dropped, "cf": f"{cf:.2f}"})
    if cf - CF_STEP > CF_STEP / 2 and _moe_dropped(text, top_k, cf - CF_STEP) == 0:
        return Verdict(False, "lessons.ex.moe.high", {"cf": f"{cf:.2f}", "lower": f"{cf - CF_STEP:.2f}"})
    return Verdict(True, "lessons.ex.moe.right", {"cf": f"{cf:.2f}"})


def moe_smallest_safe(text: str, top_k: int) -> float:
    """The smallest capacity factor on the slider's grid at which no token of ``text`` is dropped in any layer (the
    drops fall as the factor grows, so a bisection over the grid finds it). The grid starts at one step: 0 means no
    limit."""
    lo, hi = 1, round(3.0 / CF_STEP)
    while lo < hi:
        mid = (lo + hi) // 2
        if _moe_dropped(text, top_k, mid * CF_STEP):
            lo = mid + 1
        else:
            hi = mid
    return lo * CF_STEP


def _moe_answer(lang: str) -> str:
    text, top_k, cf = _moe_state()
    safe = moe_smallest_safe(text, top_k)
    return translate(
        "lessons.ex.moe.key", lang, k=top_k, safe=f"{safe:.2f}", cf=f"{cf:.2f}", n=_moe_dropped(text, top_k, cf)
    )


# ---- FlashAttention: how many times fewer HBM accesses ---------------------------------------------------------------

FLASH_BANDS = ((1, 2), (2, 4), (4, 8), (8, 16), (16, 10**9))  # how many times fewer accesses, [lo, hi)


def _flash_io():
    svc = _svc("flash-attention")
    n = int(_state("flash_io_n", 1024))
    m = int(_state("flash_io_m", 65536))
    return svc.io(n, m)


def _flash_band(ratio: float) -> tuple[int, int]:
    return next((b for b in FLASH_BANDS if b[0] <= ratio < b[1]), FLASH_BANDS[0])


def _flash_label(band, lang: str) -> str:
    lo, hi = band
    if hi > 1000:
        return translate("lessons.ex.flash_attention.over", lang, lo=lo)
    return translate("lessons.ex.flash_attention.band", lang, lo=lo, hi=hi)


def _flash_check(answer) -> Verdict:
    if answer is None:
        return Verdict(False, "lessons.pick")
    io = _flash_io()
    ratio = io.standard / io.flash
    fields = {"ratio": f"{ratio:.1f}", "n": f"{io.N:,}", "m": f"{io.M:,}"}
    if tuple(answer) == _flash_band(ratio):
        return Verdict(True, "lessons.ex.flash_attention.right", fields)
    return Verdict(False, "lessons.ex.flash_attention.hint", fields)


def _flash_answer(lang: str) -> str:
    io = _flash_io()
    return translate(
        "lessons.ex.flash_attention.key",
        lang,
        n=f"{io.N:,}",
        m=f"{io.M:,}",
        ratio=f"{io.standard / io.flash:.1f}",
        std=f"{io.standard:,}",
        flash=f"{io.flash:,}",
    )


# ---- MLA: the smallest cache -----------------------------------------------------------------------------------------

MLA_LENGTH = 256  # tokens


def _mla_caches() -> dict[str, int]:
    """Measured bytes per token of each installed decoder's cache, by kind (MHA, GQA, MQA, MLA)."""
    return {c.kind: c.bytes_measured for c in _svc("mla").trained_caches() if c.bytes_measured}


def _mla_check(answer) -> Verdict:
    if answer is None:
        return Verdict(False, "lessons.pick")
    caches = _mla_caches()
    best = min(caches, key=caches.get)
    fields = {"kind": answer, "kib": f"{caches[answer] * MLA_LENGTH / 1024:,.0f}"}
    if answer == best:
        return Verdict(True, "lessons.ex.mla.right", fields)
    return Verdict(False, "lessons.ex.mla.hint", fields)


def _mla_answer(lang: str) -> str:
    caches = _mla_caches()
    rows = ", ".join(f"{k} {v * MLA_LENGTH / 1024:,.0f} KiB" for k, v in sorted(caches.items(), key=lambda kv: kv[1]))
    return translate("lessons.ex.mla.key", lang, best=min(caches, key=caches.get), rows=rows, n=MLA_LENGTH)


# ---- Reasoning: where writing the steps stops helping ----------------------------------------------------------------


def _reasoning_curves():
    return _svc("reasoning").accuracy_curves()


def _reasoning_stop() -> int | None:
    """The fewest operations k at which chain of thought is no longer more accurate than answering directly."""
    c = _reasoning_curves()
    return next((int(k) for k, a, b in zip(c.ks, c.cot, c.direct) if a <= b), None)


def _reasoning_options() -> tuple:
    return (*(int(k) for k in _reasoning_curves().ks), 0)  # 0: it always helps


def _reasoning_label(k, lang: str) -> str:
    return translate("lessons.ex.reasoning.never", lang) if k == 0 else translate("lessons.ex.reasoning.k", lang, k=k)


def _reasoning_check(answer) -> Verdict:
    if answer is None:
        return Verdict(False, "lessons.pick")
    c = _reasoning_curves()
    stop = _reasoning_stop() or 0
    if answer == stop:
        i = list(c.ks).index(stop) if stop else -1
        fields = {"cot": percent(c.cot[i]), "direct": percent(c.direct[i]), "trained": c.easy_steps + 1}
        return Verdict(True, "lessons.ex.reasoning.right", fields)
    if answer:
        i = list(c.ks).index(answer)
        return Verdict(
            False, "lessons.ex.reasoning.hint", {"k": answer, "cot": percent(c.cot[i]), "direct": percent(c.direct[i])}
        )
    return Verdict(False, "lessons.ex.reasoning.hint_never")


def _reasoning_answer(lang: str) -> str:
    c = _reasoning_curves()
    pairs = ", ".join(f"k={k}: {percent(a)} / {percent(b)}" for k, a, b in zip(c.ks, c.cot, c.direct))
    stop = _reasoning_stop()
    return translate("lessons.ex.reasoning.key", lang, k=stop if stop else "—", pairs=pairs)


# ---- Attention: where cross-attention reads while writing ------------------------------------------------------------


def _attention_reading():
    """The page's input decoded, the step set there, and the source position the last layer's cross-attention
    (mean over heads) weighs most at that step."""
    svc = _svc("attention")
    d = svc.decode(_state("attention_text", svc.EXAMPLES[0]), _backend())
    step = min(int(_state("attention_step", 0)), d.steps - 1)
    row = d.patterns["cross"][-1, :, step, :].mean(0)  # (S,)
    return d, step, row


def _attention_options() -> tuple:
    d, _, _ = _attention_reading()
    return tuple(range(len(d.source)))


def _attention_label(i: int, lang: str) -> str:
    d, _, _ = _attention_reading()
    return translate("lessons.ex.attention.option", lang, i=i, char=d.source[i])


def _attention_check(answer) -> Verdict:
    if answer is None:
        return Verdict(False, "lessons.pick")
    d, step, row = _attention_reading()
    best = int(row.argmax())
    fields = {"step": step, "char": d.source[best], "i": best, "w": percent(row[best]), "got": percent(row[answer])}
    return Verdict(
        answer == best, "lessons.ex.attention.right" if answer == best else "lessons.ex.attention.hint", fields
    )


def _attention_answer(lang: str) -> str:
    d, step, row = _attention_reading()
    best = int(row.argmax())
    fields = {"text": d.text, "step": step, "i": best, "char": d.source[best], "w": percent(row[best])}
    return translate("lessons.ex.attention.key", lang, **fields)


# ---- Forward pass: what writes the predicted token -------------------------------------------------------------------


def _forward_name() -> str:
    """The model picked at the top of the forward-pass page (ours unless the reader picked a real one)."""
    svc = _svc("forward-pass")
    return _state("forward_pass_model", svc.NAME)


def _forward_parts():
    """At the last token of the page's text, on the page's model: each kind of part's direct contribution to the
    predicted token's logit, heads summed per layer. (predicted piece, (((kind, layer), logit), ...) largest first)."""
    svc = _svc("forward-pass")
    text = _state("forward_pass_text", svc.DEFAULT_TEXT)
    return svc.layer_attribution(text, _forward_name())


def _forward_options() -> tuple:
    """The embeddings, then each layer's attention and MLP, in the order the stream passes them (from the config:
    drawing the answer box runs no forward pass). A Llama-family model adds no position embedding (RoPE)."""
    svc = _svc("forward-pass")
    name = _forward_name()
    n_layers = int(svc.config(name)["n_layers"])
    embeddings = (("token", -1),) if svc.arch(name) == "llama" else (("token", -1), ("position", -1))
    return (*embeddings, *((kind, layer) for layer in range(n_layers) for kind in ("attn", "mlp")))


def _forward_label(part, lang: str) -> str:
    kind, layer = part
    return translate(f"lessons.ex.forward_pass.{kind}", lang, layer=layer)


def _forward_check(answer) -> Verdict:
    if answer is None:
        return Verdict(False, "lessons.pick")
    piece, ranked = _forward_parts()
    best, value = ranked[0]
    got = dict(ranked).get(tuple(answer), 0.0)
    fields = {
        "piece": piece.strip() or piece,
        "logit": f"{value:.2f}",
        "got": f"{got:.2f}",
    }
    if tuple(answer) == best:
        return Verdict(True, "lessons.ex.forward_pass.right", fields)
    return Verdict(False, "lessons.ex.forward_pass.hint", fields)


def _forward_answer(lang: str) -> str:
    piece, ranked = _forward_parts()
    best, value = ranked[0]
    part = _forward_label(best, lang)
    return translate("lessons.ex.forward_pass.key", lang, part=part, logit=f"{value:.2f}", piece=piece)


# ---- ViT: the patch [CLS] reads most ---------------------------------------------------------------------------------


def _vit_map():
    """[CLS]'s attention over the patches in the last layer, mean over heads, on the held-out digit picked on the
    page. Our ViT only: a real one reads photos, not the held-out digits (``_vit_ours``)."""
    svc = _svc("vit")
    index = int(_state("vit_index", 2))
    held = svc.held_out(index)
    res = svc.analyse(svc.image_key(held.image), _backend())
    return svc.cls_attention(res, res.patterns.shape[0] - 1, None), held


def _vit_ours() -> tuple[str, str]:
    return "vit_model", _svc("vit").NAME


def _vit_options() -> tuple:
    grid = _svc("vit").MODEL.model.config.grid
    return tuple((r, c) for r in range(grid) for c in range(grid))


def _vit_label(cell, lang: str) -> str:
    return translate("lessons.ex.vit.option", lang, row=cell[0], col=cell[1])


def _vit_check(answer) -> Verdict:
    if answer is None:
        return Verdict(False, "lessons.pick")
    cls_map, held = _vit_map()
    best = tuple(int(i) for i in np.unravel_index(int(cls_map.argmax()), cls_map.shape))
    fields = {"w": f"{cls_map.max():.3f}", "got": f"{cls_map[tuple(answer)]:.3f}", "digit": held.label}
    return Verdict(
        tuple(answer) == best, "lessons.ex.vit.right" if tuple(answer) == best else "lessons.ex.vit.hint", fields
    )


def _vit_answer(lang: str) -> str:
    cls_map, held = _vit_map()
    r, c = (int(i) for i in np.unravel_index(int(cls_map.argmax()), cls_map.shape))
    index = int(_state("vit_index", 2))
    return translate("lessons.ex.vit.key", lang, index=index, row=r, col=c, w=f"{cls_map.max():.3f}", digit=held.label)


# ---- Alignment: the reply the reward model prefers -------------------------------------------------------------------


def _alignment_replies():
    svc = _svc("alignment")
    d = svc.examples()[0]
    asked = tuple(_state(f"alignment_{k}", v) for k, v in zip(("previous", "line", "speaker"), d))
    return svc.replies(*asked, _backend()), svc.SAME


def _alignment_options() -> tuple:
    svc = _svc("alignment")
    return tuple(n for n in (svc.BASE, *svc.POLICIES) if svc.available(n))


def _alignment_label(name: str, lang: str) -> str:
    return translate(f"lessons.ex.alignment.{name}", lang)


def _alignment_check(answer) -> Verdict:
    if answer is None:
        return Verdict(False, "lessons.pick")
    res, same = _alignment_replies()
    scored = {r.name: r.reward for r in res.replies if r.reward is not None}
    if not scored:
        return Verdict(False, "lessons.ex.alignment.no_reward")
    top = max(scored.values())
    fields = {"top": f"{top:.2f}", "got": f"{scored.get(answer, float('nan')):.2f}"}
    ok = answer in scored and scored[answer] >= top - same  # within the page's two decimals of the best
    return Verdict(ok, "lessons.ex.alignment.right" if ok else "lessons.ex.alignment.hint", fields)


def _alignment_answer(lang: str) -> str:
    res, _ = _alignment_replies()
    rows = ", ".join(
        f"{_alignment_label(r.name, lang)} {r.reward:.2f}"
        for r in sorted(res.replies, key=lambda r: -(r.reward or -1e9))
        if r.reward is not None
    )
    return translate("lessons.ex.alignment.key", lang, rows=rows or "—")


# ---- Transformer-XL: where the memory helps -------------------------------------------------------------------------


def _txl_gain():
    """Mean loss saved by carrying the memory (nats) at the first and at the last FIRST places of a segment, over
    the segments after the first, on the page's text."""
    svc = _svc("transformer-xl")
    a = svc.analyse(_state("txl_text", svc.DEFAULT_TEXT), _backend())
    _places, memory, cleared = a.by_place()
    gain = cleared - memory
    n = min(svc.FIRST, len(gain) // 2)
    return float(gain[:n].mean()), float(gain[-n:].mean()), n


def _txl_label(option: str, lang: str) -> str:
    return translate(f"lessons.ex.transformer_xl.{option}", lang, n=_svc("transformer-xl").FIRST)


def _txl_check(answer) -> Verdict:
    if answer is None:
        return Verdict(False, "lessons.pick")
    first, last, n = _txl_gain()
    right = "first" if first > last else "last"
    fields = {"first": f"{first:.2f}", "last": f"{last:.2f}", "n": n}
    return Verdict(answer == right, f"lessons.ex.transformer_xl.{'right' if answer == right else 'hint'}", fields)


def _txl_answer(lang: str) -> str:
    first, last, n = _txl_gain()
    which = _txl_label("first" if first > last else "last", lang)
    return translate("lessons.ex.transformer_xl.key", lang, which=which, first=f"{first:.2f}", last=f"{last:.2f}")


# ---- Mistral: how far the window reaches through the layers ---------------------------------------------------------


def _mistral_numbers():
    svc = _svc("mistral")
    text = _state("mistral_text", svc.DEFAULT_TEXT)
    T = len(svc.encode(text))
    position = min(int(_state("mistral_position", T - 1)), T - 1)
    r = svc.reach(text, position)
    return int(r.farthest[-1]), position, svc.shape()


def _mistral_ours() -> tuple[str, str]:
    """The question counts our L · (W − 1): on a picked Gemma it says so and switches the page to ours."""
    return "mistral_model", _svc("mistral").NAME


def _mistral_options() -> tuple:
    s = _svc("mistral").shape()
    return (*(k * (s.window - 1) for k in range(1, s.n_layers + 1)), 0)  # 0: back to the first token


def _mistral_label(option: int, lang: str) -> str:
    if option == 0:
        return translate("lessons.ex.mistral.all", lang)
    return translate("lessons.ex.mistral.tokens", lang, n=option)


def _mistral_right() -> set[int]:
    """The options that are true: the reach in tokens; where it gets to the first token, "back to the first token"
    too (at exactly L·(W − 1) tokens both are right)."""
    farthest, position, _ = _mistral_numbers()
    return {farthest, 0} if farthest == position else {farthest}


def _mistral_check(answer) -> Verdict:
    if answer is None:
        return Verdict(False, "lessons.pick")
    farthest, position, s = _mistral_numbers()
    fields = {"n": farthest, "pos": position, "W": s.window, "L": s.n_layers, "bound": s.n_layers * (s.window - 1)}
    ok = answer in _mistral_right()
    return Verdict(ok, "lessons.ex.mistral.right" if ok else "lessons.ex.mistral.hint", fields)


def _mistral_answer(lang: str) -> str:
    farthest, position, s = _mistral_numbers()
    return translate("lessons.ex.mistral.key", lang, n=farthest, pos=position, W=s.window, L=s.n_layers)


# ---- Scaling: who spends the budget on data -------------------------------------------------------------------------


def _scaling_optima():
    svc = _svc("scaling")
    label = _state("scaling_budget", svc.DEFAULT_BUDGET)
    s = svc.sweep()
    return label, {o.law: o for o in svc.optima(svc.budget(label), s if s is not None and s.fitted else None)}


def _scaling_options() -> tuple:
    return tuple(_scaling_optima()[1])


def _scaling_label(law: str, lang: str) -> str:
    return translate(f"scaling.law.{law}", lang)


def _scaling_check(answer) -> Verdict:
    if answer is None:
        return Verdict(False, "lessons.pick")
    label, optima = _scaling_optima()
    best = max(optima, key=lambda law: optima[law].tokens_per_param)
    fields = {
        "c": label,
        "best": t(f"scaling.law.{best}"),
        "ratio": f"{optima[best].tokens_per_param:,.0f}",
        "got": f"{optima[answer].tokens_per_param:,.1f}",
    }
    return Verdict(answer == best, "lessons.ex.scaling.right" if answer == best else "lessons.ex.scaling.hint", fields)


def _scaling_answer(lang: str) -> str:
    label, optima = _scaling_optima()
    rows = ", ".join(f"{_scaling_label(law, lang)} {o.tokens_per_param:,.1f}" for law, o in optima.items())
    best = max(optima, key=lambda law: optima[law].tokens_per_param)
    return translate("lessons.ex.scaling.key", lang, c=label, best=_scaling_label(best, lang), rows=rows)


# ---- LLaMA: heads that share a key/value head -----------------------------------------------------------------------


def _llama_overlap():
    """Per layer, how much more alike two query heads attend when they read the same key/value head than when they
    read different ones (mean overlap Σ min(Aᵢ, Aⱼ)), on the page's text."""
    svc = _svc("llama")
    h = svc.heads(_state("llama_text", svc.DEFAULT_TEXT), _llama_name())
    return h.within - h.across, h


def _llama_name() -> str:
    """The model picked at the top of the LLaMA page (ours unless the reader picked a real one)."""
    return _state("llama_model", _svc("llama").MODEL.name)


def _llama_options() -> tuple:
    return tuple(range(_svc("llama").shape(_llama_name()).n_layers))


def _llama_label(layer: int, lang: str) -> str:
    return layer_head_label(layer) if lang == current_lang() else translate("view.layer_n", lang, layer=layer)


def _llama_check(answer) -> Verdict:
    if answer is None:
        return Verdict(False, "lessons.pick")
    diff, h = _llama_overlap()
    best = int(np.argmax(diff))
    fields = {
        "within": f"{h.within[best]:.2f}",
        "across": f"{h.across[best]:.2f}",
        "got_within": f"{h.within[answer]:.2f}",
        "got_across": f"{h.across[answer]:.2f}",
    }
    return Verdict(answer == best, "lessons.ex.llama.right" if answer == best else "lessons.ex.llama.hint", fields)


def _llama_answer(lang: str) -> str:
    diff, h = _llama_overlap()
    best = int(np.argmax(diff))
    rows = ", ".join(f"{i}: {a:.2f} / {b:.2f}" for i, (a, b) in enumerate(zip(h.within, h.across)))
    return translate("lessons.ex.llama.key", lang, layer=_llama_label(best, lang), rows=rows)


# ---- RoPE: which scores depend only on the offset -------------------------------------------------------------------

ROPE_OPTIONS = ("rope", "absolute", "both", "neither")
TOEPLITZ = 1e-4  # a matrix counts as a function of m − n when no entry is farther than this × its largest |score|


def _rope_relative():
    svc = _svc("rope")
    d, base = int(_state("rope_d", 48)), int(_state("rope_base", 10_000))
    return svc.relative(d, base, int(_state("rope_seed", 0))), d, base


def _rope_right() -> tuple[str, object]:
    rel, d, base = _rope_relative()
    rope = rel.rope_deviation <= TOEPLITZ * np.abs(rel.rope).max()
    absolute = rel.absolute_deviation <= TOEPLITZ * np.abs(rel.absolute).max()
    right = {(True, False): "rope", (False, True): "absolute", (True, True): "both"}.get((rope, absolute), "neither")
    return right, rel


def _rope_label(option: str, lang: str) -> str:
    return translate(f"lessons.ex.rope.{option}", lang)


def _rope_check(answer) -> Verdict:
    if answer is None:
        return Verdict(False, "lessons.pick")
    right, rel = _rope_right()
    fields = {"rope": f"{rel.rope_deviation:.1e}", "absolute": f"{rel.absolute_deviation:.2f}"}
    return Verdict(answer == right, "lessons.ex.rope.right" if answer == right else "lessons.ex.rope.hint", fields)


def _rope_answer(lang: str) -> str:
    right, rel = _rope_right()
    return translate(
        "lessons.ex.rope.key",
        lang,
        which=_rope_label(right, lang),
        rope=f"{rel.rope_deviation:.1e}",
        absolute=f"{rel.absolute_deviation:.2f}",
    )


# ---- T5: where a head's learned bias peaks --------------------------------------------------------------------------

T5_NEAR = 4  # offsets −4 … 4 are offered one by one; the rest as "farther"
T5_FAR = 99


def _t5_name() -> str:
    """The model picked at the top of the T5 page (ours unless the reader picked a real one)."""
    return _state("t5_model", _svc("t5").NAME)


def _t5_peak() -> tuple[int, int]:
    """(head, offset key − query) where the encoder head set in the bias section has its largest learned bias, in the
    page's model."""
    svc = _svc("t5")
    tb = svc.trained_bias(_t5_name(), _backend())
    head = min(int(_state("t5_bias_head", 0) or 0), tb.encoder.shape[0] - 1)
    return head, int(tb.offsets[int(tb.encoder[head].argmax())])


def _t5_options() -> tuple:
    return (*range(-T5_NEAR, T5_NEAR + 1), T5_FAR)


def _t5_label(offset: int, lang: str) -> str:
    if offset == T5_FAR:
        return translate("lessons.ex.t5.far", lang, n=T5_NEAR)
    return translate("lessons.ex.t5.offset", lang, offset=f"{offset:+d}" if offset else "0")


def _t5_check(answer) -> Verdict:
    if answer is None:
        return Verdict(False, "lessons.pick")
    head, peak = _t5_peak()
    right = peak if abs(peak) <= T5_NEAR else T5_FAR
    fields = {"head": head, "offset": f"{peak:+d}" if peak else "0"}
    return Verdict(answer == right, "lessons.ex.t5.right" if answer == right else "lessons.ex.t5.hint", fields)


def _t5_answer(lang: str) -> str:
    svc = _svc("t5")
    tb = svc.trained_bias(_t5_name(), "torch")
    peaks = ", ".join(f"{h}: {int(tb.offsets[int(row.argmax())]):+d}" for h, row in enumerate(tb.encoder))
    head, peak = _t5_peak()
    return translate("lessons.ex.t5.key", lang, head=head, offset=f"{peak:+d}", peaks=peaks)


# ---- Mamba: where Δ moves ------------------------------------------------------------------------------------------

MAMBA_BANDS = ((0, 50), (50, 75), (75, 90), (90, 101))  # percent of Δ's movement near the letters, [lo, hi)


def _mamba_share() -> tuple[float, float, int]:
    """Layer 0 on the selective-copying instance of the page's seed: the share of Δ's movement near the letters,
    and the share of positions near them."""
    svc = _svc("mamba")
    seed = int(_state("mamba_seed", 0) or 0)
    share, where = svc.share_near_letters(svc.analyse("copy", seed, 0, "", _backend()), 0)
    return share, where, seed


def _mamba_label(band, lang: str) -> str:
    return translate("lessons.ex.mamba.band", lang, lo=band[0], hi=min(band[1], 100))


def _mamba_check(answer) -> Verdict:
    if answer is None:
        return Verdict(False, "lessons.pick")
    share, where, seed = _mamba_share()
    right = next(b for b in MAMBA_BANDS if b[0] <= 100 * share < b[1])
    fields = {"share": percent(share), "where": percent(where), "seed": seed}
    ok = tuple(answer) == right
    return Verdict(ok, "lessons.ex.mamba.right" if ok else "lessons.ex.mamba.hint", fields)


def _mamba_answer(lang: str) -> str:
    share, where, seed = _mamba_share()
    return translate("lessons.ex.mamba.key", lang, share=percent(share), where=percent(where), seed=seed)


# ---- the feature microscope: a feature that fires on characters' names ---------------------------------------------


def _features_check(_answer) -> Verdict:
    """The feature in the page's Feature box (of the dictionary of the model picked there) passes when at least three
    quarters of its strongest held-out contexts (and at least ``SPEAKER_MIN`` of them) fire on a token of a speaker's
    name ("BRUTUS." alone on its line)."""
    svc = _svc("features")
    i = _state("features_id", None)
    if i is None or i == "":
        return Verdict(False, "lessons.ex.features.none")
    r = svc.on_names(_features_model(), int(i))  # a number out of range: InputError, shown as the page's own message
    fields = {"i": r.index, "on": r.on_names, "n": r.shown, "need": svc.SPEAKER_MIN}
    if r.shown < svc.SPEAKER_MIN:
        return Verdict(False, "lessons.ex.features.few", fields)
    if r.ok:
        return Verdict(True, "lessons.ex.features.right", fields)
    return Verdict(False, "lessons.ex.features.hint", fields)


def _features_model() -> str:
    return str(_state("features_model", None) or _svc("features").MODELS[0])


def _features_answer(lang: str) -> str:
    svc, name = _svc("features"), _features_model()
    found = svc.name_features(name)
    hits = {i: svc.on_names(name, i) for i in found[:5]}
    shown = ", ".join(
        f"{i} (“{svc.feature(name, i).label.strip()}”, {hits[i].on_names}/{hits[i].shown})" for i in found[:5]
    )
    return translate("lessons.ex.features.key", lang, count=len(found), features=shown)


EXERCISES: dict[str, Exercise] = {
    "rope": Exercise("rope", _rope_check, _rope_answer, lambda: ROPE_OPTIONS, _rope_label),
    "t5": Exercise("t5", _t5_check, _t5_answer, _t5_options, _t5_label),
    "mamba": Exercise("mamba", _mamba_check, _mamba_answer, lambda: MAMBA_BANDS, _mamba_label),
    "transformer-xl": Exercise("transformer-xl", _txl_check, _txl_answer, lambda: ("first", "last"), _txl_label),
    "mistral": Exercise("mistral", _mistral_check, _mistral_answer, _mistral_options, _mistral_label, _mistral_ours),
    "scaling": Exercise("scaling", _scaling_check, _scaling_answer, _scaling_options, _scaling_label),
    "llama": Exercise("llama", _llama_check, _llama_answer, _llama_options, _llama_label),
    "attention": Exercise("attention", _attention_check, _attention_answer, _attention_options, _attention_label),
    "forward-pass": Exercise("forward-pass", _forward_check, _forward_answer, _forward_options, _forward_label),
    "vit": Exercise("vit", _vit_check, _vit_answer, _vit_options, _vit_label, _vit_ours),
    "alignment": Exercise("alignment", _alignment_check, _alignment_answer, _alignment_options, _alignment_label),
    "gpt": Exercise("gpt", _gpt_any_check, _gpt_answer, _gpt_options, _gpt_label, question=_gpt_question),
    "bert": Exercise("bert", _bert_check, _bert_answer),
    "moe": Exercise("moe", _moe_check, _moe_answer),
    "flash-attention": Exercise("flash-attention", _flash_check, _flash_answer, lambda: FLASH_BANDS, _flash_label),
    "mla": Exercise("mla", _mla_check, _mla_answer, lambda: ("MHA", "GQA", "MQA", "MLA")),
    "reasoning": Exercise("reasoning", _reasoning_check, _reasoning_answer, _reasoning_options, _reasoning_label),
    "features": Exercise("features", _features_check, _features_answer),
}

VERDICT = "_te_lessons_verdict_{}"
# What a check meets when the page's checkpoint (or its card, or the corpus) is not installed: the page shows what to
# run; the exercise says it cannot be checked here rather than showing a traceback.
UNAVAILABLE = (FileNotFoundError, KeyError)  # session key of the last verdict on a page: (answer, Verdict)


def slug(page: str) -> str:
    """A page's url_path as it appears in keys (``flash-attention`` -> ``flash_attention``)."""
    return page.replace("-", "_")


def answer_key(page: str) -> str:
    return f"lessons_{slug(page)}_answer"


def _check(page: str) -> None:
    """``on_click`` of the check button: the verdict, before the run draws it (so a right answer's progress is in
    the state that run writes into the browser)."""
    ex = EXERCISES[page]
    answer = st.session_state.get(answer_key(page)) if ex.options and ex.options() is not None else None
    try:
        verdict = ex.check(answer)
    except InputError as e:  # the page's input is bad: the page shows why; the exercise cannot be checked on it
        verdict = Verdict(False, e.key, e.fields)
    except UNAVAILABLE:
        verdict = Verdict(False, "lessons.unavailable")
    if verdict.ok:
        progress.solve(page)
    st.session_state[VERDICT.format(page)] = (answer, verdict)


def question_key(page: str, ex: Exercise) -> str:
    return ex.question() if ex.question is not None else f"lessons.ex.{slug(page)}.q"


def _use_ours(key: str, own: str) -> None:
    """``on_click`` of the switch back to our model: the page's picker set before the rerun draws it."""
    st.session_state[key] = own


def _on_another_model(page: str, ex: Exercise) -> bool:
    """Where the question is about our model only and the page shows another: the question, why it cannot be
    answered on that model, and a button that switches the page to ours. True when drawn."""
    if ex.ours is None:
        return False
    key, own = ex.ours()
    if _state(key, own) == own:
        return False
    with st.container(border=True, key="te_lesson_exercise"):
        st.markdown(f"**{t('lessons.exercise')}**  \n{t(question_key(page, ex))}")
        st.info(t("lessons.ours_only", name=own), icon=":material/info:")
        st.button(
            t("lessons.use_ours", name=own), key=f"lessons_{slug(page)}_ours", on_click=_use_ours, args=(key, own)
        )
    progress.sync()
    return True


def exercise(page: str) -> None:
    """The page's exercise, under the page: the question, the answer box (where the answer is not the page's own
    controls), a check button and the last verdict."""
    ex = EXERCISES.get(page)
    if ex is None:
        return
    try:
        if _on_another_model(page, ex):
            return
        options = ex.options() if ex.options is not None else None
    except (InputError, *UNAVAILABLE):  # a model or the corpus is missing: the page already says what to run
        return
    with st.container(border=True, key="te_lesson_exercise"):
        done = " ✓" if progress.solved(page) else ""
        st.markdown(f"**{t('lessons.exercise')}{done}**  \n{t(question_key(page, ex))}")
        answer = None
        if options is not None:
            answer = st.selectbox(
                t("lessons.answer"),
                options,
                index=None,
                format_func=lambda o: ex.label(o, current_lang()),
                key=answer_key(page),
                placeholder=t("lessons.answer.placeholder"),
            )
        st.button(t("lessons.check"), key=f"lessons_{slug(page)}_check", on_click=_check, args=(page,))
        held = st.session_state.get(VERDICT.format(page))
        if held is not None and (ex.options is None or held[0] == answer):
            verdict = held[1]
            text = t(verdict.key, **verdict.fields)
            if verdict.ok:
                st.success(text, icon=":material/check_circle:")
            else:
                st.warning(text, icon=":material/lightbulb:")
    progress.sync()


def answers(lang: str) -> dict[str, str]:
    """The answer key of every exercise, in ``lang``, from the live model (the worksheet's last part)."""
    return {page: ex.answer(lang) for page, ex in EXERCISES.items()}
