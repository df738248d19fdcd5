"""Tokenizers by name, as the command line and the pages ask for them.

    gpt2, cl100k_base, o200k_base                 tiktoken itself, over offline rank files
    core:gpt2, core:cl100k_base, core:o200k_base  this project's byte-level encoder over the
                                                  same ranks and regex (ids equal tiktoken's)

Leaves out: caching (the app caches what it loads) and trained models (modelfile.py).
"""

from __future__ import annotations

from .interface import Tokenizer
from .models.byte_bpe import ByteLevelBPE
from .reference.rankfiles import ENCODING_NAMES, load_encoding_spec
from .reference.tiktoken_encodings import tiktoken_tokenizer

ENCODINGS = ENCODING_NAMES
CORE_PREFIX = "core:"
NAMES = (*ENCODINGS, *(CORE_PREFIX + e for e in ENCODINGS))


def core_tokenizer(encoding: str) -> ByteLevelBPE:
    """Our encoder over a real encoding's ranks, regex and special tokens."""
    spec = load_encoding_spec(encoding)
    return ByteLevelBPE.from_ranks(
        CORE_PREFIX + spec.name, spec.mergeable_ranks, spec.pat_str, spec.special_tokens,
        spec.explicit_n_vocab,
    )


def load_tokenizer(name: str) -> Tokenizer:
    """A tokenizer by name; ValueError listing the names otherwise."""
    if name in ENCODINGS:
        return tiktoken_tokenizer(name)
    if name.startswith(CORE_PREFIX) and name[len(CORE_PREFIX):] in ENCODINGS:
        return core_tokenizer(name[len(CORE_PREFIX):])
    raise ValueError(f"unknown tokenizer {name!r}; choose one of {', '.join(NAMES)} or 'model'")
