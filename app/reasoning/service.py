"""The Reasoning page's bridge to models/: the operation-chain task (models/data/chains.py), greedy answers of
``direct`` and ``cot``, groups sampled from the GRPO policy (``grpo-start`` before RL, ``grpo`` after) with the rule's
rewards, GRPO's advantages and token weights (models/rl.py), and the cards' measured curves."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

from app.shared.figures import cached
from app.shared.i18n import InputError
from app.shared.services import checkpoint, read_only
from models import reasoning, rl
from models.data import chains

DIRECT, COT = "direct", "cot"
START, GRPO = "grpo-start", "grpo"
POLICIES = (START, GRPO)  # before RL, after RL
MAX_CHARS = 40  # a start digit and MAX_STEPS operations, with room for spaces
MAX_STEPS = chains.MAX_STEPS
BAR_STEPS = reasoning.BAR_STEPS
CHANCE = 0.1  # every operation permutes the ten digits, so the answer is uniform: chance is 1/10 at every k
EVAL_N = reasoning.EVAL_N  # held-out problems per k: the ones the cards' curves are measured on
PASS_K = reasoning.PASS_K  # samples per problem behind the cards' pass@k and maj@k
SINGLE = 10 * (9 + 9 + len(chains.MULTIPLIERS))  # one-operation problems: all trained, none held out
DEFAULT_K = 3
EXAMPLE_KS = (2, 4, BAR_STEPS, MAX_STEPS)  # one held-out example per difficulty (k = 1 holds none out)
GROUP = reasoning.GRPO["group"]  # G during training, the group slider's default
MAX_GROUP = 16
TEMPERATURE = reasoning.GRPO["temperature"]  # sampling as during training
SIGNS = {"×": "*", "−": "-", "–": "-", "x": "*", "X": "*"}  # what people type for the task's * and -
PVH_ROWS = ("cot", "task", "model", "reward", "group", "updates", "kl", "lr")
PVH_DEPARTURES = ("size", "task", "cot", "start", "reward", "group", "updates", "length")


def worked_length(k: int) -> int:
    """Characters (tokens: the models read characters) of a right, fully worked answer to a k-operation problem, as
    the data writes it: the start, a comma and a value per operation, then ``=``, the answer and ``.`` (2k + 4)."""
    return len(chains.Problem(0, (("+", 1),) * int(k)).completion("cot"))


def available(name: str) -> bool:
    """Whether the checkpoint ``name`` (DIRECT, COT, START, GRPO) is installed."""
    return checkpoint(name).available


def missing(*names: str) -> list[InputError]:
    """What to show for each of the checkpoints ``names`` that is not installed (with the command that trains it)."""
    return [checkpoint(name).missing() for name in names if not checkpoint(name).available]


def card(name: str) -> Mapping:
    """The checkpoint's card (read-only; empty when there is none)."""
    return checkpoint(name).card


# ---- the problem -----------------------------------------------------------------------------------------------------


def clean(text: str) -> str:
    """The problem as the task writes it: no spaces, no closing colon, × and − as * and -."""
    for sign, op in SIGNS.items():
        text = text.replace(sign, op)
    return re.sub(r"\s+", "", text).removesuffix(":")


def problem(text: str) -> chains.Problem:
    """The problem a typed text states, or an InputError that says, in the user's language, what is wrong with it
    (``chains.parse`` decides; its English message is not shown)."""
    if len(text) > MAX_CHARS:
        raise InputError("reasoning.error.long", n=len(text), max=MAX_CHARS)
    s = clean(text)
    if not s:
        raise InputError("reasoning.error.empty")
    bad = next((c for c in s if c not in "0123456789+-*"), None)
    if bad is not None:
        raise InputError("reasoning.error.character", char=bad)
    if not s[0].isdigit():
        raise InputError("reasoning.error.start")
    if len(s) == 1:
        raise InputError("reasoning.error.no_ops")
    if not re.fullmatch(r"\d(?:[+\-*]\d)+", s):
        raise InputError("reasoning.error.form")
    ops = re.findall(r"[+\-*]\d", s)
    if len(ops) > MAX_STEPS:
        raise InputError("reasoning.error.too_many", n=len(ops), max=MAX_STEPS)
    for op in ops:
        if op[1] == "0" or (op[0] == "*" and int(op[1]) not in chains.MULTIPLIERS):
            raise InputError("reasoning.error.operand", op=op)
    try:
        return chains.parse(s)
    except ValueError:
        raise InputError("reasoning.error.form") from None


