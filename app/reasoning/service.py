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
RUN = "grpo-run"  # grpo's recipe, settings and seed, with every step recorded and the weights kept at a few steps
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


def policy_base(name: str) -> str | None:
    """The checkpoint a policy name is of (``grpo-run@10`` -> ``grpo-run``); None for a malformed name."""
    try:
        return checkpoint(name).base
    except ValueError:
        return None


def policies() -> tuple[str, ...]:
    """The group's policies: before and after RL, and the watched run where it is installed."""
    return (*POLICIES, RUN) if checkpoint(RUN).available else POLICIES


@cached  # shared as it is, not copied per call (services.read_only)
def group(text: str, policy: str, size: int, seed: int) -> Group:
    """Sample ``size`` completions of the problem from ``policy`` (torch: models.reasoning's decoder): START, GRPO,
    or RUN at one of its kept steps (``grpo-run@10``)."""
    if policy_base(policy) not in (*POLICIES, RUN):
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


# ---- GRPO watched: the grpo-run checkpoint, recorded step by step (models/recipes/reasoning.py ``RunLog``) -----------

LENGTH_WINDOW = 10  # the text's lengths and shares "at the end": means over this many RL steps' batches
REACHED = 0.9  # the text's "by step n": the first recorded step where held-out accuracy at BAR_STEPS reached this


@dataclass(frozen=True)
class RecordedGroup:
    """One group the policy after ``step`` RL steps sampled during the run (the card's record): the question, each
    completion with its length, the rule's reward and the advantage GRPO gave it."""

    step: int
    question: str  # 3+4*3-5
    answer: int
    completions: tuple[str, ...]
    lengths: np.ndarray  # (G,) completion tokens
    rewards: np.ndarray  # (G,)
    advantages: np.ndarray  # (G,) as the run computed them (rl.group_advantages)
    correct: np.ndarray  # (G,) bool, by the rule
    writes_steps: np.ndarray  # (G,) bool: wrote something before "="


@dataclass(frozen=True)
class Watched:
    """The recorded run: at each of its recorded steps (S), held-out exact match by number of operations (K) and one
    sampled group; per RL step (N), the numbers of the batch that step learnt from."""

    steps: tuple[int, ...]  # (S,) the recorded steps: the slider's
    ks: np.ndarray  # (K,)
    by_k: np.ndarray  # (S, K)
    per_k: int  # held-out problems per k behind by_k
    groups: tuple[RecordedGroup, ...]  # (S,)
    history: dict[str, np.ndarray]  # per RL step: step, reward, accuracy, length, writes_steps, equal_rewards, kl
    snapshots: tuple[int, ...]  # the steps whose weights were kept
    settings: dict
    facts: dict  # the numbers the page's text states (``watched_facts``)


def _recorded_group(g: Mapping) -> RecordedGroup:
    p = chains.parse(g["question"])
    judged = [chains.judge(c, p) for c in g["completions"]]
    return RecordedGroup(
        step=int(g["step"]),
        question=p.question,
        answer=int(g["answer"]),
        completions=tuple(g["completions"]),
        lengths=np.asarray(g["lengths"], dtype=int),
        rewards=np.asarray(g["rewards"], dtype=float),
        advantages=np.asarray(g["advantages"], dtype=float),
        correct=np.array([j.correct for j in judged]),
        writes_steps=np.array([c.partition("=")[0] != "" for c in g["completions"]]),
    )


def watched_facts(steps: tuple[int, ...], ks: np.ndarray, by_k: np.ndarray, history: dict, settings: dict) -> dict:
    """What the page says happened, read from the card: held-out exact match at BAR_STEPS operations and on the
    mix of 1 … max_steps_in_question at the first and last recorded step, the first recorded step where the first
    reached REACHED (0: never), the mean completion length and the share of completions that wrote steps in the
    first RL step's batch and over the last LENGTH_WINDOW steps, and the share of groups whose rewards were all
    equal over the last LENGTH_WINDOW steps; exact match one operation past the trained lengths at the end; the mean
    length of a right, fully worked answer over the trained lengths."""
    col = {int(k): i for i, k in enumerate(ks)}
    bar = by_k[:, col[BAR_STEPS]]
    mix = by_k[:, [col[k] for k in range(1, settings["max_steps_in_question"] + 1)]].mean(1)
    reached = next((s for s, v in zip(steps, bar) if v >= REACHED), 0)
    n = LENGTH_WINDOW
    length, writes, equal = (np.asarray(history[k], float) for k in ("length", "writes_steps", "equal_rewards"))
    return {
        "steps": int(settings["steps"]),
        "k": BAR_STEPS,
        "bar0": float(bar[0]),
        "bar1": float(bar[-1]),
        "mix0": float(mix[0]),
        "mix1": float(mix[-1]),
        "kmax": int(settings["max_steps_in_question"]),
        "reached": int(reached),
        "level": REACHED,
        "n": n,
        "len0": float(length[0]),
        "len1": float(length[-n:].mean()),
        "writes0": float(writes[0]),
        "writes1": float(writes[-n:].mean()),
        "equal1": float(equal[-n:].mean()),
        "full": float(np.mean([worked_length(k) for k in range(1, settings["max_steps_in_question"] + 1)])),
        "near_k": int(settings["max_steps_in_question"]) + 1,
        "near1": float(by_k[-1, col[int(settings["max_steps_in_question"]) + 1]]),
    }


def watched_available() -> bool:
    return checkpoint(RUN).available and "recorded" in card(RUN)


@st.cache_data(show_spinner=False, max_entries=1)
def watched() -> Watched:
    """The grpo-run card's record, for the training section's slider, figures and text."""
    c = card(RUN)
    if not checkpoint(RUN).available or "recorded" not in c or "history" not in c:
        raise InputError("reasoning.error.no_run")
    recorded = sorted(c["recorded"]["steps"], key=lambda r: r["step"])
    ks = np.array(sorted(int(k) for k in recorded[0]["accuracy_by_steps"]))
    by_k = np.array([[r["accuracy_by_steps"][str(k)] for k in ks] for r in recorded], dtype=float)
    keys = ("step", "reward", "accuracy", "length", "writes_steps", "equal_rewards", "kl", "loss")
    history = {k: np.asarray(c["history"][k], dtype=float) for k in keys if k in c["history"]}
    settings = {**reasoning.GRPO, **c.get("settings", {})}
    steps = tuple(int(r["step"]) for r in recorded)
    return Watched(
        steps=steps,
        ks=ks,
        by_k=by_k,
        per_k=int(c["recorded"].get("per_k", 0)),
        groups=tuple(_recorded_group(r["group"]) for r in recorded),
        history=history,
        snapshots=tuple(int(r["step"]) for r in sorted(c.get("snapshots", []), key=lambda r: r["step"])),
        settings=settings,
        facts=watched_facts(steps, ks, by_k, history, settings),
    )
