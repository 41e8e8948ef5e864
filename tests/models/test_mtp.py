"""Multi-token prediction (models/mtp.py), its recipe (models/recipes/mtp.py) and the shipped ``mtp`` checkpoint: the
main path is the LLaMA decoder unchanged, the module reads the next token and keeps causality, λ follows the paper,
and speculative decoding with the module as drafter writes exactly the greedy tokens."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pytest
import torch

from models import llama, metrics, mtp, zoo
from models.recipes import mtp as recipe
from tests.models.tolerance import assert_close

TINY = mtp.PRESETS["tiny"]  # vocab 300, C 32, H 4, G 2, L 2, context 32

shipped_only = pytest.mark.skipif("mtp" not in zoo.available(), reason="no mtp checkpoint")

# Greedy continuation of the shipped checkpoint's main head (torch, CPU), the prompt of tests/models/test_llama.py.
# Regenerate only when the checkpoint is retrained.
GOLDEN_PROMPT = "To be, or not to be, that is the"
GOLDEN_IDS = [851, 199, 1291, 268, 851, 12, 291, 268, 851, 327, 325, 259, 447, 12, 199, 335]
GOLDEN_TEXT = " world\nof the world, and the world is not a man,\nAnd"


@pytest.fixture(scope="module")
def tiny() -> mtp.MTPDecoder:
    torch.manual_seed(0)
    return mtp.build(asdict(TINY)).eval()


def tokens(T: int, seed: int, B: int = 2) -> torch.Tensor:
    return torch.randint(0, TINY.vocab, (B, T), generator=torch.Generator().manual_seed(seed))


# ---- the model -------------------------------------------------------------------------------------------------------


@torch.no_grad()
def test_main_path_is_the_llama_decoder_and_both_heads_have_its_shape(tiny):
    base = llama.build(asdict(TINY)).eval()
    missing = base.load_state_dict({k: v for k, v in tiny.state_dict().items() if not k.startswith("mtp.")})
    assert missing.missing_keys == [] and missing.unexpected_keys == []
    x = tokens(9, 0)
    logits, ahead = tiny(x)
    assert logits.shape == ahead.shape == (2, 9, TINY.vocab)
    assert_close(logits, base(x), 1e-6)


def test_the_module_is_one_block_a_2c_to_c_projection_and_shares_the_head(tiny):
    m = tiny.mtp
    assert m.proj.weight.shape == (TINY.dim, 2 * TINY.dim) and m.proj.bias is None
    assert isinstance(m.block, llama.Block)
    own = {n for n, _ in tiny.named_parameters() if n.startswith("mtp.")}
    assert not any("embed" in n for n in own)  # the embedding and output head are the main model's
    per_block = sum(p.numel() for p in tiny.blocks[0].parameters())
    assert sum(p.numel() for p in m.parameters()) == per_block + 2 * TINY.dim * TINY.dim + 3 * TINY.dim


@torch.no_grad()
def test_the_module_reads_the_next_token_and_nothing_later(tiny):
    x = tokens(10, 1, B=1)
    logits, ahead = tiny(x)
    j = 6
    y = x.clone()
    y[0, j] = (y[0, j] + 1) % TINY.vocab
    logits2, ahead2 = tiny(y)
    assert_close(logits2[0, :j], logits[0, :j], 1e-6)  # main: causal
    assert_close(ahead2[0, : j - 1], ahead[0, : j - 1], 1e-6)  # MTP at i reads tokens up to i + 1 only
    assert (ahead2[0, j - 1] - ahead[0, j - 1]).abs().max() > 1e-3  # ... and t_{i+1} itself


@torch.no_grad()
def test_at_the_last_position_the_module_reads_the_main_models_greedy_token(tiny):
    x = tokens(7, 2, B=1)
    logits, ahead = tiny(x)
    a = logits[0, -1].argmax()
    _, ahead_longer = tiny(torch.cat([x, a.view(1, 1)], dim=1))
    assert_close(ahead[0, -1], ahead_longer[0, 6], 1e-5)


def test_lambda_is_the_papers_schedule():
    assert mtp.mtp_weight(0.0) == mtp.mtp_weight(0.67) == 0.3
    assert mtp.mtp_weight(0.68) == mtp.mtp_weight(0.999) == mtp.mtp_weight(1.0) == 0.1
    assert mtp.LAMBDA[0][0] == pytest.approx(10 / 14.8)


def test_head_losses_score_the_token_after_next():
    """A model whose MTP head is exactly right about t_{i+2} has (near) zero MTP loss: the shift is two."""

    class Oracle(torch.nn.Module):
        def forward(self, x):
            B, T = x.shape
            main = torch.full((B, T, 5), -30.0)
            ahead = torch.full((B, T, 5), -30.0)
            main.scatter_(2, ((x + 1) % 5)[..., None], 30.0)  # the sequence counts up mod 5
            ahead.scatter_(2, ((x + 2) % 5)[..., None], 30.0)
            return main, ahead

    chunk = (torch.arange(9) % 5)[None].repeat(2, 1)
    main, nxt = recipe.head_losses(Oracle(), chunk)
    assert main.item() < 1e-6 and nxt.item() < 1e-6
    main, nxt = recipe.head_losses(Oracle(), chunk.flip(1))  # counting down: both heads wrong
    assert main.item() > 10 and nxt.item() > 10


# ---- speculative decoding --------------------------------------------------------------------------------------------


def counting_forward(vocab: int, wrong_every: int = 0):
    """A fake model over ids counting up by one; its MTP head guesses t_{i+1} + 1, wrong at ids divisible by
    ``wrong_every`` (0: never)."""

    def forward(ids: list[int]):
        x = np.array(ids)
        main = np.eye(vocab)[(x + 1) % vocab]
        following = np.append(x[1:], (x[-1] + 1) % vocab)
        guess = (following + 1) % vocab
        if wrong_every:
            guess = np.where(guess % wrong_every == 0, (guess + 3) % vocab, guess)
        return main, np.eye(vocab)[guess]

    return forward


def test_a_perfect_drafter_is_always_accepted_and_nearly_doubles_tokens_per_forward():
    s = mtp.speculative_greedy(counting_forward(50), [3], 21, context=64)
    assert s.tokens == list(range(4, 25))
    # the first forward has nothing to check; each later one checks a draft and brings two tokens
    assert s.acceptance == 1.0 and len(s.proposals) == 10
    assert s.forwards == 11 and s.tokens_per_forward == 21 / 11
    assert s.drafted == [False] + [True, False] * 10


def test_a_wrong_draft_costs_a_forward_but_never_changes_the_tokens():
    s = mtp.speculative_greedy(counting_forward(50, wrong_every=3), [3], 30, context=64)
    assert s.tokens == list(range(4, 34))
    assert 0 < s.acceptance < 1 and 1 < s.tokens_per_forward < 2
    assert all(s.tokens[pos] == d for pos, d, ok in s.proposals if ok)
    assert all(s.tokens[pos] != d for pos, d, ok in s.proposals if not ok)


@torch.no_grad()
def test_speculative_tokens_are_the_greedy_tokens_of_the_main_model(tiny):
    fwd = recipe.torch_forward(tiny)
    prompt = tokens(5, 3, B=1)[0].tolist()
    s = mtp.speculative_greedy(fwd, prompt, 40, context=TINY.max_len)
    assert s.tokens == mtp.plain_greedy(fwd, prompt, 40, TINY.max_len)
    assert s.forwards <= 40 and len(s.proposals) == sum(s.drafted) + sum(not ok for *_, ok in s.proposals)


# ---- the shipped checkpoint ------------------------------------------------------------------------------------------


@shipped_only
def test_card_records_both_heads_lambda_and_the_control():
    card = zoo.read_card("mtp")
    m = card["metrics"]
    assert card["steps"] == 612 and card["settings"]["batch"] == 32
    assert 0 < m["acceptance_rate"] <= 1 and 1 < m["tokens_per_forward"] <= 2
    assert m["mtp_val_loss_next"] > 0 and m["main_val_loss"] > 0
    curves = card["loss_curves"]
    assert len(curves["step"]) == len(curves["main_loss"]) == len(curves["mtp_loss"]) == len(curves["lambda"])
    assert set(curves["lambda"]) == {0.3, 0.1} and curves["main_loss"][-1] < curves["main_loss"][0]


@shipped_only
def test_golden_greedy_continuation_and_speculation_give_it():
    model = zoo.load("mtp")
    tok = metrics.tokenizer(zoo.checkpoint_dir("mtp"))
    prompt = [int(i) for i in metrics.encode_document(tok, GOLDEN_PROMPT)]
    fwd = recipe.torch_forward(model)
    assert mtp.plain_greedy(fwd, prompt, 16, model.config.max_len) == GOLDEN_IDS
    assert tok.decode(GOLDEN_IDS) == GOLDEN_TEXT
    assert mtp.speculative_greedy(fwd, prompt, 16, model.config.max_len).tokens == GOLDEN_IDS


@shipped_only
@torch.no_grad()
def test_shipped_speculation_equals_greedy_on_held_out_text():
    model = zoo.load("mtp")
    tok = metrics.tokenizer(zoo.checkpoint_dir("mtp"))
    prompt = [int(i) for i in metrics.encode_document(tok, "To be, or not to be, that is the")]
    fwd = recipe.torch_forward(model)
    s = mtp.speculative_greedy(fwd, prompt, 24, context=model.config.max_len)
    assert s.tokens == mtp.plain_greedy(fwd, prompt, 24, model.config.max_len)
    assert s.acceptance > 0.3 and s.forwards < 24
