"""Byte-level BPE (GPT-2, Radford et al. 2019), trained with Hugging Face ``tokenizers``.

Text is first turned into UTF-8 bytes, and each of the 256 byte values is a token of its own, so any string —
Chinese, emoji, code — encodes without an unknown token: what the merges do not cover falls back to bytes.
The merges are learnt on the training split only. Id 0 is ``<|endoftext|>``, which separates documents.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

EOT = "<|endoftext|>"


def train_bpe(texts: Iterable[str], vocab_size: int) -> Tokenizer:
    """A byte-level BPE tokenizer with ``vocab_size`` ids: EOT, the 256 bytes, then the learnt merges."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[EOT],
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(texts, trainer=trainer)
    return tok


def load(json_text: str) -> Tokenizer:
    return Tokenizer.from_str(json_text)


def token_bytes(tok: Tokenizer, ids: Iterable[int]) -> list[bytes]:
    """The raw bytes each id stands for (a byte-level token may be part of one UTF-8 character)."""
    table = _char_bytes()
    out = []
    for i in ids:
        piece = tok.id_to_token(int(i))
        if piece == EOT:
            out.append(b"")
        else:
            out.append(bytes(table[ch] for ch in piece))
    return out


@functools.cache  # built once: the page asks for token bytes on every new text (0.5 ms a time)
def _char_bytes() -> dict[str, int]:
    """The byte value each stand-in character of ``_byte_table`` is written for."""
    return {ch: b for b, ch in _byte_table().items()}


def _byte_table() -> dict[int, str]:
    """GPT-2's printable stand-in character for each byte value (the alphabet byte-level tokens are written in)."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), 256))
    chars = keep[:]
    n = 0
    for b in range(256):
        if b not in keep:
            keep.append(b)
            chars.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(keep, chars)}
