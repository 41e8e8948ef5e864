"""Alignment (InstructGPT 2203.02155, DPO 2305.18290): the preference rule, the losses on hand-computed cases, the
reward model and value head, and the shipped checkpoints' golden replies."""

from __future__ import annotations

import math

import pytest
import torch

from models import alignment, gpt, rl, zoo
from models.data import instruct

TINY = gpt.PRESETS["tiny"]


# ---- the rule -------------------------------------------------------------------------------------------------------


def test_the_rule_counts_distinct_kind_and_harsh_words():
    j = instruct.judge("O sweet love, my love, thou villain!")
    assert j.well_formed and j.kind == ("love", "sweet") and j.harsh == ("villain",) and j.score == 1.0
    assert instruct.judge("Good, good, good.").score == 1.0  # distinct words only


def test_the_rule_puts_the_format_first():
    assert not instruct.judge("sweet love", ended=False).well_formed  # never stopped
    assert not instruct.judge("a line\nand another").well_formed
    assert not instruct.judge(" ".join(["word"] * (instruct.MAX_WORDS + 1))).well_formed
    assert not instruct.judge("  ").well_formed
    plain, harsh_one = instruct.judge("I know not, sir."), instruct.judge("Death and blood and hell!")
    broken = instruct.judge("sweet gentle love", ended=False)
    assert instruct.prefer(plain, harsh_one) == 1 and instruct.prefer(harsh_one, broken) == 1
    assert instruct.prefer(plain, instruct.judge("Go to, go to.")) == 0


def test_prompts_hold_the_line_before_and_the_instruction():
    p = instruct.prompt_for("MACBETH", "So foul and fair a day I have not seen.", "BANQUO")
    assert p == "MACBETH.\nSo foul and fair a day I have not seen.\n\nReply as BANQUO, in one line:\n"


def test_speeches_are_read_from_a_play():
    play = "ACT I.\n\nMACBETH.\nSo foul and fair\na day.\n\n[Exit.]\n\nBANQUO.\nHow far is't?\n"
    assert instruct.speeches(play) == [("MACBETH", ["So foul and fair", "a day."]), ("BANQUO", ["How far is't?"])]


# ---- the losses -----------------------------------------------------------------------------------------------------


def test_bradley_terry_loss_and_probability():
    loss = rl.bradley_terry_loss(torch.tensor([2.0, 0.0]), torch.tensor([1.0, 0.0]))
    expected = (-math.log(1 / (1 + math.exp(-1))) + math.log(2)) / 2
    assert loss.item() == pytest.approx(expected, rel=1e-6)
    assert rl.preference_probability(1.0, 0.0) == pytest.approx(1 / (1 + math.exp(-1)), rel=1e-12)


def test_dpo_loss_by_hand():
    # β = 0.5; chosen: log π − log π_ref = −1 − (−2) = 1 -> r̂_w = 0.5; rejected: −3 − (−2) = −1 -> r̂_l = −0.5
    loss, rw, rl_ = rl.dpo_loss(
        torch.tensor([-1.0]), torch.tensor([-3.0]), torch.tensor([-2.0]), torch.tensor([-2.0]), beta=0.5
    )
    assert rw.item() == pytest.approx(0.5) and rl_.item() == pytest.approx(-0.5)
    assert loss.item() == pytest.approx(math.log(1 + math.exp(-1.0)), rel=1e-6)
    # policy equal to the reference: both implicit rewards 0, loss log 2
    same, _, _ = rl.dpo_loss(*(torch.tensor([-2.0]),) * 4, beta=0.1)
    assert same.item() == pytest.approx(math.log(2), rel=1e-6)


def test_gae_on_a_fixed_array():
    # one response of 3 tokens at positions 1..3 (position 0 is the prompt): rewards only at the end
    rewards = torch.tensor([[0.0, 0.0, 0.0, 1.0]])
    values = torch.tensor([[9.0, 0.5, 0.25, 0.5]])
    mask = torch.tensor([[False, True, True, True]])
    adv, ret = rl.gae(rewards, values, mask, gamma=1.0, lam=0.5)
    d3 = 1.0 + 0 - 0.5  # the last token: no value after it
    d2 = 0.0 + 0.5 - 0.25
    d1 = 0.0 + 0.25 - 0.5
    a3, a2 = d3, d2 + 0.5 * d3
    a1 = d1 + 0.5 * a2
    assert adv.tolist()[0] == pytest.approx([0.0, a1, a2, a3])
    assert ret.tolist()[0] == pytest.approx([0.0, a1 + 0.5, a2 + 0.25, a3 + 0.5])
    # with λ = 1 and γ = 1 the return is the sum of the rewards to come
    _, ret1 = rl.gae(rewards, values, mask, gamma=1.0, lam=1.0)
    assert ret1.tolist()[0] == pytest.approx([0.0, 1.0, 1.0, 1.0])


