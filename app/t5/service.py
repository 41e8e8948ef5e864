"""The T5 page's bridge to ``models.t5`` and its checkpoint ``t5``: one model answering every task prefix (greedy
decoding through either backend, with the decoder's cross-attention), span corruption of the user's text with the
model's reconstruction, the relative-position buckets and the biases the model learned for them, and the attention
masks of the three architectures of the paper's §3.2.1.

Every model function takes the checkpoint's name first: ours (``t5``, four Shakespeare tasks) or a real one
converted into our class (``t5-small``, the paper's own prefixes: translation, summaries, CoLA, sentinels). Texts are
read with the checkpoint's tokenizer, whose special ids (<pad>, </s>, <unk>, the sentinels ``<extra_id_k>``) the page
reads from it: ours number the sentinels up from 3, t5-small down from 32,099. A sentinel may be typed as
``<extra_id_k>`` (the ``fill:`` task). ``answer`` and ``corruption`` are the model calls (cached); the rest are small
pure functions.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

from app.shared import assets
from app.shared import interventions as ko
from app.shared.i18n import InputError
from app.shared.numbers import log_softmax, softmax
from app.shared.services import checkpoint, read_only, stack_layers
from models.data import text2text as tt
from models.layers import t5_relative_position_bucket
from models.transformer import greedy_steps

NAME = "t5"  # ours, the page's default
MODEL = checkpoint(NAME)
TASKS = tt.TASKS  # ours
PREFIX = tt.PREFIX
LABELS = tuple(tt.PLAYS.values())  # the ``which play:`` classes
MAX_CHARS = 400  # the task box
MAX_SOURCE_TOKENS = 128  # the prefixed input, </s> included
# the bars the card holds (classification and reversal), none without the checkpoint
BARS = MODEL.card.get("bars", {})
WORDS = tt.WORDS  # words per counting / reversing example in training (inclusive)
MAX_NEW = 64  # greedy steps (the recipe's evaluation decodes as many)
SPAN_MAX_CHARS = 600
SPAN_MAX_TOKENS = 128  # the pre-training windows' length
SPAN_MIN_TOKENS = 4
OFFSETS = np.arange(-200, 201)  # the bucket figure's offsets (key − query)
_ANSWER_PROBES = ("decoder.layers.*.cross_attn.pattern", "encoder.bias", "decoder.bias")
_SENTINEL = re.compile(r"<extra_id_(\d+)>")
_EXAMPLES = assets.data("examples/t5.json")
EXAMPLES = {task: tuple(e["text"] if isinstance(e, dict) else e for e in _EXAMPLES[task]) for task in TASKS}
DEFAULT_SPAN_TEXT = _EXAMPLES["span"]
_KNOWN = {task: {e["text"]: e["answer"] for e in _EXAMPLES[task] if isinstance(e, dict)} for task in TASKS}
# A real T5 (t5-small): the prefixes of the paper's task mixture its released weights answer, with example texts
REAL_PREFIX: dict[str, str] = _EXAMPLES["real"]["prefix"]
REAL_TASKS = tuple(REAL_PREFIX)
REAL_EXAMPLES: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _EXAMPLES["real"]["examples"].items()}


def real(name: str) -> bool:
    return checkpoint(name).real


def available(name: str = NAME) -> bool:
    return checkpoint(name).available


def backend(name: str, wanted: str) -> str:
    """The backend to run ``name`` on: the reader's; a real checkpoint has no ONNX graph, so it runs on torch (the
    readout says so)."""
    return checkpoint(name).backend(wanted) if real(name) else wanted


def missing(name: str) -> InputError:
    """The translated message for a checkpoint that is not installed."""
    return checkpoint(name).missing()


def tasks(name: str) -> tuple[str, ...]:
    """The task ids the checkpoint answers: ours four, a real T5 the paper's prefixes."""
    return REAL_TASKS if real(name) else TASKS


def prefix(name: str, task: str) -> str:
    return (REAL_PREFIX if real(name) else PREFIX)[task]


def examples(name: str, task: str) -> tuple[str, ...]:
    return (REAL_EXAMPLES if real(name) else EXAMPLES)[task]


