"""Multi-head latent attention (models/mla.py), its recipe (models/recipes/mla.py) and the shipped ``mla`` checkpoint:
the absorbed path equals the naive one, the cache holds d_c + d_h^R numbers per token per layer, cached decoding equals
the full forward, and RoPE on the up-projected keys would break the absorption (why k^R is separate)."""

from __future__ import annotations

from dataclasses import asdict, replace

import numpy as np
import pytest
import torch

from models import gpt, metrics, mla, zoo
from models import recipes as registry
from models.engine import Engine
from models.probe import trace
from models.recipes import llama as llama_recipe
from models.recipes import mla as recipe
from tests.models.tolerance import assert_close

TINY = mla.PRESETS["tiny"]  # vocab 300, C 32, H 4, d_h 8, d_c 12, d_c' 16, d_h^R 4, L 2, context 32

# Greedy continuation of the shipped checkpoint (torch, CPU), the prompt of tests/models/test_llama.py. Regenerate
# only when the checkpoint is retrained.
GOLDEN_PROMPT = "To be, or not to be, that is the"
GOLDEN_IDS = [199, 80, 82, 675, 294, 268, 851, 12, 291, 268, 264, 974, 294, 268, 851, 12]
GOLDEN_TEXT = "\nprince of the world, and the watch of the world,"

shipped_only = pytest.mark.skipif("mla" not in zoo.available(), reason="no mla checkpoint")


def tiny_model(**changes) -> mla.MLA:
    torch.manual_seed(0)
    return mla.build(asdict(replace(TINY, **changes))).eval()


@pytest.fixture(scope="module")
def tiny() -> mla.MLA:
    return tiny_model()


def tokens(B: int, T: int, seed: int, vocab: int = 300) -> torch.Tensor:
    return torch.randint(0, vocab, (B, T), generator=torch.Generator().manual_seed(seed))


# ---- the model -----------------------------------------------------------------------------------------------------


def test_shapes_and_pinned_parameter_counts(tiny):
    assert tiny(tokens(3, 7, 0)).shape == (3, 7, 300)
    assert zoo.parameter_count(tiny) == 29_272
    # near llama's 2,016,960: the projections through the latents cost a little more than GQA's W_k, W_v
    assert zoo.parameter_count(mla.build(asdict(mla.PRESETS["shipped"]))) == 2_054_464


def test_projections_have_the_papers_shapes_and_no_biases(tiny):
    a, c = tiny.blocks[0].attn, TINY
    H, D, R = c.n_heads, c.head_dim, c.rope_dim
    shapes = {
        "w_dkv": (c.kv_latent, c.dim),
        "w_uk": (H * D, c.kv_latent),
        "w_uv": (H * D, c.kv_latent),
        "w_dq": (c.q_latent, c.dim),
        "w_uq": (H * D, c.q_latent),
        "w_qr": (H * R, c.q_latent),
        "w_kr": (R, c.dim),  # one rotary key for all heads
        "wo": (c.dim, H * D),
    }
    assert {name: tuple(getattr(a, name).weight.shape) for name in shapes} == shapes
    assert not [n for n, _ in tiny.named_parameters() if n.endswith("bias")]
    assert a.q_norm.weight.shape == (c.q_latent,) and a.kv_norm.weight.shape == (c.kv_latent,)


@torch.no_grad()
def test_causality_later_tokens_change_nothing_before_them(tiny):
    x = tokens(2, 19, 1)
    full = tiny(x)
    for t in (0, 7, 18):
        assert_close(tiny(x[:, : t + 1]), full[:, : t + 1], 1e-5)
        scrambled = x.clone()
        scrambled[:, t + 1 :] = tokens(2, 19 - t - 1, 2 + t)
        assert_close(tiny(scrambled)[:, : t + 1], full[:, : t + 1], 1e-5)
    with trace("blocks.*.attn.pattern") as tr:
        tiny(x)
    assert (tr["blocks.1.attn.pattern"].triu(1) == 0).all()


# ---- absorbed = naive ----------------------------------------------------------------------------------------------