def pretty(question: str) -> str:
    """A question with the signs people read: 3+4×3−5 (a label, also safe from Markdown's * emphasis)."""
    return question.replace("*", "×").replace("-", "−")


def text_of(p: chains.Problem) -> str:
    """What the input box shows for a problem: the question as people write it (``3+4*3-5``)."""
    return p.question


@cached  # shared as it is (a tuple of strings): every problem move reads it, for the examples and the drawn problem
def held_out(k: int) -> tuple[str, ...]:
    """The held-out problems of ``k`` operations that the cards' accuracies were measured on, in order."""
    if not 1 <= k <= MAX_STEPS:
        raise InputError("reasoning.error.k", max=MAX_STEPS)
    return tuple(text_of(p) for p in reasoning.held_out_set(k, EVAL_N))


def drawn(k: int, index: int) -> str:
    """Held-out problem number ``index`` (0 … EVAL_N − 1) of ``k`` operations."""
    return held_out(k)[index % EVAL_N]


def examples() -> tuple[str, ...]:
    return tuple(drawn(k, 0) for k in EXAMPLE_KS)


def default_problem() -> str:
    return drawn(DEFAULT_K, 0)


# ---- 1 · chain of thought, live --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One model's greedy completion of a problem, judged by the rule, with each written token's probability."""

    name: str
    completion: str
    tokens: tuple[str, ...]  # the completion, one character per token
    probs: np.ndarray  # (n,) p(token | prompt, earlier tokens) of each written token
    well_formed: bool
    answer: int | None
    correct: bool
    reward: float
    steps: tuple[int | None, ...]  # cot: the value written for each operation (None where it wrote none)
    backend: str
    device: str
    ms: float


@dataclass(frozen=True)
class Answers:
    question: str  # 3+4*3-5
    prompt: str  # what the models read (chains.Problem.prompt)
    start: int
    k: int
    ops: tuple[str, ...]  # "+4", "×3", "−5"
    values: tuple[int, ...]  # the true running value after each operation
    answer: int
    direct: Answer
    cot: Answer
    backend: str
    device: str
    ms: float


def shown(op: str, d: int) -> str:
    return {"+": "+", "-": "−", "*": "×"}[op] + str(d)


def written_steps(completion: str, k: int) -> tuple[int | None, ...]:
    """The running values a completion wrote before ``=``, aligned with the ``k`` operations (None where it wrote
    none, or not one digit)."""
    return tuple((chains.written_values(completion) + [None] * k)[:k])


def _answer(name: str, p: chains.Problem, backend: str) -> Answer:
    ckpt = checkpoint(name)  # its missing message when it is not installed
    model = ckpt.sampling_model
    completion = reasoning.decode(model, [p.prompt]).completions[0]
    ids = np.array([chains.encode(p.prompt + completion)], dtype=np.int64)
    res = ckpt.run({"tokens": ids}, (), ckpt.backend(backend))
    logits = res.outputs["logits"][0].astype(np.float64)  # (T, V)
    z = logits - logits.max(-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(-1, keepdims=True))
    start = len(p.prompt)  # position start - 1 predicts the completion's first token
    probs = np.exp([logp[start - 1 + i, ids[0, start + i]] for i in range(len(completion))])
    j = chains.judge(completion, p)
    return Answer(
        name=name,
        completion=completion,
        tokens=tuple(completion),
        probs=probs,
        well_formed=j.well_formed,
        answer=j.answer,
        correct=j.correct,
        reward=j.reward,
        steps=written_steps(completion, p.k),
        backend=res.backend,
        device=res.device,
        ms=res.ms,
    )


@cached  # shared as it is, not copied per call (services.read_only): three parts of a problem move read it
def answers(text: str, backend: str = "torch") -> Answers:
    """``direct`` and ``cot`` answer the problem greedily; the probabilities come from a forward pass of the whole
    sequence on the chosen backend."""
    p = problem(text)
    start = time.perf_counter()
    direct, cot = _answer(DIRECT, p, backend), _answer(COT, p, backend)
    return read_only(
        Answers(
            question=p.question,
            prompt=p.prompt,
            start=p.start,
            k=p.k,
            ops=tuple(shown(op, d) for op, d in p.ops),
            values=tuple(p.values()),
            answer=p.answer,
            direct=direct,
            cot=cot,
            backend=cot.backend,
            device=cot.device,
            ms=(time.perf_counter() - start) * 1e3,
        )
    )


