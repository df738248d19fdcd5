"""Which tokenizers the app offers, their labels, and loading them once (cached by plain keys).

Loading builds tiktoken encodings from offline rank files and trains our own BPE and WordPiece
on Python's documentation, so it happens once per server (`st.cache_resource`); tokenizing, and
the token table built from the tokens, are cached per (tokenizer, text, special-token mode).
"""

from __future__ import annotations

import hashlib
from typing import Literal

import pandas as pd
import streamlit as st

from tokenizer_core import (
    HFTokenizer,
    TiktokenTokenizer,
    Token,
    Tokenizer,
    WordPieceTokenizer,
    bpe_model,
    corpus_from_counts,
    corpus_from_text,
    load_tokenizer,
    train_bpe,
    train_wordpiece,
    wordpiece_corpus,
)
from tokenizer_core.samples import english_reference_corpus, sample_text
from tokenizer_core.trainers.wordpiece import bert_word_counts
from ui.common.limits import MAX_PANELS, MAX_TOKENIZER_JSON_BYTES
from ui.common.safe_text import literal
from ui.common.tables import token_frame

OUR_MERGES = 4_000
BUILT_IN: dict[str, str] = {
    "gpt2": "GPT-2 (tiktoken)",
    "cl100k_base": "cl100k_base: GPT-4 (tiktoken)",
    "o200k_base": "o200k_base: GPT-4o (tiktoken)",
    "core:gpt2": "GPT-2 ranks, our encoder",
    "ours:bpe": f"Our byte-level BPE ({OUR_MERGES:,} merges)",
    "ours:wordpiece": f"Our WordPiece ({OUR_MERGES:,} merges)",
}
DESCRIPTIONS: dict[str, str] = {
    "gpt2": "OpenAI's GPT-2 vocabulary, 50,257 tokens, encoded by tiktoken.",
    "cl100k_base": "GPT-4's vocabulary, about 100k tokens; digits in groups of three.",
    "o200k_base": "GPT-4o's vocabulary, about 200k tokens, with more room for other languages.",
    "core:gpt2": "GPT-2's real ranks run through this project's pure-Python encoder: "
    "the ids must equal tiktoken's.",
    "ours:bpe": f"Trained here: byte-level BPE, GPT-2's regex, {OUR_MERGES:,} merges on Python's "
    "own documentation (English prose and code).",
    "ours:wordpiece": f"Trained here: WordPiece (## continuations), {OUR_MERGES:,} merges on "
    "Python's documentation, each chosen by likelihood gain n(ab)·ln(P(ab)/(P(a)P(b))), as BERT's "
    "WordPiece was; words it cannot spell become [UNK].",
}
# Loadable by name but not offered in the Playground: the Languages page's English+Chinese BPE.
BILINGUAL = "lg:bpe-en-zh"
BILINGUAL_MERGES = 1_000
SpecialMode = Literal["plain", "allow"]


@st.cache_resource(show_spinner="Loading tokenizer…")
def load(name: str) -> Tokenizer:
    """A built-in (or hidden) tokenizer by name; trained ones are trained on first use."""
    if name == "ours:bpe":
        corpus = corpus_from_text(english_reference_corpus(), "byte")
        training = train_bpe(corpus, OUR_MERGES, special_tokens=("<|endoftext|>",))
        return bpe_model(training, name=BUILT_IN[name])
    if name == BILINGUAL:
        text = sample_text("english") + "\n" + sample_text("chinese")
        training = train_bpe(corpus_from_text(text, "byte"), BILINGUAL_MERGES)
        return bpe_model(training, name="ours (EN+ZH)")
    if name == "ours:wordpiece":
        words = corpus_from_counts(bert_word_counts(english_reference_corpus()), "word")
        # The likelihood gain, not the ratio: on a corpus of ~4,000 distinct words the ratio
        # spends its merges on rare pairs and leaves 'text' as t ##e ##x ##t.
        training = train_wordpiece(wordpiece_corpus(words), OUR_MERGES, score="likelihood")
        return WordPieceTokenizer.from_training(training, name=BUILT_IN[name])
    return load_tokenizer(name)


