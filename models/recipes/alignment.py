"""How the alignment checkpoints are trained and evaluated: ``sft``, ``reward``, ``ppo`` and ``dpo`` (the task and the
preference rule: models/data/instruct.py; the reward model and value head: models/alignment.py; the losses:
models/rl.py). Each starts from the one before it, as InstructGPT's three steps do (2203.02155, Figure 2):

1. ``sft`` — our ``gpt`` fine-tuned on demonstrations (a speaker's real next line, then END) of the training plays.
   Bar: ``format_accuracy`` ≥ 0.9 on held-out prompts (validation plays), greedy.
2. ``reward`` — the ``sft`` trunk with a scalar head, trained with the Bradley–Terry loss on preference pairs: two
   replies *sampled from sft* for one prompt, labelled by the rule (``instruct.prefer``), ties dropped. The policy
   never sees the rule; only these pairs carry it. Bar: held-out pairwise accuracy ≥ 0.8 (pairs from validation
   prompts).
3. ``ppo`` — ``sft`` trained by PPO against ``reward`` with a per-token KL penalty to ``sft`` (InstructGPT Eq. 2
   without the pre-training mix): per-token rewards −β_KL (log π − log π_sft), plus the reward model's score at the
   last token; GAE; the clipped surrogate and a clipped value loss on a value head sharing the policy's trunk.
   ``dpo`` — ``sft`` trained by DPO (2305.18290) on the same pairs, ``sft`` as the reference.
   Bars, for both: ``win_rate_vs_sft`` ≥ 0.65, judged by the rule, greedy replies to held-out prompts, a tie counting
   half; their KL to ``sft`` is reported (``kl_to_sft``: the exact per-token KL of the next-token distributions,
   summed over the reply, mean over prompts).

PPO's card also records the run's curves (every ``log_every`` steps on a fixed set of held-out prompts: the learned
reward, the rule's score, the win rate against sft, KL): whether the learned reward keeps rising after the rule's
verdict stops (over-optimisation) is read from them.
"""

from __future__ import annotations

import copy
import functools
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from models import alignment, gpt, metrics, rl, zoo
from models.alignment import complete
from models.data import instruct
from models.data.instruct import CURVE_PROMPTS, encode, end_id, reply_text
from models.recipes import Recipe, Run, Sweep, Trained
from models.recipes.common import decoder_recipe, initial_model, source_tokenizer
from models.training import Recorder, Trainer, fast_kernels, schedule, snapshot_steps

SOURCES = {"sft": "gpt", "reward": "sft", "ppo": "sft", "dpo": "sft"}  # each starts from, unless --init-from
TASK = (
    "the prompt gives a speaker's line and asks for a reply in another speaker's voice, in one line; a "
    f"demonstration is the reply the play gives, then {instruct.END}; well formed: one line of 1 … "
    f"{instruct.MAX_WORDS} words, then {instruct.END}"
)
EVAL_PROMPTS = 400  # held-out prompts for the format and the win rate

SFT = {"steps": 600, "batch": 32, "lr": 1e-3, "warmup": 50, "weight_decay": 0.01}
# replies sampled per prompt, for this many training prompts; a pair is two of them that the rule tells apart
PAIRS = {"prompts": 8000, "samples": 4, "temperature": 1.0}
REWARD = {"epochs": 2, "batch": 32, "lr": 3e-4, "warmup": 20, "weight_decay": 0.01, **PAIRS}
PPO = {
    "steps": 150,
    "prompts": 64,  # per step, all of one token length (decoded together)
    "epochs": 2,  # passes over each sampled batch
    "minibatch": 32,
    "lr": 5e-5,
    "kl_coef": alignment.PPO_KL_COEF,
    "clip": 0.2,
    "gamma": 1.0,
    "lam": 0.95,
    "vf_coef": 0.5,
    "temperature": 1.0,
    "log_every": 10,
}
DPO = {"epochs": 2, "batch": 32, "lr": 1e-4, "warmup": 20, "weight_decay": 0.0, "beta": alignment.DPO_BETA, **PAIRS}


# ---- tokens ---------------------------------------------------------------------------------------------------------


