"""The Vocabulary page's data: tables cached per tokenizer name, searches, and frames to show.

A table is built once per server per tokenizer (`st.cache_resource`: the rows are shared, never
copied); a search's ids and a page of rows are cheap and made on each rerun.
"""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from tokenizer_core.measure.vocabulary import (
    VocabRow,
    Vocabulary,
    compare,
    search_bytes,
    search_id,
    search_regex,
    search_text,
    vocabulary,
)
from tokenizer_core.measure.vocabulary_design import learned_merges, model_json
from tokenizer_core.measure.vocabulary_export import hf_tokenizer_json
from tokenizer_core.models.byte_bpe import ByteLevelBPE
from tokenizer_core.models.unigram import UnigramModel
from tokenizer_core.models.wordpiece import WordPieceTokenizer
from tokenizer_core.registry import TRAINED
from tokenizer_core.tokens import display_bytes
from ui.common import catalog

# Uploaded tokenizer.json files run in a worker process: their vocabulary is not read here.
NAMES = [n for n in catalog.BUILT_IN if not n.startswith("hf:")]
SEARCHES = {
    "text": "Text contains",
    "id": "Id",
    "bytes": "Bytes (hex)",
    "regex": "Regex",
}


@st.cache_resource(max_entries=8, show_spinner="Reading the vocabulary…")
def table(name: str) -> Vocabulary:
    return vocabulary(catalog.load(name))


@st.cache_resource(max_entries=16, show_spinner=False)
def comparison(a: str, b: str):
    return compare(table(a), table(b))


@st.cache_data(max_entries=4, show_spinner="Writing tokenizer.json…")
def hf_file(name: str) -> str | None:
    """The HF tokenizer.json of a tokenizer trained here (byte-level BPE, WordPiece), or None
    for one this project cannot write exactly (tiktoken's, the open models', sentencepiece's)."""
    model = catalog.load(name)
    if isinstance(model, ByteLevelBPE) and name in TRAINED:
        data = model_json(model, learned_merges(model))
    elif isinstance(model, (WordPieceTokenizer, UnigramModel)):
        data = model.to_dict()
    else:
        return None
    return json.dumps(hf_tokenizer_json(data), ensure_ascii=False)


def search(vocab: Vocabulary, kind: str, query: str) -> list[int]:
    """Ids matching the query; ValueError with the reason for a bad one."""
    if kind == "id":
        try:
            return search_id(vocab, int(query.strip()))
        except ValueError:
            raise ValueError(f"{query!r} is not a whole number; type an id such as 1000") from None
    if kind == "bytes":
        return search_bytes(vocab, query)
    if kind == "regex":
        return search_regex(vocab, query)
    return search_text(vocab, query)


def frame(rows: list[VocabRow]) -> pd.DataFrame:
    """Rows as the table shows them: the token with visible whitespace and stray bytes as hex."""
    return pd.DataFrame(
        {
            "id": [r.id for r in rows],
            "token": [display_bytes(r.bytes, visible_whitespace=True, name_invisible=True)
                      for r in rows],
            "hex": [r.bytes.hex(" ") for r in rows],
            "bytes": [r.n_bytes for r in rows],
            "chars": pd.array([r.n_chars for r in rows], dtype="Int64"),
            "script": [r.script for r in rows],
            "starts with": [{"space": "space", "": ""}.get(r.start, r.start) for r in rows],
            "merge rank": pd.array([r.rank for r in rows], dtype="Int64"),
        }
    )