def load_tiktoken(name: str) -> TiktokenTokenizer:
    """tiktoken itself (`gpt2`, `cl100k_base`, `o200k_base`), typed as such: the oracle pages
    check against, with `encode_ordinary_ids`."""
    tokenizer = load(name)
    assert isinstance(tokenizer, TiktokenTokenizer), f"{name} is not a tiktoken encoding"
    return tokenizer


@st.cache_resource(max_entries=8, show_spinner="Reading tokenizer.json…")
def _load_uploaded(digest: str, _data: bytes, filename: str) -> HFTokenizer:
    return HFTokenizer.from_str(_data.decode("utf-8"), name=filename)


def add_upload(data: bytes, filename: str) -> str:
    """Register an uploaded tokenizer.json; returns its name. Raises ValueError with the reason."""
    if len(data) > MAX_TOKENIZER_JSON_BYTES:
        raise ValueError(
            f"{filename} is {len(data):,} bytes; the bound for a tokenizer.json is "
            f"{MAX_TOKENIZER_JSON_BYTES:,} bytes"
        )
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{filename} is not UTF-8 text, so it is not a tokenizer.json") from None
    digest = hashlib.sha256(data).hexdigest()[:16]
    _load_uploaded(digest, data, filename)  # raises ValueError if HF cannot read it
    name = f"hf:{digest}"
    st.session_state.setdefault("uploaded_tokenizers", {})[name] = (filename, data)
    return name


def upload_callback(prefix: str) -> None:
    """on_change of a page's tokenizer.json uploader: register it and select it."""
    upload = st.session_state.get(f"{prefix}_hf_upload")
    if upload is None:
        return
    try:
        name = add_upload(upload.getvalue(), upload.name)
    except ValueError as error:
        st.session_state[f"{prefix}_hf_message"] = ("error", str(error))
        return
    chosen = st.session_state.setdefault(f"{prefix}_tokenizers", [])
    if name not in chosen:
        st.session_state[f"{prefix}_tokenizers"] = [*chosen, name][-MAX_PANELS:]
    st.session_state[f"{prefix}_hf_message"] = ("success", f"Added {upload.name} to the comparison.")


def show_upload_message(prefix: str) -> None:
    kind, message = st.session_state.get(f"{prefix}_hf_message") or (None, None)
    if kind == "error":
        st.error(literal(message), icon="⚠️")
    elif kind == "success":
        st.success(literal(message), icon="✅")


def uploaded() -> dict[str, tuple[str, bytes]]:
    return st.session_state.get("uploaded_tokenizers", {})


def get(name: str) -> Tokenizer:
    if name.startswith("hf:"):
        filename, data = uploaded()[name]
        return _load_uploaded(name[3:], data, filename)
    return load(name)


def label(name: str) -> str:
    if name.startswith("hf:"):
        return f"{uploaded().get(name, ('uploaded',))[0]} (HF tokenizer.json)"
    return BUILT_IN.get(name, name)


def choices() -> list[str]:
    return [*BUILT_IN, *uploaded()]


@st.cache_resource(max_entries=64, show_spinner=False)
def tokenize(name: str, text: str, special: SpecialMode) -> list[Token]:
    """Tokens of text; `special`: plain reads special-token strings as text, allow encodes them.

    A resource cache, not a data cache: the list is shared, never copied or pickled (20,000
    characters make ~5,000 Token records, and callers only read them).
    """
    tokenizer = get(name)
    if special == "allow":
        return tokenizer.encode(text, allowed_special="all")
    return tokenizer.encode(text, disallowed_special=())


@st.cache_resource(max_entries=16, show_spinner=False)
def token_table(name: str, text: str, special: SpecialMode) -> pd.DataFrame:
    """The token table (ui.common.tables.token_frame) of `tokenize(name, text, special)`, built once per
    key like the tokens themselves. Shared: callers read it and never change it."""
    return token_frame(tokenize(name, text, special))


def special_strings_in(text: str, names: list[str]) -> list[str]:
    """Special-token strings of any chosen tokenizer that occur in the text."""
    found: set[str] = set()
    for name in names:
        found.update(s for s in get(name).special_tokens if s in text)
    return sorted(found)
