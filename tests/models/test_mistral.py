"""The sliding-window decoder (models/mistral.py), its rolling buffer cache (models/layers/attention.py), its recipe
(models/recipes/mistral.py) and its shipped checkpoint."""

from __future__ import annotations

from dataclasses import asdict, replace

import numpy as np
import pytest
import torch

from models import llama, metrics, mistral, zoo
from models import recipes as registry
from models.engine import Engine
from models.layers import KVCache, RollingKVCache, causal_mask, sliding_window_mask
from models.probe import trace
from models.recipes import mistral as recipe
from models.train import settings_for
from tests.models.tolerance import assert_close

TINY = mistral.PRESETS["tiny"]  # vocab 300, C 32, H 4, G 2, L 2, context 37, W 5

# Greedy continuation of the shipped checkpoint (torch, CPU, rolling cache). Regenerate only when it is retrained.
GOLDEN_PROMPT = "To be, or not to be, that is the"
GOLDEN_IDS = [199, 70, 1047, 294, 268, 278, 715, 294, 268, 417, 434, 262, 350, 14, 199, 199]
GOLDEN_TEXT = "\nfield of the cap of the Cardinal.\n\n"

shipped_only = pytest.mark.skipif("mistral" not in zoo.available(), reason="no mistral checkpoint")


def tiny_model(**changes) -> mistral.Mistral:
    torch.manual_seed(0)
    return mistral.build(asdict(replace(TINY, **changes))).eval()


@pytest.fixture(scope="module")
def tiny() -> mistral.Mistral:
    return tiny_model()


def tokens(B: int, T: int, seed: int = 0) -> torch.Tensor:
    return torch.randint(0, TINY.vocab, (B, T), generator=torch.Generator().manual_seed(seed))


# ---- the band ------------------------------------------------------------------------------------------------------


def test_band_is_the_causal_mask_up_to_the_window():
    for T in range(1, 6):
        assert torch.equal(sliding_window_mask(T, 5), causal_mask(T))
    band = sliding_window_mask(37, 5)
    assert not torch.equal(band, causal_mask(37))
    assert band.sum(1).tolist() == [min(5, t + 1) for t in range(37)]
    assert band[20].nonzero().flatten().tolist() == [16, 17, 18, 19, 20]  # p − W + 1 .. p


@torch.no_grad()
def test_shapes_gqa_and_parameter_counts(tiny):
    x = tokens(3, 37)
    with trace("embedded", "blocks.*.attn.pattern", "blocks.*.attn.k", "blocks.*.attn.q", "blocks.*.resid") as t:
        assert tiny(x).shape == (3, 37, 300)
    assert t["embedded"].shape == t["blocks.1.resid"].shape == (3, 37, 32)
    assert t["blocks.0.attn.q"].shape == (3, 4, 37, 8) and t["blocks.0.attn.k"].shape == (3, 2, 37, 8)
    assert t["blocks.1.attn.pattern"].shape == (3, 4, 37, 37)
    assert zoo.parameter_count(tiny) == zoo.parameter_count(llama.build(asdict(llama.PRESETS["tiny"]))) == 28_192
    shipped = mistral.build(asdict(mistral.PRESETS["shipped"]))
    assert zoo.parameter_count(shipped) == 2_016_960  # llama's: the window adds no parameter


@torch.no_grad()
def test_attention_outside_the_band_is_exactly_zero(tiny):
    with trace("blocks.*.attn.pattern") as t:
        tiny(tokens(2, 37))
    outside = ~sliding_window_mask(37, TINY.window)
    for name in t.keys():
        assert t[name][..., outside].max().item() == 0.0
        assert torch.allclose(t[name].sum(-1), torch.ones(2, 4, 37))


@torch.no_grad()
def test_eager_and_fused_attention_agree_with_the_band(tiny):
    x = tokens(2, 37)
    eager = tiny(x)
    for block in tiny.blocks:
        block.attn.fused = True
    try:
        assert_close(tiny(x), eager, 1e-5)
    finally:
        for block in tiny.blocks:
            block.attn.fused = False


# ---- the rolling buffer --------------------------------------------------------------------------------------------


@torch.no_grad()
@pytest.mark.parametrize("window", [1, 3, 5, 8])
def test_rolling_cache_in_chunks_equals_the_full_forward(window):
    model = tiny_model(window=window)
    T = 4 * window + 3
    x = tokens(2, T, seed=window)
    full = model(x)
    for chunk in sorted({1, max(1, window - 1), window, 2 * window + 1}):
        caches = model.new_cache()
        got = torch.cat([model(x[:, t : t + chunk], caches) for t in range(0, T, chunk)], dim=1)
        assert_close(got, full, 1e-5, err_msg=f"W={window} chunk={chunk}")
        assert len(caches[0]) == T and caches[0].k.shape[2] == window