def test_ppo_clips_the_ratio_and_the_value():
    logp_old = torch.zeros(1, 2)
    logp = torch.log(torch.tensor([[1.5, 0.5]]))  # ratios 1.5 and 0.5
    adv = torch.tensor([[1.0, -1.0]])
    values, values_old, returns = torch.tensor([[1.0, 0.0]]), torch.zeros(1, 2), torch.tensor([[1.0, 0.0]])
    mask = torch.ones(1, 2, dtype=torch.bool)
    pl, vl, parts = rl.ppo_losses(logp, logp_old, adv, values, values_old, returns, mask, clip=0.2)
    # token 1: min(1.5·1, 1.2·1) = 1.2; token 2: min(0.5·−1, 0.8·−1) = −0.8; loss = −(1.2 − 0.8)/2
    assert pl.item() == pytest.approx(-0.2, rel=1e-6)
    assert parts["clipped"] == pytest.approx(1.0)
    # value 1.0 against old 0.0: clipped to 0.2, (0.2 − 1)² = 0.64 > (1 − 1)² = 0; mean over 2 tokens, times ½
    assert vl.item() == pytest.approx(0.5 * 0.64 / 2, rel=1e-6)


def test_kl_per_token_is_exact_and_zero_for_equal_distributions():
    p, q = torch.tensor([[0.5, 0.5]]).log(), torch.tensor([[0.9, 0.1]]).log()
    assert rl.kl_per_token(p, q).item() == pytest.approx(0.5 * math.log(0.5 / 0.9) + 0.5 * math.log(0.5 / 0.1))
    logits = torch.randn(3, 5, 11)
    assert torch.allclose(rl.kl_per_token(logits, logits + 7.0), torch.zeros(3, 5), atol=1e-6)  # shift-invariant
    assert (rl.kl_per_token(logits, torch.randn(3, 5, 11)) > 0).all()


# ---- the models -----------------------------------------------------------------------------------------------------


def test_trunk_then_unembed_is_the_forward():
    torch.manual_seed(0)
    model = gpt.GPT(TINY).eval()
    x = torch.randint(0, TINY.vocab, (3, 7))
    assert torch.equal(model.unembed(model.trunk(x)), model(x))


def test_reward_model_starts_from_the_policy_with_no_preference():
    torch.manual_seed(0)
    policy = gpt.GPT(TINY).eval()
    rm = alignment.reward_from_policy(policy).eval()
    x = torch.randint(0, TINY.vocab, (3, 7))
    assert rm(x).shape == (3, 7) and torch.equal(rm(x), torch.zeros(3, 7))
    assert torch.equal(rm.gpt.trunk(x), policy.trunk(x))
    agent = alignment.PolicyWithValue(policy)
    logits, values = agent(x)
    assert torch.equal(logits, policy(x)) and values.shape == (3, 7)


def test_decode_batch_stops_after_max_new():
    torch.manual_seed(0)
    model = gpt.GPT(TINY).eval()
    ids, logp = gpt.decode_batch(model, torch.randint(1, TINY.vocab, (2, 5)), end=0, max_new=4)
    assert ids.shape == logp.shape == (2, 4)


# ---- the shipped checkpoints ----------------------------------------------------------------------------------------

shipped = pytest.mark.skipif(
    not all(n in zoo.available() for n in ("sft", "reward", "ppo", "dpo")), reason="alignment checkpoints not shipped"
)

# Greedy replies of the shipped policies to the first three held-out prompts (recipe.held_out_prompts).
GOLDEN = {
    "sft": ["I'll tell you what I have done.", "I will not, my lord.", "I am sorry for thee, sir."],
    "ppo": ["Good morrow, noble lord.", "Good morrow, good morrow.", "I am sorry for thee, sir."],
    "dpo": [
        "Good morrow, good CASSIANUS.",
        "Good morrow, good my lord.",
        "Good my good lord, good my lord, good my lord,",
    ],
}


@shipped
@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_replies_of_the_shipped_policies(name):
    from models import metrics
    from models.recipes import alignment as recipe

    tok = metrics.tokenizer(zoo.checkpoint_dir(name))
    replies = recipe.complete(zoo.load(name), recipe.held_out_prompts(tok, 3))
    assert [recipe.reply_text(tok, r)[0] for r in replies] == GOLDEN[name]


@shipped
def test_the_shipped_reward_model_prefers_kind_to_harsh():
    from models import metrics
    from models.recipes import alignment as recipe

    tok = metrics.tokenizer(zoo.checkpoint_dir("reward"))
    prompt = recipe.held_out_prompts(tok, 1)
    replies = [
        recipe.encode(tok, t) + [recipe.end_id(tok)]
        for t in ("O sweet gentle love, my good friend.", "Thou villain, thy death and blood!")
    ]
    with torch.inference_mode():
        kind, harsh = recipe.last_rewards(zoo.load("reward"), prompt * 2, replies).tolist()
    assert kind == pytest.approx(5.6877, rel=0.01) and harsh == pytest.approx(-3.8877, rel=0.01)
