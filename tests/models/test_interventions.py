"""Knock-outs and activation patching (models/interventions.py) on GPT and Llama, and on the shipped ``gpt``."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pytest
import torch

from models import gpt, interventions, llama, metrics
from models.interventions import activation_patching, copied_token, knock_out, restored
from models.probe import intervene, trace


def _tiny(module):
    torch.manual_seed(0)
    return module.build(asdict(module.PRESETS["tiny"])).eval()


@pytest.fixture(params=["gpt", "llama"])
def tiny(request):
    return _tiny({"gpt": gpt, "llama": llama}[request.param])


def test_the_identity_override_gives_the_plain_forward_exactly(tiny):
    tokens = torch.randint(0, tiny.config.vocab, (2, 11))
    with torch.inference_mode():
        plain = tiny(tokens)
        with intervene({"*": lambda x, name: x}):
            same = tiny(tokens)
    assert torch.equal(plain, same)


def test_gpt_and_llama_name_the_points_alike(tiny):
    L = len(tiny.blocks)
    with torch.inference_mode(), trace("embedded", "blocks.*.resid", "attn_out", "mlp_out", "attn.context") as t:
        tiny(torch.randint(0, tiny.config.vocab, (1, 7)))
    for i in range(L):
        for p in ("resid", "attn_out", "mlp_out", "attn.context"):
            assert f"blocks.{i}.{p}" in t
    assert "embedded" in t and t[f"blocks.{L - 1}.attn.context"].shape[:2] == (1, tiny.config.n_heads)


@pytest.mark.parametrize("part", interventions.PARTS)
@pytest.mark.parametrize("mode", interventions.MODES)
def test_every_knock_out_changes_the_output_and_only_from_its_layer_on(tiny, part, mode):
    tokens = torch.randint(0, tiny.config.vocab, (1, 9))
    names = interventions.stream_names(tiny)
    with torch.inference_mode():
        with trace(*names) as plain:
            tiny(tokens)
        with intervene(knock_out(1, part, mode, head=1)), trace(*names) as knocked:
            tiny(tokens)
    assert torch.equal(plain["blocks.0.resid"], knocked["blocks.0.resid"])  # below the knocked-out block: untouched
    assert not torch.allclose(plain["blocks.1.resid"], knocked["blocks.1.resid"])


def test_zero_and_mean_head_write_what_they_say():
    x = torch.randn(2, 3, 5, 4)
    z = interventions.zero_head(1)(x, "")
    assert z[:, 1].abs().max() == 0 and torch.equal(z[:, [0, 2]], x[:, [0, 2]])
    m = interventions.mean_head(2)(x, "")
    running = x[:, 2].cumsum(1) / torch.arange(1, 6).view(1, 5, 1)  # position t: the mean of positions 0..t
    assert torch.allclose(m[:, 2], running) and torch.equal(m[:, :2], x[:, :2])
    assert torch.equal(x, x.clone())  # the input is never changed in place


def test_patching_everything_at_the_last_layer_restores_1_and_nothing_0(tiny):
    rng = np.random.default_rng(0)
    clean = rng.integers(1, tiny.config.vocab, 10)
    corrupted = clean.copy()
    corrupted[:4] = rng.integers(1, tiny.config.vocab, 4)
    L, T = len(tiny.blocks), len(clean)
    assert restored(tiny, clean, corrupted, 5, 7, L, range(T)) == pytest.approx(1.0, abs=1e-6)
    assert restored(tiny, clean, corrupted, 5, 7, 1, []) == pytest.approx(0.0, abs=1e-9)
    grid = activation_patching(tiny, clean, corrupted, 5, 7)
    assert grid.shape == (L + 1, T)
    # the last position of the last layer is the whole of what the last logits read; the earlier ones, nothing
    assert grid[L, -1] == pytest.approx(1.0, abs=1e-4) and np.abs(grid[L, :-1]).max() < 1e-4
    assert np.abs(grid[0, 4:]).max() < 1e-4  # the same token at layer 0: nothing to copy
    assert np.array_equal(activation_patching(tiny, clean, corrupted, 5, 7, layers=[0, L]), grid[[0, L]])
    # the batched sweep (from each layer's stream up) gives what patching through intervene() gives
    for layer, pos in ((0, 2), (1, 3), (L - 1, T - 1)):
        assert grid[layer, pos] == pytest.approx(restored(tiny, clean, corrupted, 5, 7, layer, [pos]), abs=1e-4)


def test_copied_token_is_what_an_induction_head_copies():
    assert copied_token([5, 1, 2, 3, 1]) == 2
    assert copied_token([1, 9, 1, 4, 1]) == 4  # the latest earlier occurrence
    assert copied_token([1, 2, 3]) is None


# ---- the shipped gpt ---------------------------------------------------------------------------------------------

LENGTH, SEED = 30, 0
# Measured on the shipped gpt (16 sequences of 30 random ids shown twice, seed 0): the repeat's loss is 0.0037 nats
# plain; with block 3 head 3 (induction score 0.98) zeroed 11.18 (mean-ablated 8.80), near the first copy's 14.3;
# every other head of block 3 leaves it below 0.005, the median other head at 0.005, the largest other 2.24
# (block 1 head 3, the previous-token head the induction head reads from).
BEST_RISE = 5.5  # half the 11.2 measured
OTHER_MEDIAN_RISE = 0.2


@pytest.fixture(scope="module")
def shipped():
    from models import zoo

    return zoo.load("gpt").eval()


@torch.inference_mode()
def _second_copy_loss(model, batch) -> float:
    return metrics.copy_losses(metrics.token_losses(model, batch), LENGTH)[1]


def test_knocking_out_the_induction_head_breaks_the_repeat_and_other_heads_do_not(shipped):
    batch = metrics.induction_batch(shipped.config.vocab, n=16, length=LENGTH, seed=SEED)
    with torch.inference_mode(), trace("blocks.*.attn.pattern") as t:
        shipped(torch.from_numpy(batch))
    L, H = len(shipped.blocks), shipped.config.n_heads
    patterns = torch.stack([t[f"blocks.{i}.attn.pattern"] for i in range(L)]).mean(1).numpy()
    scores = metrics.induction_scores(patterns, LENGTH)
    best = np.unravel_index(int(scores.argmax()), scores.shape)
    assert tuple(int(i) for i in best) == (3, 3)
    plain = _second_copy_loss(shipped, batch)
    with intervene(knock_out(3, "head", "zero", 3)):
        zeroed = _second_copy_loss(shipped, batch)
    with intervene(knock_out(3, "head", "mean", 3)):
        meaned = _second_copy_loss(shipped, batch)
    assert plain < 0.05
    assert zeroed - plain > BEST_RISE and meaned - plain > BEST_RISE * 0.7
    rises = []
    for layer, head in [(i, h) for i in range(L) for h in range(H) if (i, h) != (3, 3)]:
        with intervene(knock_out(layer, "head", "zero", head)):
            rises.append(_second_copy_loss(shipped, batch) - plain)
    assert np.median(rises) < OTHER_MEDIAN_RISE
    assert max(rises) < (zeroed - plain) / 3


def test_patching_on_the_shipped_gpt_follows_the_copied_token(shipped):
    """The page's default pair: "… crown to his son. … crown to his" against "… to his maid. …". The clean answer's
    information sits at " son" (position 8, after <|endoftext|>) through blocks 0-2, and only block 3's induction
    head moves it to the last position. Measured: 0.78, 0.68, 0.62, 0.72 at " son" in layers 0-3; the last position
    0.00, 0.17, 0.14, 0.24, then 1.0; every other cell |x| < 0.14."""
    from tokenizers import Tokenizer

    from models import zoo

    tok = Tokenizer.from_file(str(zoo.checkpoint_dir("gpt") / "tokenizer.json"))
    clean = [0, *tok.encode("The king gave the crown to his son. The king gave the crown to his").ids]
    corrupted = [0, *tok.encode("The queen sent a letter to his maid. The king gave the crown to his").ids]
    answer, wrong = copied_token(clean), copied_token(corrupted)
    assert tok.decode([answer]) == " son" and tok.decode([wrong]) == " maid"
    grid = activation_patching(shipped, clean, corrupted, answer, wrong)
    L, T = grid.shape[0] - 1, grid.shape[1]
    son = clean.index(answer)
    assert (grid[:L, son] > 0.5).all()  # before the induction head: the answer lives at its source position
    assert grid[L, -1] == pytest.approx(1.0, abs=1e-4) and grid[L - 1, -1] < 0.5  # block 3 moves it to the end
    others = np.delete(grid[:L], [son, T - 1], axis=1)
    assert np.abs(others).max() < 0.3