@dataclass(frozen=True)
class Curves:
    """Held-out exact match against the number of operations, from the cot card (both models, same problems)."""

    ks: np.ndarray
    cot: np.ndarray
    direct: np.ndarray
    bar_steps: int
    cot_at_bar: float
    direct_at_bar: float
    gain: float | None
    bar_gain: float | None  # the least gain the card's bars ask for
    easy_steps: int  # most training problems have 1 … easy_steps operations


def accuracy_curves() -> Curves:
    c = card(COT)
    m = c.get("metrics", {})
    if "accuracy_by_steps" not in m or "direct_accuracy_by_steps" not in m:
        raise InputError("reasoning.error.no_curve")
    ks = sorted(int(k) for k in m["accuracy_by_steps"])
    settings = {**reasoning.SUPERVISED, **c.get("settings", {})}
    return Curves(
        ks=np.array(ks),
        cot=np.array([m["accuracy_by_steps"][str(k)] for k in ks], dtype=float),
        direct=np.array([m["direct_accuracy_by_steps"][str(k)] for k in ks], dtype=float),
        bar_steps=BAR_STEPS,
        cot_at_bar=float(m["exact_match"]),
        direct_at_bar=float(m["direct_exact_match"]),
        gain=m.get("exact_match_gain_over_direct"),
        bar_gain=c.get("bars", {}).get("exact_match_gain_over_direct", {}).get("min"),
        easy_steps=int(settings.get("easy_steps", BAR_STEPS - 1)),
    )


# ---- 2 · GRPO, live --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Group:
    """G completions of one prompt sampled from the policy at the training temperature, scored by the rule; the
    group-normalised advantages and how hard the first GRPO update would push each completion's tokens."""

    policy: str
    question: str
    completions: tuple[str, ...]
    token_probs: tuple[np.ndarray, ...]  # per completion: each sampled token's probability under the policy
    well_formed: np.ndarray  # (G,) bool
    answers: tuple[int | None, ...]
    correct: np.ndarray  # (G,) bool
    rewards: np.ndarray  # (G,)
    advantages: np.ndarray  # (G,) (r − mean) / (std + ε)
    lengths: np.ndarray  # (G,) completion tokens |o_i|
    weights: np.ndarray  # (G,) Â_i / |o_i| / G: d J / d log π of each of the completion's tokens at ρ = 1
    backend: str
    device: str
    ms: float


@cached  # shared as it is, not copied per call (services.read_only)
def group(text: str, policy: str, size: int, seed: int) -> Group:
    """Sample ``size`` completions of the problem from ``policy`` (torch: models.reasoning's decoder)."""
    if policy not in POLICIES:
        raise InputError("reasoning.error.policy")
    if not 2 <= size <= MAX_GROUP:
        raise InputError("reasoning.error.group", max=MAX_GROUP)
    p = problem(text)
    model = checkpoint(policy).sampling_model  # the checkpoint's missing message when it is not installed
    gen = torch.Generator().manual_seed(int(seed))
    start = time.perf_counter()
    s = reasoning.decode(model, [p.prompt] * size, temperature=TEMPERATURE, generator=gen)
    ms = (time.perf_counter() - start) * 1e3
    mask, logp = s.mask.numpy(), s.logp.numpy()
    judged = [chains.judge(c, p) for c in s.completions]
    rewards = np.array([j.reward for j in judged])
    advantages = rl.group_advantages(rewards[None])[0]
    lengths = mask.sum(axis=1)
    return read_only(
        Group(
            policy=policy,
            question=p.question,
            completions=tuple(s.completions),
            token_probs=tuple(np.exp(logp[i][mask[i]]) for i in range(size)),
            well_formed=np.array([j.well_formed for j in judged]),
            answers=tuple(j.answer for j in judged),
            correct=np.array([j.correct for j in judged]),
            rewards=rewards,
            advantages=advantages,
            lengths=lengths,
            weights=rl.token_weights(advantages, lengths),
            backend="torch",
            device=str(next(model.parameters()).device),
            ms=ms,
        )
    )


