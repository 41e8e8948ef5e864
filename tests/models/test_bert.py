"""BERT (models/bert.py, models/recipes/bert.py): the encoder, the masking recipe, NSP pairs, WordPiece, and the
shipped checkpoint."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pytest
import torch

from models import bert, zoo
from models import recipes as registry
from models.data import masking, wordpiece
from models.data.wordpiece import CLS, MASK, PAD, SEP
from models.engine import Engine
from models.probe import trace
from models.recipes import bert as recipe
from models.training import fast_kernels
from tests.models.tolerance import assert_close

V = 19  # the tiny preset's vocabulary

# Top-3 fill-ins of the shipped checkpoint (torch, CPU) for each [MASK]. Regenerate only when it is retrained.
GOLDEN = {
    "To be, or not to [MASK], that is the question:": [["me", "say", "do"]],
    "Good [MASK], my lord.": [["morrow", "night", "madam"]],
    "O Romeo, Romeo! wherefore art [MASK] Romeo?": [["thou", "not", "he"]],
    "I [MASK] thee, [MASK] me not.": [["pray", "thank", "love"], ["let", "give", "tell"]],
}


@pytest.fixture(scope="module")
def tiny() -> bert.BERT:
    torch.manual_seed(0)
    return bert.build(asdict(bert.PRESETS["tiny"])).eval()


@pytest.fixture(scope="module")
def shipped() -> bert.BERT:
    return zoo.load("bert")


@pytest.fixture(scope="module")
def tok():
    return recipe.tokenizer(zoo.checkpoint_dir("bert"))


def pair(n_a: int, n_b: int, pad: int = 0, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """One random ``[CLS] A [SEP] B [SEP] [PAD]...`` of the tiny vocabulary: tokens and segments (1, T)."""
    rng = np.random.default_rng(seed)
    ids, segs = wordpiece.encode_pair(rng.integers(5, V, n_a).tolist(), rng.integers(5, V, n_b).tolist())
    ids, segs = ids + [PAD] * pad, segs + [0] * pad
    return torch.tensor([ids]), torch.tensor([segs])


# ---- the model -----------------------------------------------------------------------------------------------------


def test_shapes_and_pinned_parameter_counts(tiny):
    x = torch.randint(5, V, (3, 7))
    mlm, nsp = tiny(x, torch.zeros_like(x))
    assert mlm.shape == (3, 7, V) and nsp.shape == (3, 2)
    assert zoo.parameter_count(tiny) == 28_917
    assert zoo.parameter_count(bert.build(asdict(bert.PRESETS["shipped"]))) == 967_426
    # pre-LN adds the final LayerNorm (scale and shift of the width)
    assert zoo.parameter_count(bert.build({**asdict(bert.PRESETS["shipped"]), "norm": "pre"})) == 967_426 + 2 * 128


def test_blocks_are_post_ln_as_the_paper(tiny):
    """LN(x + Attn(x)) then LN(x + MLP(x)); the encoder's output is the last block's, with no final LayerNorm."""
    x = torch.randn(2, 5, 32)
    block = tiny.blocks[0]
    mid = block.ln1(x + block.attn(x))
    assert torch.allclose(block(x), block.ln2(mid + block.mlp(mid)), atol=1e-6)
    h = block(x)
    assert torch.allclose(h.mean(-1), torch.zeros(2, 5), atol=1e-5)  # a LayerNorm's output, before its affine
    tokens = torch.randint(5, V, (2, 6))
    hidden = tiny.encode(tokens, torch.zeros_like(tokens))
    assert isinstance(tiny.ln_f, torch.nn.Identity)
    x0 = tiny.embed_ln(tiny.embed(tokens) + tiny.segment(torch.zeros_like(tokens)) + tiny.pos.weight[:6])
    for b in tiny.blocks:
        x0 = b(x0, None)
    assert torch.allclose(hidden, x0, atol=1e-5)
    with pytest.raises(ValueError, match="norm"):
        bert.build({**asdict(bert.PRESETS["tiny"]), "norm": "sandwich"})


def test_mlm_head_is_tied_to_the_token_embedding(tiny):
    assert not any(p is tiny.embed.weight for n, p in tiny.named_parameters() if n != "embed.weight")
    h = torch.randn(4, 32)
    manual = tiny.mlm_ln(torch.nn.functional.gelu(tiny.mlm_dense(h))) @ tiny.embed.weight.T + tiny.mlm_bias
    assert torch.allclose(tiny.mlm_logits(h), manual)


@torch.no_grad()
def test_attention_is_bidirectional(tiny):
    tokens, segments = pair(4, 4)
    base, _ = tiny(tokens, segments)
    changed = tokens.clone()
    changed[0, -2] = 5 if changed[0, -2] != 5 else 6  # the last word of B
    out, _ = tiny(changed, segments)
    assert not torch.allclose(out[:, 1], base[:, 1], atol=1e-6)  # the first word of A sees it


@torch.no_grad()
def test_padding_receives_no_attention_and_changes_nothing(tiny):
    tokens, segments = pair(3, 4, pad=5)
    with trace("blocks.*.attn.pattern") as t:
        mlm, nsp = tiny(tokens, segments)
    real = int((tokens != PAD).sum())
    for name in t:
        assert torch.all(t[name][..., real:] == 0), name  # no query gives a [PAD] key any weight
    short_mlm, short_nsp = tiny(tokens[:, :real], segments[:, :real])
    assert torch.allclose(mlm[:, :real], short_mlm, atol=1e-5)
    assert torch.allclose(nsp, short_nsp, atol=1e-5)


@torch.no_grad()
def test_fused_attention_equals_eager(tiny):
    tokens, segments = pair(5, 3, pad=3)
    eager = tiny(tokens, segments)
    with fast_kernels(tiny):
        fused = tiny(tokens, segments)
    assert not any(block.attn.fused for block in tiny.blocks)  # back to the eager path
    real = int((tokens != PAD).sum())
    assert torch.allclose(eager[0][:, :real], fused[0][:, :real], atol=1e-5)
    assert torch.allclose(eager[1], fused[1], atol=1e-5)


def test_segment_and_position_embeddings_are_probed_and_summed(tiny):
    tokens, segments = pair(2, 3)
    with trace("token_embedding", "segment_embedding", "position_embedding", "embedded") as t:
        tiny(tokens, segments)
    T = tokens.shape[1]
    assert t["token_embedding"].shape == t["segment_embedding"].shape == (1, T, 32)
    assert t["position_embedding"].shape == (T, 32)
    total = t["token_embedding"] + t["segment_embedding"] + t["position_embedding"]
    assert torch.allclose(t["embedded"], tiny.embed_ln(total), atol=1e-6)
    assert torch.equal(t["segment_embedding"][0, -1], tiny.segment.weight[1].detach())


def test_context_is_bounded(tiny):
    with pytest.raises(ValueError):
        tiny(torch.full((1, 17), 5), torch.zeros(1, 17, dtype=torch.long))


# ---- the masking recipe --------------------------------------------------------------------------------------------


def test_masking_recipe_proportions_over_many_draws():
    rng = np.random.default_rng(0)
    ids = rng.integers(5, 1024, size=(4000, 64))
    ids[:, 0], ids[:, 30], ids[:, -1] = CLS, SEP, SEP
    ids[:100, 40:] = PAD
    inputs, labels, action = masking.mask_tokens(ids, rng, 1024)
    eligible = ~np.isin(ids, (PAD, CLS, SEP))
    chosen = action != masking.NOT_CHOSEN
    assert not chosen[~eligible].any()  # [CLS], [SEP], [PAD] are never chosen
    assert chosen[eligible].mean() == pytest.approx(0.15, abs=0.003)  # ~38k chosen of 250k: sd ≈ 0.0007
    n = chosen.sum()
    assert (action == masking.MASKED).sum() / n == pytest.approx(0.8, abs=0.01)
    assert (action == masking.RANDOM).sum() / n == pytest.approx(0.1, abs=0.008)
    assert (action == masking.KEPT).sum() / n == pytest.approx(0.1, abs=0.008)
    assert np.all(inputs[action == masking.MASKED] == MASK)
    assert np.all(inputs[action == masking.KEPT] == ids[action == masking.KEPT])
    assert np.all(inputs[~chosen] == ids[~chosen])
    rand = inputs[action == masking.RANDOM]
    assert rand.min() >= len(wordpiece.SPECIALS) and rand.max() < 1024
    assert (rand != ids[action == masking.RANDOM]).mean() > 0.99  # a random id, not the original
    assert np.all(labels[chosen] == ids[chosen]) and np.all(labels[~chosen] == masking.IGNORE)


def test_masking_is_reproducible_from_the_seed():
    ids = np.arange(5, 105)
    a = masking.mask_tokens(ids, np.random.default_rng(7), 1024)
    b = masking.mask_tokens(ids, np.random.default_rng(7), 1024)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))


# ---- NSP pairs -----------------------------------------------------------------------------------------------------


def toy_corpus() -> recipe.Corpus:
    """Three works of 200 ids each, with values that say where they came from (work·1000 + offset + 5)."""
    ids = np.concatenate([w * 1000 + np.arange(200) + 5 for w in range(3)])
    work = np.repeat(np.arange(3), 200)
    return recipe.Corpus(ids, work, np.arange(0, 600, 10))


def test_pairs_have_bert_layout_and_half_are_true_next():
    c = toy_corpus()
    tokens, segments, not_next = recipe.sample_pairs(c, 2000, 32, np.random.default_rng(0), p_short=0.2)
    assert not_next.mean() == pytest.approx(0.5, abs=0.04)
    full = (tokens != PAD).all(1)
    assert full.mean() == pytest.approx(0.8, abs=0.04)
    for row in range(200):
        ids, segs = tokens[row], segments[row]
        real = ids[ids != PAD]
        seps = np.flatnonzero(real == SEP)
        assert real[0] == CLS and len(seps) == 2 and seps[1] == len(real) - 1
        a, b = real[1 : seps[0]], real[seps[0] + 1 : seps[1]]
        assert len(a) and len(b)
        assert np.all(segs[: seps[0] + 1] == 0) and np.all(segs[seps[0] + 1 : len(real)] == 1)
        assert np.all(np.diff(a) == 1) and np.all(np.diff(b) == 1)  # spans of consecutive text
        if not_next[row]:
            assert a[0] // 1000 != b[0] // 1000  # B from another work
        else:
            assert b[0] == a[-1] + 1  # B is what follows A


# ---- the tokenizer -------------------------------------------------------------------------------------------------


def test_wordpiece_specials_lowercase_and_unknown():
    tok = wordpiece.train_wordpiece(["The cat sat on the mat. " * 50, "A dog; a cat!"], 60)
    assert [tok.token_to_id(s) for s in wordpiece.SPECIALS] == [0, 1, 2, 3, 4]
    enc = tok.encode("THE cat [MASK] on 猫")
    assert enc.tokens[:2] == ["the", "cat"]
    assert enc.ids[2] == MASK and enc.ids[-1] == wordpiece.UNK
    assert wordpiece.encode_pair([7, 8], [9]) == ([CLS, 7, 8, SEP, 9, SEP], [0, 0, 0, 0, 1, 1])


# ---- the shipped checkpoint ----------------------------------------------------------------------------------------


def test_card_meets_the_bars():
    card = zoo.read_card("bert")
    m = card["metrics"]
    assert m["mlm_top1"] >= 0.20 and m["mlm_top5"] >= 0.35 and m["nsp_accuracy"] >= 0.70
    assert m["mlm_top1"] > m["unigram_top1"]
    assert card["command"].startswith("python -m models.train bert")
    assert card["params"] == 967_426 and card["wall_time_s"] > 0
    assert zoo.load("bert").config.norm == "post"  # the paper's post-LN, as the page says


@torch.no_grad()
def test_golden_top_k(shipped, tok):
    for text, expected in GOLDEN.items():
        ids, segs = wordpiece.encode_pair(tok.encode(text).ids)
        mlm, _ = shipped(torch.tensor([ids]), torch.tensor([segs]))
        masked = [i for i, t in enumerate(ids) if t == MASK]
        got = [[tok.id_to_token(int(j)) for j in mlm[0, i].topk(3).indices] for i in masked]
        assert got == expected, text


def test_onnx_parity_outputs_and_probes(tok):
    engine = Engine(device="cpu")
    a = tok.encode("O Romeo, Romeo! wherefore art [MASK] Romeo? 你好").ids
    b = tok.encode("Deny thy father and refuse thy name").ids
    ids, segs = wordpiece.encode_pair(a, b)
    short, short_segs = wordpiece.encode_pair(b[:5])
    pad = len(ids) - len(short)
    tokens = np.array([ids, short + [PAD] * pad])  # B = 2, padding, and a T unlike the export's example
    segments = np.array([segs, short_segs + [0] * pad])
    probes = registry.recipe("bert").probes
    ref = engine.run("bert", {"tokens": tokens, "segments": segments}, probes, backend="torch")
    got = engine.run("bert", {"tokens": tokens, "segments": segments}, probes, backend="onnx")
    for name in ("mlm_logits", "nsp_logits"):
        assert_close(got.outputs[name], ref.outputs[name], 1e-4, err_msg=name)
    assert set(got.probes) == set(ref.probes) and len(ref.probes) == 4 + 4
    for name, value in ref.probes.items():
        assert_close(got.probes[name], value, 1e-4, err_msg=name)
