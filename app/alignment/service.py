"""The Alignment page's bridge to models/: the instruction and the preference rule (models/data/instruct.py), replies
of ``gpt``, ``sft``, ``ppo`` and ``dpo`` to one prompt, the ``reward`` model's scores and Bradley–Terry probability,
DPO's implicit rewards against ``sft``, and PPO's recorded curves (the ppo card)."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

from app.shared import services
from app.shared.i18n import InputError
from app.shared.numbers import log_softmax
from app.shared.services import checkpoint
from models import alignment, rl
from models.data import instruct

BASE, SFT, REWARD, PPO, DPO = "gpt", "sft", "reward", "ppo", "dpo"
POLICIES = (SFT, PPO, DPO)
MAX_LINE = instruct.MAX_PROMPT_CHARS
MAX_SPEAKER = 24
MAX_REPLY = 120
MAX_SAMPLES = 6
MAX_WORDS = instruct.MAX_WORDS
KIND, HARSH = sorted(instruct.KIND), sorted(instruct.HARSH)
CURVE_PROMPTS = instruct.CURVE_PROMPTS
_SPEAKER = re.compile(r"[A-Za-z][A-Za-z' .-]*")
# Well-formed replies with one, two and five kind words and one repeating a kind word: what the reward model gives a
# kind reply on a prompt (its ceiling; the reward model saturates there, near +5.5 to +5.7 on the first example)
KIND_PROBES = (
    "Good lord.",
    "I thank thee, gentle friend.",
    "O sweet gentle love, my good friend.",
    "Good good good good good good.",
)
SAME = 0.05  # two rewards this close are the same score, as far as the page's two decimals go


def available(name: str) -> bool:
    """Whether the checkpoint ``name`` (BASE, SFT, REWARD, PPO, DPO) is installed."""
    return checkpoint(name).available


def card(name: str) -> Mapping:
    """The checkpoint's card (read-only; empty when there is none)."""
    return checkpoint(name).card


# the shipped checkpoints' own settings (their cards), the training defaults where a card is missing
BETA = card(DPO).get("settings", {}).get("beta", alignment.DPO_BETA)
KL_COEF = card(PPO).get("settings", {}).get("kl_coef", alignment.PPO_KL_COEF)


def _tokenizer():
    """The BPE every model of the page shares (sft's, else gpt's): loaded once per process by the handle."""
    return checkpoint(SFT if available(SFT) else BASE).tokenizer


# ---- the prompt -----------------------------------------------------------------------------------------------------


@st.cache_data(show_spinner=False)
def examples() -> tuple[tuple[str, str, str], ...]:
    """(previous speaker, line, speaker) of held-out prompts (validation plays), the page's examples."""
    return tuple((e.previous, e.line, e.speaker) for e in instruct.examples("validation", 400, seed=1)[:40])


def speaker_name(text: str, field: str) -> str:
    name = text.strip().upper().removesuffix(".")
    if not name:
        raise InputError(f"alignment.error.empty_{field}")
    if len(name) > MAX_SPEAKER or not _SPEAKER.fullmatch(name):
        raise InputError("alignment.error.speaker", name=text.strip()[:40], max=MAX_SPEAKER)
    return name


def prompt(previous: str, line: str, speaker: str) -> str:
    """The instruction as the models were trained on it, or an InputError in the user's language."""
    line = " ".join(line.split())
    if not line:
        raise InputError("alignment.error.empty_line")
    if len(line) > MAX_LINE:
        raise InputError("alignment.error.long", n=len(line), max=MAX_LINE)
    return instruct.prompt_for(speaker_name(previous, "previous"), line, speaker_name(speaker, "speaker"))


def reply_ids(text: str) -> list[int]:
    """A typed reply as the models read one: its tokens, then END."""
    text = " ".join(text.split())
    if not text:
        raise InputError("alignment.error.empty_reply")
    if len(text) > MAX_REPLY:
        raise InputError("alignment.error.reply_long", n=len(text), max=MAX_REPLY)
    return instruct.encode(_tokenizer(), text) + [instruct.end_id(_tokenizer())]


# ---- replies --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reply:
    name: str
    text: str
    ended: bool  # wrote END within alignment.MAX_NEW tokens
    well_formed: bool
    kind: tuple[str, ...]
    harsh: tuple[str, ...]
    score: float  # the rule's
    reward: float | None  # the reward model's (None without the reward checkpoint)