@torch.no_grad()
def test_absorbed_equals_naive(tiny):
    x = tokens(3, 23, 3)
    assert_close(tiny(x, absorbed=True), tiny(x), 1e-5)
    # trained weights are not special: scaled-up random weights too
    big = tiny_model()
    for p in big.parameters():
        p.mul_(8)
    assert_close(big(x, absorbed=True), big(x), 1e-5)


@torch.no_grad()
def test_absorbed_path_never_makes_keys_or_values():
    """The absorbed path reads W_UK and W_UV only as weights: their forward (which up-projects c_KV) never runs."""
    model = tiny_model()
    called = []
    for block in model.blocks:
        for lin in (block.attn.w_uk, block.attn.w_uv):
            lin.register_forward_hook(lambda *_: called.append(1))
    model(tokens(2, 9, 4), absorbed=True)
    assert called == []
    model(tokens(2, 9, 4))
    assert len(called) == 2 * TINY.n_layers  # W_UK and W_UV in each layer


# ---- the cache -----------------------------------------------------------------------------------------------------


@torch.no_grad()
def test_cache_holds_exactly_d_c_plus_d_rope_numbers_per_token_per_layer(tiny):
    cache = tiny.new_cache()
    tiny(tokens(3, 5, 5), cache)
    for layer in cache:
        assert set(vars(layer)) == {"c_kv", "k_rope"}  # nothing else is kept: no per-head keys or values
        assert layer.c_kv.shape == (3, 5, TINY.kv_latent) and layer.k_rope.shape == (3, 5, TINY.rope_dim)
        assert (layer.c_kv.numel() + layer.k_rope.numel()) // (3 * 5) == TINY.kv_latent + TINY.rope_dim
    assert recipe.kv_cache_bytes_per_token(tiny) == TINY.n_layers * (TINY.kv_latent + TINY.rope_dim) * 4  # float32
    assert mla.cache_numbers_per_token(TINY) == TINY.n_layers * (TINY.kv_latent + TINY.rope_dim)


@pytest.mark.parametrize("absorbed", [False, True])
@torch.no_grad()
def test_cached_decoding_in_uneven_chunks_equals_full_forward(tiny, absorbed):
    x = tokens(3, 23, 6)
    cache, parts, t = tiny.new_cache(), [], 0
    for n in (6, 1, 1, 8, 1, 6):
        parts.append(tiny(x[:, t : t + n], cache, absorbed=absorbed))
        t += n
    assert len(cache[0]) == 23
    assert_close(torch.cat(parts, dim=1), tiny(x), 1e-5)


@torch.no_grad()
def test_probes_record_what_the_cache_holds(tiny):
    x = tokens(2, 11, 7)
    cache = tiny.new_cache()
    with trace("blocks.*.attn.c_kv", "blocks.*.attn.k_rope", "blocks.*.attn.pattern") as tr:
        tiny(x, cache)
    for i, layer in enumerate(cache):
        assert torch.equal(tr[f"blocks.{i}.attn.c_kv"], layer.c_kv)
        assert torch.equal(tr[f"blocks.{i}.attn.k_rope"], layer.k_rope)
        assert tr[f"blocks.{i}.attn.pattern"].shape == (2, TINY.n_heads, 11, 11)


# ---- why RoPE is decoupled -----------------------------------------------------------------------------------------


@torch.no_grad()
def test_absorbing_w_uk_is_wrong_when_rope_rotates_the_up_projected_keys():
    """With RoPE on k^C = W_UK c_KV the rotation R(j) sits between W_UK and c_KV and depends on the key's position j,
    so no fixed matrix folded into the query reproduces the scores; without it (MLA's content part) it is exact."""
    model = tiny_model()
    for p in model.parameters():  # scores of order one, so the rotation visibly matters
        p.mul_(6)
    attn = model.blocks[0].attn
    h = torch.randn(2, 13, TINY.dim, generator=torch.Generator().manual_seed(8))
    plain = mla.content_scores(attn, h, rope_on_content=False, absorbed=False)
    assert_close(mla.content_scores(attn, h, rope_on_content=False, absorbed=True), plain, 1e-5)
    coupled = mla.content_scores(attn, h, rope_on_content=True, absorbed=False)
    wrong = mla.content_scores(attn, h, rope_on_content=True, absorbed=True)
    gap = (wrong - coupled).abs().max() / coupled.abs().max()
    assert gap > 0.1, f"absorbing past the rotation should fail, relative gap {gap:.3g}"
    # at position 0 nothing is rotated, so key 0 still agrees: the error comes from the key's rotation
    assert_close(wrong[..., 0], coupled[..., 0], 1e-5)


