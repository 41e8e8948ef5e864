"""How the ``t5`` checkpoint is trained and evaluated (the model: models/t5.py; the data: models/data/text2text.py).

``python -m models.train t5`` runs both of the paper's stages in one process:

1. span-corruption pre-training (noise density 0.15, mean span length 3) on windows of ``span_tokens`` tokens of the
   training works, without the held-out tail of the ``which play:`` plays;
2. multi-task fine-tuning on the mixture of prefixed tasks (which play, count words, reverse words, fill; the rows of
   each batch per task are settings), every batch drawing from all tasks, one loss for all (cross-entropy of the
   target text).

Evaluation, all on text never trained on: ``which play:`` on the held-out tails of its eight plays; count words,
reverse words and fill on the validation plays. Greedy decoding for the tasks (exact match / accuracy);
teacher-forced token accuracy on the spans of ``fill:`` (sentinels not counted) beside the accuracy of always
guessing the commonest training token (``span_unigram_accuracy``).
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from models import t5
from models.data import shakespeare
from models.data import text2text as tt
from models.recipes import Recipe, Run, Trained
from models.recipes.common import initial_model, source_tokenizer
from models.training import Trainer, fast_kernels

SETTINGS = {
    "pretrain_steps": 500,
    "finetune_steps": 4500,
    "batch": 32,
    "span_tokens": 128,
    "lr": 2e-3,
    "warmup": 100,
    "weight_decay": 0.01,
    # rows per task in each fine-tuning batch (they sum to ``batch``): reversing needs the most practice
    "rows_which_play": 6,
    "rows_count_words": 6,
    "rows_reverse_words": 14,
    "rows_fill": 6,
    # a share of the reversal rows made of words drawn uniformly from the corpus's distinct words (docs/training/t5.md:
    # the shipped model's reversals fail at copying rare words); 0 draws every row from consecutive words
    "reverse_types_share": 0.0,
    # a share of the reversal rows made of made-up words, each a run of vocabulary pieces drawn uniformly, so that
    # every piece is copied in training (the held-out reversals failed on names that split into rare pieces)
    "reverse_pieces_share": 0.0,
}
EVAL = {"examples": 400, "seed": 12345, "max_new": 64}


# ---- data ------------------------------------------------------------------------------------------------------------


def tokenizer_path(out: Path) -> Path:
    return out / "tokenizer.json"


def tokenizer(out: Path):
    return tt.load(tokenizer_path(out).read_text())


def pad_rows(rows: list[list[int]] | list[tuple[int, ...]], value: int) -> torch.Tensor:
    width = max(len(r) for r in rows)
    return torch.tensor([list(r) + [value] * (width - len(r)) for r in rows], dtype=torch.long)


def batch_of(pairs: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(src, decoder input, labels) from (source ids, target ids) pairs: the decoder input is the target shifted
    right behind <pad>; padded labels are -100 (not scored)."""
    src = pad_rows([s for s, _ in pairs], tt.PAD)
    tgt_in = pad_rows([(tt.PAD, *t[:-1]) for _, t in pairs], tt.PAD)
    labels = pad_rows([t for _, t in pairs], -100)
    return src, tgt_in, labels


def span_batches(ids: np.ndarray, hp: dict, rng: np.random.Generator):
    """Endless span-corruption batches from random windows of the token stream ``ids``."""
    n = hp["span_tokens"]
    while True:
        pairs = []
        for _ in range(hp["batch"]):
            s = int(rng.integers(0, len(ids) - n))
            window = ids[s : s + n]
            inp, tgt = tt.corrupt(window, tt.noise_mask(n, tt.SPAN["density"], tt.SPAN["mean_span"], rng))
            pairs.append((tuple(inp), tuple(tgt)))
        yield batch_of(pairs)