def _judge(name: str, text: str, ended: bool, reward: float | None) -> Reply:
    j = instruct.judge(text, ended)
    return Reply(name, text, ended, j.well_formed, j.kind, j.harsh, j.score, reward)


def _rewards(prompt_ids: list[int], replies: list[list[int]], backend: str) -> list[float | None]:
    """The reward model's score of each reply, read at its last token (one forward each, on the chosen backend)."""
    model = checkpoint(REWARD)
    if not model.available:
        return [None] * len(replies)
    out = []
    for r in replies:
        res = model.run({"tokens": np.array([prompt_ids + r], dtype=np.int64)}, (), model.backend(backend))
        out.append(float(res.outputs["rewards"][0, -1]))
    return out


@dataclass(frozen=True)
class Replies:
    prompt: str
    replies: tuple[Reply, ...]  # gpt (never taught to stop), sft, ppo, dpo: greedy; the ones installed
    missing: tuple[str, ...]
    backend: str
    device: str
    ms: float


@services.computing
@st.cache_data(show_spinner=False, max_entries=64)
def replies(previous: str, line: str, speaker: str, backend: str = "torch") -> Replies:
    """Each installed model's greedy reply to the prompt, judged by the rule and scored by the reward model."""
    text = prompt(previous, line, speaker)
    tok = _tokenizer()
    ids = instruct.encode(tok, text)
    start = time.perf_counter()
    found, missing = [], []
    for name in (BASE, *POLICIES):
        if not available(name):
            missing.append(name)
            continue
        r = alignment.complete(checkpoint(name).sampling_model, [ids])[0]
        words, ended = instruct.reply_text(tok, r)
        found.append((name, r, words, ended))
    rewards = _rewards(ids, [r for _, r, _, _ in found], backend)
    return Replies(
        prompt=text,
        replies=tuple(_judge(n, w, e, rw) for (n, _, w, e), rw in zip(found, rewards)),
        missing=tuple(missing),
        backend=checkpoint(REWARD).backend(backend) if available(REWARD) else "torch",
        device=services.engine().device,
        ms=(time.perf_counter() - start) * 1e3,
    )


@dataclass(frozen=True)
class Samples:
    by_model: tuple[tuple[Reply, ...], ...]  # per policy of POLICIES that is installed
    names: tuple[str, ...]
    backend: str
    device: str
    ms: float


@services.computing
@st.cache_data(show_spinner=False, max_entries=64)
def samples(previous: str, line: str, speaker: str, n: int, seed: int, backend: str = "torch") -> Samples:
    """``n`` replies sampled (temperature 1, as in training) from each policy, with the same seed for each."""
    if not 1 <= n <= MAX_SAMPLES:
        raise InputError("alignment.error.samples", max=MAX_SAMPLES)
    text = prompt(previous, line, speaker)
    tok = _tokenizer()
    ids = instruct.encode(tok, text)
    start = time.perf_counter()
    names, by_model = [], []
    for name in POLICIES:
        if not available(name):
            continue
        gen = torch.Generator().manual_seed(int(seed))
        rs = alignment.complete(checkpoint(name).sampling_model, [ids] * n, temperature=1.0, generator=gen)
        texts = [instruct.reply_text(tok, r) for r in rs]
        rewards = _rewards(ids, rs, backend)
        names.append(name)
        by_model.append(tuple(_judge(name, w, e, rw) for (w, e), rw in zip(texts, rewards)))
    return Samples(
        tuple(by_model), tuple(names), backend, services.engine().device, (time.perf_counter() - start) * 1e3
    )


# ---- the reward model, live -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pair:
    a: Reply
    b: Reply
    p_a: float  # Bradley–Terry: σ(r_a − r_b)
    rule: int  # +1 the rule prefers a, −1 b, 0 a tie
    backend: str
    device: str
    ms: float


@st.cache_data(show_spinner=False, max_entries=64)
def pair(previous: str, line: str, speaker: str, a: str, b: str, backend: str = "torch") -> Pair:
    checkpoint(REWARD).require()
    ids = instruct.encode(_tokenizer(), prompt(previous, line, speaker))
    start = time.perf_counter()
    ra, rb = _rewards(ids, [reply_ids(a), reply_ids(b)], backend)
    ja, jb = _judge("a", " ".join(a.split()), True, ra), _judge("b", " ".join(b.split()), True, rb)
    return Pair(
        ja,
        jb,
        float(rl.preference_probability(ra, rb)),
        instruct.prefer(instruct.judge(ja.text), instruct.judge(jb.text)),
        checkpoint(REWARD).backend(backend),
        services.engine().device,
        (time.perf_counter() - start) * 1e3,
    )


