"""Take it with you: a byte-level BPE model file (modelfile.py) as an HF `tokenizer.json`.

The HF file that gives the same ids as ours on any text:
- pre_tokenizer: `Split` on our regex (behaviour `Isolated`: every match is a chunk, and so is
  the text between matches, which our regexes never leave), then `ByteLevel` without its own
  regex and without a prefix space: each chunk's bytes written in GPT-2's byte alphabet;
- model: `BPE` with our vocabulary (each token's bytes in that alphabet -> our id) and our
  merges in learned order, `ignore_merges` off: only a learned pair joins, as in
  ByteLevelBPE.from_merges (HF's BPE applies the lowest-ranked pair first, as ours does);
- special tokens: added tokens with our ids, marked special; decoder `ByteLevel`.

subtle: HF runs the regex with Oniguruma, not Python's `regex`. The two agree on our three
patterns except one construct: Oniguruma (Ruby syntax) reads `{1,3}+` as "one to three,
repeated", not as a possessive "one to three", so cl100k's `\\p{N}{1,3}+` would put a whole
number in one chunk. The exported form drops that `+`, which changes nothing in Python (the
repeat ends its alternative, so nothing can backtrack into it). A test compares HF's ids and
offsets with ours on the samples and on random Unicode.

Refused, with the reason: models whose pattern is not one of ours (the Oniguruma form of an
arbitrary regex is not checked), word- and sentence-level BPE (they refuse or map to an unknown
token any character outside their alphabet, and the word level adds `</w>`, by rules HF's BPE
model spells differently). WordPiece and Unigram have modules of their own.

Leaves out: writing the file (the command line does) and other HF options (normalizers,
post-processors adding BOS/EOS).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..modelfile import bpe_from_json
from ..models.byte_bpe import ByteLevelBPE
from ..pretokenize import PATTERNS
from ..reference.rankfiles import gpt2_byte_alphabet
from .vocabulary_export_unigram import unigram_tokenizer_json
from .vocabulary_export_wordpiece import wordpiece_tokenizer_json

# Each pattern as Oniguruma must read it to cut the same chunks (see the module docstring).
HF_PATTERNS: dict[str, str] = {
    name: pat.replace("{1,3}+", "{1,3}") for name, pat in PATTERNS.items()
}
_BYTE_LEVEL = {"add_prefix_space": False, "trim_offsets": False, "use_regex": False}


def _refuse_unless_exportable(data: Mapping[str, Any]) -> str:
    """The model file's pattern name; ValueError saying why the file cannot be exported."""
    algorithm = data.get("algorithm")
    if algorithm != "bpe":
        raise ValueError(
            f"export writes byte-level BPE, WordPiece and Unigram models; this model's algorithm "
            f"is {algorithm!r}"
        )
    level = data.get("level")
    if level != "byte":
        raise ValueError(
            f"export writes byte-level BPE models; this one is {level!r}-level, which refuses "
            "(or maps to its unknown token) characters outside its alphabet and adds `</w>` at "
            "word level, by rules HF's BPE does not reproduce exactly; train with --level byte"
        )
    pattern = data.get("pattern", "gpt2")
    if pattern not in HF_PATTERNS:
        raise ValueError(
            f"the model's pre-tokenization regex is not one of {sorted(HF_PATTERNS)}; only "
            "those are checked to cut the same chunks under HF's regex engine (Oniguruma)"
        )
    return pattern


def _in_alphabet(data: bytes, alphabet: dict[int, str]) -> str:
    return "".join(alphabet[b] for b in data)


def hf_tokenizer_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """The HF tokenizer.json (as a dict) for a model file's JSON: byte-level BPE, WordPiece
    (vocabulary_export_wordpiece.py) or word-level Unigram (vocabulary_export_unigram.py)."""
    if data.get("algorithm") == "wordpiece":
        return wordpiece_tokenizer_json(data)
    if data.get("algorithm") == "unigram":
        return unigram_tokenizer_json(data)
    return _byte_bpe_json(data)


def _byte_bpe_json(data: Mapping[str, Any]) -> dict[str, Any]:
    pattern = _refuse_unless_exportable(data)
    model = bpe_from_json(data)
    assert isinstance(model, ByteLevelBPE)
    alphabet = gpt2_byte_alphabet()
    vocab = {_in_alphabet(token, alphabet): i for token, i in model.encoder.items()}
    for token, i in model.special_tokens.items():
        # subtle: HF keeps an added token's id only when the model's vocab holds its text;
        # otherwise it appends the token after the vocabulary with a new id.
        if vocab.setdefault(token, i) != i:
            raise ValueError(
                f"special token {token!r} is also an ordinary token of this model, which one "
                "HF vocabulary entry cannot express; train without it as a special token"
            )
    merges = [
        [_in_alphabet(bytes.fromhex(a), alphabet), _in_alphabet(bytes.fromhex(b), alphabet)]
        for a, b in data["merges"]
    ]
    added = [
        {"id": i, "content": token, "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": True}
        for token, i in sorted(model.special_tokens.items(), key=lambda item: item[1])
    ]  # fmt: skip
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": {
            "type": "Sequence",
            "pretokenizers": [
                {"type": "Split", "pattern": {"Regex": HF_PATTERNS[pattern]},
                 "behavior": "Isolated", "invert": False},
                {"type": "ByteLevel", **_BYTE_LEVEL},
            ],
        },  # fmt: skip
        "post_processor": None,
        "decoder": {"type": "ByteLevel", **_BYTE_LEVEL},
        "model": {
            "type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
            "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
            "ignore_merges": False, "vocab": vocab, "merges": merges,
        },  # fmt: skip
    }
