"""Transformer-XL (models/transformer_xl.py): the relative shift, the four score terms, segment recurrence with
its memory, causality; the recipe (models/recipes/transformer_xl.py); the shipped checkpoint (golden outputs, ONNX
parity with the memory as an input and an output)."""

from __future__ import annotations

from dataclasses import asdict, replace

import numpy as np
import pytest
import torch

from models import gpt, metrics, transformer_xl, zoo
from models.engine import Engine
from models.probe import trace
from models.recipes import transformer_xl as recipe
from tests.models.tolerance import assert_close

TINY = transformer_xl.PRESETS["tiny"]  # vocab 300, C 32, H 4, N 2, FF 64, L 7, M 9

# Greedy continuation of the shipped checkpoint (torch, CPU). Regenerate only when it is retrained.
GOLDEN_PROMPT = "To be, or not to be, that is the"
GOLDEN_IDS = [199, 77, 372, 294, 268, 619, 12, 291, 268, 619, 12, 291, 268, 619, 12, 291]
GOLDEN_TEXT = "\nmore of the king, and the king, and the king, and"

shipped_only = pytest.mark.skipif("transformer-xl" not in zoo.available(), reason="no transformer-xl checkpoint")


def tiny_model(**changes) -> transformer_xl.TransformerXL:
    torch.manual_seed(0)
    model = transformer_xl.build(asdict(replace(TINY, **changes))).eval()
    with torch.no_grad():  # u and v start at 0; give them values so that terms (c) and (d) are tested too
        model.u.normal_()
        model.v.normal_()
    return model


@pytest.fixture(scope="module")
def tiny() -> transformer_xl.TransformerXL:
    return tiny_model()


def tokens(B: int, T: int, seed: int = 0) -> torch.Tensor:
    return torch.randint(0, TINY.vocab, (B, T), generator=torch.Generator().manual_seed(seed))


def memory(B: int, M: int, seed: int = 1) -> torch.Tensor:
    return torch.randn(TINY.n_layers, B, M, TINY.dim, generator=torch.Generator().manual_seed(seed))


# ---- relative positions ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("T,S", [(1, 1), (3, 3), (7, 16), (5, 12), (4, 4)])
def test_rel_shift_equals_a_direct_gather(T, S):
    x = torch.randn(2, 3, T, S)  # column k: distance S − 1 − k
    shifted = transformer_xl.rel_shift(x)
    M = S - T
    for i in range(T):
        for j in range(M + i + 1):  # visible keys only; the rest is masked
            assert shifted[..., i, j].equal(x[..., i, S - 1 - (M + i - j)])


@torch.no_grad()
def test_the_four_terms_add_up_to_the_scores(tiny):
    x, mem = tokens(3, 7), memory(3, 9)
    with trace("blocks.*.attn.q", "blocks.*.attn.k", "blocks.*.attn.r", "blocks.*.attn.scores") as t:
        tiny(x, mem)
    visible = torch.ones(7, 16, dtype=torch.bool).tril(diagonal=9)
    for n in range(TINY.n_layers):
        q, k, r = (t[f"blocks.{n}.attn.{p}"] for p in ("q", "k", "r"))
        terms = transformer_xl.score_terms(q, k, r, tiny.u, tiny.v)
        assert set(terms) == {"a", "b", "c", "d"} and terms["a"].shape == (3, 4, 7, 16)
        assert_close(sum(terms.values())[..., visible], t[f"blocks.{n}.attn.scores"][..., visible], 1e-5)
        assert all((term[..., ~visible] == 0).all() for term in terms.values())
        # (c) depends on the key only, (d) on the distance only
        assert_close(terms["c"][:, :, 0, :10], terms["c"][:, :, 6, :10], 1e-6)
        assert_close(terms["d"][0, :, 6, 9:], terms["d"][2, :, 6, 9:], 1e-6)
        assert_close(terms["d"][0, :, 5, 8], terms["d"][0, :, 6, 9], 1e-6)