@dataclass(frozen=True)
class Ceiling:
    """The reward model's scores of KIND_PROBES on one prompt: kind, well-formed replies that say different things."""

    probes: tuple[Reply, ...]
    lo: float
    hi: float
    backend: str
    device: str
    ms: float


@st.cache_data(show_spinner=False, max_entries=64)
def ceiling(previous: str, line: str, speaker: str, backend: str = "torch") -> Ceiling:
    checkpoint(REWARD).require()
    ids = instruct.encode(_tokenizer(), prompt(previous, line, speaker))
    start = time.perf_counter()
    rewards = _rewards(ids, [reply_ids(p) for p in KIND_PROBES], backend)
    probes = tuple(_judge("probe", p, True, r) for p, r in zip(KIND_PROBES, rewards))
    return Ceiling(
        probes,
        min(rewards),
        max(rewards),
        checkpoint(REWARD).backend(backend),
        services.engine().device,
        (time.perf_counter() - start) * 1e3,
    )


# ---- DPO, live ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DpoSide:
    tokens: tuple[str, ...]  # the reply's tokens and END
    logp: np.ndarray  # (n,) log π_dpo of each token
    logp_ref: np.ndarray  # (n,) log π_sft
    implicit: float  # β Σ (log π − log π_ref)


@dataclass(frozen=True)
class Dpo:
    chosen: DpoSide
    rejected: DpoSide
    beta: float
    loss: float  # −log σ(r̂_w − r̂_l) under dpo
    start_loss: float  # the same under sft (π = π_ref): log 2
    backend: str
    device: str
    ms: float


def _token_logps(name: str, prompt_ids: list[int], reply: list[int], backend: str) -> np.ndarray:
    model = checkpoint(name)
    res = model.run({"tokens": np.array([prompt_ids + reply], dtype=np.int64)}, (), model.backend(backend))
    logp = log_softmax(res.outputs["logits"][0].astype(np.float64))  # (T, V)
    p = len(prompt_ids)
    return np.array([logp[p - 1 + i, t] for i, t in enumerate(reply)])


@st.cache_data(show_spinner=False, max_entries=64)
def dpo(previous: str, line: str, speaker: str, chosen: str, rejected: str, backend: str = "torch") -> Dpo:
    """The DPO loss of one pair: each reply's log-probability under ``dpo`` and under its reference ``sft``."""
    for name in (SFT, DPO):
        checkpoint(name).require()
    tok = _tokenizer()
    ids = instruct.encode(tok, prompt(previous, line, speaker))
    start = time.perf_counter()
    sides = []
    for text in (chosen, rejected):
        r = reply_ids(text)
        lp, ref = _token_logps(DPO, ids, r, backend), _token_logps(SFT, ids, r, backend)
        tokens = tuple(tok.decode([i]) for i in r[:-1]) + (instruct.END,)
        sides.append(DpoSide(tokens, lp, ref, float(BETA * (lp.sum() - ref.sum()))))
    loss, _, _ = rl.dpo_loss(
        *(
            torch.tensor([v])
            for v in (sides[0].logp.sum(), sides[1].logp.sum(), sides[0].logp_ref.sum(), sides[1].logp_ref.sum())
        ),
        beta=BETA,
    )
    return Dpo(
        sides[0],
        sides[1],
        BETA,
        float(loss),
        float(np.log(2.0)),
        checkpoint(DPO).backend(backend),
        services.engine().device,
        (time.perf_counter() - start) * 1e3,
    )


# ---- PPO's record ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Curves:
    steps: np.ndarray
    reward: np.ndarray  # the learned reward of greedy replies to held-out prompts
    rule_score: np.ndarray  # the rule's score of the same replies
    win_rate: np.ndarray  # against sft's greedy replies, by the rule
    kl: np.ndarray  # to sft, per reply
    peak: int  # the step where the rule's win rate was highest
    diverging: tuple[tuple[float, float], ...]  # (from, to) steps where the learned reward rose and the rule's fell


