"""Take it with you: a WordPiece model file as an HF `tokenizer.json` that gives the same ids.

models/wordpiece.py encodes as HF's pipeline does, so the file names HF's own parts:
- pre_tokenizer `BertPreTokenizer`: split on whitespace and cut out each punctuation character;
- model `WordPiece` with our vocabulary (piece -> id), `##` continuations, our unknown token and
  `max_input_chars_per_word` (a longer word, or one the vocabulary cannot finish, is one unknown);
- special tokens as added tokens with our ids, marked special; decoder `WordPiece` without its
  cleanup, as our decode.

Leaves out: the normalizer (ours lowercases nothing, so the file has none), and BERT's
`[CLS] ... [SEP]` post-processor (ours adds nothing around a text).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..models.wordpiece import CONTINUATION, wordpiece_from_json


def added_tokens(specials: Mapping[str, int]) -> list[dict[str, Any]]:
    """HF's added_tokens for our special tokens, in id order."""
    return [
        {"id": i, "content": token, "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": True}
        for token, i in sorted(specials.items(), key=lambda item: item[1])
    ]  # fmt: skip


def wordpiece_tokenizer_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """The HF tokenizer.json (as a dict) for a WordPiece model file's JSON."""
    model = wordpiece_from_json(data)
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added_tokens(model.special_tokens),
        "normalizer": None,
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": None,
        "decoder": {"type": "WordPiece", "prefix": CONTINUATION, "cleanup": False},
        "model": {
            "type": "WordPiece", "unk_token": model.unk_token,
            "continuing_subword_prefix": CONTINUATION,
            "max_input_chars_per_word": model.max_input_chars_per_word,
            "vocab": model.get_vocab(),
        },  # fmt: skip
    }
