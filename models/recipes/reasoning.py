"""How the reasoning checkpoints are trained and evaluated: ``direct``, ``cot``, ``grpo-start`` and ``grpo`` (the
task: models/data/chains.py; the model: models/llama.py at ``CHAIN`` size; GRPO's maths: models/rl.py).

``direct`` and ``cot`` are the same decoder trained the same way — the same steps, batch of problems, padded length
and so the same compute — on the same problems; only the completion differs: the answer alone, or the running value
after each operation and then the answer. Most training problems have 1 … 5 operations (``easy_steps``; a
``table_share`` of them single operations); a share (``hard_share``) has 6, and none more. The bar is held one step
past the bulk, at 6 operations: ``cot`` exact match ≥ ``direct``
exact match + 0.2 on held-out problems.

``grpo-start`` is a model that can work the steps but mostly does not: ``cot`` fine-tuned on a few thousand
(``examples``) formatted examples of 1 … 5 operations, three quarters of them (``direct_share``) answered directly and
the rest worked, so that on a new question it usually writes the answer alone. Both forms are well formed, so the
reward rule does not prefer one; only the answer does. ``grpo`` then trains it with GRPO (DeepSeekMath, 2402.03300) on
questions of 1 … 6 operations: for each question, a group of G sampled completions scored by the rule of
``chains.judge`` (right answer + well-formed), advantages normalised within the group, the clipped objective with a
per-token KL penalty to the start model (models/rl.py). What RL must find is a behaviour — writing the steps pays —
which is what DeepSeek-R1-Zero (2501.12948) saw at scale as the response length grew. An earlier start that wrote the
steps but did not know them (``direct`` fine-tuned on worked examples) gained 0.03 in 600 GRPO steps
(docs/training/reasoning.md, runs 15–17). The bar: held-out exact match at 6 operations ≥ the start's + 0.15; the mix of
1 … 6, every length and pass@8 (DeepSeekMath §5.2.2: RL raised Maj@K but not Pass@K) are reported beside it.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path

import numpy as np
import safetensors.torch
import torch
import torch.nn.functional as F
from torch import nn

from models import gpt, llama, rl, zoo
from models.data import chains
from models.reasoning import (
    BAR_STEPS,
    COLD_START,
    EVAL_N,
    GRPO,
    PASS_K,
    SUPERVISED,
    decode,
    held_out_set,
)
from models.recipes import Recipe, Run, Trained
from models.recipes.common import decoder_recipe
from models.training import Recorder, Trainer, fast_kernels, schedule

# The decoder both styles train: the LLaMA block (models/llama.py: RMSNorm, SwiGLU, rotary positions; full
# multi-head attention here), character ids, context for the longest scratchpad. Rotary positions because a step is
# a rule about relative offsets (the value just written, its operation 17-18 tokens back); GPT-2's learned
# absolute positions had to learn each step's offsets apart (runs 8-9 in docs/training/reasoning.md).
CHAIN = llama.Config(
    vocab=chains.VOCAB, dim=128, n_heads=4, n_kv_heads=4, n_layers=4, hidden=344, max_len=chains.CONTEXT
)


def build() -> llama.Llama:
    return llama.build(asdict(CHAIN))


GRPO_EVAL_STEPS = tuple(range(1, 7))  # the mix GRPO is judged on
LOG_EVERY = 10
SOURCES = {"grpo-start": "cot", "grpo": "grpo-start"}  # the checkpoint each starts from, unless --init-from


# ---- data ------------------------------------------------------------------------------------------------------------


def mixed_steps(rng: np.random.Generator, n: int, easy: int, hard_share: float, table_share: float) -> np.ndarray:
    """Operation counts for ``n`` problems: a ``table_share`` of single operations, a ``hard_share`` of easy + 1
    (one step harder than the bulk), the rest 2 … easy uniformly. Longer chains are never trained on."""
    u = rng.random(n)
    k = rng.integers(2, easy + 1, size=n)
    k[u < hard_share] = easy + 1
    k[u >= 1 - table_share] = 1
    return k


def training_problems(rng: np.random.Generator, ks: np.ndarray) -> list[chains.Problem]:
    return [chains.problems(rng, int(k), 1, split="train")[0] for k in ks]


def completion_loss(model: nn.Module, batch: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    """Cross-entropy of the completion's tokens only (the prompt is given, not learnt)."""
    ids, mask = batch
    logits = model(ids[:, :-1])
    loss = F.cross_entropy(logits.flatten(0, 1), ids[:, 1:].flatten(), reduction="none")
    return (loss * mask.flatten()).sum() / mask.sum()