def ppo_curves() -> Curves:
    c = card(PPO)
    if "curves" not in c:
        raise InputError("alignment.error.no_curves")
    rows = c["curves"]
    col = lambda k: np.array([r[k] for r in rows], dtype=float)  # noqa: E731
    steps, win, reward, rule = col("step"), col("win_rate_vs_sft"), col("reward"), col("rule_score")
    spans: list[tuple[float, float]] = []
    for i in range(1, len(steps)):
        if reward[i] > reward[i - 1] and rule[i] < rule[i - 1]:
            if spans and spans[-1][1] == steps[i - 1]:  # continues the last span
                spans[-1] = (spans[-1][0], float(steps[i]))
            else:
                spans.append((float(steps[i - 1]), float(steps[i])))
    diverging = tuple(spans)
    return Curves(
        steps,
        reward,
        rule,
        win,
        col("kl_to_sft"),
        int(steps[int(win.argmax())]),
        diverging,
    )


# ---- PPO and DPO watched: runs recorded step by step (models/recipes/alignment.py ``SWEEPS``; weights not kept) ----

RUNS = ("ppo-run", "dpo-run")
RUN_KINDS = {"ppo-run": "ppo", "dpo-run": "dpo"}
DPO_KEYS = ("chosen_reward", "rejected_reward", "reward_accuracy", "logp_chosen", "logp_rejected", "ref_chosen",
            "ref_rejected")  # fmt: skip
ENDS = 10  # the text's "at the start" and "at the end": means over this many steps' batches


@dataclass(frozen=True)
class RecordedReply:
    prompt: str
    reply: str
    rule_score: float
    reward: float | None  # the reward model's score (PPO's record); None for DPO's


@dataclass(frozen=True)
class WatchedRun:
    """A recorded run: per optimiser step (N) the numbers of its batch (``history``), and at a few steps (S, the
    slider's) greedy replies to the same held-out prompts."""

    name: str
    kind: str  # "ppo" or "dpo"
    history: dict[str, np.ndarray]  # (N,) each; "step" from 1
    steps: tuple[int, ...]  # (S,) the steps with replies
    replies: tuple[tuple[RecordedReply, ...], ...]  # (S,) the replies at each
    settings: dict
    facts: dict  # the numbers the page's text states


def runs() -> list[str]:
    """The recorded runs installed here (their cards), in ``RUNS`` order."""
    return [name for name in RUNS if "history" in card(name)]


def _ends(values: np.ndarray) -> tuple[float, float]:
    return float(values[:ENDS].mean()), float(values[-ENDS:].mean())


def run_facts(kind: str, h: dict[str, np.ndarray], settings: dict) -> dict:
    """What the page says happened, read from the card: the means over the first and the last ENDS steps of the
    batch numbers the run's text quotes. PPO: the reward model's score, the KL to sft, the reward PPO maximises
    (score − β·KL), the reply length. DPO: the implicit rewards of the chosen and rejected replies, the share of
    pairs ranked right, and each side's log-probability change from the reference (sum over the reply)."""
    facts: dict = {"steps": int(h["step"][-1]), "n": ENDS}
    if kind == "ppo":
        keys = {"score": h["score"], "kl": h["kl"], "reward": h["reward"], "length": h["length"]}
        facts["kl_coef"] = settings.get("kl_coef")
    else:
        keys = {
            "chosen": h["chosen_reward"],
            "rejected": h["rejected_reward"],
            "accuracy": h["reward_accuracy"],
            "dchosen": h["logp_chosen"] - h["ref_chosen"],
            "drejected": h["logp_rejected"] - h["ref_rejected"],
        }
        facts["beta"] = settings.get("beta")
    for key, values in keys.items():
        facts[f"{key}0"], facts[f"{key}1"] = _ends(values)
    return facts


@st.cache_data(show_spinner=False, max_entries=2)
def watched_run(name: str) -> WatchedRun:
    """The recorded run ``name``'s history and replies, for the watch section's figure, slider and text."""
    if name not in RUNS:
        raise InputError("alignment.error.run", runs=", ".join(RUNS))
    c = card(name)
    if "history" not in c or "replies" not in c:
        raise InputError("alignment.error.no_run", name=name)
    kind = RUN_KINDS[name]
    history = {k: np.asarray(v, dtype=float) for k, v in c["history"].items()}
    recorded = sorted(c["replies"], key=lambda r: r["step"])
    settings = dict(c.get("settings", {}))
    return WatchedRun(
        name=name,
        kind=kind,
        history=history,
        steps=tuple(int(r["step"]) for r in recorded),
        replies=tuple(
            tuple(RecordedReply(x["prompt"], x["reply"], float(x["rule_score"]), x.get("reward")) for x in r["replies"])
            for r in recorded
        ),
        settings=settings,
        facts=run_facts(kind, history, settings),
    )