@torch.no_grad()
def test_scores_depend_on_the_offset_only(tiny):
    """Shifting the memory length (the absolute positions) changes nothing when the same keys are attended."""
    x = tokens(1, 7)
    _, mem = tiny(tokens(1, 9, seed=3))  # 7 states of a real segment
    short = mem[:, :, -4:]
    padded = torch.cat([torch.randn(TINY.n_layers, 1, 3, TINY.dim), short], dim=2)
    with trace("blocks.0.attn.pattern") as a:
        tiny(x, short)
    with trace("blocks.0.attn.pattern") as b:
        tiny(x, padded)
    # layer 0 with 3 more memory keys: its scores for the shared keys are the same, only the softmax renormalises
    pa, pb = a["blocks.0.attn.pattern"], b["blocks.0.attn.pattern"][..., 3:]
    assert_close(pa, pb / pb.sum(-1, keepdim=True), 1e-5)


# ---- segment recurrence -------------------------------------------------------------------------------------------


@torch.no_grad()
def test_shapes_memory_and_parameter_counts(tiny):
    x = tokens(3, 7)
    logits, mem = tiny(x)
    assert logits.shape == (3, 7, 300) and mem.shape == (2, 3, 7, 32)
    logits, mem = tiny(x, mem)
    assert mem.shape == (2, 3, 9, 32)  # min(M, 7 + 7)
    _, mem0 = tiny(x, keep=0)
    assert mem0.shape == (2, 3, 0, 32)
    with trace("embedded", "blocks.*.attn.pattern", "blocks.*.attn.r", "blocks.*.resid") as t:
        tiny(x, mem)
    assert t["blocks.1.attn.pattern"].shape == (3, 4, 7, 16) and t["blocks.0.attn.r"].shape == (4, 16, 8)
    assert_close(t["blocks.1.attn.pattern"].sum(-1), torch.ones(3, 4, 7), 1e-6)
    # E 300·32, u and v 2·4·8; per block W_q, W_k,E, W_v, W_k,R, W_o 5·32², two LayerNorms 2·64, FF 2·32·64 + 64 + 32
    assert zoo.parameter_count(tiny) == 9_600 + 64 + 2 * (5_120 + 128 + 4_192) == 28_544
    shipped = transformer_xl.build(asdict(transformer_xl.PRESETS["shipped"]))
    assert zoo.parameter_count(shipped) == 1_664_960
    assert zoo.parameter_count(gpt.build(asdict(recipe.BASELINE))) == 1_575_360  # + learned positions, biases


@torch.no_grad()
def test_the_memory_holds_each_layers_inputs(tiny):
    x = tokens(2, 7)
    with trace("embedded", "blocks.0.resid") as t:
        _, mem = tiny(x)
    assert mem[0].equal(t["embedded"]) and mem[1].equal(t["blocks.0.resid"])
    _, longer = tiny(tokens(2, 7, seed=5), mem)
    assert longer[:, :, :2].equal(mem[:, :, -2:])  # the oldest states leave first


@torch.no_grad()
def test_with_memory_cleared_it_is_a_plain_segment_model(tiny):
    a, b = tokens(2, 7), tokens(2, 7, seed=1)
    alone, _ = tiny(b)
    assert_close(tiny(b, tiny.empty_memory(2))[0], alone, 1e-6)
    steps = transformer_xl.segments(tiny, torch.cat([a, b], 1)[0].tolist(), memory=False)
    assert_close(steps[1][0][0], alone[0], 1e-5)
    other = transformer_xl.segments(tiny, torch.cat([tokens(2, 7, seed=9), b], 1)[0].tolist(), memory=False)
    assert_close(other[1][0], steps[1][0], 1e-6)  # what came before does not matter
    carried = transformer_xl.segments(tiny, torch.cat([a, b], 1)[0].tolist())
    assert not torch.allclose(carried[1][0], steps[1][0], atol=1e-3)  # with memory it does