def span_prefix(name: str) -> str:
    """The prefix of the span-corruption input: ours was fine-tuned with ``fill:``; a real T5 was pre-trained on
    span corruption itself, with no prefix."""
    return "" if real(name) else PREFIX["fill"]


@dataclass(frozen=True)
class Vocab:
    """The special ids of a checkpoint's tokenizer: <pad> (also the decoder's start), </s>, <unk>, and the sentinels
    ``<extra_id_0>``, ``<extra_id_1>``, … in order. ``to_ours`` / ``from_ours`` map ids to and from the numbering of
    ``models.data.text2text`` (ours), whose span-corruption helpers the page uses for every checkpoint."""

    pad: int
    eos: int
    unk: int
    sentinels: tuple[int, ...]
    size: int  # ids the tokenizer has (a model may have more: t5-small 32,128 for 32,100)

    SHIFT = 1 << 20  # an ordinary id in ours' numbering: above every sentinel and special

    def is_sentinel(self, i: int) -> bool:
        return int(i) in self._number

    def number(self, i: int) -> int:
        """k of the sentinel ``<extra_id_k>`` with id ``i``."""
        return self._number[int(i)]

    @property
    def _number(self) -> dict[int, int]:
        return {s: k for k, s in enumerate(self.sentinels)}

    @property
    def ours(self) -> bool:
        """Numbered as ``models.data.text2text`` numbers them: nothing to map."""
        n = min(len(self.sentinels), tt.N_SENTINELS)
        return (self.pad, self.eos) == (tt.PAD, tt.EOS) and self.sentinels[:n] == tuple(
            tt.sentinel(k) for k in range(n)
        )

    def to_ours(self, ids) -> list[int]:
        if self.ours:
            return [int(i) for i in ids]
        number = self._number

        def one(i: int) -> int:
            if i in number and number[i] < tt.N_SENTINELS:
                return tt.sentinel(number[i])
            return {self.eos: tt.EOS, self.pad: tt.PAD}.get(i, i + self.SHIFT)

        return [one(int(i)) for i in ids]

    def from_ours(self, ids) -> list[int]:
        if self.ours:
            return [int(i) for i in ids]

        def one(i: int) -> int:
            if i >= self.SHIFT:
                return i - self.SHIFT
            if tt.is_sentinel(i):
                return self.sentinels[i - tt.SENTINEL_0]
            return {tt.EOS: self.eos, tt.PAD: self.pad}[i]

        return [one(int(i)) for i in ids]


@st.cache_resource(show_spinner=False)
def vocab(name: str) -> Vocab:
    tok = checkpoint(name).tokenizer
    sentinels = []
    while (i := tok.token_to_id(f"<extra_id_{len(sentinels)}>")) is not None:
        sentinels.append(i)
    return Vocab(
        pad=tok.token_to_id("<pad>"),
        eos=tok.token_to_id("</s>"),
        unk=tok.token_to_id("<unk>"),
        sentinels=tuple(sentinels),
        size=tok.get_vocab_size(),
    )


def config(name: str = NAME) -> dict:
    """The model's sizes, from its config (so the page's text follows the checkpoint)."""
    c = checkpoint(name).config
    return {
        "enc_layers": c["n_enc_layers"],
        "dec_layers": c["n_dec_layers"],
        "dim": c["dim"],
        "heads": c["n_heads"],
        "ffn": c["ffn_dim"],
        "vocab": c["vocab"],
        "num_buckets": c["num_buckets"],
        "max_distance": c["max_distance"],
    }


def _chain(card: Mapping) -> list[Mapping]:
    """The card's own run, then each run it was continued from (``--init-from``), newest first."""
    runs = [card]
    while isinstance(runs[-1].get("init_from"), Mapping):
        runs.append(runs[-1]["init_from"])
    return runs