def supervised_batches(rng: np.random.Generator, style: str, hp: dict):
    """Batches of ``style`` rows: ``table_steps`` batches of single operations first, then the mix."""
    for step in itertools.count():
        if step < hp["table_steps"]:
            ks = np.ones(hp["batch"], dtype=int)
        else:
            ks = mixed_steps(rng, hp["batch"], hp["easy_steps"], hp["hard_share"], hp["table_share"])
        ids, mask = chains.batch(training_problems(rng, ks), style)
        yield torch.from_numpy(ids), torch.from_numpy(mask)


# ---- decoding --------------------------------------------------------------------------------------------------------


def by_length(problems: list[chains.Problem]) -> dict[int, list[int]]:
    """Indices of the problems, grouped by prompt length (prompts of one length decode together; with the slots
    every prompt has one length, so this is one group)."""
    groups: dict[int, list[int]] = {}
    for i, p in enumerate(problems):
        groups.setdefault(len(p.prompt), []).append(i)
    return groups


def greedy_completions(model: llama.Llama, problems: list[chains.Problem]) -> list[str]:
    out = [""] * len(problems)
    for idx in by_length(problems).values():
        texts = decode(model, [problems[i].prompt for i in idx]).completions
        for i, t in zip(idx, texts):
            out[i] = t
    return out


# ---- evaluation ------------------------------------------------------------------------------------------------------


def accuracy(model: llama.Llama, problems: list[chains.Problem]) -> tuple[float, float]:
    """(exact match, well-formed share) of greedy completions judged by the rule."""
    judged = [chains.judge(c, p) for c, p in zip(greedy_completions(model, problems), problems)]
    return float(np.mean([j.correct for j in judged])), float(np.mean([j.well_formed for j in judged]))


def accuracy_by_steps(model: llama.Llama, ks=range(1, chains.MAX_STEPS + 1)) -> dict[str, float]:
    return {str(k): round(accuracy(model, held_out_set(k))[0], 4) for k in ks}


def evaluate_direct(model: llama.Llama, out: Path) -> dict:
    by_k = accuracy_by_steps(model)
    return {"exact_match": by_k[str(BAR_STEPS)], "accuracy_by_steps": by_k}


def evaluate_cot(model: llama.Llama, out: Path) -> dict:
    """cot's own accuracy, and the direct checkpoint's, on the same held-out problems."""
    by_k = accuracy_by_steps(model)
    direct = accuracy_by_steps(zoo.load("direct"))
    return {
        "exact_match": by_k[str(BAR_STEPS)],
        "direct_exact_match": direct[str(BAR_STEPS)],
        "exact_match_gain_over_direct": round(by_k[str(BAR_STEPS)] - direct[str(BAR_STEPS)], 4),
        "accuracy_by_steps": by_k,
        "direct_accuracy_by_steps": direct,
    }