@torch.no_grad()
@pytest.mark.parametrize("first", [1, 4, 7, 9])
def test_two_calls_with_memory_equal_one_call_over_both_segments(first):
    """With M ≥ the first segment's length, the recurrence keeps every state the concatenated call attends to."""
    model = tiny_model()
    x = tokens(2, first + 7, seed=first)
    full, _ = model(x)
    a, mem = model(x[:, :first])
    b, _ = model(x[:, first:], mem)
    assert_close(torch.cat([a, b], dim=1), full, 1e-5)


@torch.no_grad()
def test_a_third_segment_sees_the_first_only_through_the_memory_of_the_second():
    model = tiny_model()
    x = tokens(1, 21, seed=2)
    full, _ = model(x)
    steps = transformer_xl.segments(model, x[0].tolist())
    got = torch.cat([s[0] for s in steps], dim=1)
    assert_close(got[:, :14], full[:, :14], 1e-5)  # M = 9 ≥ 7: the second segment still sees all of the first
    assert not torch.allclose(got[:, 14:], full[:, 14:], atol=1e-4)  # the third reads only 9 states back


@torch.no_grad()
def test_causality_under_perturbation(tiny):
    x, mem = tokens(1, 7), memory(1, 9)
    base, _ = tiny(x, mem)
    for p in range(7):
        y = x.clone()
        y[0, p] = (y[0, p] + 1) % TINY.vocab
        out, _ = tiny(y, mem)
        assert_close(out[0, :p], base[0, :p], 1e-6)
        assert not torch.allclose(out[0, p], base[0, p])


def test_no_gradient_flows_into_the_memory():
    model = tiny_model().train()
    mem = memory(1, 9).requires_grad_(True)
    logits, new = model(tokens(1, 7), mem)
    logits.sum().backward()
    assert mem.grad is None and not new.requires_grad
    assert model.u.grad is not None and model.blocks[0].attn.wr.weight.grad is not None


@torch.no_grad()
def test_generate_is_greedy_over_the_recurrence(tiny):
    prompt = tokens(1, 10)[0].tolist()
    out = transformer_xl.generate(tiny, prompt, 5)
    assert len(out) == 5 and out == transformer_xl.generate(tiny, prompt, 5)
    logits, mem = tiny(torch.tensor([prompt[:7]]))
    logits, mem = tiny(torch.tensor([prompt[7:]]), mem)
    assert out[0] == int(logits[0, -1].argmax())
    with pytest.raises(ValueError):
        transformer_xl.generate(tiny, [], 3)
    with pytest.raises(ValueError):
        tiny(tokens(1, 7), memory(1, 125))  # 132 keys > the 128 distances of R


# ---- the recipe ----------------------------------------------------------------------------------------------------


def test_stream_segments_are_consecutive_per_row():
    ids = np.arange(1000)
    batches = recipe.stream_segments(ids, 3, 10)
    first, second = next(batches), next(batches)
    assert first.shape == (3, 11) and first[:, 0].tolist() == [0, 333, 666]
    assert second[:, 0].equal(first[:, -1])  # the next segment starts where the last targets ended
    rest = list(zip(range(32), batches))  # 33 segments of 10 in 333 + 1 ids
    assert rest[-1][1][0, 0].item() == 0  # then a new epoch


def test_recurrent_wrapper_carries_the_memory():
    model = tiny_model()
    wrapper = recipe.Recurrent(model)
    x = tokens(2, 14)
    a, b = wrapper(x[:, :7]), wrapper(x[:, 7:])
    assert wrapper.memory.shape == (2, 2, 9, 32)
    assert_close(torch.cat([a, b], 1), model(x)[0], 1e-5)


