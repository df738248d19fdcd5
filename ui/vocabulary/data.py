"""The Vocabulary page's data: tables cached per tokenizer name, searches, and frames to show.

A table is built once per server per tokenizer (`st.cache_resource`: the rows are shared, never
copied); a search's ids and a page of rows are cheap and made on each rerun. The tokenizers of the
models folder and the Hugging Face cache are read in their worker processes (found.py) and kept
under their sha256.
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
from tokenizer_core.messages import Refusal
from tokenizer_core.models.byte_bpe import ByteLevelBPE
from tokenizer_core.models.unigram import UnigramModel
from tokenizer_core.models.wordpiece import WordPieceTokenizer
from tokenizer_core.registry import TRAINED
from tokenizer_core.tokens import display_bytes
from ui.common import catalog
from ui.common.i18n import N_, _, number
from ui.vocabulary import found

# The built-in tokenizers, read in this process. An uploaded tokenizer.json is the session's own
# and is not offered here; the models folder's and the HF cache's are (`names`, found.py).
NAMES = [n for n in catalog.BUILT_IN if not n.startswith("hf:")]


def names() -> list[str]:
    """The picker's list: the built-in ones, then those this session found (catalog.offered)."""
    return [n for n in catalog.offered() if n in NAMES or found.is_found(n)]


SEARCHES = {  # the values stay English (session state); shown by `_(SEARCHES[kind])`
    "text": N_("Text contains"),
    "id": N_("Id"),
    "bytes": N_("Bytes (hex)"),
    "regex": N_("Regex"),
}


@st.cache_resource(max_entries=8, show_spinner=False)
def _table(name: str) -> Vocabulary:
    return vocabulary(catalog.load(name))


def table(name: str) -> Vocabulary:
    """The tokenizer's table; for a found one, ValueError (a Refusal) saying why there is none."""
    if found.is_found(name):
        return found.table(name)
    with st.spinner(_("Reading the vocabulary…")):  # the spinner speaks the session's language
        return _table(name)


def comparison(a: str, b: str):
    """The two tables compared (ValueError when a found one has no table)."""
    return _comparison(a, catalog.version(a), b, catalog.version(b))


@st.cache_resource(max_entries=16, show_spinner=False)
def _comparison(a: str, a_version: str, b: str, b_version: str):
    return compare(table(a), table(b))


def hf_file(name: str) -> str | None:
    if found.is_found(name):
        return None  # a file of the models folder or the cache: it is already a file of its own
    with st.spinner(_("Writing tokenizer.json…")):
        return _hf_file(name)


@st.cache_data(max_entries=4, show_spinner=False)
def _hf_file(name: str) -> str | None:
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
    """Ids matching the query; a Refusal (a ValueError) with the reason for a bad one."""
    if kind == "id":
        try:
            return search_id(vocab, int(query.strip()))
        except ValueError:
            raise Refusal(N_("{query} is not a whole number; type an id such as 1000"),
                          query=repr(query)) from None
    if kind == "bytes":
        return search_bytes(vocab, query)
    if kind == "regex":
        return search_regex(vocab, query)
    return search_text(vocab, query)


NOT_A_NUMBER = "—"  # no merge made the token (a base byte, a special token), or partial bytes


def _number(value: int | None) -> str:
    """A count or rank as the table shows it; subtle: a missing one in a number column shows as
    a raw `None`, so these columns are text (right-aligned in `COLUMNS`)."""
    return NOT_A_NUMBER if value is None else number(value)


# The table's columns: English names in the frame (what tests and code read), shown translated.
HEADERS = {"id": N_("id"), "token": N_("token"), "hex": N_("hex"), "bytes": N_("bytes"),
           "chars": N_("chars"), "script": N_("script"), "starts with": N_("starts with"),
           "merge rank": N_("merge rank")}
NUMBER_TEXT = ("chars", "merge rank")  # text columns that hold numbers, aligned as numbers are


def columns() -> dict:
    """st.dataframe's column_config for `frame`: headers in the session's language."""
    return {name: st.column_config.TextColumn(_(label), alignment="right") if name in NUMBER_TEXT
            else st.column_config.Column(_(label)) for name, label in HEADERS.items()}


def frame(rows: list[VocabRow]) -> pd.DataFrame:
    """Rows as the table shows them: the token with visible whitespace and stray bytes as hex;
    chars and merge rank as text, a dash where there is none."""
    return pd.DataFrame(
        {
            "id": [r.id for r in rows],
            "token": [display_bytes(r.bytes, visible_whitespace=True, name_invisible=True)
                      for r in rows],
            "hex": [r.bytes.hex(" ") for r in rows],
            "bytes": [r.n_bytes for r in rows],
            "chars": [_number(r.n_chars) for r in rows],
            "script": [_(r.script) for r in rows],
            "starts with": [_("space") if r.start == "space" else r.start for r in rows],
            "merge rank": [_number(r.rank) for r in rows],
        }
    )
