"""The T5 page's bridge to ``models.t5`` and its checkpoint ``t5``: one model answering every task prefix (greedy
decoding through either backend, with the decoder's cross-attention), span corruption of the user's text with the
model's reconstruction, the relative-position buckets and the biases the model learned for them, and the attention
masks of the three architectures of the paper's §3.2.1.

Texts are read with the checkpoint's unigram tokenizer; a sentinel may be typed as ``<extra_id_k>`` (the ``fill:``
task). ``answer`` and ``corruption`` are the model calls (cached); the rest are small pure functions.
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
from app.shared.i18n import InputError
from app.shared.numbers import log_softmax, softmax
from app.shared.services import checkpoint, read_only, stack_layers
from models.data import text2text as tt
from models.layers import t5_relative_position_bucket
from models.transformer import greedy_steps

NAME = "t5"
MODEL = checkpoint(NAME)
TASKS = tt.TASKS
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


def available() -> bool:
    return MODEL.available


def config() -> dict:
    """The shipped model's sizes, from its config (so the page's text follows the checkpoint)."""
    c = MODEL.config
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


def card() -> dict:
    """The checkpoint's card: metrics measured by ``python -m models.evaluate t5``, params, wall time, stages (empty
    without the checkpoint's card)."""
    c = MODEL.card
    if not c:
        return {}
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


def piece(i: int) -> str:
    """What one id reads as: a sentinel as ⟨k⟩, the other specials as themselves, a piece with its ▁."""
    if tt.is_sentinel(i):
        return f"⟨{i - tt.SENTINEL_0}⟩"
    return MODEL.tokenizer.id_to_token(int(i))


def pieces(ids) -> tuple[str, ...]:
    return tuple(piece(int(i)) for i in ids)


def encode(text: str, *, sentinels: bool = True) -> list[int]:
    """Ids of ``text`` (no </s>): each ``<extra_id_k>`` becomes sentinel k and the text between them is encoded on its
    own, as the words after a dropped span were in training. Raises ``InputError`` for characters the vocabulary
    lacks (they would read as <unk>) and for sentinels where none are allowed or beyond the 64 there are."""
    tok = MODEL.tokenizer
    ids: list[int] = []
    unknown: list[str] = []
    at = 0
    for m in [*_SENTINEL.finditer(text), None]:
        chunk = text[at : m.start() if m else len(text)].strip()
        if chunk:
            enc = tok.encode(chunk, add_special_tokens=False)
            ids += enc.ids
            unknown += [chunk[a:b] for i, (a, b) in zip(enc.ids, enc.offsets) if i == tt.UNK]
        if m is None:
            break
        if not sentinels:
            raise InputError("t5.error.sentinel")
        k = int(m.group(1))
        if k >= tt.N_SENTINELS:
            raise InputError("t5.error.sentinel_range", k=k, n=tt.N_SENTINELS - 1)
        ids.append(tt.sentinel(k))
        at = m.end()
    if unknown:
        shown = " ".join(dict.fromkeys(repr(u) for u in unknown))
        raise InputError("t5.error.unknown", chars=shown)
    return ids


def _check_text(text: str, max_chars: int) -> str:
    text = " ".join(text.split())
    if not text:
        raise InputError("t5.error.empty")
    if len(text) > max_chars:
        raise InputError("t5.error.too_long", n=len(text), max=max_chars)
    MODEL.require()
    return text


def source_ids(task: str, text: str) -> list[int]:
    """What the encoder reads for ``task``: the prefix, the text, </s>."""
    ids = [*encode(PREFIX[task], sentinels=False), *encode(text, sentinels=task == "fill"), tt.EOS]
    if len(ids) > MAX_SOURCE_TOKENS:
        raise InputError("t5.error.tokens", n=len(ids), max=MAX_SOURCE_TOKENS)
    return ids


def expected(task: str, text: str) -> str | None:
    """The right answer where it is known: counting and reversing by rule, the examples by their source."""
    if task == "count_words":
        return tt.count_words(text)
    if task == "reverse_words":
        return tt.reverse_words(text)
    return _KNOWN[task].get(text)


def _logits_fn(backend: str):
    return lambda src, tgt: MODEL.run({"src": src, "tgt": tgt}, (), backend).outputs["logits"]


def _greedy(src: np.ndarray, max_new: int, backend: str) -> list[int]:
    return greedy_steps(_logits_fn(backend), src, max_new, bos=tt.PAD, eos=tt.EOS)


def text_of(ids) -> str:
    """The text of output ids up to </s>: sentinels written as <extra_id_k>, the text between them decoded."""
    tok, parts, run_ids = MODEL.tokenizer, [], []
    for i in [*(int(i) for i in ids), tt.EOS]:
        if i == tt.EOS or tt.is_sentinel(i):
            if run_ids:
                parts.append(tt.decode(tok, run_ids).strip())
                run_ids = []
            if i == tt.EOS:
                break
            parts.append(f"<extra_id_{i - tt.SENTINEL_0}>")
        elif i != tt.PAD:
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


