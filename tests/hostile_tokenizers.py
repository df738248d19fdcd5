"""tokenizer.json files a careless or hostile user might upload, built with HF tokenizers itself
(issue 9, items 5 and 6), and the texts that make the slow ones misbehave.

- `wordpiece_without_unk()`: loads, but cannot encode anything (`WordPiece error: Missing
  [UNK] token from the vocabulary`).
- `split_on(SLOW_PATTERN)`: a `Split` pre-tokenizer whose regex backtracks; on SLOW_TEXT the
  Rust regex engine works for minutes while holding Python's GIL.
- `split_on(PANIC_PATTERN)`: on PANIC_TEXT the regex engine gives up and panics
  (`retry-limit-in-match over`), which pyo3 raises as a BaseException, not an Exception.

Both Split files encode ordinary text normally, so they pass any check at upload time.
"""

from __future__ import annotations

import string

from tokenizers import Regex, Tokenizer, models, pre_tokenizers

SLOW_PATTERN = r"a*a*a*[^a\s]"
SLOW_TEXT = ("a" * 398 + " ") * 20
PANIC_PATTERN = r"(a+)+$"
PANIC_TEXT = "a" * 40 + "b"


def wordpiece_without_unk() -> str:
    """A WordPiece with an empty vocabulary: its [UNK] is not in it, so every encode fails."""
    return Tokenizer(models.WordPiece(vocab={}, unk_token="[UNK]")).to_str()


def split_on(pattern: str) -> str:
    """A character-level BPE (letters, digits, space; [UNK] for the rest) that pre-tokenizes by
    cutting out every match of `pattern`."""
    alphabet = ["[UNK]", " ", *string.ascii_letters, *string.digits, *string.punctuation]
    model = models.BPE(vocab={c: i for i, c in enumerate(alphabet)}, merges=[], unk_token="[UNK]")
    tokenizer = Tokenizer(model)
    tokenizer.pre_tokenizer = pre_tokenizers.Split(Regex(pattern), "isolated")
    return tokenizer.to_str()


def plain_bpe() -> str:
    """A well-behaved file: the same character-level BPE, split on whitespace."""
    tokenizer = Tokenizer.from_str(split_on(r"\s+"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    return tokenizer.to_str()
