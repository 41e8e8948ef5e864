"""Character alignment of token losses (app/compare/align.py) on two tokenizers: our byte-level BPE and SmolLM2's,
on texts with multi-byte characters."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from tokenizers import Tokenizer

from app.compare import align

ROOT = Path(__file__).resolve().parents[2]
OURS = ROOT / "models" / "checkpoints" / "gpt" / "tokenizer.json"
SMOL = ROOT / "data" / "pretrained" / "smollm2-135m" / "tokenizer.json"
TEXTS = (
    "To-morrow, and to-morrow, and to-morrow,\nCreeps in this petty pace",
    "Café — 你好 😀 ok",
    "naïve señor: ﬁn, Ω≈ç√ 日本語のテキスト 👩‍👩‍👧",
)


def tokenizers():
    found = [pytest.param(OURS, id="ours")]
    if SMOL.exists():
        found.append(pytest.param(SMOL, id="smollm2"))
    else:
        found.append(pytest.param(SMOL, id="smollm2", marks=pytest.mark.skip("smollm2-135m is not converted here")))
    return found


@pytest.mark.parametrize("path", tokenizers())
@pytest.mark.parametrize("text", TEXTS)
def test_every_bit_lands_on_a_character_of_the_text(path, text):
    tok = Tokenizer.from_file(str(path))
    enc = tok.encode(text)
    rng = np.random.default_rng(0)
    nats = rng.uniform(0.1, 5.0, len(enc.ids))
    bits = align.char_bits(enc.offsets, nats, len(text))
    assert bits.shape == (len(text),)
    assert bits.sum() == pytest.approx(nats.sum() / math.log(2), rel=1e-9)  # nothing lost, nothing counted twice
    assert align.bits_per_char(enc.offsets, nats, len(text)) == pytest.approx(bits.mean(), rel=1e-9)
    # every character some token covers is charged; a multi-byte character split into byte tokens carries them all
    covered = np.zeros(len(text), bool)
    for a, b in enc.offsets:
        covered[a:b] = True
    assert (bits[covered] > 0).all()
    for i, (a, b) in enumerate(enc.offsets):  # each character position maps back to a token that covers it
        assert align.token_at(enc.offsets, a) <= i or a == b


def test_the_two_tokenizers_cut_differently_but_charge_the_same_characters():
    if not SMOL.exists():
        pytest.skip("smollm2-135m is not converted here")
    text = TEXTS[1]
    ours, smol = (Tokenizer.from_file(str(p)).encode(text) for p in (OURS, SMOL))
    assert len(ours.ids) != len(smol.ids)
    # the same loss per character, whatever the tokens: each tokenizer's tokens charged 1 bit per character covered
    a = align.char_bits(ours.offsets, [math.log(2) * (b - a) for a, b in _spans(ours.offsets)], len(text))
    b = align.char_bits(smol.offsets, [math.log(2) * (b - a) for a, b in _spans(smol.offsets)], len(text))
    assert a.sum() == pytest.approx(b.sum())


def _spans(offsets):
    """Each token's span with the characters an earlier token already covers removed (a byte-split character is
    counted once)."""
    seen = 0
    out = []
    for a, b in offsets:
        out.append((max(a, seen), max(b, seen)))
        seen = max(seen, b)
    return out


def test_a_multi_byte_character_takes_all_its_byte_tokens():
    # "é" read as two byte tokens that both report character 3; then a token covering characters 4-5
    offsets = [(0, 1), (1, 3), (3, 4), (3, 4), (4, 6)]
    nats = np.array([1.0, 2.0, 0.5, 0.25, 4.0]) * math.log(2)
    bits = align.char_bits(offsets, nats, 6)
    np.testing.assert_allclose(bits, [1.0, 1.0, 1.0, 0.75, 2.0, 2.0])
    assert align.token_at(offsets, 3) == 2  # the first token holding the character
    assert align.token_at(offsets, 5) == 4


def test_overlapping_and_empty_spans():
    # SmolLM2 reads " 😀" as (9, 11) then (10, 11): the emoji is charged by both; an empty span charges its start
    offsets = [(0, 2), (1, 2), (2, 2)]
    bits = align.char_bits(offsets, np.array([2.0, 1.0, 3.0]) * math.log(2), 3)
    np.testing.assert_allclose(bits, [1.0, 2.0, 3.0])
    assert align.token_at(offsets, 2) == 2  # no span holds it: the last token that starts at or before it
    assert align.char_bits([], [], 0).shape == (0,)


def test_rolling_mean():
    np.testing.assert_allclose(align.rolling_mean(np.array([2.0, 4.0, 6.0, 8.0]), 2), [2.0, 3.0, 5.0, 7.0])
    np.testing.assert_allclose(align.rolling_mean(np.array([1.0, 3.0]), 1), [1.0, 3.0])