def _label_shares(src: np.ndarray, backend: str) -> np.ndarray:
    """P(label </s> | source) of every ``which play:`` label, normalised over the labels: one batched run."""
    rows = [[*encode(label, sentinels=False), tt.EOS] for label in LABELS]
    width = max(len(r) for r in rows)
    tgt_in = np.array([[tt.PAD, *r[:-1]] + [tt.PAD] * (width - len(r)) for r in rows], dtype=np.int64)
    logits = MODEL.run({"src": np.repeat(src, len(rows), 0), "tgt": tgt_in}, (), backend).outputs["logits"]
    logp = log_softmax(logits)  # (labels, width, V)
    scores = np.array([sum(logp[i, t, tok] for t, tok in enumerate(r)) for i, r in enumerate(rows)])
    return softmax(scores)


@st.cache_data(show_spinner=False, max_entries=64)
def answer(task: str, text: str, backend: str = "torch") -> Answer:
    """Greedy output of ``PREFIX[task] text`` on ``backend``, then one probe run over the finished decoder input."""
    if task not in TASKS:
        raise InputError("t5.error.task", task=task)
    text = _check_text(text, MAX_CHARS)
    src = np.array([source_ids(task, text)], dtype=np.int64)  # (1, S)
    start = time.perf_counter()
    out = _greedy(src, MAX_NEW, backend)
    decode_ms = (time.perf_counter() - start) * 1e3
    tgt = np.array([[tt.PAD, *out[:-1]]], dtype=np.int64)  # (1, T): what the decoder read at each step
    res = MODEL.run({"src": src, "tgt": tgt}, _ANSWER_PROBES, backend)
    probs = softmax(res.outputs["logits"][0])[np.arange(len(out)), out]
    want = expected(task, text)
    correct = None if want is None else " ".join(text_of(out).split()) == " ".join(want.split())
    return Answer(
        task=task,
        text=text,
        source=pieces(src[0]),
        output=pieces(out),
        answer=text_of(out),
        expected=want,
        correct=correct,
        probs=probs,
        cross=stack_layers(res.probes, "decoder.layers.{}.cross_attn.pattern"),
        enc_bias=res.probes["encoder.bias"],
        dec_bias=res.probes["decoder.bias"],
        label_probs=_label_shares(src, backend) if task == "which_play" else None,
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
def corruption(text: str, density: float, mean_span: float, seed: int, backend: str = "torch") -> Corruption:
    """Span-corrupt ``text`` (``noise_mask`` with ``seed``), then ask the model for the target (``fill:`` prefix, as
    its fine-tuning and evaluation do): teacher-forced probabilities, and its own greedy reconstruction."""
    text = _check_text(text, SPAN_MAX_CHARS)
    ids = encode(text, sentinels=False)
    if len(ids) < SPAN_MIN_TOKENS:
        raise InputError("t5.error.span_short", n=len(ids), min=SPAN_MIN_TOKENS)
    if len(ids) > SPAN_MAX_TOKENS:
        raise InputError("t5.error.span_tokens", n=len(ids), max=SPAN_MAX_TOKENS)
    mask = tt.noise_mask(len(ids), density, mean_span, np.random.default_rng(seed))
    inp, tgt = tt.corrupt(ids, mask)
    src = np.array([[*encode(PREFIX["fill"], sentinels=False), *inp]], dtype=np.int64)
    tgt_in = np.array([[tt.PAD, *tgt[:-1]]], dtype=np.int64)
    res = MODEL.run({"src": src, "tgt": tgt_in}, (), backend)
    p = softmax(res.outputs["logits"][0])  # (T, V)
    top = p.argmax(-1)
    greedy = _greedy(src, len(tgt) + 8, backend)
    g_in = np.array([[tt.PAD, *greedy[:-1]]], dtype=np.int64)
    g_probs = softmax(MODEL.run({"src": src, "tgt": g_in}, (), backend).outputs["logits"][0])
    span_of = _span_numbers(mask)
    guessed = tt.spans_of(greedy)
    filled, ok = [], []
    for j, (i, s) in enumerate(zip(ids, span_of)):
        if s < 0:
            filled.append(piece(i))
            ok.append(True)
            continue
        offset = j - int(np.flatnonzero(span_of == s)[0])
        span = guessed[s] if s < len(guessed) else []
        g = span[offset] if offset < len(span) else None
        filled.append(piece(g) if g is not None else "∅")
        ok.append(g == i)
    tgt_arr = np.array(tgt)
    in_span = np.array([not tt.is_sentinel(i) and i != tt.EOS for i in tgt])
    return read_only(
        Corruption(
            tokens=pieces(ids),
            dropped=mask,
            span_of=span_of,
            input=pieces(inp),
            target=pieces(tgt),
            target_probs=p[np.arange(len(tgt)), tgt_arr],
            predicted=pieces(top),
            predicted_probs=p.max(-1),
            greedy=pieces(greedy),
            greedy_probs=g_probs[np.arange(len(greedy)), greedy],
            filled=tuple(filled),
            filled_ok=np.array(ok),
            reassembled=reassemble(inp, tgt) == ids,
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
def trained_bias(backend: str = "torch") -> TrainedBias:
    MODEL.require()
    reach = int(-OFFSETS[0])
    filler = encode("the", sentinels=False)[0]  # any ordinary token: the biases do not depend on the tokens
    src = np.full((1, 2 * reach + 1), filler, dtype=np.int64)
    tgt = np.full((1, reach + 1), filler, dtype=np.int64)
    tgt[0, 0] = tt.PAD
    res = MODEL.run({"src": src, "tgt": tgt}, ("encoder.bias", "decoder.bias"), backend)
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
