"""HF `tokenizers` trained in-process: BPE, WordPiece, Unigram, or a GPT-2-style byte-level BPE.

The reference lines the Compression page draws beside our own BPE: each kind set up the way its
docstring below says, with no normalization, so the comparison is like for like.

Leaves out: wrapping the result (hf.py) and anything that needs the network.
"""

from __future__ import annotations

from typing import Any, Iterable, Literal, Sequence

import tokenizers
from tokenizers import decoders, models, pre_tokenizers, trainers

from ..pretokenize import WORD_END
from .hf import METASPACE, HFTokenizer
from .rankfiles import ENDOFTEXT

HFKind = Literal["bpe", "wordpiece", "unigram"]
UNK = "[UNK]"


def _specials(first: str, extra: Sequence[str]) -> list[str]:
    return [first, *(s for s in extra if s != first)]


def _bpe(vocab_size: int, extra: Sequence[str]) -> tuple[tokenizers.Tokenizer, Any]:
    """Word-level BPE like our `word` level: whitespace words, `</w>` ends each word."""
    tokenizer = tokenizers.Tokenizer(models.BPE(unk_token=UNK, end_of_word_suffix=WORD_END))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer.decoder = decoders.BPEDecoder(suffix=WORD_END)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=_specials(UNK, extra),
        end_of_word_suffix=WORD_END,
        show_progress=False,
    )
    return tokenizer, trainer


def _byte_bpe(vocab_size: int, extra: Sequence[str]) -> tuple[tokenizers.Tokenizer, Any]:
    """GPT-2-style byte-level BPE: GPT-2's regex, 256 byte symbols, never unknown."""
    tokenizer = tokenizers.Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=_specials(ENDOFTEXT, extra),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    return tokenizer, trainer


def _wordpiece(vocab_size: int, extra: Sequence[str]) -> tuple[tokenizers.Tokenizer, Any]:
    """BERT-style WordPiece: split on whitespace and punctuation, `##` marks a continuation."""
    tokenizer = tokenizers.Tokenizer(models.WordPiece(unk_token=UNK))
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.decoder = decoders.WordPiece()
    trainer = trainers.WordPieceTrainer(
        vocab_size=vocab_size, special_tokens=_specials(UNK, extra), show_progress=False
    )
    return tokenizer, trainer


def _unigram(vocab_size: int, extra: Sequence[str]) -> tuple[tokenizers.Tokenizer, Any]:
    """sentencepiece-style Unigram: spaces become `▁`, and `▁` is put before the text."""
    tokenizer = tokenizers.Tokenizer(models.Unigram())
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement=METASPACE)
    tokenizer.decoder = decoders.Metaspace(replacement=METASPACE)
    trainer = trainers.UnigramTrainer(
        vocab_size=vocab_size,
        special_tokens=_specials(UNK, extra),
        unk_token=UNK,
        show_progress=False,
    )
    return tokenizer, trainer


_SETUPS = {"bpe": _bpe, "wordpiece": _wordpiece, "unigram": _unigram}
HF_KINDS: tuple[str, ...] = tuple(_SETUPS)


def train_hf(
    kind: HFKind,
    texts: Iterable[str],
    vocab_size: int,
    *,
    byte_level: bool = False,
    special_tokens: Sequence[str] = (),
    name: str | None = None,
) -> HFTokenizer:
    """Train an HF model in-process on `texts`. No normalization (no lowercasing, no NFC).

    kind="bpe":       WhitespaceSplit pre-tokenizer, `</w>` end-of-word suffix, `[UNK]` for
                      unseen characters: the same setting as our word level, to compare.
    kind="bpe", byte_level=True: GPT-2's ByteLevel pre-tokenizer (its regex, no prefix space),
                      all 256 bytes in the alphabet, `<|endoftext|>` special.
    kind="wordpiece": BertPreTokenizer (whitespace and punctuation), `##` continuations, `[UNK]`.
                      (HF's WordPieceTrainer trains BPE under the hood.)
    kind="unigram":   Metaspace pre-tokenizer (`▁` for spaces, and in front of the text), `[UNK]`.
    `special_tokens` are added after `[UNK]` / `<|endoftext|>`.
    """
    if kind not in HF_KINDS:
        raise ValueError(f"unknown HF model kind {kind!r}; choose one of {list(HF_KINDS)}")
    if byte_level and kind != "bpe":
        raise ValueError(f"byte_level applies to kind='bpe' only, not {kind!r}")
    if not isinstance(vocab_size, int) or vocab_size < 1:
        raise ValueError(f"vocab_size must be a positive integer, not {vocab_size!r}")
    corpus = list(texts)
    if not any(text.strip() for text in corpus):
        raise ValueError("there is no training text (every text is empty); give a few sentences")
    setup = _byte_bpe if byte_level else _SETUPS[kind]
    tokenizer, trainer = setup(vocab_size, special_tokens)
    try:
        tokenizer.train_from_iterator(corpus, trainer)
    except Exception as error:  # tokenizers raises a bare Exception
        raise ValueError(
            f"HF could not train {kind} with vocab_size={vocab_size}: {error}; "
            "try a larger vocab_size or more text"
        ) from None
    default = f"hf:{kind}" + (":byte" if byte_level else "")
    return HFTokenizer(tokenizer, name or default)
