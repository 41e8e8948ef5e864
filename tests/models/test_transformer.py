"""The encoder–decoder of 1706.03762 (models/transformer.py, models/recipes/transformer.py) and its shipped
checkpoint."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pytest
import torch

from models import transformer as tr
from models import zoo
from models.data import seq2seq
from models.engine import Engine
from models.probe import trace
from models.recipes import transformer as recipe
from tests.models.tolerance import assert_close

V = seq2seq.VOCAB


@pytest.fixture(scope="module")
def tiny() -> tr.Transformer:
    torch.manual_seed(0)
    return tr.build(asdict(tr.PRESETS["tiny"])).eval()


@pytest.fixture(scope="module")
def shipped() -> tr.Transformer:
    return zoo.load("transformer")


def random_ids(rng: np.random.Generator, B: int, T: int) -> torch.Tensor:
    return torch.from_numpy(rng.integers(3, V, size=(B, T)))


def test_tiny_shapes_and_probes(tiny):
    c = tiny.config  # C=36, H=3, D=12, F=52: odd sizes so that a swapped axis cannot hide
    rng = np.random.default_rng(1)
    src, tgt = random_ids(rng, 3, 7), random_ids(rng, 3, 5)
    with trace("*.pattern", "*.q", "*.k", "*.out", "*.embedded", "*.ffn.act") as t:
        logits = tiny(src, tgt)
    assert logits.shape == (3, 5, V)
    assert t["encoder.layers.0.self_attn.pattern"].shape == (3, 3, 7, 7)
    assert t["decoder.layers.1.self_attn.pattern"].shape == (3, 3, 5, 5)
    assert t["decoder.layers.1.cross_attn.pattern"].shape == (3, 3, 5, 7)
    assert t["decoder.layers.0.cross_attn.q"].shape == (3, 3, 5, 12)
    assert t["decoder.layers.0.cross_attn.k"].shape == (3, 3, 7, 12)
    assert t["encoder.layers.0.ffn.act"].shape == (3, 7, c.ffn_dim)
    assert t["encoder.embedded"].shape == (3, 7, 36) and t["decoder.layers.1.out"].shape == (3, 5, 36)
    assert zoo.parameter_count(tiny) == 39_792  # 30·36 embedding + 9,304 encoder layer + 2 × 14,704 decoder layers
    for name, p in t.items():
        if name.endswith("pattern"):
            torch.testing.assert_close(p.sum(-1), torch.ones(p.shape[:-1]))


def test_decoder_is_causal(tiny):
    rng = np.random.default_rng(2)
    src, tgt = random_ids(rng, 2, 6), random_ids(rng, 2, 8)
    before = tiny(src, tgt)
    for t in range(7):
        changed = tgt.clone()
        changed[:, t + 1 :] = random_ids(rng, 2, 7 - t)
        after = tiny(src, changed)
        assert_close(after[:, : t + 1], before[:, : t + 1], 1e-5)
        assert not torch.allclose(after[:, t + 1 :], before[:, t + 1 :])


def test_padding_gets_no_attention_and_changes_nothing(tiny):
    rng = np.random.default_rng(3)
    src, tgt = random_ids(rng, 1, 5), random_ids(rng, 1, 4)
    padded_src = torch.cat([src, torch.zeros(1, 3, dtype=torch.long)], 1)
    padded_tgt = torch.cat([tgt, torch.zeros(1, 2, dtype=torch.long)], 1)
    with trace("*.pattern") as t:
        logits = tiny(padded_src, padded_tgt)
    for name, p in t.items():
        keys_are_src = name.startswith("encoder") or "cross_attn" in name
        n_real = 5 if keys_are_src else 4
        assert p[..., n_real:].abs().max() == 0, name
    assert_close(logits[:, :4], tiny(src, tgt), 1e-5)


def test_greedy_helpers_agree(tiny):
    src = torch.from_numpy(seq2seq.source_ids("abc de"))
    ids = tr.greedy_decode(tiny, src, max_new=9)[0].tolist()

    def logits_fn(s, t):
        return tiny(torch.from_numpy(s), torch.from_numpy(t)).detach().numpy()

    steps = tr.greedy_steps(logits_fn, src.numpy(), max_new=9)
    assert steps == ids[: len(steps)]


def test_the_model_speaks_the_task_vocabulary():
    """The model holds its special ids in its config (it imports no data module); they are the task's."""
    c = tr.PRESETS["shipped"]
    assert (c.vocab, c.pad_id, c.bos_id, c.eos_id) == (seq2seq.VOCAB, seq2seq.PAD, seq2seq.BOS, seq2seq.EOS)
    assert zoo.read_config("transformer")["vocab"] == seq2seq.VOCAB
    assert recipe.LONG_LENGTHS[0] == recipe.TRAIN_LENGTHS[1] + 1