def source(run: Run, name: str) -> Path:
    return run.init_from or zoo.checkpoint_dir(SOURCES[name])


def padded(rows: list[list[int]]) -> torch.Tensor:
    """Right-padded with END (id 0 is END: padding after it is never read by a causal model)."""
    width = max(len(r) for r in rows)
    return torch.tensor([r + [0] * (width - len(r)) for r in rows])


# ---- decoding -------------------------------------------------------------------------------------------------------


def response_mask(prompt_lens: list[int], reply_lens: list[int], width: int) -> torch.Tensor:
    """(N, width - 1) bool: the positions whose next token is a reply token."""
    mask = torch.zeros(len(prompt_lens), width - 1, dtype=torch.bool)
    for i, (p, r) in enumerate(zip(prompt_lens, reply_lens)):
        mask[i, p - 1 : p - 1 + r] = True
    return mask


def sequence_logprob(model: gpt.GPT, prompts: list[list[int]], replies: list[list[int]]) -> torch.Tensor:
    """log π(reply | prompt) summed over the reply's tokens, (N,); differentiable."""
    ids = padded([p + r for p, r in zip(prompts, replies)])
    mask = response_mask([len(p) for p in prompts], [len(r) for r in replies], ids.shape[1])
    return (gpt.token_logprobs(model, ids) * mask).sum(1)


# ---- data -----------------------------------------------------------------------------------------------------------


def demonstrations(tok, rng: np.random.Generator, batch: int) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """Endless SFT batches: (ids (B, L) prompt + reply + END, mask (B, L - 1) the reply's tokens and END)."""
    pool = instruct.all_examples("train")
    encoded = [(encode(tok, e.prompt), encode(tok, e.reply) + [end_id(tok)]) for e in pool]
    while True:
        rows = [encoded[i] for i in rng.integers(0, len(encoded), batch)]
        ids = padded([p + r for p, r in rows])
        yield ids, response_mask([len(p) for p, _ in rows], [len(r) for _, r in rows], ids.shape[1])


