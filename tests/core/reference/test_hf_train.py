"""Training HF models in-process: what is refused, and how it says so."""

from __future__ import annotations

import pytest

from tokenizer_core.reference.hf_train import train_hf

from .test_hf import SENTENCES

# --- training errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "sentencepiece"}, "unknown HF model kind 'sentencepiece'"),
        ({"kind": "wordpiece", "byte_level": True}, "byte_level applies to kind='bpe' only"),
        ({"vocab_size": 0}, "vocab_size must be a positive integer"),
        ({"texts": ["", "  "]}, "no training text"),
        ({"kind": "unigram", "vocab_size": 3}, "HF could not train unigram with vocab_size=3"),
    ],
)
def test_train_hf_errors(kwargs, message):
    arguments = {"kind": "bpe", "texts": SENTENCES, "vocab_size": 50} | kwargs
    with pytest.raises(ValueError, match=message):
        train_hf(**arguments)
