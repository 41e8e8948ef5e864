"""T5's text-to-text data (Raffel et al. 2019, 1910.10683): a unigram vocabulary with sentinels, span corruption,
and the prefixed tasks of the fine-tuning mixture, built from the Shakespeare plays.

Vocabulary: a SentencePiece-style unigram model (Kudo 2018) trained with Hugging Face ``tokenizers`` on the training
plays: text is split at spaces, each word starts with ``▁``, and the pieces are chosen by a unigram language model.
The special tokens come first, so their ids are fixed:

    <pad> 0 (also the decoder's start token)   </s> 1   <unk> 2   <extra_id_0> 3, <extra_id_1> 4, …

Span corruption (§3.1.4 and §3.3.4): of n tokens, round(n · density) are dropped in round(noise / mean_span) spans;
the spans and the kept runs have random lengths of at least one token and alternate, a kept run first. The input
keeps the text with each dropped span replaced by one sentinel; the target lists the sentinels each followed by its
span, and one more sentinel at the end (the paper's Figure 2):

    input   Thank you <extra_id_0> me to your party <extra_id_1> week .</s>
    target  <extra_id_0> for inviting <extra_id_1> last <extra_id_2></s>

Tasks (``TASKS``), each a prefix: ``which play:`` (a passage of one of ``PLAYS`` -> its one-word label),
``count words:`` (a line -> how many words, as digits), ``reverse words:`` (a line -> its words in reverse order) and
``fill:`` (a span-corrupted passage -> the target above).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

N_SENTINELS = 64
SPECIALS = ("<pad>", "</s>", "<unk>", *(f"<extra_id_{k}>" for k in range(N_SENTINELS)))
PAD, EOS, UNK = 0, 1, 2
SENTINEL_0 = 3


def sentinel(k: int) -> int:
    if not 0 <= k < N_SENTINELS:
        raise ValueError(f"only {N_SENTINELS} sentinels")
    return SENTINEL_0 + k


def is_sentinel(i: int) -> bool:
    return SENTINEL_0 <= i < SENTINEL_0 + N_SENTINELS


def train_unigram(texts: Iterable[str], vocab_size: int) -> Tokenizer:
    """A unigram tokenizer with ``vocab_size`` ids, the special tokens (sentinels included) first."""
    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    trainer = trainers.UnigramTrainer(
        vocab_size=vocab_size, special_tokens=list(SPECIALS), unk_token="<unk>", show_progress=False
    )
    tok.train_from_iterator(texts, trainer=trainer)
    return tok


def load(json_text: str) -> Tokenizer:
    return Tokenizer.from_str(json_text)


def encode(tok: Tokenizer, text: str) -> list[int]:
    return tok.encode(text, add_special_tokens=False).ids


def decode(tok: Tokenizer, ids: Iterable[int]) -> str:
    """Text of ``ids``; sentinels are written out, </s> and what follows it dropped, <pad> skipped."""
    out: list[int] = []
    for i in ids:
        if i == EOS:
            break
        if i != PAD:
            out.append(int(i))
    return tok.decode(out, skip_special_tokens=False)


# ---- span corruption -------------------------------------------------------------------------------------------------


def _segment(total: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """``total`` split into ``n`` random positive lengths (a uniformly random composition)."""
    cuts = np.sort(rng.choice(np.arange(1, total), size=n - 1, replace=False)) if n > 1 else np.array([], int)
    return np.diff(np.concatenate([[0], cuts, [total]]))


def noise_mask(n: int, density: float, mean_span: float, rng: np.random.Generator) -> np.ndarray:
    """(n,) bool, True where a token is dropped: round(n·density) tokens (at least 1, at most n − 1) in
    round(noise / mean_span) spans (at least 1), kept runs and spans alternating, a kept run first."""
    if n < 2:
        raise ValueError("span corruption needs at least 2 tokens")
    noise = int(min(max(round(n * density), 1), n - 1))
    spans = int(min(max(round(noise / mean_span), 1), noise, n - noise))
    noise_len, keep_len = _segment(noise, spans, rng), _segment(n - noise, spans, rng)
    mask = np.zeros(n, bool)
    at = 0
    for keep, drop in zip(keep_len, noise_len):
        at += keep
        mask[at : at + drop] = True
        at += drop
    return mask


def corrupt(ids: list[int] | np.ndarray, mask: np.ndarray) -> tuple[list[int], list[int]]:
    """(input, target) of span corruption, both ending in </s>: each dropped span becomes one sentinel in the input;
    the target lists each sentinel and its span, then a closing sentinel."""
    inp: list[int] = []
    tgt: list[int] = []
    k = 0
    for i, (token, dropped) in enumerate(zip(ids, mask)):
        if not dropped:
            inp.append(int(token))
            continue
        if i == 0 or not mask[i - 1]:  # a span starts
            inp.append(sentinel(k))
            tgt.append(sentinel(k))
            k += 1
        tgt.append(int(token))
    return inp + [EOS], tgt + [sentinel(k), EOS]


def spans_of(target: list[int]) -> list[list[int]]:
    """The spans of a span-corruption target, in sentinel order (what follows each sentinel up to the next)."""
    out: list[list[int]] = []
    for i in target:
        if i == EOS:
            break
        if is_sentinel(i):
            out.append([])
        elif out:
            out[-1].append(int(i))
    return out[:-1] if out and not out[-1] else out


# ---- the tasks -------------------------------------------------------------------------------------------------------

# ``which play:``: these plays and their one-word labels (8 classes: chance 1/8). The last HELD_OUT_FRACTION of each
# play's lines is never trained on (neither pre-training nor fine-tuning): its passages are the task's test set.
PLAYS = {
    "hamlet": "hamlet",
    "lear": "lear",
    "romeo_and_juliet": "romeo",
    "midsummer_nights_dream": "dream",
    "merchant_of_venice": "merchant",
    "coriolanus": "coriolanus",
    "cymbeline": "cymbeline",
    "pericles": "pericles",
}
HELD_OUT_FRACTION = 0.15
TASKS = ("which_play", "count_words", "reverse_words", "fill")
PREFIX = {
    "which_play": "which play:",
    "count_words": "count words:",
    "reverse_words": "reverse words:",
    "fill": "fill:",
}
WORDS = {"count_words": (1, 12), "reverse_words": (2, 5)}  # words per example, inclusive
PASSAGE_WORDS = 32  # words of a ``which play:`` passage
FILL_TOKENS = 48  # tokens of a ``fill:`` passage
SPAN = {"density": 0.15, "mean_span": 3.0}  # the paper's span corruption


def lines_of(text: str) -> list[str]:
    """The non-empty lines of a play, whitespace collapsed."""
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def split_play(text: str) -> tuple[list[str], list[str]]:
    """(lines trained on, held-out lines): the last HELD_OUT_FRACTION of the lines held out."""
    lines = lines_of(text)
    cut = int(len(lines) * (1 - HELD_OUT_FRACTION))
    return lines[:cut], lines[cut:]


def pretraining_texts(train_plays: dict[str, str]) -> dict[str, str]:
    """The training works, with the held-out tail of each ``PLAYS`` play removed."""
    return {
        name: "\n".join(split_play(text)[0]) if name in PLAYS else text for name, text in sorted(train_plays.items())
    }


@dataclass(frozen=True)
class Example:
    task: str
    source: str  # the prefixed input text
    target: str  # the expected output text
    source_ids: tuple[int, ...]  # what the encoder reads, </s> last
    target_ids: tuple[int, ...]  # what the decoder must write, </s> last


def text_example(tok: Tokenizer, task: str, text: str, answer: str) -> Example:
    """A task example from its input text (without the prefix) and answer."""
    source = f"{PREFIX[task]} {text}"
    return Example(task, source, answer, (*encode(tok, source), EOS), (*encode(tok, answer), EOS))


def fill_example(tok: Tokenizer, ids: list[int], mask: np.ndarray) -> Example:
    """A ``fill:`` example: the prefix, then span corruption of ``ids`` under ``mask`` (in tokens, no re-encoding)."""
    inp, tgt = corrupt(ids, mask)
    source = (*encode(tok, PREFIX["fill"]), *inp)
    return Example("fill", decode(tok, source), decode(tok, tgt), source, tuple(tgt))


def words_of(lines: list[str]) -> list[str]:
    return [w for line in lines for w in line.split()]


def count_words(text: str) -> str:
    return str(len(text.split()))


def reverse_words(text: str) -> str:
    return " ".join(reversed(text.split()))


def examples(
    task: str,
    lines: list[str] | dict[str, list[str]],
    rng: np.random.Generator,
    tok: Tokenizer,
    types_share: float = 0.0,
    pieces_share: float = 0.0,
) -> Iterator[Example]:
    """Endless examples of ``task``: from ``lines`` (a list), or for ``which_play`` from {play: lines}. For
    ``reverse_words``, a ``types_share`` of the examples are words drawn uniformly from the distinct words of
    ``lines`` rather than a run of consecutive words, so that rare words are copied as often as common ones; and a
    ``pieces_share`` are made-up words (``piece_word``), so that every piece of the vocabulary is copied, even those
    that the training lines hardly use (the names of the held-out plays split into them)."""
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}")
    if task == "which_play":
        names = list(PLAYS)
        play_words = {name: words_of(lines[name]) for name in names}
    else:
        words = words_of(lines)  # once: the corpus has ~800k words
        types = sorted(set(words)) if task == "reverse_words" and types_share > 0 else []
        starts, inner = word_pieces(tok) if task == "reverse_words" and pieces_share > 0 else ([], [])
    while True:
        if task == "which_play":
            name = names[int(rng.integers(len(names)))]
            s = int(rng.integers(0, len(play_words[name]) - PASSAGE_WORDS))
            yield text_example(tok, task, " ".join(play_words[name][s : s + PASSAGE_WORDS]), PLAYS[name])
        elif task in WORDS:
            lo, hi = WORDS[task]
            n = int(rng.integers(lo, hi + 1))
            # one draw decides the row's kind, only when a share is set (so that no share keeps the old stream)
            kind = rng.random() if types or starts else 1.0
            if kind < types_share:
                text = " ".join(types[i] for i in rng.integers(0, len(types), size=n))
            elif kind < types_share + pieces_share:
                text = " ".join(piece_word(tok, starts, inner, rng) for _ in range(n))
            else:
                s = int(rng.integers(0, len(words) - n))
                text = " ".join(words[s : s + n])
            answer = count_words(text) if task == "count_words" else reverse_words(text)
            yield text_example(tok, task, text, answer)
        else:  # fill
            s = int(rng.integers(0, len(words) - 2 * FILL_TOKENS))
            ids = encode(tok, " ".join(words[s : s + 2 * FILL_TOKENS]))[:FILL_TOKENS]
            yield fill_example(tok, ids, noise_mask(len(ids), SPAN["density"], SPAN["mean_span"], rng))


def word_pieces(tok: Tokenizer) -> tuple[list[int], list[int]]:
    """The vocabulary's ids that begin a word (``▁`` and more) and those that continue one; specials, and pieces
    holding a line break (which no word of a line has), excluded."""
    vocab = sorted(tok.get_vocab().items(), key=lambda kv: kv[1])
    pieces = [(p, i) for p, i in vocab if i >= len(SPECIALS) and not any(c.isspace() for c in p)]  # no "\n"
    return [i for p, i in pieces if p.startswith("▁") and len(p) > 1], [i for p, i in pieces if "▁" not in p]


def piece_word(tok: Tokenizer, starts: list[int], inner: list[int], rng: np.random.Generator) -> str:
    """A made-up word: a piece that begins a word, then 0–3 pieces that continue it, each drawn uniformly."""
    ids = [
        starts[int(rng.integers(len(starts)))],
        *(inner[i] for i in rng.integers(0, len(inner), size=rng.integers(0, 4))),
    ]
    return decode(tok, ids).strip()


def fixed_examples(task: str, lines, n: int, seed: int, tok: Tokenizer) -> list[Example]:
    """``n`` examples of ``task`` drawn with ``seed`` (an evaluation set)."""
    it = examples(task, lines, np.random.default_rng(seed), tok)
    return [next(it) for _ in range(n)]