def task_lines(split: str) -> dict:
    """Lines each task draws from: ``which_play`` {play: lines}; the others one list."""
    if split == "train":
        works = tt.pretraining_texts(shakespeare.plays("train"))
        plays = {name: tt.split_play(shakespeare.plays("train")[name])[0] for name in tt.PLAYS}
    else:  # held out: the plays' tails, and the validation plays for the rest
        works = shakespeare.plays("validation")
        plays = {name: tt.split_play(shakespeare.plays("train")[name])[1] for name in tt.PLAYS}
    lines = [line for text in works.values() for line in tt.lines_of(text)]
    return {task: plays if task == "which_play" else lines for task in tt.TASKS}


def mixture(hp: dict) -> dict[str, int]:
    """Rows per task in each fine-tuning batch, from the settings."""
    rows = {task: int(hp[f"rows_{task}"]) for task in tt.TASKS}
    if sum(rows.values()) != hp["batch"]:
        raise ValueError(f"the rows per task {rows} must sum to the batch {hp['batch']}")
    return rows


def mixture_batches(
    tok, rng: np.random.Generator, rows: dict[str, int], types_share: float = 0.0, pieces_share: float = 0.0
):
    lines = task_lines("train")
    streams = {task: tt.examples(task, lines[task], rng, tok, types_share, pieces_share) for task in rows}
    while True:
        yield batch_of(
            [(e.source_ids, e.target_ids) for task, k in rows.items() for e in (next(streams[task]) for _ in range(k))]
        )


def seq2seq_loss(model: t5.T5, batch) -> torch.Tensor:
    src, tgt_in, labels = batch
    logits = model(src, tgt_in)
    return F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=-100)


# ---- training --------------------------------------------------------------------------------------------------------


def train(run: Run) -> Trained:
    hp = run.settings
    c = t5.PRESETS["shipped"]
    texts = tt.pretraining_texts(shakespeare.plays("train"))
    tok = source_tokenizer(run) or tt.train_unigram(texts.values(), c.vocab)
    stream = np.concatenate([tt.encode(tok, text) + [tt.EOS] for text in texts.values()])
    torch.manual_seed(run.seed)
    model, config = initial_model(run, t5.build, asdict(c))  # --init-from: continue from a checkpoint's weights
    rng = np.random.default_rng(run.seed)
    stages = []
    for stage, steps, batches in (
        ("span corruption", hp["pretrain_steps"], span_batches(stream, hp, rng)),
        (
            "multi-task",
            hp["finetune_steps"],
            mixture_batches(tok, rng, mixture(hp), hp["reverse_types_share"], hp["reverse_pieces_share"]),
        ),
    ):
        if not steps:  # a stage set to 0 steps (e.g. pre-training, when continuing with --init-from) is skipped
            continue
        trainer = Trainer(
            model, seq2seq_loss, steps=steps, lr=hp["lr"], warmup=hp["warmup"], weight_decay=hp["weight_decay"]
        )
        with fast_kernels(model):
            while not trainer.done:
                loss = trainer.step(next(batches))
                if len(trainer.losses) % 50 == 0:
                    print(f"{stage} step {len(trainer.losses)}: loss {loss:.3f} {trainer.seconds:.0f}s", flush=True)
        stages.append(trainer.summary(stage))
    model.cpu().eval()
    return Trained(
        model,
        config,
        data=f"Shakespeare training works ({len(texts)}, {len(stream):,} tokens), the last "
        f"{tt.HELD_OUT_FRACTION:.0%} of the lines of {len(tt.PLAYS)} plays held out",
        card={
            "tokenizer": f"unigram (SentencePiece-style, Metaspace), {c.vocab} ids incl. </s>, <pad>, <unk> and "
            f"{tt.N_SENTINELS} sentinels, trained with HF tokenizers on the pre-training text",
            "span_corruption": {**tt.SPAN, "window_tokens": hp["span_tokens"]},
            "mixture": {
                "rows_per_batch": mixture(hp),
                "prefixes": tt.PREFIX,
                "which_play_labels": tt.PLAYS,
                "words": tt.WORDS,
            },
            "evaluation": {
                "which_play": f"passages of the held-out last {tt.HELD_OUT_FRACTION:.0%} of each play's lines",
                "other tasks": "the validation plays " + ", ".join(shakespeare.VALIDATION_PLAYS),
                **EVAL,
            },
        },
        files={"tokenizer.json": tok.to_str()},
        stages=stages,
    )