@torch.no_grad()
def test_full_cache_equals_the_full_forward_too(tiny):
    x = tokens(1, 23)
    caches = tiny.new_cache(rolling=False)
    assert all(isinstance(c, KVCache) for c in caches)
    got = torch.cat([tiny(x[:, t : t + 1], caches) for t in range(23)], dim=1)
    assert_close(got, tiny(x), 1e-5)
    assert len(caches[0]) == caches[0].k.shape[2] == 23


def test_slot_arithmetic():
    W, B, G, D = 5, 1, 2, 3
    cache = RollingKVCache(W)
    assert cache.positions.tolist() == [-1] * W and len(cache) == 0
    for n in range(1, 13):
        value = torch.full((B, G, 1, D), float(n - 1))  # position n − 1 carries its own number
        keys, values = cache.append(value, value)
        assert len(cache) == n and cache.filled == min(n, W)
        # the query at position n − 1 sees n − W .. n − 1, oldest first
        assert keys[0, 0, :, 0].tolist() == [float(p) for p in range(max(0, n - W), n)]
        expected = [-1] * W
        for p in range(max(0, n - W), n):
            expected[p % W] = p
        assert cache.positions.tolist() == expected
        assert all(cache.k[0, 0, cache.slot(p), 0].item() == p for p in range(max(0, n - W), n))
    assert cache.positions.tolist() == [10, 11, 7, 8, 9]


def test_a_chunk_longer_than_the_window_keeps_its_last_positions():
    cache = RollingKVCache(4)
    x = torch.arange(10.0).view(1, 1, 10, 1)
    keys, _ = cache.append(x, x)
    assert keys.shape[2] == 10 and cache.positions.tolist() == [8, 9, 6, 7]
    keys, _ = cache.append(x[:, :, :2] + 10, x[:, :, :2] + 10)
    assert keys[0, 0, :, 0].tolist() == [7.0, 8.0, 9.0, 10.0, 11.0]  # W − 1 cached, then the chunk


