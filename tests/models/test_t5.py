"""T5 (models/t5.py), its data (models/data/text2text.py), its recipe and the shipped ``t5`` checkpoint: the bucket
function on hand-computed offsets, span corruption keeps every token once, the architecture's choices, cached
decoding equals the full forward, and the shipped model's answers."""

from __future__ import annotations

import copy
from dataclasses import asdict

import numpy as np
import pytest
import torch

from models import t5, zoo
from models.data import text2text as tt
from models.layers import RMSNorm, t5_relative_position_bucket
from models.recipes import t5 as recipe
from tests.models.tolerance import assert_close

TINY = t5.PRESETS["tiny"]

shipped_only = pytest.mark.skipif("t5" not in zoo.available(), reason="no t5 checkpoint")


@pytest.fixture(scope="module")
def tiny() -> t5.T5:
    torch.manual_seed(0)
    return t5.build(asdict(TINY)).eval()


def ids(B: int, T: int, seed: int) -> torch.Tensor:
    return torch.randint(3, TINY.vocab, (B, T), generator=torch.Generator().manual_seed(seed))


# ---- relative position buckets (32 buckets, max distance 128, as the paper) ------------------------------------------


def bucket(offset: int, bidirectional: bool) -> int:
    return int(t5_relative_position_bucket(torch.tensor([offset]), bidirectional=bidirectional)[0])


@pytest.mark.parametrize(
    "offset, expected",
    [
        (0, 0), (-1, 1), (-7, 7),  # keys before the query: exact up to 8 (half of the 16 buckets of a direction)
        (1, 17), (7, 23),  # keys after: the other 16 buckets
        (-8, 8), (-16, 10), (-32, 12), (-64, 14), (-127, 15),  # 8 + ⌊8·log(d/8)/log(16)⌋
        (-128, 15), (-1000, 15), (1000, 31),  # beyond the max distance: the last bucket of the direction
    ],
)  # fmt: skip
def test_bidirectional_buckets_by_hand(offset, expected):
    assert bucket(offset, True) == expected


@pytest.mark.parametrize(
    "offset, expected",
    [
        (0, 0), (5, 0), (100, 0),  # the future shares bucket 0 (the causal mask hides it anyway)
        (-1, 1), (-15, 15),  # exact up to 16 (half of all 32)
        (-16, 16), (-32, 21), (-64, 26), (-127, 31), (-128, 31), (-5000, 31),  # 16 + ⌊16·log(d/16)/log(8)⌋
    ],
)  # fmt: skip
def test_causal_buckets_by_hand(offset, expected):
    assert bucket(offset, False) == expected


# ---- span corruption -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n, density, mean_span, seed", [(128, 0.15, 3.0, 0), (50, 0.15, 3.0, 1), (20, 0.5, 2.0, 2)])
def test_span_corruption_keeps_every_token_exactly_once(n, density, mean_span, seed):
    rng = np.random.default_rng(seed)
    tokens = list(range(100, 100 + n))
    mask = tt.noise_mask(n, density, mean_span, rng)
    inp, tgt = tt.corrupt(tokens, mask)
    noise, spans = round(n * density), max(1, round(round(n * density) / mean_span))
    assert mask.sum() == noise and not mask[0]  # a kept run comes first
    assert np.sum(mask[1:] & ~mask[:-1]) == spans
    assert inp[-1] == tgt[-1] == tt.EOS
    # put the spans back where the sentinels stand: the original text, each token once
    rebuilt, found = [], tt.spans_of(tgt)
    for i in inp[:-1]:
        rebuilt += found[i - tt.SENTINEL_0] if tt.is_sentinel(i) else [i]
    assert rebuilt == tokens
    assert sorted(i for i in inp + tgt if i >= 100) == tokens
    sentinels = [i for i in tgt if tt.is_sentinel(i)]
    assert sentinels == [tt.sentinel(k) for k in range(spans + 1)]  # in order, one closing sentinel


def test_the_papers_figure_2_example():
    words = "Thank you for inviting me to your party last week .".split()
    mask = np.array([w in ("for", "inviting", "last") for w in words])
    inp, tgt = tt.corrupt([100 + i for i in range(len(words))], mask)
    name = {tt.sentinel(k): f"<{'XYZ'[k]}>" for k in range(3)} | {tt.EOS: "</s>"}
    name |= {100 + i: w for i, w in enumerate(words)}
    show = lambda seq: " ".join(name[i] for i in seq)  # noqa: E731
    assert show(inp) == "Thank you <X> me to your party <Y> week . </s>"
    assert show(tgt) == "<X> for inviting <Y> last <Z> </s>"


# ---- the architecture ------------------------------------------------------------------------------------------------