def reply_loss(model: gpt.GPT, batch: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    ids, mask = batch
    return -(gpt.token_logprobs(model, ids) * mask).sum() / mask.sum()


def preference_pairs(
    sft: gpt.GPT, tok, split: str, seed: int, samples: int = 4, temperature: float = 1.0, n: int | None = None
) -> list[dict]:
    """Pairs of replies sampled from ``sft`` for one prompt that the rule tells apart: for every prompt of ``split``
    (or ``n`` of them), ``samples`` replies; the pair is the best-scored reply and a worse one picked at random
    (prompts whose replies all tie give none). Each pair: prompt, chosen and rejected ids, and texts."""
    examples = instruct.examples(split, n or 10**9, seed)
    prompts = [encode(tok, e.prompt) for e in examples]
    gen = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    replies = [
        complete(sft, prompts, temperature=temperature, generator=gen)
        for _ in tqdm(range(samples), desc=f"sampling {len(prompts)} prompts", file=sys.stderr)
    ]
    pairs = []
    for i, (e, p) in enumerate(zip(examples, prompts)):
        texts = [reply_text(tok, r[i]) for r in replies]
        scores = np.array([instruct.judge(t, ended).score for t, ended in texts])
        best = int(scores.argmax())
        worse = np.flatnonzero(scores < scores[best])
        if len(worse):
            j = int(rng.choice(worse))
            pairs.append(
                {
                    "prompt": e.prompt,
                    "prompt_ids": p,
                    "chosen_ids": replies[best][i],
                    "rejected_ids": replies[j][i],
                    "chosen": texts[best][0],
                    "rejected": texts[j][0],
                }
            )
    return pairs


def pair_batches(pairs: list[dict], batch: int, epochs: int, rng: np.random.Generator) -> Iterator[list[dict]]:
    for _ in range(epochs):
        order = rng.permutation(len(pairs))
        for s in range(0, len(order) - batch + 1, batch):
            yield [pairs[i] for i in order[s : s + batch]]


def pair_steps(n_pairs: int, hp: dict) -> int:
    return hp["epochs"] * (n_pairs // hp["batch"])


def fit_on_pairs(
    model: nn.Module, loss, pairs: list[dict], hp: dict, seed: int, desc: str, recorder: Recorder | None = None
) -> Trainer:
    """``hp["epochs"]`` passes over the pairs in shuffled batches of ``hp["batch"]``; the model is left in eval mode.
    A ``recorder`` (``training.Recorder``) is called after every step."""
    steps = pair_steps(len(pairs), hp)
    trainer = Trainer(
        model, loss, steps=steps, lr=hp["lr"], warmup=hp["warmup"], weight_decay=hp["weight_decay"], recorder=recorder
    )
    batches = pair_batches(pairs, hp["batch"], hp["epochs"], np.random.default_rng(seed))
    with fast_kernels(model):
        for batch in tqdm(batches, total=steps, desc=desc, file=sys.stderr, mininterval=5.0):
            trainer.step(batch)
    model.eval()
    return trainer


def last_rewards(rm: alignment.RewardModel, prompts: list[list[int]], replies: list[list[int]]) -> torch.Tensor:
    """The reward model's score of each (prompt, reply), read at the reply's last token, (N,)."""
    ids = padded([p + r for p, r in zip(prompts, replies)])
    last = torch.tensor([len(p) + len(r) - 1 for p, r in zip(prompts, replies)])
    return rm(ids)[torch.arange(len(last)), last]


# ---- evaluation -----------------------------------------------------------------------------------------------------


def held_out_prompts(tok, n: int = EVAL_PROMPTS) -> list[list[int]]:
    return [encode(tok, e.prompt) for e in instruct.examples("validation", n, seed=1)]


def judged(tok, replies: list[list[int]]) -> list[instruct.Judged]:
    return [instruct.judge(*reply_text(tok, r)) for r in replies]


def format_accuracy(tok, replies: list[list[int]]) -> float:
    return float(np.mean([j.well_formed for j in judged(tok, replies)]))


def win_rate(tok, replies: list[list[int]], baseline: list[list[int]]) -> float:
    """How often the rule prefers each reply to the baseline's for the same prompt, a tie counting half."""
    verdicts = [instruct.prefer(a, b) for a, b in zip(judged(tok, replies), judged(tok, baseline))]
    return float(np.mean([(v + 1) / 2 for v in verdicts]))


@torch.inference_mode()
def kl_to(model: gpt.GPT, ref: gpt.GPT, prompts: list[list[int]], replies: list[list[int]]) -> float:
    """Mean over prompts of Σ_t KL(π(·|x, y_<t) ‖ π_ref(·|x, y_<t)) along the model's own reply."""
    total = []
    for s in range(0, len(prompts), 64):
        p, r = prompts[s : s + 64], replies[s : s + 64]
        ids = padded([a + b for a, b in zip(p, r)])
        mask = response_mask([len(a) for a in p], [len(b) for b in r], ids.shape[1])
        kl = rl.kl_per_token(model(ids[:, :-1]), ref(ids[:, :-1]))
        total += (kl * mask).sum(1).tolist()
    return float(np.mean(total))


def distinct(replies: list[list[int]]) -> float:
    """The number of different replies over the number of replies."""
    return len({tuple(r) for r in replies}) / len(replies)


def evaluate_sft(model: gpt.GPT, out: Path) -> dict:
    tok = metrics.tokenizer(out)
    prompts = held_out_prompts(tok)
    base = zoo.load("gpt") if "gpt" in zoo.available() else None
    found = {"format_accuracy": round(format_accuracy(tok, complete(model, prompts)), 4)}
    if base is not None:  # the pre-trained model asked the same: how much of the format SFT taught
        found["gpt_format_accuracy"] = round(format_accuracy(tok, complete(base, prompts)), 4)
    return found


def evaluate_policy(model: gpt.GPT, out: Path) -> dict:
    tok = metrics.tokenizer(out)
    prompts = held_out_prompts(tok)
    sft = zoo.load("sft")
    mine, theirs = complete(model, prompts), complete(sft, prompts)
    warmth = [j.score for j in judged(tok, mine) if j.well_formed]
    return {
        "win_rate_vs_sft": round(win_rate(tok, mine, theirs), 4),
        "kl_to_sft": round(kl_to(model, sft, prompts, mine), 4),
        "format_accuracy": round(format_accuracy(tok, mine), 4),
        # the share of held-out prompts with a reply of their own: 1 / EVAL_PROMPTS when one reply serves all
        "distinct_replies": round(distinct(mine), 4),
        "sft_distinct_replies": round(distinct(theirs), 4),
        "warmth": round(float(np.mean(warmth)) if warmth else 0.0, 4),
        "sft_warmth": round(float(np.mean([j.score for j in judged(tok, theirs) if j.well_formed])), 4),
    }


@torch.inference_mode()
def evaluate_reward(model: alignment.RewardModel, out: Path) -> dict:
    tok = metrics.tokenizer(out)
    pairs = preference_pairs(zoo.load("sft"), tok, "validation", seed=1, n=EVAL_PROMPTS * 2)
    chosen = last_rewards(model, [p["prompt_ids"] for p in pairs], [p["chosen_ids"] for p in pairs])
    rejected = last_rewards(model, [p["prompt_ids"] for p in pairs], [p["rejected_ids"] for p in pairs])
    return {"pairwise_accuracy": round(float((chosen > rejected).float().mean()), 4), "held_out_pairs": len(pairs)}


# ---- training -------------------------------------------------------------------------------------------------------


def starting_policy(run: Run, name: str) -> tuple[gpt.GPT, dict, object]:
    src = source(run, name)
    model, config = initial_model(Run(run.seed, run.out, run.settings, src), gpt.build, {})
    return model, config, source_tokenizer(Run(run.seed, run.out, run.settings, src))


def train_sft(run: Run) -> Trained:
    hp = run.settings
    model, config, tok = starting_policy(run, "sft")
    trainer = Trainer(model, reply_loss, **schedule(hp))
    batches = demonstrations(tok, np.random.default_rng(run.seed), hp["batch"])
    with fast_kernels(model):
        for _ in tqdm(range(hp["steps"]), desc="sft", file=sys.stderr, mininterval=5.0):
            trainer.step(next(batches))
    model.eval()
    return Trained(
        model,
        config,
        data=f"{len(instruct.all_examples('train')):,} demonstrations of the training plays (models/data/instruct.py)",
        card={"task": TASK, "starts_from": str(source(run, "sft").name)},
        files={"tokenizer.json": tok.to_str()},
        stages=[trainer.summary("supervised fine-tuning")],
    )


def train_reward(run: Run) -> Trained:
    hp = run.settings
    sft, config, tok = starting_policy(run, "reward")
    start = time.perf_counter()
    pairs = preference_pairs(sft.eval(), tok, "train", run.seed, hp["samples"], hp["temperature"], hp["prompts"])
    sampled_s = time.perf_counter() - start
    rm = alignment.reward_from_policy(sft)

    def loss(model, batch):
        prompts = [p["prompt_ids"] for p in batch]
        chosen = last_rewards(model, prompts, [p["chosen_ids"] for p in batch])
        rejected = last_rewards(model, prompts, [p["rejected_ids"] for p in batch])
        return rl.bradley_terry_loss(chosen, rejected)

    trainer = fit_on_pairs(rm, loss, pairs, hp, run.seed, "reward")
    return Trained(
        rm,
        config,
        data=f"{len(pairs):,} preference pairs: {hp['samples']} replies sampled from sft per training prompt, "
        "labelled by the rule of models/data/instruct.py, ties dropped",
        card={
            "pairs": len(pairs),
            "starts_from": str(source(run, "reward").name),
            "examples": [{k: p[k] for k in ("prompt", "chosen", "rejected")} for p in pairs[:20]],
        },
        files={"tokenizer.json": tok.to_str()},
        stages=[{"stage": "sampling pairs from sft", "seconds": round(sampled_s, 1)}, trainer.summary("Bradley–Terry")],
    )


# ---- the watched runs (ppo-run, dpo-run): ppo and dpo trained again, recorded step by step, weights not kept ---------

REPLY_PROMPTS = 4  # held-out prompts whose greedy replies the watched runs keep at their recorded steps


def reply_prompts(tok) -> list[list[int]]:
    return held_out_prompts(tok, REPLY_PROMPTS)


@torch.inference_mode()
def replies_at(step: int, policy: gpt.GPT, rm: alignment.RewardModel | None, tok, prompts) -> dict:
    """The policy's greedy replies to ``prompts`` at ``step``, each with the rule's score and (PPO) the reward
    model's."""
    was_training = policy.training
    policy.eval()
    mine = complete(policy, prompts)
    policy.train(was_training)
    texts = [reply_text(tok, r) for r in mine]
    scores = last_rewards(rm, prompts, mine).tolist() if rm is not None else [None] * len(mine)
    return {
        "step": step,
        "replies": [
            {
                "prompt": tok.decode(p),
                "reply": text,
                "rule_score": instruct.judge(text, ended).score,
                **({"reward": round(float(r), 4)} if r is not None else {}),
            }
            for p, (text, ended), r in zip(prompts, texts, scores)
        ],
    }


class DpoLog:
    """What ``dpo-run`` keeps per optimiser step of its batch: the implicit rewards β log π/π_ref of the chosen and
    the rejected replies (mean over the batch), the share of pairs where the chosen one's is higher, and the policy's
    log-probabilities of both (summed over the reply, mean over the batch) with the reference's; and, at
    ``snapshot_steps``-spaced steps, the greedy replies to REPLY_PROMPTS held-out prompts."""

    KEYS = ("chosen_reward", "rejected_reward", "reward_accuracy", "logp_chosen", "logp_rejected", "ref_chosen",
            "ref_rejected")  # fmt: skip

    def __init__(self, out: Path, tok, total: int, policy: gpt.GPT):
        self.tok, self.prompts = tok, reply_prompts(tok)
        self.steps = set(snapshot_steps(total, 6, 4))
        self.last: dict[str, float] = {}
        self.replies = [replies_at(0, policy, None, tok, self.prompts)]
        self.n = 0
        self.recorder = Recorder(out, [], extra=self.extra)

    def batch(self, logp_c, logp_r, ref_c, ref_r, chosen, rejected) -> None:
        values = (chosen, rejected, (chosen > rejected).float(), logp_c, logp_r, ref_c, ref_r)
        self.last = {k: round(float(v.detach().float().mean()), 4) for k, v in zip(self.KEYS, values)}

    def extra(self, model: gpt.GPT) -> dict:
        self.n += 1
        if self.n in self.steps:
            self.replies.append(replies_at(self.n, model, None, self.tok, self.prompts))
        return dict(self.last)

    def card(self) -> dict:
        return {"history": self.recorder.history, "replies": self.replies}


def train_dpo(run: Run, record: bool = False) -> Trained:
    """DPO from ``sft`` on pairs sampled from it. ``record`` (``dpo-run``): every step's implicit rewards and
    log-probabilities and a few replies at some steps (``DpoLog``); recording reads what the loss computed and
    decodes greedily, so the steps are those of the unrecorded run."""
    hp = run.settings
    policy, config, tok = starting_policy(run, "dpo")
    ref = copy.deepcopy(policy).eval().requires_grad_(False)
    start = time.perf_counter()
    pairs = preference_pairs(ref, tok, "train", run.seed, hp["samples"], hp["temperature"], hp["prompts"])
    with torch.inference_mode():
        for s in range(0, len(pairs), 64):
            part = pairs[s : s + 64]
            prompts = [p["prompt_ids"] for p in part]
            for side in ("chosen", "rejected"):
                for p, v in zip(part, sequence_logprob(ref, prompts, [p[f"{side}_ids"] for p in part]).tolist()):
                    p[f"ref_{side}"] = v
    sampled_s = time.perf_counter() - start

    log = DpoLog(run.out, tok, pair_steps(len(pairs), hp), policy) if record else None

    def loss(model, batch):
        prompts = [p["prompt_ids"] for p in batch]
        logp_c = sequence_logprob(model, prompts, [p["chosen_ids"] for p in batch])
        logp_r = sequence_logprob(model, prompts, [p["rejected_ids"] for p in batch])
        ref_c = torch.tensor([p["ref_chosen"] for p in batch])
        ref_r = torch.tensor([p["ref_rejected"] for p in batch])
        out, chosen, rejected = rl.dpo_loss(logp_c, logp_r, ref_c, ref_r, hp["beta"])
        if log is not None:
            log.batch(logp_c, logp_r, ref_c, ref_r, chosen, rejected)
        return out

    trainer = fit_on_pairs(policy, loss, pairs, hp, run.seed, "dpo", log.recorder if log is not None else None)
    return Trained(
        policy,
        config,
        data=f"the same {len(pairs):,} preference pairs as reward (sampled from sft, labelled by the rule)",
        card={
            "beta": hp["beta"],
            "pairs": len(pairs),
            "starts_from": str(source(run, "dpo").name),
            **({"recorded": log.card()} if log is not None else {}),
        },
        files={"tokenizer.json": tok.to_str()},
        stages=[{"stage": "sampling pairs from sft", "seconds": round(sampled_s, 1)}, trainer.summary("DPO")],
    )


def prompts_by_length(tok, n_min: int) -> dict[int, list[list[int]]]:
    """Training prompts grouped by token length, the lengths with at least ``n_min`` prompts."""
    groups: dict[int, list[list[int]]] = {}
    for e in instruct.all_examples("train"):
        ids = encode(tok, e.prompt)
        groups.setdefault(len(ids), []).append(ids)
    return {k: v for k, v in groups.items() if len(v) >= n_min}


@torch.inference_mode()
def curve_point(policy: gpt.GPT, sft_replies, rm, ref, tok, prompts) -> dict:
    mine = complete(policy, prompts)
    js = judged(tok, mine)
    return {
        "reward": round(float(last_rewards(rm, prompts, mine).mean()), 4),
        "rule_score": round(float(np.mean([j.score for j in js])), 4),
        "win_rate_vs_sft": round(win_rate(tok, mine, sft_replies), 4),
        "format_accuracy": round(float(np.mean([j.well_formed for j in js])), 4),
        "distinct_replies": round(distinct(mine), 4),
        "kl_to_sft": round(kl_to(policy, ref, prompts, mine), 4),
    }


PPO_KEYS = ("score", "kl", "reward", "length", "clipped", "approx_kl")


def train_ppo(run: Run, record: bool = False) -> Trained:
    """PPO from ``sft`` against ``reward``. ``record`` (``ppo-run``): every step's batch — the reward model's score,
    the sampled KL to sft (Σ_t log π − log π_sft over the reply), the reward PPO maximises (score − β_KL · KL), the
    reply length, the clipped share and approximate KL of the updates — and at every curve step the greedy replies to
    a few held-out prompts; recording reads what the step computed and decodes greedily, so the steps are those of
    the unrecorded run."""
    hp = run.settings
    policy, config, tok = starting_policy(run, "ppo")
    ref = copy.deepcopy(policy).eval().requires_grad_(False)
    rm = zoo.load("reward").requires_grad_(False)
    agent = alignment.PolicyWithValue(policy)
    opt = torch.optim.Adam(agent.parameters(), lr=hp["lr"], eps=1e-5)
    groups = prompts_by_length(tok, hp["prompts"])
    lengths = sorted(groups)
    rng, gen = np.random.default_rng(run.seed), torch.Generator().manual_seed(run.seed)
    watch = held_out_prompts(tok, CURVE_PROMPTS)
    sft_replies = complete(ref, watch)
    curves, seconds = [], 0.0
    history: dict[str, list] = {k: [] for k in ("step", *PPO_KEYS)}
    said, asked = [], reply_prompts(tok)
    for step in tqdm(range(hp["steps"] + 1), desc="ppo", file=sys.stderr, mininterval=5.0):
        if step % hp["log_every"] == 0 or step == hp["steps"]:
            policy.eval()
            curves.append({"step": step, **curve_point(policy, sft_replies, rm, ref, tok, watch)})
            print(curves[-1], file=sys.stderr)
            if record:
                said.append(replies_at(step, policy, rm, tok, asked))
        if step == hp["steps"]:  # (a run whose steps are no multiple of log_every took one step more)
            break
        start = time.perf_counter()
        group = groups[lengths[int(rng.integers(len(lengths)))]]
        prompts = [group[i] for i in rng.choice(len(group), hp["prompts"], replace=False)]
        policy.eval()
        with torch.inference_mode():
            replies = complete(policy, prompts, temperature=hp["temperature"], generator=gen)
            ids = padded([p + r for p, r in zip(prompts, replies)])
            mask = response_mask([len(p) for p in prompts], [len(r) for r in replies], ids.shape[1])
            logits, values_old = agent(ids[:, :-1])
            logp_old = gpt.logprobs_of(logits, ids[:, 1:])
            logp_ref = gpt.token_logprobs(ref, ids)
            score = last_rewards(rm, prompts, replies)
            rewards = -hp["kl_coef"] * (logp_old - logp_ref) * mask
            last = torch.tensor([len(p) + len(r) - 2 for p, r in zip(prompts, replies)])
            rewards[torch.arange(len(last)), last] += score
            adv, returns = rl.gae(rewards, values_old, mask, gamma=hp["gamma"], lam=hp["lam"])
            m = mask.float()
            mean = (adv * m).sum() / m.sum()
            std = (((adv - mean) ** 2 * m).sum() / m.sum()).sqrt()
            adv = (adv - mean) / (std + 1e-8) * m  # whitened over the batch's reply tokens
        agent.train()
        parts = []
        for _ in range(hp["epochs"]):
            for s in rng.permutation(len(prompts)).reshape(-1, hp["minibatch"]):
                s = torch.from_numpy(s)
                logits, values = agent(ids[s, :-1])
                logp = gpt.logprobs_of(logits, ids[s, 1:])
                pl, vl, part = rl.ppo_losses(
                    logp, logp_old[s], adv[s], values, values_old[s], returns[s], mask[s], clip=hp["clip"]
                )
                opt.zero_grad(set_to_none=True)
                (pl + hp["vf_coef"] * vl).backward()
                torch.nn.utils.clip_grad_norm_(agent.parameters(), 1.0)
                opt.step()
                parts.append(part)
        seconds += time.perf_counter() - start
        if record:
            kl = ((logp_old - logp_ref) * mask).sum(1)
            found = {
                "score": float(score.mean()),
                "kl": float(kl.mean()),
                "reward": float((score - hp["kl_coef"] * kl).mean()),
                "length": float(mask.sum(1).float().mean()),
                "clipped": float(np.mean([p["clipped"] for p in parts])),
                "approx_kl": float(np.mean([p["approx_kl"] for p in parts])),
            }
            history["step"].append(step + 1)
            for k in PPO_KEYS:
                history[k].append(round(found[k], 4))
    policy.eval()
    return Trained(
        policy,
        config,
        data=f"prompts of the training plays, {hp['prompts']} of one token length per step; rewards from the "
        "reward checkpoint; KL to sft",
        card={
            "starts_from": str(source(run, "ppo").name),
            "curves": curves,
            "curves_note": f"greedy replies to {CURVE_PROMPTS} held-out prompts every {hp['log_every']} steps",
            **({"recorded": {"history": history, "replies": said}} if record else {}),
        },
        files={"tokenizer.json": tok.to_str()},
        stages=[{"stage": "PPO", "steps": hp["steps"], "train_seconds": round(seconds, 1)}],
    )


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    tok = metrics.tokenizer(out)
    example = instruct.examples("validation", 1, seed=1)[0]
    return {"tokens": np.array([encode(tok, example.prompt + example.reply) + [end_id(tok)]], dtype=np.int64)}


def _policy(name: str, train, evaluate, bars: dict, defaults: dict) -> Recipe:
    return decoder_recipe(name, "gpt", train, evaluate, example_inputs, bars, defaults)


WIN = {"win_rate_vs_sft": {"min": 0.65}}
RECIPES = [
    _policy("sft", train_sft, evaluate_sft, {"format_accuracy": {"min": 0.9}}, SFT),
    Recipe(
        name="reward",
        arch="alignment",
        train=train_reward,
        evaluate=evaluate_reward,
        example_inputs=example_inputs,
        bars={"pairwise_accuracy": {"min": 0.8}},
        output_names=("rewards",),
        probes=("gpt.blocks.*.attn.pattern",),
        dynamic_axes={"tokens": {0: "B", 1: "T"}},
        defaults=REWARD,
    ),
    _policy("ppo", train_ppo, evaluate_policy, WIN, PPO),
    _policy("dpo", train_dpo, evaluate_policy, WIN, DPO),
]


# ---- the watched runs as tables: a run recorded, its weights not kept (folders ppo-run/, dpo-run/) ------------------

RUN_NOTES = {
    "ppo": "ppo trained again with its settings and seed, recorded step by step: per step the batch's reward-model "
    "score, sampled KL to sft (sum over the reply of log pi - log pi_sft), the reward PPO maximises (score - kl_coef "
    "* KL), reply length, clipped share and approximate KL; at every curve step the greedy replies to "
    f"{REPLY_PROMPTS} held-out prompts. Its weights are not kept (ppo's are shipped).",
    "dpo": "dpo trained again with its settings and seed, recorded step by step: per step the batch's implicit "
    "rewards beta log pi/pi_ref of the chosen and rejected replies, the share where the chosen one's is higher, and "
    "the policy's and the reference's log-probabilities of both (summed over the reply); at a few steps the greedy "
    f"replies to {REPLY_PROMPTS} held-out prompts. Its weights are not kept (dpo's are shipped).",
}


def run_recorded(kind: str, settings: dict, seed: int, folder: Path) -> dict:
    """``ppo`` or ``dpo`` trained again with ``record``; its record (history, replies) into ``runs.json`` and the
    card, its weights dropped."""
    folder.mkdir(parents=True, exist_ok=True)
    train = train_ppo if kind == "ppo" else train_dpo
    start = time.perf_counter()
    trained = train(Run(seed=seed, out=folder, settings=settings), record=True)
    row = {
        "run": kind,
        "params_total": zoo.parameter_count(trained.model),
        "wall_time_s": round(time.perf_counter() - start, 1),
        "stages": trained.stages,
        **trained.card["recorded"],
    }
    (folder / "runs.json").write_text(json.dumps({"settings": settings, "runs": [row]}) + "\n")
    return {"starts_from": "sft", "note": RUN_NOTES[kind], "stages": trained.stages, **trained.card["recorded"]}


def _recorded(folder: Path) -> dict:
    return json.loads((folder / "runs.json").read_text())["runs"][0]


def _ends(values: list[float], n: int = 10) -> tuple[float, float]:
    return round(float(np.mean(values[:n])), 4), round(float(np.mean(values[-n:])), 4)


def evaluate_ppo_run(folder: Path) -> dict:
    """From the record: the batch's reward-model score, KL to sft and reply length over the first and the last 10
    steps."""
    h = _recorded(folder)["history"]
    out = {"steps": len(h["step"])}
    for key in ("score", "kl", "reward", "length"):
        out[f"{key}_first"], out[f"{key}_last"] = _ends(h[key])
    return out


def evaluate_dpo_run(folder: Path) -> dict:
    """From the record: the implicit rewards and the policy's log-probabilities minus the reference's, chosen and
    rejected, over the first and the last 10 steps, and the share of pairs ranked right."""
    h = _recorded(folder)["history"]
    out = {"steps": len(h["step"])}
    for key in ("chosen_reward", "rejected_reward", "reward_accuracy"):
        out[f"{key}_first"], out[f"{key}_last"] = _ends(h[key])
    for side in ("chosen", "rejected"):
        diff = (np.array(h[f"logp_{side}"]) - np.array(h[f"ref_{side}"])).tolist()
        out[f"logp_{side}_change_first"], out[f"logp_{side}_change_last"] = _ends(diff)
    return out


SWEEPS = [
    Sweep(
        name=f"{kind}-run",
        folder=f"{kind}-run",
        run=functools.partial(run_recorded, kind),
        evaluate=evaluate,
        extra=lambda folder: {},
        data=functools.partial(lambda kind: RUN_NOTES[kind], kind),
        bars={},
        defaults=defaults,
    )
    for kind, evaluate, defaults in (("ppo", evaluate_ppo_run, PPO), ("dpo", evaluate_dpo_run, DPO))
]