@torch.no_grad()
def test_document_losses_with_and_without_memory(tiny):
    ids = tokens(1, 23)[0].numpy()
    carried = recipe.document_losses(tiny, ids)
    cleared = recipe.document_losses(tiny, ids, memory=False)
    assert carried.shape == cleared.shape == (22,)
    assert_close(carried[:7], cleared[:7], 1e-5)  # the first segment has no memory either way
    assert not np.allclose(carried[7:], cleared[7:], atol=1e-4)
    logits, _ = tiny(torch.from_numpy(ids[:14])[None])  # two segments: M = 9 ≥ 7, as one call
    expected = torch.nn.functional.cross_entropy(logits[0], torch.from_numpy(ids[1:15]), reduction="none")
    assert_close(carried[:14], expected, 1e-5)


def test_bars():
    bars = recipe.RECIPES[0].bars
    good = {
        "val_bpc": 2.0,
        "val_bpc_no_memory": 2.2,
        "baseline_val_bpc_fragmented": 2.3,
        "first_tokens_bpc_gain": 0.3,
        "eval_speedup": 50.0,
    }
    assert zoo.bars_missed(good, bars) == []
    assert len(zoo.bars_missed({**good, "val_bpc": 2.25}, bars)) == 1
    assert len(zoo.bars_missed({**good, "val_bpc": 2.4}, bars)) == 2
    assert len(zoo.bars_missed({**good, "first_tokens_bpc_gain": 0.0, "eval_speedup": 0.5}, bars)) == 2
    assert set(recipe.RECIPES[0].timed) == {"eval_speed", "eval_speedup"}


# ---- the shipped checkpoint ----------------------------------------------------------------------------------------


@shipped_only
def test_card_records_the_run():
    card = zoo.read_card("transformer-xl")
    assert card["command"] == "python -m models.train transformer-xl --seed 0"
    assert card["segment"] == card["memory"] == 64
    assert gpt.Config(**card["baseline"]["config"]) == recipe.BASELINE  # fields added since keep their defaults
    assert not zoo.bars_missed(card["metrics"], card["bars"])


@shipped_only
def test_tokenizer_is_the_gpt_tokenizer():
    ours = (zoo.checkpoint_dir("transformer-xl") / "tokenizer.json").read_text()
    assert ours == (zoo.SHIPPED / "gpt" / "tokenizer.json").read_text()


@shipped_only
def test_golden_greedy_continuation():
    model = zoo.load("transformer-xl")
    tok = metrics.tokenizer(zoo.checkpoint_dir("transformer-xl"))
    prompt = metrics.encode_document(tok, GOLDEN_PROMPT).tolist()
    ids = transformer_xl.generate(model, prompt, len(GOLDEN_IDS))
    assert ids == GOLDEN_IDS
    assert tok.decode(ids) == GOLDEN_TEXT


@shipped_only
def test_onnx_parity_with_the_memory_as_input_and_output():
    engine = Engine(device="cpu")
    model = zoo.load("transformer-xl")
    tok = metrics.tokenizer(zoo.checkpoint_dir("transformer-xl"))
    ids = metrics.encode_document(tok, "O Romeo, Romeo! wherefore art thou Romeo? 你好 🙂 " * 12)[None, :110]
    ids = np.concatenate([ids, ids[:, ::-1]], axis=0)  # B = 2
    first, second = ids[:, :64], ids[:, 64:]  # the second segment is 46 long, unlike the export's
    with torch.no_grad():
        _, mem = model(torch.from_numpy(first))
    for inputs in (
        {"tokens": first, "memory": model.empty_memory(2).numpy()},  # no memory: M = 0
        {"tokens": second, "memory": mem.numpy()},
    ):
        ref = engine.run("transformer-xl", inputs, transformer_xl.PROBES, backend="torch")
        got = engine.run("transformer-xl", inputs, transformer_xl.PROBES, backend="onnx")
        for name in ("logits", "new_memory"):
            assert_close(got.outputs[name], ref.outputs[name], 1e-4, err_msg=name)  # float32 on both sides
        assert set(got.probes) == set(ref.probes) and len(ref.probes) == 1 + 5 * 4
        for name, value in ref.probes.items():
            assert_close(got.probes[name], value, 1e-4, err_msg=name)
