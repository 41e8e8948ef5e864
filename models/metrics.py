"""Metrics shared by the language models of the zoo (GPT, the LLaMA race, Mamba on text), in one place.

Text. A document is scored as ``<|endoftext|>`` then its ids, so even its first token is predicted. Bits per
character divide the summed cross-entropy by the characters of the text, not by its tokens, so models with other
tokenizers (and the bigram baseline) compare on the same scale:

    bpc = Σ_docs Σ_t −ln p(x_t | x_<t)  /  (characters · ln 2)

A document longer than the context is scored in windows of the model's context that overlap by half (``stride``),
each token once, with at least half a context before it.

Induction. An induction sequence is ``<|endoftext|>``, an optional prefix of other random ids, L random merged ids,
then the same L ids again. The loss ratio is (mean loss on the second copy) / (mean loss on the first), the first
token of each copy left out (nothing predicts it): near 1 without in-context copying, near 0 with it. An induction
head's score is its mean attention from each repeated token onto the token after that token's first occurrence.

Every model here takes ``tokens (n, T)`` and returns logits ``(n, T, V)``; forward keyword arguments (LLaMA's RoPE
``interpolation`` / ``ntk``) pass through ``token_losses`` and ``position_losses``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models.data import bpe, shakespeare
from models.layers import cache_bytes
from models.probe import trace

# ---- text ---------------------------------------------------------------------------------------------------------


def tokenizer(folder: Path):
    """The byte-level BPE saved beside a checkpoint (``tokenizer.json``)."""
    return bpe.load((Path(folder) / "tokenizer.json").read_text())


def encode_document(tok, text: str) -> np.ndarray:
    """<|endoftext|> (id 0), then the document's ids, so even the first token of a document is predicted."""
    return np.array([0, *tok.encode(text).ids], dtype=np.int64)


def encode_split(tok, split: str) -> np.ndarray:
    """Every work of a Shakespeare split, each encoded as a document, one after the other."""
    return np.concatenate([encode_document(tok, t) for t in shakespeare.plays(split).values()])


@torch.inference_mode()
def token_losses(model: nn.Module, tokens: np.ndarray, **forward) -> np.ndarray:
    """Loss (nats) of predicting each of tokens[:, 1:] from the tokens before it: (n, T − 1)."""
    x = torch.from_numpy(tokens)
    logits = model(x[:, :-1], **forward)
    return F.cross_entropy(logits.transpose(1, 2), x[:, 1:], reduction="none").numpy()


def position_losses(model: nn.Module, windows: np.ndarray, **forward) -> np.ndarray:
    """Mean loss (nats) at each position of (n, T + 1) token windows, predicting windows[:, 1:]: (T,)."""
    return token_losses(model, windows, **forward).mean(0)


def held_out_windows(tok, T: int, n: int, split: str = "validation") -> tuple[np.ndarray, float]:
    """``n`` windows of T + 1 ids spread evenly over a split's works (each encoded as a document, one after the
    other), and the characters per predicted token of that text: mean nats per token / it / ln 2 = bits per
    character."""
    works = shakespeare.plays(split)
    ids = np.concatenate([encode_document(tok, text) for text in works.values()])
    starts = np.linspace(0, len(ids) - T - 2, n).astype(int)
    chars = sum(len(text) for text in works.values())
    return np.stack([ids[s : s + T + 1] for s in starts]), chars / (len(ids) - len(works))


@torch.inference_mode()
def document_nats(model: nn.Module, ids: np.ndarray, stride: int | None = None, context: int | None = None) -> float:
    """Total cross-entropy (nats) of predicting ids[1:] with sliding windows of ``context`` tokens (the model's
    ``config.max_len`` unless given) that start ``stride`` apart (half a context unless given): every token is
    scored once, with at least context − stride tokens before it once the first window is past."""
    T = context or model.config.max_len
    stride = stride or T // 2
    total, done, start = 0.0, 1, 0  # ids[0] is <|endoftext|>, never predicted
    while done < len(ids):
        chunk = torch.from_numpy(ids[start : start + T + 1])[None]
        nll = F.cross_entropy(model(chunk[:, :-1])[0], chunk[0, 1:], reduction="none")
        total += nll[done - start - 1 :].sum().item()  # from the first not-yet-scored target of this window
        done = start + chunk.shape[1]
        start += stride
    return total


def bits_per_character(model: nn.Module, tok, split: str = "validation") -> float:
    nats = chars = 0
    for text in shakespeare.plays(split).values():
        nats += document_nats(model, encode_document(tok, text))
        chars += len(text)
    return nats / chars / math.log(2)