def card(name: str = NAME) -> dict:
    """The checkpoint's card: metrics measured by ``python -m models.evaluate t5``, params, wall time, stages (empty
    without the checkpoint's card). A real checkpoint's: ``real``, its title and parameters, no metrics."""
    c = checkpoint(name).card
    if not c:
        return {}
    if c.get("real"):
        v = vocab(name)
        return {
            "real": True,
            "title": c.get("title", name),
            "params": c.get("params", 0),
            "metrics": {},
            "tokens": v.size,  # ids of its tokenizer
            "sentinels": len(v.sentinels),
        }
    return {
        "metrics": c.get("metrics", {}),
        "params": c.get("params", 0),
        "wall_time_s": c.get("wall_time_s", 0.0),
        # the runs this checkpoint continues (``init_from``, each holding the one before): the whole chain's time
        "runs": len(chain := _chain(c)),
        "chain_wall_time_s": sum(run.get("wall_time_s", 0.0) for run in chain),
        "hardware": c.get("hardware", ""),
        "stages": c.get("stages", []),
        "mixture": c.get("mixture", {}),
        # the recipe writes the pre-training stream's length into the card's data line: "(…, 1,234,567 tokens)"
        "pretraining_tokens": int(found.group(1).replace(",", ""))
        if (found := re.search(r"([\d,]+) tokens\)", c.get("data", "")))
        else 0,
        "command": c.get("command", ""),
    }


# ---- text -> ids ----------------------------------------------------------------------------------------------------


def piece(name: str, i: int) -> str:
    """What one id reads as: a sentinel as ⟨k⟩, the other specials as themselves, a piece with its ▁ (an id past the
    tokenizer's end, which a real model may still output, as ⟨id⟩)."""
    v = vocab(name)
    if v.is_sentinel(i):
        return f"⟨{v.number(i)}⟩"
    return checkpoint(name).tokenizer.id_to_token(int(i)) or f"⟨#{int(i)}⟩"


def pieces(name: str, ids) -> tuple[str, ...]:
    return tuple(piece(name, int(i)) for i in ids)


def encode(name: str, text: str, *, sentinels: bool = True) -> list[int]:
    """Ids of ``text`` (no </s>): each ``<extra_id_k>`` becomes sentinel k and the text between them is encoded on its
    own, as the words after a dropped span were in training. Raises ``InputError`` for characters the vocabulary
    lacks (they would read as <unk>) and for sentinels where none are allowed or beyond the 64 there are."""
    tok, v = checkpoint(name).tokenizer, vocab(name)
    ids: list[int] = []
    unknown: list[str] = []
    at = 0
    for m in [*_SENTINEL.finditer(text), None]:
        chunk = text[at : m.start() if m else len(text)].strip()
        if chunk:
            enc = tok.encode(chunk, add_special_tokens=False)
            ids += enc.ids
            unknown += [chunk[a:b] for i, (a, b) in zip(enc.ids, enc.offsets) if i == v.unk]
        if m is None:
            break
        if not sentinels:
            raise InputError("t5.error.sentinel")
        k = int(m.group(1))
        if k >= len(v.sentinels):
            raise InputError("t5.error.sentinel_range", k=k, n=len(v.sentinels) - 1)
        ids.append(v.sentinels[k])
        at = m.end()
    if unknown:
        shown = " ".join(dict.fromkeys(repr(u) for u in unknown))
        raise InputError("t5.error.unknown_real" if real(name) else "t5.error.unknown", chars=shown)
    return ids


def _check_text(name: str, text: str, max_chars: int) -> str:
    text = " ".join(text.split())
    if not text:
        raise InputError("t5.error.empty")
    if len(text) > max_chars:
        raise InputError("t5.error.too_long", n=len(text), max=max_chars)
    checkpoint(name).require()
    return text


def source_ids(name: str, task: str, text: str) -> list[int]:
    """What the encoder reads for ``task``: the prefix, the text, </s>."""
    typed = task in ("fill", "sentinels")  # the tasks whose text holds sentinels
    ids = [*encode(name, prefix(name, task), sentinels=False), *encode(name, text, sentinels=typed), vocab(name).eos]
    if len(ids) > MAX_SOURCE_TOKENS:
        raise InputError("t5.error.tokens", n=len(ids), max=MAX_SOURCE_TOKENS)
    return ids