# ---- evaluation ------------------------------------------------------------------------------------------------------


def eval_set(task: str, tok) -> list[tt.Example]:
    return tt.fixed_examples(task, task_lines("validation")[task], EVAL["examples"], EVAL["seed"], tok)


def generate(model: t5.T5, tok, examples: list[tt.Example], batch: int = 100) -> list[str]:
    out: list[str] = []
    for i in range(0, len(examples), batch):
        src = pad_rows([e.source_ids for e in examples[i : i + batch]], tt.PAD)
        out += [tt.decode(tok, row.tolist()) for row in t5.greedy(model, src, EVAL["max_new"])]
    return out


@torch.no_grad()
def span_accuracy(model: t5.T5, tok) -> tuple[float, float]:
    """Teacher-forced top-1 accuracy on the span tokens of held-out ``fill:`` examples, and that of always guessing
    the commonest token of the training text."""
    examples = eval_set("fill", tok)
    src, tgt_in, labels = batch_of([(e.source_ids, e.target_ids) for e in examples])
    pred = model(src, tgt_in).argmax(-1)
    span = (labels >= 0) & (labels != tt.EOS) & ~((labels >= tt.SENTINEL_0) & (labels < tt.SENTINEL_0 + tt.N_SENTINELS))
    texts = tt.pretraining_texts(shakespeare.plays("train"))
    counts = np.bincount(np.concatenate([tt.encode(tok, t) for t in texts.values()]), minlength=tok.get_vocab_size())
    commonest = int(counts.argmax())
    return (
        round((pred == labels)[span].float().mean().item(), 4),
        round((labels[span] == commonest).float().mean().item(), 4),
    )


def evaluate(model: t5.T5, out: Path) -> dict:
    tok = tokenizer(out)
    metrics: dict = {}
    for task, name in (("which_play", "accuracy"), ("count_words", "exact_match"), ("reverse_words", "exact_match")):
        examples = eval_set(task, tok)
        got = generate(model, tok, examples)
        metrics[f"{task}_{name}"] = round(float(np.mean([g == e.target for g, e in zip(got, examples)])), 4)
        if task == "count_words":
            near = [g.isdigit() and abs(int(g) - int(e.target)) <= 1 for g, e in zip(got, examples)]
            metrics["count_words_within_1"] = round(float(np.mean(near)), 4)
    metrics["which_play_chance"] = round(1 / len(tt.PLAYS), 4)
    metrics["span_token_accuracy"], metrics["span_unigram_accuracy"] = span_accuracy(model, tok)
    return metrics


def example_inputs(out: Path) -> dict[str, np.ndarray]:
    tok = tokenizer(out)
    e = tt.text_example(tok, "reverse_words", "To be, or not to be", "be to not or be, To")
    return {"src": np.array([e.source_ids]), "tgt": np.array([(tt.PAD, *e.target_ids[:-1])])}


RECIPES = [
    Recipe(
        name="t5",
        arch="t5",
        train=train,
        evaluate=evaluate,
        example_inputs=example_inputs,
        # the bars: the classification task ≥ 3 × chance, the structural task's exact match ≥ 0.95
        bars={
            "which_play_accuracy": {"min": round(3 / len(tt.PLAYS), 4)},
            "reverse_words_exact_match": {"min": 0.95},
        },
        probes=t5.PROBES,
        dynamic_axes={"src": {0: "B", 1: "S"}, "tgt": {0: "B", 1: "T"}},
        defaults=SETTINGS,
    ),
]