@dataclass(frozen=True)
class Training:
    """What the grpo card recorded: its curves (lists; entries may be None before the first logged batch), the
    held-out results before and after, and the task's own length scale."""

    curves: dict
    metrics: dict
    settings: dict
    reward_rule: str
    full_length: float  # mean tokens of a right, fully worked completion for the training questions (2k + 4)
    by_steps: tuple[np.ndarray, np.ndarray, np.ndarray] | None  # k, held-out exact match before and after RL
    mix: dict  # exact match on the mix of 1 … BAR_STEPS operations: start, grpo, gain (empty if not in the card)


def training() -> Training:
    c = card(GRPO)
    if "grpo_curves" not in c:
        raise InputError("reasoning.error.no_training")
    settings = {**reasoning.GRPO, **c.get("settings", {})}
    ks = np.arange(1, settings["max_steps_in_question"] + 1)
    m = c.get("metrics", {})
    by_steps = None
    if "accuracy_by_steps" in m and "start_accuracy_by_steps" in m:
        measured = np.array(sorted(int(k) for k in m["accuracy_by_steps"]))
        by_steps = (
            measured,
            np.array([m["start_accuracy_by_steps"][str(k)] for k in measured], dtype=float),
            np.array([m["accuracy_by_steps"][str(k)] for k in measured], dtype=float),
        )
    mix = {}
    if {"mix_exact_match", "start_mix_exact_match", "mix_exact_match_gain"} <= m.keys():
        mix = {"start": m["start_mix_exact_match"], "grpo": m["mix_exact_match"], "gain": m["mix_exact_match_gain"]}
    return Training(
        curves={name: list(values) for name, values in c["grpo_curves"].items()},
        metrics=dict(m),
        settings=settings,
        reward_rule=c.get("reward_rule", ""),
        full_length=float(np.mean([worked_length(k) for k in ks])),
        by_steps=by_steps,
        mix=mix,
    )


@dataclass(frozen=True)
class Sharpening:
    """Before and after RL at BAR_STEPS operations, from the grpo card: greedy exact match, maj@K and pass@K of
    PASS_K samples, and the share of greedy completions that write the steps. Each is (before, after)."""

    greedy: tuple[float, float]
    maj: tuple[float, float]
    passed: tuple[float, float]
    steps: tuple[float, float]

    @property
    def mostly_reranking(self) -> bool:
        """pass@K rose by less than half as much as the greedy answer: RL mostly made a reachable answer come
        first (DeepSeekMath §5.2.2's reading of its Figure 7)."""
        return self.passed[1] - self.passed[0] < 0.5 * (self.greedy[1] - self.greedy[0])


def sharpening(metrics: dict) -> Sharpening | None:
    keys = ("exact_match", f"maj_at_{PASS_K}", f"pass_at_{PASS_K}", "writes_steps")
    if not all(k in metrics and f"start_{k}" in metrics for k in keys):
        return None
    pairs = [(float(metrics[f"start_{k}"]), float(metrics[k])) for k in keys]
    return Sharpening(*pairs)


def first_last(values: list) -> tuple[float, float] | None:
    """The first and last recorded (non-null) values of a curve."""
    v = [x for x in values if x is not None]
    return (float(v[0]), float(v[-1])) if v else None


def grpo_settings() -> dict:
    """GRPO's settings as trained (the grpo card's, else the training defaults)."""
    return {**reasoning.GRPO, **card(GRPO).get("settings", {})}


@st.cache_data(show_spinner=False, max_entries=1)
def start_settings() -> dict:
    """The settings ``grpo-start`` was trained with (its card's, else the training defaults). Cached: the card also
    lists its 2,048 training examples, which the page never needs to parse on a rerun."""
    return {**reasoning.COLD_START, **card(START).get("settings", {})}


def params(name: str = COT) -> int | None:
    return card(name).get("params")


def chains_bonus() -> float:
    return chains.FORMAT_BONUS


def here() -> dict:
    """Our side of "in the paper vs here", for the strings: sizes and GRPO's settings as trained."""
    s, start = grpo_settings(), start_settings()
    return {
        "params": f"{params(COT) or 0:,}",
        "group": s["group"],
        "updates": s["updates"],
        "beta": s["beta"],
        "clip": s["clip"],
        "lr": f"{s['lr']:.0e}".replace("e-0", "e-"),
        "questions": s["questions"],
        "steps": s["steps"],
        "kmax": s["max_steps_in_question"],
        "bonus": chains.FORMAT_BONUS,
        "examples": start["examples"],
        "share": start["direct_share"],
        "max": MAX_STEPS,
        "longest": worked_length(MAX_STEPS),
    }