def test_vocabulary_round_trip_and_errors():
    assert seq2seq.decode(seq2seq.encode("hello world") + [seq2seq.EOS, 5]) == "hello world"
    with pytest.raises(seq2seq.UnknownSymbolError) as err:
        seq2seq.encode("Hi 2!")
    assert err.value.symbols == ["H", "2", "!"]
    batch = seq2seq.reversal(np.random.default_rng(0), 4, 2, 6)
    for b, n in enumerate(batch.lengths):
        assert (batch.tgt_out[b, :n] == batch.src[b, seq2seq.reverse_alignment(n)]).all()


# Greedy outputs of the shipped checkpoint, stored once: a changed weight file or layer shows up here.
GOLDEN = {
    "attention": "noitnetta",
    "hello world": "dlrow olleh",
    "abcdefghijklmnop": "ponmlkjihgfedcba",
    "aab": "baa",
    "z": "z",
    "abcdefghijklmnopq": "qponmlkjihgfedcba",  # 17 symbols: longer than any training string
}


@pytest.mark.parametrize("text", sorted(GOLDEN))
def test_shipped_golden_greedy_outputs(shipped, text):
    src = torch.from_numpy(seq2seq.source_ids(text))
    with torch.no_grad():
        ids = tr.greedy_decode(shipped, src, max_new=len(text) + 3)[0].tolist()
    assert ids[-1] == seq2seq.EOS
    assert seq2seq.decode(ids) == GOLDEN[text]


def test_shipped_card_meets_its_bars():
    card = zoo.read_card("transformer")
    assert not zoo.bars_missed(card["metrics"], card["bars"])
    assert {"task", "command", "wall_time_s"} <= card.keys()
    assert (zoo.checkpoint_dir("transformer") / "model.safetensors").stat().st_size < 5e6


def test_onnx_parity_with_torch():
    """ONNX Runtime against torch through the engine, at lengths other than the export example (dynamic axes).

    Tolerance: |onnx − torch| ≤ 1e-4 · scale + 1e-4·|torch| on logits and every probe, scale being the largest
    magnitude of the torch values (at least 1); float32 throughout; observed maximum differences: 1.8e-5 on logits
    (which reach ±15), 1.4e-5 on probes.
    """
    engine = Engine(device="cpu")
    batch = seq2seq.reversal(np.random.default_rng(11), 3, 3, 13)
    inputs = {"src": batch.src, "tgt": batch.tgt_in}
    probes = ("*.pattern", "*.scores", "*_attn.q", "*_attn.k", "*_attn.v")
    ref = engine.run("transformer", inputs, probes, backend="torch")
    got = engine.run("transformer", inputs, probes, backend="onnx")
    assert_close(got.outputs["logits"], ref.outputs["logits"], 1e-4)
    assert set(got.probes) == set(ref.probes) and len(ref.probes) == 6 * 5
    for name, value in ref.probes.items():
        if name.endswith("scores"):
            # masked scores hold the dtype's lowest value; compare where attention may go
            value, other = np.where(value < -1e30, 0, value), np.where(got.probes[name] < -1e30, 0, got.probes[name])
        else:
            other = got.probes[name]
        assert_close(other, value, 1e-4, err_msg=name)
