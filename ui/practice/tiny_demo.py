"""Try the tiny tokenizer of the last exercise: the very class the exercise quotes, trained here
on a little English, encoding your text with its special tokens and decoding it back."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.lessons.tiny_tokenizer import TinyTokenizer
from tokenizer_core.samples import sample_text
from tokenizer_core.trainers.corpus import corpus_from_text
from tokenizer_core.trainers.textbook import textbook_train
from ui.common.i18n import _, number
from ui.common.page_state import KEEP
from ui.practice.limits import MAX_TINY_TEXT_CHARS

SPECIALS = ("<|endoftext|>", "<|user|>")
MERGES = 40  # the textbook loop is slow on purpose: a few dozen merges on a short text
TRAINING_CHARS = 1_500
DEFAULT_TEXT = "<|user|>the tokenizer<|endoftext|>"


def tiny_tokenizer() -> TinyTokenizer:
    with st.spinner(_("Training the tiny tokenizer…")):
        return _tiny_tokenizer()


@st.cache_resource(show_spinner=False)
def _tiny_tokenizer() -> TinyTokenizer:
    """Trained once per server by the textbook loop (the first exercise's code)."""
    corpus = corpus_from_text(sample_text("english")[:TRAINING_CHARS], "byte")
    merges, _ = textbook_train(corpus, MERGES)
    return TinyTokenizer(merges, SPECIALS)  # type: ignore[arg-type]


def init_state() -> None:
    st.session_state.setdefault("pr_tiny_text", DEFAULT_TEXT)


def try_section() -> None:
    with st.expander(_("Try this tokenizer"), expanded=False):
        tok = tiny_tokenizer()
        st.caption(_("TinyTokenizer with {merges} merges learned by the textbook loop on the "
                     "first {chars} characters of the English sample, and the special tokens "
                     "{specials}.", merges=number(MERGES), chars=number(TRAINING_CHARS),
                     specials=", ".join(f"`{s}`" for s in SPECIALS)))
        text = st.text_input(_("Text"), key="pr_tiny_text", max_chars=MAX_TINY_TEXT_CHARS,
                             persist_state=KEEP)
        ids = tok.encode(text)
        st.code(f"encode(text) = {ids}\ndecode(encode(text)) == text: {tok.decode(ids) == text}",
                language=None, wrap_lines=True)