def expected(name: str, task: str, text: str) -> str | None:
    """The right answer where it is known: counting and reversing by rule, the examples by their source (ours
    only)."""
    if real(name):
        return None
    if task == "count_words":
        return tt.count_words(text)
    if task == "reverse_words":
        return tt.reverse_words(text)
    return _KNOWN[task].get(text)


def _logits_fn(name: str, backend: str):
    return lambda src, tgt: checkpoint(name).run({"src": src, "tgt": tgt}, (), backend).outputs["logits"]


def _greedy(name: str, src: np.ndarray, max_new: int, backend: str) -> list[int]:
    v = vocab(name)
    return greedy_steps(_logits_fn(name, backend), src, max_new, bos=v.pad, eos=v.eos)


def text_of(name: str, ids) -> str:
    """The text of output ids up to </s>: sentinels written as <extra_id_k>, the text between them decoded."""
    tok, v, parts, run_ids = checkpoint(name).tokenizer, vocab(name), [], []
    for i in [*(int(i) for i in ids), v.eos]:
        if i == v.eos or v.is_sentinel(i):
            if run_ids:
                parts.append(tok.decode(run_ids, skip_special_tokens=False).strip())
                run_ids = []
            if i == v.eos:
                break
            parts.append(f"<extra_id_{v.number(i)}>")
        elif i != v.pad and i < v.size:
            run_ids.append(i)
    return " ".join(p for p in parts if p)