def test_no_biases_rmsnorm_one_bias_table_per_stack_and_tied_output(tiny):
    linears = [m for m in tiny.modules() if isinstance(m, torch.nn.Linear)]
    assert linears and all(m.bias is None for m in linears)
    assert not any(isinstance(m, torch.nn.LayerNorm) for m in tiny.modules())
    norms = [m for m in tiny.modules() if isinstance(m, RMSNorm)]
    assert len(norms) == 2 * TINY.n_enc_layers + 3 * TINY.n_dec_layers + 2  # one per sub-block + a final one each
    tables = [n for n, _ in tiny.named_parameters() if "relative" in n]
    assert tables == ["encoder.relative.embedding.weight", "decoder.relative.embedding.weight"]
    assert tiny.encoder.relative.embedding.weight.shape == (TINY.num_buckets, TINY.n_heads)
    assert not tiny.decoder.relative.bidirectional and tiny.encoder.relative.bidirectional
    assert all(layer.ffn.activation == "relu" for layer in [*tiny.encoder.layers, *tiny.decoder.layers])
    assert [n for n, p in tiny.named_parameters() if p.shape[0] == TINY.vocab] == ["embed.weight"]  # in, out, both


@torch.no_grad()
def test_the_tied_output_has_no_rescale_and_the_final_norm_gain_can_fold_it_in(tiny):
    """T5's released code (v1.0, tied embeddings) multiplies the decoder's output by d_model^-0.5 before the shared
    embedding matrix; this model does not (the departure in models/t5.py's docstring): its logits are the decoder's
    final norm · Eᵀ as they are. Multiplying that norm's gain by d_model^-0.5 gives T5's logits exactly, because the
    logits are linear in the gain; a copy is changed, not the model."""
    src, tgt = ids(2, 9, 10), ids(2, 6, 11)
    seen = {}
    hook = tiny.decoder.norm.register_forward_hook(lambda module, args, out: seen.update(out=out))
    try:
        logits = tiny(src, tgt)
    finally:
        hook.remove()
    assert_close(logits, seen["out"] @ tiny.embed.weight.T, 1e-6)  # no factor between the norm and Eᵀ
    scale = TINY.dim**-0.5
    t5_v1 = (seen["out"] * scale) @ tiny.embed.weight.T  # the released code's rescale, applied by hand
    folded = copy.deepcopy(tiny)
    folded.decoder.norm.weight.mul_(scale)
    assert_close(folded(src, tgt), t5_v1, 1e-5)
    assert_close(folded(src, tgt), logits * scale, 1e-5)
    assert not torch.equal(folded(src, tgt), logits)  # a real change of scale, not a no-op
    assert torch.equal(tiny.decoder.norm.weight, torch.ones(TINY.dim))  # the model itself untouched


@torch.no_grad()
def test_encoder_sees_both_ways_decoder_only_back(tiny):
    src, tgt = ids(1, 9, 0), ids(1, 7, 1)
    memory = tiny.encode(src)
    src2 = src.clone()
    src2[0, -1] += 1
    assert (tiny.encode(src2)[0, 0] - memory[0, 0]).abs().max() > 1e-4  # a later source token reaches position 0
    tgt2 = tgt.clone()
    tgt2[0, 5] += 1
    a, b = tiny(src, tgt), tiny(src, tgt2)
    assert_close(a[0, :5], b[0, :5], 1e-6)
    assert (a[0, 5] - b[0, 5]).abs().max() > 1e-4


@torch.no_grad()
def test_padding_in_the_source_changes_nothing(tiny):
    src, tgt = ids(1, 6, 2), ids(1, 4, 3)
    padded = torch.cat([src, torch.zeros(1, 3, dtype=torch.long)], dim=1)
    assert_close(tiny(padded, tgt), tiny(src, tgt), 1e-5)


@torch.no_grad()
def test_cached_decoding_equals_the_full_forward(tiny):
    src = ids(3, 8, 4)
    src[1, 6:] = tt.PAD
    out = t5.greedy(tiny, src, 12)
    tgt_in = torch.cat([torch.zeros(3, 1, dtype=torch.long), out[:, :-1]], dim=1)
    full = tiny(src, tgt_in)
    assert (full.argmax(-1) == out).all()
    memory, cache = tiny.encode(src), tiny.new_cache()
    steps = torch.cat([tiny.decode(tgt_in[:, t : t + 1], memory, src, cache) for t in range(tgt_in.shape[1])], dim=1)
    assert_close(steps, full, 1e-5)


def test_batches_shift_the_target_behind_pad_and_ignore_padding():
    src, tgt_in, labels = recipe.batch_of([((5, 6, 1), (7, 8, 1)), ((5, 1), (9, 1))])
    assert src.tolist() == [[5, 6, 1], [5, 1, 0]]
    assert tgt_in.tolist() == [[0, 7, 8], [0, 9, 0]]
    assert labels.tolist() == [[7, 8, 1], [9, 1, -100]]


