"""WordPiece (BERT, Devlin et al. 2018, 1810.04805), trained with Hugging Face ``tokenizers``.

Text is lower-cased and split on whitespace and punctuation (BERT's "uncased" normaliser and pre-tokeniser), then
each word is cut greedily into the longest pieces of the vocabulary; a piece inside a word is written ``##piece``.
A character never seen in training (Chinese, emoji) becomes ``[UNK]``. The pieces are learnt on the training
split only. The special tokens come first, so their ids are fixed:

    [PAD] 0   [UNK] 1   [CLS] 2   [SEP] 3   [MASK] 4

``encode_pair`` writes BERT's input: ``[CLS] A [SEP] B [SEP]`` with segment ids 0 for ``[CLS] A [SEP]`` and 1 for
``B [SEP]``.
"""

from __future__ import annotations

from collections.abc import Iterable

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
PAD, UNK, CLS, SEP, MASK = range(len(SPECIALS))


def train_wordpiece(texts: Iterable[str], vocab_size: int) -> Tokenizer:
    """A lower-casing WordPiece tokenizer with ``vocab_size`` ids, the five special tokens first."""
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(
        lowercase=True, strip_accents=True, clean_text=True, handle_chinese_chars=True
    )
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=list(SPECIALS), show_progress=False)
    tok.train_from_iterator(texts, trainer=trainer)
    return tok


def load(json_text: str) -> Tokenizer:
    return Tokenizer.from_str(json_text)


def encode_pair(a: list[int], b: list[int] | None = None) -> tuple[list[int], list[int]]:
    """(ids, segments) of ``[CLS] a [SEP]`` or ``[CLS] a [SEP] b [SEP]``."""
    ids = [CLS, *a, SEP]
    segments = [0] * len(ids)
    if b is not None:
        ids += [*b, SEP]
        segments += [1] * (len(b) + 1)
    return ids, segments