# ---- 1 · text-to-text -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """One prefixed input, answered greedily, with the decoder's cross-attention and both position biases.
    Shapes: L decoder layers, H heads, S source tokens (</s> last), T output tokens."""

    task: str
    text: str  # the user's text (whitespace collapsed)
    source: tuple[str, ...]  # S pieces, the prefix first, </s> last
    output: tuple[str, ...]  # T pieces, </s> last when the model produced it
    answer: str  # the output as text (up to </s>)
    expected: str | None  # the right answer where it is known
    correct: bool | None
    probs: np.ndarray  # (T,) the probability the model gave each token it wrote
    cross: np.ndarray  # (L, H, T, S) cross-attention weights
    enc_bias: np.ndarray  # (H, S, S) the encoder's position bias as added to its scores
    dec_bias: np.ndarray  # (H, T, T) the decoder's (causal buckets; the future is masked anyway)
    label_probs: np.ndarray | None  # (len(LABELS),) for ``which play:``: each label's share, teacher-forced
    backend: str
    device: str
    ms: float  # the probe run
    decode_ms: float  # every greedy step together


def _label_shares(name: str, src: np.ndarray, backend: str) -> np.ndarray:
    """P(label </s> | source) of every ``which play:`` label, normalised over the labels: one batched run."""
    rows = [[*encode(name, label, sentinels=False), tt.EOS] for label in LABELS]
    width = max(len(r) for r in rows)
    tgt_in = np.array([[tt.PAD, *r[:-1]] + [tt.PAD] * (width - len(r)) for r in rows], dtype=np.int64)
    logits = checkpoint(name).run({"src": np.repeat(src, len(rows), 0), "tgt": tgt_in}, (), backend).outputs["logits"]
    logp = log_softmax(logits)  # (labels, width, V)
    scores = np.array([sum(logp[i, t, tok] for t, tok in enumerate(r)) for i, r in enumerate(rows)])
    return softmax(scores)


@st.cache_data(show_spinner=False, max_entries=64)
def answer(name: str, task: str, text: str, backend: str = "torch") -> Answer:
    """Greedy output of ``prefix text`` on ``backend``, then one probe run over the finished decoder input."""
    if task not in tasks(name):
        raise InputError("t5.error.task", task=task)
    text = _check_text(name, text, MAX_CHARS)
    src = np.array([source_ids(name, task, text)], dtype=np.int64)  # (1, S)
    start = time.perf_counter()
    out = _greedy(name, src, MAX_NEW, backend)
    decode_ms = (time.perf_counter() - start) * 1e3
    tgt = np.array([[vocab(name).pad, *out[:-1]]], dtype=np.int64)  # (1, T): what the decoder read at each step
    res = checkpoint(name).run({"src": src, "tgt": tgt}, _ANSWER_PROBES, backend)
    probs = softmax(res.outputs["logits"][0])[np.arange(len(out)), out]
    want = expected(name, task, text)
    correct = None if want is None else " ".join(text_of(name, out).split()) == " ".join(want.split())
    return Answer(
        task=task,
        text=text,
        source=pieces(name, src[0]),
        output=pieces(name, out),
        answer=text_of(name, out),
        expected=want,
        correct=correct,
        probs=probs,
        cross=stack_layers(res.probes, "decoder.layers.{}.cross_attn.pattern"),
        enc_bias=res.probes["encoder.bias"],
        dec_bias=res.probes["decoder.bias"],
        label_probs=_label_shares(name, src, backend) if task == "which_play" and not real(name) else None,
        backend=res.backend,
        device=res.device,
        ms=res.ms,
        decode_ms=decode_ms,
    )


# ---- 2 · span corruption --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Corruption:
    """Span corruption of one text (the recipe's ``noise_mask`` and ``corrupt``) and the model's reconstruction.
    N text tokens; the input and target are as the encoder and decoder see them (</s> last)."""

    tokens: tuple[str, ...]  # (N,) the text's pieces
    dropped: np.ndarray  # (N,) bool: dropped into a span
    span_of: np.ndarray  # (N,) the sentinel number of a dropped token's span, −1 where kept
    input: tuple[str, ...]  # the corrupted text, one sentinel per span, </s>
    target: tuple[str, ...]  # each sentinel and its span, a closing sentinel, </s>
    target_probs: np.ndarray  # (len(target),) teacher-forced probability of each target token
    predicted: tuple[str, ...]  # (len(target),) the model's top token at each target position (teacher-forced)
    predicted_probs: np.ndarray  # (len(target),)
    greedy: tuple[str, ...]  # the model's own free-running output (greedy), </s> last when produced
    greedy_probs: np.ndarray  # (len(greedy),)
    filled: tuple[str, ...]  # (N,) the text with every dropped token replaced by the greedy output's token there
    filled_ok: np.ndarray  # (N,) bool: the filled token is the dropped one (kept tokens are True)
    reassembled: bool  # kept input tokens + target span tokens, put back in order, give the text exactly
    n_spans: int
    span_accuracy: float  # teacher-forced top-1 accuracy on span tokens (sentinels and </s> not counted)
    lengths: dict  # name -> (encoder input, decoder target) lengths of each objective on this text
    backend: str
    device: str
    ms: float


def reassemble(inp: list[int], tgt: list[int]) -> list[int]:
    """The text back from a span-corruption pair: each sentinel of the input replaced by its span from the target."""
    spans = tt.spans_of(tgt)
    out: list[int] = []
    for i in inp:
        if i == tt.EOS:
            break
        out += spans[i - tt.SENTINEL_0] if tt.is_sentinel(i) else [i]
    return out


def objective_lengths(n: int, density: float, mean_span: float, seed: int) -> dict[str, tuple[int, int]]:
    """(input, target) lengths of four objectives on the same n tokens with the same
    number of corrupted tokens k = round(n · density):

    - ``bert``: BERT itself (1810.04805): no decoder; k tokens replaced in place in the n, each predicted on its own
      at its position (target = the k predictions);
    - ``bert_style``: the paper's BERT-style objective (§3.3.1): the same corruption, the decoder writes the whole
      original text (n + 1, </s> counted, as in the two below);
    - ``iid``: every corrupted token its own span (mean span length 1), each replaced by a sentinel (§3.3.2);
    - ``spans``: span corruption with the chosen mean span length (§3.3.4)."""
    ids = list(range(100, 100 + n))  # the lengths depend on the mask only
    mask = tt.noise_mask(n, density, mean_span, np.random.default_rng(seed))
    spans_in, spans_tgt = tt.corrupt(ids, mask)
    iid_in, iid_tgt = tt.corrupt(ids, tt.noise_mask(n, density, 1.0, np.random.default_rng(seed)))
    k = int(mask.sum())
    return {
        "bert": (n, k),
        "bert_style": (n + 1, n + 1),
        "iid": (len(iid_in), len(iid_tgt)),
        "spans": (len(spans_in), len(spans_tgt)),
    }


def _span_numbers(mask: np.ndarray) -> np.ndarray:
    starts = mask & ~np.r_[False, mask[:-1]]
    return np.where(mask, np.cumsum(starts) - 1, -1)


@st.cache_resource(show_spinner=False, max_entries=64)  # shared as it is, not copied per call: services.read_only
def corruption(name: str, text: str, density: float, mean_span: float, seed: int, backend: str = "torch") -> Corruption:
    """Span-corrupt ``text`` (``noise_mask`` with ``seed``), then ask the model for the target (ours: with the
    ``fill:`` prefix, as its fine-tuning and evaluation do; a real T5: as pre-trained, no prefix): teacher-forced
    probabilities, and its own greedy reconstruction. The corruption is computed in ``models.data.text2text``'s
    numbering (``Vocab.to_ours``) and mapped back to the checkpoint's ids."""
    text = _check_text(name, text, SPAN_MAX_CHARS)
    v, run = vocab(name), checkpoint(name).run
    ids = encode(name, text, sentinels=False)
    if len(ids) < SPAN_MIN_TOKENS:
        raise InputError("t5.error.span_short", n=len(ids), min=SPAN_MIN_TOKENS)
    if len(ids) > SPAN_MAX_TOKENS:
        raise InputError("t5.error.span_tokens", n=len(ids), max=SPAN_MAX_TOKENS)
    mask = tt.noise_mask(len(ids), density, mean_span, np.random.default_rng(seed))
    needed, have = int(_span_numbers(mask).max()) + 2, min(len(v.sentinels), tt.N_SENTINELS)  # spans + closing
    if needed > have:
        raise InputError("t5.error.span_sentinels", n=needed, max=have)
    ours_inp, ours_tgt = tt.corrupt(v.to_ours(ids), mask)
    inp, tgt = v.from_ours(ours_inp), v.from_ours(ours_tgt)
    src = np.array([[*encode(name, span_prefix(name), sentinels=False), *inp]], dtype=np.int64)
    tgt_in = np.array([[v.pad, *tgt[:-1]]], dtype=np.int64)
    res = run({"src": src, "tgt": tgt_in}, (), backend)
    p = softmax(res.outputs["logits"][0])  # (T, V)
    top = p.argmax(-1)
    greedy = _greedy(name, src, len(tgt) + 8, backend)
    g_in = np.array([[v.pad, *greedy[:-1]]], dtype=np.int64)
    g_probs = softmax(run({"src": src, "tgt": g_in}, (), backend).outputs["logits"][0])
    span_of = _span_numbers(mask)
    guessed = [v.from_ours(span) for span in tt.spans_of(v.to_ours(greedy))]
    filled, ok = [], []
    for j, (i, s) in enumerate(zip(ids, span_of)):
        if s < 0:
            filled.append(piece(name, i))
            ok.append(True)
            continue
        offset = j - int(np.flatnonzero(span_of == s)[0])
        span = guessed[s] if s < len(guessed) else []
        g = span[offset] if offset < len(span) else None
        filled.append(piece(name, g) if g is not None else "∅")
        ok.append(g == i)
    tgt_arr = np.array(tgt)
    in_span = np.array([not v.is_sentinel(i) and i != v.eos for i in tgt])
    return read_only(
        Corruption(
            tokens=pieces(name, ids),
            dropped=mask,
            span_of=span_of,
            input=pieces(name, inp),
            target=pieces(name, tgt),
            target_probs=p[np.arange(len(tgt)), tgt_arr],
            predicted=pieces(name, top),
            predicted_probs=p.max(-1),
            greedy=pieces(name, greedy),
            greedy_probs=g_probs[np.arange(len(greedy)), greedy],
            filled=tuple(filled),
            filled_ok=np.array(ok),
            reassembled=reassemble(ours_inp, ours_tgt) == v.to_ours(ids),
            n_spans=int(span_of.max() + 1),
            span_accuracy=float((top[in_span] == tgt_arr[in_span]).mean()),
            lengths=objective_lengths(len(ids), density, mean_span, seed),
            backend=res.backend,
            device=res.device,
            ms=res.ms,
        )
    )


# ---- 3 · relative position buckets ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Buckets:
    """Bucket of each offset key − query in ``OFFSETS``, as models/layers/positions.py computes it."""

    offsets: np.ndarray  # (R,)
    bidirectional: np.ndarray  # (R,) the encoder's buckets
    causal: np.ndarray  # (R,) the decoder's (every future offset in bucket 0)
    exact_bidirectional: int  # |offset| below this has a bucket of its own (each direction)
    exact_causal: int
    num_buckets: int
    max_distance: int


@st.cache_data(show_spinner=False, max_entries=8)
def buckets(num_buckets: int = 32, max_distance: int = 128) -> Buckets:
    rel = torch.as_tensor(OFFSETS)
    kw = {"num_buckets": num_buckets, "max_distance": max_distance}
    return Buckets(
        offsets=OFFSETS,
        bidirectional=t5_relative_position_bucket(rel, bidirectional=True, **kw).numpy(),
        causal=t5_relative_position_bucket(rel, bidirectional=False, **kw).numpy(),
        exact_bidirectional=num_buckets // 4,
        exact_causal=num_buckets // 2,
        num_buckets=num_buckets,
        max_distance=max_distance,
    )


def offsets_per_bucket(bucket_of: np.ndarray) -> np.ndarray:
    """How many offsets of the figure share each bucket."""
    return np.bincount(bucket_of)


@dataclass(frozen=True)
class TrainedBias:
    """The learned bias per head as a function of the offset key − query, read from the ``encoder.bias`` and
    ``decoder.bias`` probes of one run over a long input (the tables are the same for any text)."""

    offsets: np.ndarray  # (R,) −200 … 200
    encoder: np.ndarray  # (H, R)
    decoder: np.ndarray  # (H, R′) for offsets −200 … 0 (a causal decoder never sees a later key)
    decoder_offsets: np.ndarray  # (R′,)
    backend: str
    device: str
    ms: float


@st.cache_data(show_spinner=False, max_entries=4)
def trained_bias(name: str, backend: str = "torch") -> TrainedBias:
    checkpoint(name).require()
    reach = int(-OFFSETS[0])
    filler = encode(name, "the", sentinels=False)[0]  # any ordinary token: the biases do not depend on the tokens
    src = np.full((1, 2 * reach + 1), filler, dtype=np.int64)
    tgt = np.full((1, reach + 1), filler, dtype=np.int64)
    tgt[0, 0] = vocab(name).pad
    res = checkpoint(name).run({"src": src, "tgt": tgt}, ("encoder.bias", "decoder.bias"), backend)
    enc, dec = res.probes["encoder.bias"], res.probes["decoder.bias"]  # (H, S, S), (H, T, T)
    return TrainedBias(
        offsets=OFFSETS,
        encoder=enc[:, reach, :],  # query in the middle: keys at offsets −reach … reach
        decoder=dec[:, reach, :],  # last query: keys at offsets −reach … 0
        decoder_offsets=np.arange(-reach, 1),
        backend=res.backend,
        device=res.device,
        ms=res.ms,
    )


# ---- 4 · three architectures ----------------------------------------------------------------------------------------

# Cell values of the mask figure.
BLOCKED, CAUSAL, VISIBLE, CROSS = 0, 1, 2, 3
ARCHITECTURES = ("encoder_decoder", "language_model", "prefix_lm")


def architecture_masks(n_in: int, n_out: int) -> dict[str, np.ndarray]:
    """(n_in + n_out)² masks over the input x then the target y (rows query, columns key), for the paper's three
    structures (§3.2.1, Figures 3 and 4): 0 blocked, 1 causal self-attention, 2 fully-visible self-attention,
    3 cross-attention (an encoder–decoder's decoder reading the encoder's output)."""
    n = n_in + n_out
    causal = np.tril(np.ones((n, n), dtype=int)) * CAUSAL
    prefix = causal.copy()
    prefix[:, :n_in] = np.where(np.arange(n)[:, None] < n_in, VISIBLE, prefix[:, :n_in])
    enc_dec = np.zeros((n, n), dtype=int)
    enc_dec[:n_in, :n_in] = VISIBLE
    enc_dec[n_in:, :n_in] = CROSS
    enc_dec[n_in:, n_in:] = np.tril(np.ones((n_out, n_out), dtype=int)) * CAUSAL
    return {"encoder_decoder": enc_dec, "language_model": causal, "prefix_lm": prefix}


def visible_to_input(mask: np.ndarray, n_in: int) -> float:
    """The mean number of input tokens an input token may attend to (n_in where the input is fully visible)."""
    return float((mask[:n_in, :n_in] > 0).sum(1).mean())


# ---- 5 · knock-outs (models/interventions.py): torch only, the shared model never changed ----------------------------


@dataclass(frozen=True)
class KnockOut:
    """The model's own answer (plain, greedy) read again teacher-forced with one part knocked out: each of its tokens'
    loss and how many it would still rank first; and the answer it writes, knocked out. T answer tokens (</s> last
    when it wrote one)."""

    output: tuple[str, ...]  # (T,) the plain answer's pieces
    loss_before: np.ndarray  # (T,) nats, plain
    loss_after: np.ndarray  # (T,) knocked out
    kept: int  # answer tokens still ranked first, knocked out (plain: all T)
    answer_after: str  # greedy decoding, knocked out
    correct_after: bool | None  # that answer against the right one, where it is known
    backend: str
    device: str
    ms: float  # the knocked-out runs


@st.cache_data(show_spinner=False, max_entries=64)
def knock_out(name: str, task: str, text: str, stack: str, layer: int, part: str, mode: str, head: int = 0) -> KnockOut:
    """Knock out ``part`` of layer ``layer`` of the encoder or the decoder (``stack``) by ``mode`` and compare with
    the plain run on the page's task and text (eager torch; the override lives in this call's context only,
    ``models.probe.intervene``)."""
    from models import interventions
    from models.probe import intervene

    cfg = config(name)
    layers = {"encoder": cfg["enc_layers"], "decoder": cfg["dec_layers"]}
    ko.check(stack, layer, part, mode, head, layers, cfg["heads"])
    if task not in tasks(name):
        raise InputError("t5.error.task", task=task)
    text = _check_text(name, text, MAX_CHARS)
    want = expected(name, task, text)
    v = vocab(name)
    src = np.array([source_ids(name, task, text)], dtype=np.int64)
    model = checkpoint(name).model
    device = next(model.parameters()).device
    out = _greedy_torch(model, src, MAX_NEW, v)
    tgt_in = np.array([[v.pad, *out[:-1]]], dtype=np.int64)
    loss_before, _ = interventions.teacher_forced(model, src, tgt_in, out)
    start = time.perf_counter()
    with intervene(interventions.encoder_decoder_knock_out(stack, layer, part, mode, head)):
        loss_after, top_after = interventions.teacher_forced(model, src, tgt_in, out)
        knocked = _greedy_torch(model, src, len(out) + 8, v)
    ms = (time.perf_counter() - start) * 1e3
    written = text_of(name, knocked)
    return KnockOut(
        output=pieces(name, out),
        loss_before=loss_before,
        loss_after=loss_after,
        kept=int((top_after == np.array(out)).sum()),
        answer_after=written,
        correct_after=None if want is None else " ".join(written.split()) == " ".join(want.split()),
        backend="torch",
        device=str(device.type),
        ms=ms,
    )


def _greedy_torch(model, src: np.ndarray, max_new: int, v: Vocab) -> list[int]:
    """Greedy decoding in eager torch, re-reading the whole prefix each step (an override then sees every position
    so far, as in the teacher-forced run)."""

    def logits(s: np.ndarray, t: np.ndarray) -> np.ndarray:
        device = next(model.parameters()).device
        with torch.inference_mode():
            return model(torch.from_numpy(s).to(device), torch.from_numpy(t).to(device)).float().cpu().numpy()

    return greedy_steps(logits, src, max_new, bos=v.pad, eos=v.eos)
