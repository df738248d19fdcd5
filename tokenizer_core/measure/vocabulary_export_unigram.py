"""Take it with you: a Unigram model file as an HF `tokenizer.json` that gives the same ids.

- model `Unigram` with our pieces and log probabilities in id order, `<unk>` id 0. HF scores an
  unseen character as SentencePiece does (the lowest log probability minus 10), as ours does;
- word level: pre_tokenizer `Split` keeping the runs of non-whitespace (our words), then `Metaspace` with
  `prepend_scheme: always`, which puts `▁` before every word, as our `sequence` does;
- sentence level: `Split` on a line break, `Removed`: each line is one sequence, spaces are
  ordinary characters and the line break is no token, as in models/unigram.py.

Leaves out: byte fallback and normalization (ours has neither). Two differences are left as they
are: a lone `▁` token covers no character in ours (start == end), while HF gives it the first
character of its word; the ids agree, and the tests compare offsets wherever a token covers text.
And the text `<unk>` itself: HF's Unigram matches its unknown piece's text like any other piece
(id 0), while ours, as SentencePiece, never reads the unknown piece from text and cuts it into
`<`, `u`, `n`, `k`, `>`; the id 0 must stay named `<unk>` for HF to use it, so a file cannot
express ours (tests/core/measure/test_vocabulary_export_models.py checks both sides).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..models.unigram import WORD_START, unigram_from_json

# The word level's whitespace (pretokenize.word_pieces: regex's \s and U+001C..U+001F, as
# str.split() has it), written out as characters: HF's `WhitespaceSplit` (Rust's is_whitespace)
# leaves out U+001C..U+001F, and Oniguruma's `\s` need not be Python's.
_SPACES = "\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_WORD_LEVEL = {
    "type": "Sequence",
    "pretokenizers": [
        # invert: the matches (the words) are the pieces, and what is between them is dropped
        {"type": "Split", "pattern": {"Regex": f"[^{_SPACES}]+"}, "behavior": "Removed",
         "invert": True},
        {"type": "Metaspace", "replacement": WORD_START, "prepend_scheme": "always",
         "split": False},
    ],
}  # fmt: skip
_SENTENCE_LEVEL = {"type": "Split", "pattern": {"String": "\n"}, "behavior": "Removed",
                   "invert": False}  # fmt: skip


def unigram_tokenizer_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """The HF tokenizer.json (as a dict) for a Unigram model file's JSON."""
    model = unigram_from_json(data)
    word_level = model.level == "word"
    decoder = ({"type": "Metaspace", "replacement": WORD_START, "prepend_scheme": "always",
                "split": False} if word_level else None)  # fmt: skip
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": _WORD_LEVEL if word_level else _SENTENCE_LEVEL,
        "post_processor": None,
        "decoder": decoder,
        "model": {"type": "Unigram", "unk_id": 0, "byte_fallback": False,
                  "vocab": [[piece, log_prob] for piece, log_prob in model.pieces]},
    }