# ---- the recipe ----------------------------------------------------------------------------------------------------


def test_training_settings_are_the_siblings():
    assert recipe.SETTINGS == llama_recipe.SIBLING_SETTINGS
    assert recipe.train_like_siblings is llama_recipe.train_like_siblings  # the same race loop, batches, schedule
    assert registry.recipe("mla").defaults["steps"] == 612


# ---- the shipped checkpoint ----------------------------------------------------------------------------------------


@shipped_only
def test_card_measures_the_cache_and_compares_with_the_siblings():
    card = zoo.read_card("mla")
    c = mla.Config(**zoo.read_config("mla"))
    assert card["metrics"]["kv_cache_bytes_per_token"] == mla.cache_numbers_per_token(c) * 4 == 1280
    assert card["metrics"]["absorbed_max_diff"] <= 1e-4
    assert card["steps"] == zoo.read_card("llama")["steps"] == 612
    assert card["settings"] == {k: v for k, v in zoo.read_card("llama-mqa")["settings"].items() if k != "n_kv_heads"}
    assert (
        card["metrics"]["kv_cache_bytes_per_token"] < zoo.read_card("llama-mqa")["metrics"]["kv_cache_bytes_per_token"]
    )


@shipped_only
@torch.no_grad()
def test_shipped_absorbed_equals_naive_on_held_out_text():
    model = zoo.load("mla")
    tok = metrics.tokenizer(zoo.checkpoint_dir("mla"))
    win = torch.as_tensor(llama_recipe.held_out_windows(tok, 4, 127))
    assert_close(model(win, absorbed=True), model(win), 1e-4)


@shipped_only
@torch.no_grad()
def test_golden_greedy_continuation_naive_and_absorbed():
    model = zoo.load("mla")
    tok = metrics.tokenizer(zoo.checkpoint_dir("mla"))
    prompt = metrics.encode_document(tok, GOLDEN_PROMPT).tolist()
    ids = list(gpt.generate(model, prompt, len(GOLDEN_IDS), temperature=0.0))
    assert ids == GOLDEN_IDS
    assert tok.decode(ids) == GOLDEN_TEXT
    cache, x, absorbed = model.new_cache(), torch.tensor([prompt]), []
    for _ in GOLDEN_IDS:  # the same greedy decode through the absorbed path, from the latent cache
        absorbed.append(int(model(x, cache, absorbed=True)[0, -1].argmax()))
        x = torch.tensor([[absorbed[-1]]])
    assert absorbed == GOLDEN_IDS


@shipped_only
def test_onnx_parity_logits_and_probes_past_the_context():
    engine = Engine(device="cpu")
    tok = metrics.tokenizer(zoo.checkpoint_dir("mla"))
    ids = metrics.encode_document(tok, "O Romeo, Romeo! wherefore art thou Romeo? 你好 🙂 " * 12)[None, :200]
    ids = np.concatenate([ids, ids[:, ::-1]], axis=0)  # B = 2, T = 200: past the 128 of training and the export
    ref = engine.run("mla", {"tokens": ids}, mla.PROBES, backend="torch")
    got = engine.run("mla", {"tokens": ids}, mla.PROBES, backend="onnx")
    assert_close(got.outputs["logits"], ref.outputs["logits"], 1e-4)  # float32 on both sides
    assert set(got.probes) == set(ref.probes) and len(ref.probes) == 3 * 4
    for name, value in ref.probes.items():
        assert_close(got.probes[name], value, 1e-4, err_msg=name)