def bigram_bits_per_character(tok, split: str = "validation", prior: float = 50.0) -> float:
    """Baseline: a token bigram model counted on the training split, smoothed towards the unigram (Dirichlet)."""
    V = tok.get_vocab_size()
    train = encode_split(tok, "train")
    pairs = np.zeros((V, V))
    np.add.at(pairs, (train[:-1], train[1:]), 1.0)
    unigram = (np.bincount(train, minlength=V) + 1.0) / (len(train) + V)
    nats = chars = 0
    for text in shakespeare.plays(split).values():
        ids = encode_document(tok, text)
        a, b = ids[:-1], ids[1:]
        p = (pairs[a, b] + prior * unigram[b]) / (pairs[a].sum(1) + prior)
        nats += -np.log(p).sum()
        chars += len(text)
    return float(nats / chars / math.log(2))


# ---- induction ----------------------------------------------------------------------------------------------------


def shown_twice(rng: np.random.Generator, vocab: int, n: int, length: int, prefix: int) -> np.ndarray:
    """(n, 1 + prefix + 2·length): <|endoftext|>, prefix + length random merged ids, the last ``length`` again. A
    vocabulary with no ids past the 256 bytes (a small word-level one) draws from every id but 0."""
    low = 257 if vocab > 257 else 1  # merges only: every one of them occurs in training text
    seq = rng.integers(low, vocab, size=(n, prefix + length))
    return np.concatenate([np.zeros((n, 1), dtype=np.int64), seq, seq[:, prefix:]], axis=1)


def induction_batch(vocab: int, n: int = 64, length: int = 50, seed: int = 1234, prefix: int = 0) -> np.ndarray:
    """(n, 1 + prefix + 2·length): <|endoftext|>, ``prefix`` other random ids, then ``length`` random merged BPE ids,
    then the same ids again. A prefix moves the copies away from the start, so position alone cannot tell the model
    where the first copy is."""
    return shown_twice(np.random.default_rng(seed), vocab, n, length, prefix)


def copy_losses(losses: np.ndarray, length: int, before: int = 0) -> tuple[float, float]:
    """Per-target losses (..., T − 1) of <|endoftext|>, ``before`` other tokens, a segment of ``length``, the segment
    again -> (mean loss on copy 1, on copy 2), each over its targets 2..length (nothing predicts a copy's first)."""
    first = losses[..., before + 1 : before + length].mean()
    second = losses[..., before + length + 1 :].mean()
    return float(first), float(second)


def induction_loss_ratio(model: nn.Module, length: int = 50, prefix: int = 0, n: int = 64, seed: int = 1234) -> float:
    """Loss on the second copy ÷ loss on the first, first token of each copy left out (nothing predicts it)."""
    losses = token_losses(model, induction_batch(model.config.vocab, n=n, length=length, seed=seed, prefix=prefix))
    first, second = copy_losses(losses, length, prefix)
    return second / first


def induction_scores(patterns: np.ndarray, length: int, prefix: int = 0) -> np.ndarray:
    """Attention (..., T, T) on an induction sequence -> (...): the mean weight from each repeated token (2nd to
    last of the second copy) on the token after its first copy, the token to predict. An induction head scores near
    1; a head spreading its attention evenly scores about 1 / T."""
    q = np.arange(prefix + length + 1, prefix + 2 * length)
    return patterns[..., q, q - length + 1].mean(-1)


@torch.inference_mode()
def induction_head_score(model: nn.Module, length: int = 50, prefix: int = 30, n: int = 16, seed: int = 1234) -> float:
    """The highest induction score of any head (mean over ``n`` sequences): is there one head a page can point to?
    The model records ``blocks.{i}.attn.pattern`` (B, H, T, T)."""
    tokens = torch.from_numpy(induction_batch(model.config.vocab, n=n, length=length, seed=seed, prefix=prefix))
    with trace("blocks.*.attn.pattern") as t:
        model(tokens)
    patterns = torch.stack([t[f"blocks.{i}.attn.pattern"] for i in range(len(model.blocks))]).mean(1)  # (L, H, T, T)
    return float(induction_scores(patterns.numpy(), length, prefix).max())


def previous_token_scores(patterns: np.ndarray) -> np.ndarray:
    """Attention (..., T, T) -> (...): the mean weight from each token (2nd on) onto the token just before it. A
    previous-token head scores near 1 (the first half of the induction circuit)."""
    q = np.arange(1, patterns.shape[-1])
    return patterns[..., q, q - 1].mean(-1)


ICL_SPAN = 5  # tokens averaged around each end of the in-context-learning score


def icl_tokens(context: int) -> tuple[int, int]:
    """(early, late): the tokens the in-context-learning score compares in a context of ``context`` tokens, a tenth
    apart as the paper's 50th and 500th: 6 and 60 in 64 tokens, 12 and 120 in 128."""
    late = context * 15 // 16
    return late // 10, late