def grpo_eval_set() -> list[chains.Problem]:
    return [p for k in GRPO_EVAL_STEPS for p in held_out_set(k, EVAL_N // 2)]


def writes_steps(completions: list[str]) -> float:
    """The share of completions that write something (steps) before ``=``, rather than the answer at once."""
    return float(np.mean([c.partition("=")[0] != "" for c in completions]))


def sampled_at_k(model: llama.Llama, problems: list[chains.Problem], k: int = PASS_K) -> tuple[float, float]:
    """(pass@k, maj@k) from ``k`` completions per problem sampled at temperature 1 (a fixed seed): the share of problems
    with at least one right answer, and the share whose most frequent answer among the well-formed ones is right
    (a tie goes to the answer sampled first)."""
    s = decode(
        model,
        [p.prompt for p in problems for _ in range(k)],
        temperature=1.0,
        generator=torch.Generator().manual_seed(0),
    )
    judged = [chains.judge(c, problems[i // k]) for i, c in enumerate(s.completions)]
    hits, majority = [], []
    for q, p in enumerate(problems):
        group = judged[q * k : (q + 1) * k]
        hits.append(any(j.correct for j in group))
        answers = Counter(j.answer for j in group if j.well_formed)
        majority.append(bool(answers) and answers.most_common(1)[0][0] == p.answer)
    return float(np.mean(hits)), float(np.mean(majority))


def _start_or_grpo_metrics(model: llama.Llama) -> dict:
    """Held out: exact match at BAR_STEPS operations (one past the start's examples, as the cot bar), on the mix of
    1 … BAR_STEPS, the well-formed share of the mix, exact match by number of operations; at BAR_STEPS, the share of
    greedy completions that write steps, and pass@k and maj@k of sampled ones."""
    mix, formed = accuracy(model, grpo_eval_set())
    by_k = accuracy_by_steps(model)
    bar_set = held_out_set(BAR_STEPS)
    pass_k, maj_k = sampled_at_k(model, bar_set)
    return {
        "exact_match": by_k[str(BAR_STEPS)],
        "mix_exact_match": round(mix, 4),
        "well_formed": round(formed, 4),
        "writes_steps": round(writes_steps(greedy_completions(model, bar_set)), 4),
        f"pass_at_{PASS_K}": round(pass_k, 4),
        f"maj_at_{PASS_K}": round(maj_k, 4),
        "accuracy_by_steps": by_k,
    }


def evaluate_start(model: llama.Llama, out: Path) -> dict:
    return _start_or_grpo_metrics(model)


def evaluate_grpo(model: llama.Llama, out: Path) -> dict:
    ours, start = _start_or_grpo_metrics(model), _start_or_grpo_metrics(zoo.load("grpo-start"))
    return {
        **ours,
        "start_exact_match": start["exact_match"],
        "exact_match_gain": round(ours["exact_match"] - start["exact_match"], 4),
        "start_mix_exact_match": start["mix_exact_match"],
        "mix_exact_match_gain": round(ours["mix_exact_match"] - start["mix_exact_match"], 4),
        "start_writes_steps": start["writes_steps"],
        f"start_pass_at_{PASS_K}": start[f"pass_at_{PASS_K}"],
        f"start_maj_at_{PASS_K}": start[f"maj_at_{PASS_K}"],
        "start_accuracy_by_steps": start["accuracy_by_steps"],
    }


# ---- training --------------------------------------------------------------------------------------------------------


def _task_card(style: str) -> dict:
    return {
        "task": "operation chains: a start digit and k operations (+d, -d, *3/*7/*9), left to right, keeping the last "
        f"digit; completions in the {style!r} style of models/data/chains.py; chance is 0.1 at every k",
        "prompt": f"the question in {chains.MAX_STEPS} operation slots, the unused ones filled with "
        f"{chains.SLOT!r}, then ':' ({chains.PROMPT_LENGTH} characters for every k)",
        "held_out": f"problems of two or more operations whose question's CRC-32 is 0 mod {chains.HOLD_OUT_EVERY} "
        "(never trained on); "
        f"{EVAL_N} per k from seed 1000 + k",
    }


def train_supervised(run: Run, style: str) -> Trained:
    hp = run.settings
    torch.manual_seed(run.seed)
    model = build()
    batches = supervised_batches(np.random.default_rng(run.seed), style, hp)
    trainer = Trainer(model, completion_loss, **schedule(hp))
    with fast_kernels(model):
        while not trainer.done:
            trainer.step(next(batches))
            if len(trainer.losses) % 250 == 0:
                print(f"step {len(trainer.losses)}: loss {trainer.mean_loss()}", flush=True)
    model.cpu().eval()
    return Trained(
        model,
        asdict(CHAIN),
        data=f"operation chains generated from seed {run.seed}: {hp['steps']} × {hp['batch']} problems, the first "
        f"{hp['table_steps']} batches single operations only, then 1 … "
        f"{hp['easy_steps']} operations ({hp['table_share']:.0%} single ones) except {hp['hard_share']:.0%} with "
        f"{hp['easy_steps'] + 1}, none longer; every row padded to {chains.CONTEXT} tokens (equal compute for both "
        "styles)",
        card={**_task_card(style), "style": style},
        stages=[trainer.summary(style)],
    )


def start_from(run: Run, name: str) -> llama.Llama:
    src = run.init_from or zoo.checkpoint_dir(SOURCES[name])
    model = build()
    safetensors.torch.load_model(model, str(src / "model.safetensors"), strict=True)
    return model


def train_cold_start(run: Run) -> Trained:
    """``cot`` fine-tuned on a few formatted examples, most answered directly (``direct_share``), cycled."""
    hp = run.settings
    torch.manual_seed(run.seed)
    model = start_from(run, "grpo-start")
    rng = np.random.default_rng(run.seed)
    examples = training_problems(
        rng, mixed_steps(rng, hp["examples"], SUPERVISED["easy_steps"], 0.0, hp["table_share"])
    )
    styles = np.where(rng.random(len(examples)) < hp["direct_share"], "direct", "cot").tolist()
    ids, mask = (torch.from_numpy(a) for a in chains.batch(examples, styles))

    def batches():
        while True:
            pick = torch.from_numpy(rng.choice(len(examples), hp["batch"]))
            yield ids[pick], mask[pick]

    stream = batches()
    trainer = Trainer(model, completion_loss, **schedule(hp))
    while not trainer.done:
        trainer.step(next(stream))
    model.cpu().eval()
    return Trained(
        model,
        asdict(CHAIN),
        data=f"{hp['examples']} formatted examples (1 … {SUPERVISED['easy_steps']} operations, "
        f"{hp['table_share']:.0%} of them single; {hp['direct_share']:.0%} answered directly, the rest worked) from "
        f"seed {run.seed}, starting from the {SOURCES['grpo-start']} checkpoint",
        card={
            **_task_card("direct or cot"),
            "starts_from": SOURCES["grpo-start"],
            "examples": [p.prompt + p.completion(st) for p, st in zip(examples, styles)],
        },
        stages=[trainer.summary("start")],
    )


# ---- the watched run (grpo-run): GRPO recorded step by step for the page's step slider -------------------------------

RUN_SETTINGS = {
    **GRPO,
    "snapshots": [0, 4, 10, 200],  # weights kept in float16 (1.6 MB each): before, during and after the change
    "record_n": 25,  # held-out problems per k for the recorded accuracy by k (a small set, so it stays cheap)
}
PER_STEP = ("reward", "accuracy", "length", "writes_steps", "equal_rewards", "kl", "clipped")


def record_steps(total: int) -> list[int]:
    """Where the watched run measures accuracy by k and keeps a group: every step of the first ten (the start's
    habit of answering at once changes within them), then sparser."""
    return sorted({s for s in (*range(11), 12, 15, 20, 25, 30, *range(40, total + 1, 20), total) if s <= total})


class RunLog:
    """What ``grpo-run`` keeps. Per RL step n (the batch that step n sampled and learnt from): the mean reward, the
    share of right answers, the mean completion length in tokens, the share of completions that write steps, the
    share of groups whose rewards are all equal (advantages 0: no signal), the KL estimate and clipped share of the
    last update, and the loss (mean of the updates). At ``record_steps``: held-out accuracy by k of the policy after n
    steps (greedy, ``record_n`` problems per k), and one group that policy sampled — the first of its questions whose
    rewards differ, else the first — with each completion, its reward and advantage (``rl.group_advantages``)."""

    def __init__(self, out: Path, hp: dict):
        self.steps = set(record_steps(hp["steps"]))
        self.problems = {k: held_out_set(k, hp["record_n"]) for k in range(1, chains.MAX_STEPS + 1)}
        self.by_k: dict[int, dict[str, float]] = {}
        self.groups: dict[int, dict] = {}
        self.per_step: dict[str, list[float]] = {key: [] for key in PER_STEP}
        self.per_k = hp["record_n"]
        self.at = 0  # the step being recorded: the snapshot's measure reads its accuracy by k
        self.recorder = Recorder(out, hp["snapshots"], measure=lambda m: {"accuracy_by_steps": self.by_k[self.at]})

    def measure(self, step: int, policy: llama.Llama) -> None:
        """Accuracy by k of the policy after ``step`` steps, once per recorded step; its snapshot at step 0."""
        if (step not in self.steps and step not in self.recorder.steps) or step in self.by_k:
            return
        policy.eval()
        self.at = step
        self.by_k[step] = {str(k): round(accuracy(policy, problems)[0], 4) for k, problems in self.problems.items()}
        if step == 0:
            self.recorder.record(0, policy)

    def group(self, step: int, questions: list[chains.Problem], s, rewards: np.ndarray) -> None:
        g = rewards.shape[1]
        q = next((i for i, row in enumerate(rewards) if row.min() != row.max()), 0)
        adv = rl.group_advantages(rewards)[q]
        lengths = s.mask.sum(1).tolist()
        self.groups[step] = {
            "step": step,
            "question": questions[q].prompt,
            "answer": questions[q].answer,
            "completions": s.completions[q * g : (q + 1) * g],
            "lengths": [int(n) for n in lengths[q * g : (q + 1) * g]],
            "rewards": [round(float(r), 4) for r in rewards[q]],
            "advantages": [round(float(a), 4) for a in adv],
        }

    def step(self, n: int, policy: llama.Llama, loss: float, s, judged, rewards: np.ndarray, parts: dict) -> None:
        values = {
            "reward": float(rewards.mean()),
            "accuracy": float(np.mean([j.correct for j in judged])),
            "length": float(s.mask.sum(1).float().mean()),
            "writes_steps": writes_steps(s.completions),
            "equal_rewards": float(np.mean(rewards.min(1) == rewards.max(1))),
            "kl": parts["kl"],
            "clipped": parts["clipped"],
        }
        for key in PER_STEP:
            self.per_step[key].append(round(values[key], 4))
        if n in self.recorder.steps:  # its snapshot's accuracy by k: the weights after step n
            self.measure(n, policy)
        self.recorder.record(n, policy, loss)
        policy.train()

    def history(self) -> dict[str, list]:
        return {**self.recorder.history, **self.per_step}

    def card(self) -> dict:
        return {
            "recorded": {
                "what": "per RL step n in the history: the batch step n sampled and learnt from; at each of these "
                "steps the policy after n steps: greedy exact match on held-out problems by number of operations "
                "k, and one group it sampled (the batch of step n + 1; after the last step, one drawn more)",
                "per_k": self.per_k,
                "steps": [
                    {"step": n, "accuracy_by_steps": self.by_k[n], "group": self.groups[n]} for n in sorted(self.groups)
                ],
            }
        }


def train_grpo(run: Run, record: bool = False) -> Trained:
    """GRPO from ``grpo-start``. ``record`` (the ``grpo-run`` recipe): the same run, watched — every step's numbers
    (``RunLog``), held-out accuracy by k and one sampled group at ``record_steps``, the weights in float16 at
    ``snapshots`` (``training.Recorder``). Watching only decodes greedily or draws from generators of its own after the
    last step: the questions, samples and updates are those of the unwatched run."""
    hp = run.settings
    torch.manual_seed(run.seed)
    rng = np.random.default_rng(run.seed)
    gen = torch.Generator().manual_seed(run.seed)
    policy = start_from(run, "grpo")
    reference = start_from(run, "grpo").eval()
    for p in reference.parameters():
        p.requires_grad_(False)
    opt = torch.optim.AdamW(policy.parameters(), lr=hp["lr"], weight_decay=0.0, betas=(0.9, 0.95))
    monitor = [p for k in GRPO_EVAL_STEPS for p in held_out_set(k, 25)]  # a small held-out set for the curves
    curves: dict[str, list[float]] = {
        k: [] for k in ("step", "reward", "accuracy", "length", "kl", "clipped", "held_out_accuracy")
    }
    seen: list[tuple[float, float, float, float, float]] = []
    log = RunLog(run.out, hp) if record else None
    start = time.perf_counter()
    for step in range(hp["steps"] + 1):
        if log is not None:
            log.measure(step, policy)
        if step % LOG_EVERY == 0 or step == hp["steps"]:
            policy.eval()
            curves["step"].append(step)
            curves["held_out_accuracy"].append(round(accuracy(policy, monitor)[0], 4))
            if seen:
                recent = np.array(seen[-LOG_EVERY:])
                for i, key in enumerate(("reward", "accuracy", "length", "kl", "clipped")):
                    curves[key].append(round(float(recent[:, i].mean()), 4))
            else:
                for key in ("reward", "accuracy", "length", "kl", "clipped"):
                    curves[key].append(None)
            print(
                f"step {step}: held-out {curves['held_out_accuracy'][-1]} reward {curves['reward'][-1]} "
                f"length {curves['length'][-1]} kl {curves['kl'][-1]}",
                flush=True,
            )
        if step == hp["steps"]:
            if log is not None and step in log.steps:  # the group the final policy samples: drawn after the run
                policy.eval()
                questions = training_problems(
                    rng, rng.integers(1, hp["max_steps_in_question"] + 1, size=hp["questions"])
                )
                prompts = [q.prompt for q in questions for _ in range(hp["group"])]
                s = decode(policy, prompts, temperature=hp["temperature"], generator=gen)
                judged = [chains.judge(c, questions[i // hp["group"]]) for i, c in enumerate(s.completions)]
                rewards = np.array([j.reward for j in judged]).reshape(hp["questions"], hp["group"])
                log.group(step, questions, s, rewards)
            break
        # questions of 1 … max_steps_in_question operations mixed in every step (every prompt has one length)
        questions = training_problems(rng, rng.integers(1, hp["max_steps_in_question"] + 1, size=hp["questions"]))
        policy.eval()
        # row q·G + g is question q's g-th completion
        s = decode(
            policy,
            [q.prompt for q in questions for _ in range(hp["group"])],
            temperature=hp["temperature"],
            generator=gen,
        )
        judged = [chains.judge(c, questions[i // hp["group"]]) for i, c in enumerate(s.completions)]
        rewards = np.array([j.reward for j in judged]).reshape(hp["questions"], hp["group"])
        adv = torch.from_numpy(rl.group_advantages(rewards).reshape(-1)).float()
        if log is not None and step in log.steps:
            log.group(step, questions, s, rewards)
        with torch.no_grad():
            logp_ref = gpt.token_logprobs(reference, s.ids)
        policy.train()
        losses = []
        for _ in range(hp["updates"]):
            loss, parts = rl.grpo_loss(
                gpt.token_logprobs(policy, s.ids), s.logp, logp_ref, adv, s.mask, clip=hp["clip"], beta=hp["beta"]
            )
            opt.zero_grad(set_to_none=True)
            loss.backward()
            nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            opt.step()
            losses.append(float(loss.detach()))
        if log is not None:
            log.step(step + 1, policy, float(np.mean(losses)), s, judged, rewards, parts)
        seen.append(
            (
                float(rewards.mean()),
                float(np.mean([j.correct for j in judged])),
                float(s.mask.sum(1).float().mean()),
                parts["kl"],
                parts["clipped"],
            )
        )
    policy.cpu().eval()
    recorded = log.card() if log is not None else {}
    return Trained(
        policy,
        asdict(CHAIN),
        data=f"{hp['steps']} GRPO steps × {hp['questions']} training questions (each of 1 … "
        f"{hp['max_steps_in_question']} operations, uniformly) × G = {hp['group']} sampled completions, from seed "
        f"{run.seed}; reward by chains.judge",
        card={
            **_task_card("cot"),
            "starts_from": SOURCES["grpo"],
            "grpo_curves": curves,
            "reward_rule": f"1 for the right answer in a well-formed completion, + {chains.FORMAT_BONUS} for the "
            "form; 0 for a malformed one",
            **recorded,
        },
        stages=[
            {
                "stage": "grpo",
                "steps": hp["steps"],
                "train_seconds": round(time.perf_counter() - start, 1),
                "final_reward": curves["reward"][-1],
            }
        ],
        snapshots=log.recorder.records if log is not None else [],
        history=log.history() if log is not None else {},
    )


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    return {"tokens": np.array([chains.encode(chains.parse("3+4*3-5").prompt + "3,7")], dtype=np.int64)}


def _recipe(name: str, train, evaluate, bars: dict, defaults: dict) -> Recipe:
    return decoder_recipe(name, "llama", train, evaluate, example_inputs, bars, defaults)


RECIPES = [
    _recipe("direct", lambda run: train_supervised(run, "direct"), evaluate_direct, {}, SUPERVISED),
    _recipe(
        "cot",
        lambda run: train_supervised(run, "cot"),
        evaluate_cot,
        {"exact_match_gain_over_direct": {"min": 0.2}},
        SUPERVISED,
    ),
    _recipe("grpo-start", train_cold_start, evaluate_start, {}, COLD_START),
    _recipe("grpo", train_grpo, evaluate_grpo, {"exact_match_gain": {"min": 0.15}}, GRPO),
    _recipe(
        "grpo-run",
        functools.partial(train_grpo, record=True),
        evaluate_grpo,
        {"exact_match_gain": {"min": 0.15}},
        RUN_SETTINGS,
    ),
]
