"""The Compression page in its link: corpora, sizes, held-out share, measure and lines.

Read once per session (and from a lesson file) through the one tolerant reader, before the
widgets exist; written after them on every run. Your own uploaded corpus is too long for any
link: a lesson file keeps it (up to its value bound), with its file name.
"""

from __future__ import annotations

import streamlit as st

from tokenizer_core.measure.quality import HF_FAMILIES
from ui.common.limits import MAX_LESSON_VALUE_CHARS
from ui.common.page_state import first_visit, write_link
from ui.compression.corpora import BUILT_IN, UPLOAD
from ui.compression.frames import METRICS
from ui.compression.limits import (
    HELD_OUT_PCT_MAX,
    HELD_OUT_PCT_MIN,
    HELD_OUT_PCT_STEP,
    HF_SIZES,
    MAX_CORPUS_BYTES,
    VOCAB_CHOICES,
)

PAGE = "compression"


def read_link() -> None:
    """The link's (or lesson file's) values into the page's state, the first time only."""
    link = first_visit(PAGE)
    if link is None:
        return
    state = st.session_state
    upload = link.read_text("cp_upload_text", "", max_chars=0, file_max_chars=MAX_CORPUS_BYTES)
    if upload:  # only a lesson file carries it (a link's text bound here is 0)
        state["cp_upload_text"] = upload
        state["cp_upload_name"] = link.read_text("cp_upload_name", "lesson file", max_chars=200)
    corpora = [*BUILT_IN, *([UPLOAD] if "cp_upload_text" in state else [])]
    state["cp_corpora"] = link.read_names("cp_corpora", corpora, state["cp_corpora"],
                                          limit=len(corpora))
    if link.params.get("cp_hf") == "":  # every line beside ours switched off
        state["cp_hf"] = []
    else:
        state["cp_hf"] = link.read_names("cp_hf", HF_FAMILIES, state["cp_hf"],
                                         limit=len(HF_FAMILIES))
    state["cp_vocab"] = link.read_int("cp_vocab", state["cp_vocab"], low=min(VOCAB_CHOICES),
                                      high=max(VOCAB_CHOICES), allowed=VOCAB_CHOICES)
    state["cp_held_out"] = link.read_int(
        "cp_held_out", state["cp_held_out"], low=HELD_OUT_PCT_MIN, high=HELD_OUT_PCT_MAX,
        allowed=range(HELD_OUT_PCT_MIN, HELD_OUT_PCT_MAX + 1, HELD_OUT_PCT_STEP),
        shown=f"{state['cp_held_out']}%")
    state["cp_compare"] = link.read_int("cp_compare", state["cp_compare"], low=min(HF_SIZES),
                                        high=max(HF_SIZES), allowed=HF_SIZES)
    state["cp_metric"] = link.read_choice("cp_metric", {m: m for m in METRICS}, state["cp_metric"])
    state["cp_train"] = link.read_flag("cp_train", bool(state["cp_train"]))


def save_link() -> None:
    """The page's choices into the link; the uploaded corpus only into a lesson file."""
    state = st.session_state
    params = {
        "cp_corpora": ",".join(state.get("cp_corpora") or []),
        "cp_hf": ",".join(state.get("cp_hf") or []),
        "cp_vocab": state.get("cp_vocab"), "cp_held_out": state.get("cp_held_out"),
        "cp_compare": state.get("cp_compare"), "cp_metric": state.get("cp_metric"),
        "cp_train": "1" if state.get("cp_train") else "0",
    }
    whole = {}
    upload = state.get("cp_upload_text")
    if UPLOAD in (state.get("cp_corpora") or []) and upload and len(upload) <= MAX_LESSON_VALUE_CHARS:
        whole = {"cp_upload_text": upload, "cp_upload_name": str(state.get("cp_upload_name", ""))}
    write_link(PAGE, params, whole=whole)