@shipped_only
def test_reversal_rows_can_draw_words_by_type_so_rare_words_come_as_often_as_common_ones(shipped):
    _, tok = shipped
    lines = ["the the the the the the the the the lord"]  # "lord" is one word in ten, one type in two

    def share_of_lord(types_share: float) -> float:
        it = tt.examples("reverse_words", lines, np.random.default_rng(0), tok, types_share)
        words = [w for _ in range(400) for w in next(it).source.split()[2:]]  # after "reverse words:"
        return words.count("lord") / len(words)

    assert share_of_lord(0.0) < 0.2 and 0.4 < share_of_lord(1.0) < 0.6
    # with no share the stream is the one it always was (the shipped runs' data is unchanged)
    a = tt.examples("reverse_words", lines, np.random.default_rng(1), tok)
    b = tt.examples("reverse_words", lines, np.random.default_rng(1), tok, 0.0)
    assert [next(a).source for _ in range(20)] == [next(b).source for _ in range(20)]


@shipped_only
def test_reversal_rows_can_be_made_up_words_of_vocabulary_pieces(shipped):
    _, tok = shipped
    starts, inner = tt.word_pieces(tok)
    assert starts and inner and not set(starts) & set(inner)
    assert all(tok.id_to_token(i).startswith("▁") for i in starts)
    it = tt.examples("reverse_words", ["the lord"], np.random.default_rng(0), tok, 0.0, 1.0)
    rows = [next(it) for _ in range(200)]
    words = [w for e in rows for w in e.source.split()[2:]]
    assert set(words) - {"the", "lord"}  # made-up words, not the lines' words
    assert all(e.target == tt.reverse_words(e.source.split(":", 1)[1]) for e in rows)
    lo, hi = tt.WORDS["reverse_words"]  # each made-up word stays one word: no piece holds a space or line break
    assert all(lo <= len(e.source.split()) - 2 <= hi for e in rows)
    pieces_seen = {i for e in rows for i in e.source_ids}
    assert len(pieces_seen & set(inner)) > 100  # pieces that continue a word are drawn too
    # with no share the stream is the one it always was
    a = tt.examples("reverse_words", ["a b c d e f"], np.random.default_rng(1), tok, 0.5)
    b = tt.examples("reverse_words", ["a b c d e f"], np.random.default_rng(1), tok, 0.5, 0.0)
    assert [next(a).source for _ in range(20)] == [next(b).source for _ in range(20)]


# ---- the shipped checkpoint ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped():
    return zoo.load("t5"), recipe.tokenizer(zoo.checkpoint_dir("t5"))


def answer(shipped, task: str, text: str) -> str:
    model, tok = shipped
    e = tt.text_example(tok, task, text, "")
    return recipe.generate(model, tok, [e])[0]


# Greedy answers of the shipped checkpoint (torch, CPU): golden outputs, right or wrong; regenerate only when the
# checkpoint is retrained. Names of the held-out Macbeth split into pieces the training lines hardly use, and are
# copied right (what the made-up words of reverse_pieces_share taught); the wrong one is nine words, longer than the
# 2-5 the model was taught to reverse: it drops "play".
GOLDEN = [
    ("reverse_words", "to be or not", "not or be to"),
    ("reverse_words", "my lord", "lord my"),
    ("reverse_words", "the quality of mercy is not strained", "strained not is mercy of quality the"),
    ("reverse_words", "Enter BANQUO and FLEANCE", "FLEANCE and BANQUO Enter"),
    ("reverse_words", "If music be the food of love, play on", "on love, of food the be music If"),
    ("reverse_words", "now is the winter", "winter the is now"),
    ("count_words", "the quality of mercy is not strained", "7"),
    (
        "which_play",
        "ROMEO. But soft, what light through yonder window breaks? It is the east, and Juliet is the sun.",
        "romeo",
    ),
]


@shipped_only
@pytest.mark.parametrize("task, text, expected", GOLDEN)
def test_golden_answers_of_the_shipped_model(shipped, task, text, expected):
    assert answer(shipped, task, text) == expected


@shipped_only
def test_the_shipped_model_fills_spans_with_sentinels(shipped):
    model, tok = shipped
    ids_ = tt.encode(tok, "Now is the winter of our discontent made glorious summer by this sun of York")
    mask = np.zeros(len(ids_), bool)
    mask[3:5] = True
    e = tt.fill_example(tok, ids_, mask)
    got = recipe.generate(model, tok, [e])[0]
    assert got.startswith("<extra_id_0>") and "<extra_id_1>" in got


@shipped_only
def test_card_measures_every_task_on_held_out_text():
    m = zoo.read_card("t5")["metrics"]
    assert m["which_play_accuracy"] >= 3 * m["which_play_chance"]  # the bar for the classification task
    assert m["span_token_accuracy"] > m["span_unigram_accuracy"]
    assert m["count_words_within_1"] > m["count_words_exact_match"] > 0
    assert m["reverse_words_exact_match"] >= 0.95  # the bar for the structural task