@torch.inference_mode()
def training_measures(
    model: nn.Module, text: np.ndarray, length: int = 20, prefix: int = 10, n: int = 16, seed: int = 99
) -> dict:
    """What a language model's training is watched by (``models.training.Recorder``), on held-out data:

    - ``prev_token`` (L, H): each head's previous-token score on ``n`` windows of ``text`` as long as the model's
      context, ``previous_token_scores``;
    - ``induction`` (L, H): each head's induction score on ``n`` sequences shown twice (``prefix`` other ids, then
      ``length`` ids twice), ``induction_scores``;
    - ``loss_first`` / ``loss_repeat``: the mean loss on the first copy and on the repeat (``copy_losses``);
    - ``icl``: the in-context-learning score of Olsson et al. (arXiv 2209.11895): the loss at the late token minus
      the loss at the early one of ``icl_tokens`` (each a mean over ``ICL_SPAN`` neighbouring tokens); negative when
      later tokens, with more context, are predicted better;
    - ``val_loss``: the mean loss on the text windows."""
    rng = np.random.default_rng(seed)
    context = model.config.max_len
    starts = rng.integers(0, len(text) - context - 2, size=n)
    windows = np.stack([text[s : s + context + 1] for s in starts])
    with trace("blocks.*.attn.pattern") as t:
        logits = model(torch.from_numpy(windows[:, :-1]))
    text_losses = F.cross_entropy(logits.transpose(1, 2), torch.from_numpy(windows[:, 1:]), reduction="none").numpy()
    layers = [t[f"blocks.{i}.attn.pattern"].double().numpy() for i in range(len(t))]  # float64: 4 decimals stay 4
    prev = np.stack([previous_token_scores(p).mean(0) for p in layers])
    seqs = induction_batch(model.config.vocab, n=n, length=length, seed=seed, prefix=prefix)
    with trace("blocks.*.attn.pattern") as t:
        logits = model(torch.from_numpy(seqs[:, :-1]))
    losses = F.cross_entropy(logits.transpose(1, 2), torch.from_numpy(seqs[:, 1:]), reduction="none").numpy()
    first, second = copy_losses(losses, length, prefix)
    layers = [t[f"blocks.{i}.attn.pattern"].double().numpy() for i in range(len(t))]
    induction = np.stack([induction_scores(p, length, prefix).mean(0) for p in layers])
    half, (early, late) = ICL_SPAN // 2, icl_tokens(context)
    per_position = text_losses.mean(0)  # (context,): the loss of predicting token j + 1
    icl = per_position[late - half : late + half + 1].mean() - per_position[early - half : early + half + 1].mean()
    return {
        "prev_token": np.round(prev, 4).tolist(),
        "induction": np.round(induction, 4).tolist(),
        "loss_first": round(first, 4),
        "loss_repeat": round(second, 4),
        "icl": round(float(icl), 4),
        "val_loss": round(float(text_losses.mean()), 4),
    }


def induction_ratio_after_text(
    model: nn.Module, text: np.ndarray, context: int = 150, n: int = 32, length: int = 50, seed: int = 1234
) -> float:
    """The induction ratio with the random segment placed after ``context`` tokens of ``text`` (ids of the validation
    plays; random windows), as a repeat would appear inside real text."""
    rng = np.random.default_rng(seed)
    starts = rng.integers(1, len(text) - context, size=n)
    seg = shown_twice(rng, model.config.vocab, n, length, 0)[:, 1:]
    tokens = np.concatenate(
        [np.zeros((n, 1), dtype=np.int64), np.stack([text[s : s + context] for s in starts]), seg], axis=1
    )
    first, second = copy_losses(token_losses(model, tokens), length, context)
    return second / first


# ---- decoding ------------------------------------------------------------------------------------------------------


def kv_cache_bytes_per_token(model: nn.Module, n: int = 8) -> int:
    """Bytes the cache grows by per token, measured from the cache tensors after a cached forward of ``n`` tokens
    (any decoder with ``new_cache()`` and ``forward(tokens, cache)``: llama and its siblings, mla)."""
    cache = model.new_cache()
    with torch.inference_mode():
        model(torch.zeros(1, n, dtype=torch.long, device=next(model.parameters()).device), cache)
    return cache_bytes(cache) // n


@torch.inference_mode()
def kv_decode_profile(
    model: nn.Module, length: int, on_step: Callable[[int], None] | None = None, **forward: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Greedy decoding of ``length`` positions by a Transformer decoder with a KV cache (``model(tokens, cache,
    **forward)``, ``model.new_cache()``, as models.gpt): milliseconds of each one-token step, and the bytes of keys and
    values cached after it. ``on_step(t)`` is called after step t, outside the timed part (a progress bar). Beside
    ``models.mamba.decode_profile``, whose state does not grow."""
    cache = model.new_cache()
    token = torch.zeros(1, 1, dtype=torch.long, device=next(model.parameters()).device)
    ms, held = np.zeros(length), np.zeros(length, dtype=np.int64)
    for t in range(length):
        start = time.perf_counter()
        logits = model(token, cache, **forward)
        token = logits[:, -1:].argmax(-1)
        ms[t] = (time.perf_counter() - start) * 1e3
        held[t] = cache_bytes(cache)
        if on_step is not None:
            on_step(t)
    return ms, held