@torch.no_grad()
def test_cache_bytes_stop_growing_with_the_rolling_buffer(tiny):
    x = tokens(1, 4 * TINY.window + 3)
    rolling, full = tiny.new_cache(), tiny.new_cache(rolling=False)
    sizes = {"rolling": [], "full": []}
    for t in range(x.shape[1]):
        for name, caches in (("rolling", rolling), ("full", full)):
            tiny(x[:, t : t + 1], caches)
            sizes[name].append(mistral.cache_bytes(caches))
    row = 2 * TINY.n_layers * TINY.n_kv_heads * (TINY.dim // TINY.n_heads) * 4  # k and v, all layers, float32
    assert sizes["full"] == [row * (t + 1) for t in range(x.shape[1])]
    assert set(sizes["rolling"][TINY.window - 1 :]) == {row * TINY.window}


@torch.no_grad()
def test_prefill_masks_and_logits(tiny):
    ids = tokens(1, 17)[0].tolist()
    last = tiny(torch.tensor([ids]))[0, -1]
    for chunk in (1, 4, 5):
        logits, caches, masks = mistral.prefill(tiny, ids, chunk)
        assert_close(logits, last, 1e-5)
        assert len(masks) == -(-17 // chunk) and len(caches[0]) == 17
        past = 0
        for m in masks:
            T = min(chunk, 17 - past)
            assert m.dtype == bool and m.shape == (T, min(past, TINY.window - 1) + T)
            assert (m.sum(1) == np.minimum(TINY.window, past + np.arange(1, T + 1))).all()
            past += T
    logits, caches, _ = mistral.prefill(tiny, ids[:12], TINY.window)  # then decoding goes on from its caches
    rest = torch.cat([tiny(torch.tensor([[i]]), caches) for i in ids[12:]], dim=1)
    assert_close(rest[0], tiny(torch.tensor([ids]))[0, 12:], 1e-5)


@torch.no_grad()
def test_generate_rolling_equals_full_cache_and_reports_each_step(tiny):
    prompt = tokens(1, 12)[0].tolist()
    seen = []
    out = mistral.generate(tiny, prompt, 9, on_step=lambda i, c: seen.append((i, len(c[0]), c[0].positions.copy())))
    assert out == mistral.generate(tiny, prompt, 9, rolling=False)
    assert [s[0] for s in seen] == out and [s[1] for s in seen] == list(range(13, 22))
    assert seen[-1][2].tolist() == [20, 16, 17, 18, 19]
    again = [tiny(torch.tensor([prompt + out[:k]]))[0, -1].argmax().item() for k in range(9)]
    assert out == again
    sampled = mistral.generate(tiny, prompt, 9, temperature=1.0, seed=3)
    assert sampled == mistral.generate(tiny, prompt, 9, temperature=1.0, seed=3)


def test_influence_is_zero_beyond_the_reach_and_not_inside(tiny):
    T, p, W = 37, 30, TINY.window
    inf = mistral.influence(tiny, tokens(1, T)[0], p)
    assert inf.shape == (TINY.n_layers, T)
    for layer in range(TINY.n_layers):
        first = p - (layer + 1) * (W - 1)
        assert (inf[layer, :first] == 0).all() and (inf[layer, p + 1 :] == 0).all()
        assert (inf[layer, first : p + 1] > 0).all()


# ---- the recipe ----------------------------------------------------------------------------------------------------


def test_settings_are_llamas_at_the_same_tokens_per_step():
    ours, theirs = recipe.TRAIN_SETTINGS, registry.recipe("llama").defaults
    assert ours["batch"] * ours["context"] == theirs["batch"] * theirs["context"]
    assert ours["budget_s"] == theirs["budget_s"] and ours["context"] == mistral.PRESETS["shipped"].max_len
    assert settings_for(registry.recipe("mistral"), ["budget_s=30"])["budget_s"] == 30


def test_bars():
    bars = recipe.RECIPES[0].bars
    assert zoo.bars_missed({"rolling_cache_max_diff": 1e-6, "outside_band_weight": 0.0}, bars) == []
    assert len(zoo.bars_missed({"rolling_cache_max_diff": 1e-3, "outside_band_weight": 1e-9}, bars)) == 2


# ---- the shipped checkpoint ----------------------------------------------------------------------------------------


@shipped_only
def test_card_records_the_run():
    card = zoo.read_card("mistral")
    assert card["command"] == "python -m models.train mistral --seed 0"
    assert card["training"]["budget_s"] == zoo.read_card("llama")["training"]["budget_s"]
    assert card["window"] == 32 and card["reach"] == 124
    ext = card["metrics"]["extrapolation"]
    assert ext["length"] == 4 * ext["train_context"] == 1024 and len(ext["loss"]) == len(ext["bucket_start"]) == 16
    assert not zoo.bars_missed(card["metrics"], card["bars"])


@shipped_only
def test_tokenizer_is_the_gpt_tokenizer():
    ours = (zoo.checkpoint_dir("mistral") / "tokenizer.json").read_text()
    assert ours == (zoo.SHIPPED / "gpt" / "tokenizer.json").read_text()


@shipped_only
def test_golden_greedy_continuation():
    model = zoo.load("mistral")
    tok = metrics.tokenizer(zoo.checkpoint_dir("mistral"))
    prompt = metrics.encode_document(tok, GOLDEN_PROMPT).tolist()
    ids = mistral.generate(model, prompt, len(GOLDEN_IDS))
    assert ids == GOLDEN_IDS
    assert tok.decode(ids) == GOLDEN_TEXT


@shipped_only
def test_onnx_parity_logits_and_probes_past_the_context():
    engine = Engine(device="cpu")
    tok = metrics.tokenizer(zoo.checkpoint_dir("mistral"))
    ids = metrics.encode_document(tok, "O Romeo, Romeo! wherefore art thou Romeo? 你好 🙂 " * 24)[None, :300]
    ids = np.concatenate([ids, ids[:, ::-1]], axis=0)  # B = 2, T = 300: past the 256 of training and the export
    ref = engine.run("mistral", {"tokens": ids}, mistral.PROBES, backend="torch")
    got = engine.run("mistral", {"tokens": ids}, mistral.PROBES, backend="onnx")
    assert_close(got.outputs["logits"], ref.outputs["logits"], 1e-4)  # float32 on both sides
    assert set(got.probes) == set(ref.probes) and len(ref.probes) == 9
    for name, value in ref.probes.items():
        assert_close(got.probes[name], value, 1e-4, err_msg=name)
    outside = ~sliding_window_mask(300, 32).numpy()
    assert got.probes["blocks.3.attn.pattern"][..., outside].max() == 0.0
