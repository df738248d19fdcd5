"""Which corpora the Compression page trains on: the four built-in ones, or the user's upload.

An upload is read in a callback (ui/common/uploads.py): a text that is not UTF-8, too large or too short
is refused with a message saying why and how to fix it, and whatever was chosen before stays as
it was. The upload's name is user text: it reaches Markdown only through safe_text.literal.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import streamlit as st

from tokenizer_core.samples import corpus_text, english_reference_corpus
from ui.common.i18n import N_, _, number
from ui.common.safe_text import literal
from ui.common.uploads import decode_text, text_upload_ui
from ui.compression.limits import KEEP, MAX_CORPUS_BYTES, MIN_CORPUS_CHARS

UPLOAD = "upload"
# key -> (label, what it is); the label is shown by _() in the session's language
BUILT_IN: dict[str, tuple[str, str]] = {
    "english": (N_("English"), "Python's own documentation (pydoc_data.topics): about 465 KB of "
                "English prose with code examples, on every machine."),
    "chinese": (N_("Chinese"), "Everyday Simplified Chinese prose written for this project "
                "(data/corpora/chinese.txt): about 21,500 characters, 64 KB."),
    "code": (N_("Code"), "Python modules written for this project (data/corpora/code.txt): a to-do "
             "list, a CSV report, a text adventure, ... about 100 KB."),
    "emoji": (N_("Emoji chat"), "Group chats full of emoji written for this project "
              "(data/corpora/emoji.txt): skin tones, ZWJ families, flags, keycaps; about 63 KB."),
}
COLORS: dict[str, str] = {  # Okabe-Ito: distinct for colour-blind viewers and on a projector
    "english": "#0072B2", "chinese": "#D55E00", "code": "#009E73", "emoji": "#CC79A7",
    UPLOAD: "#E69F00",
}
DEFAULT_CORPORA = ["english", "chinese"]


@dataclass(frozen=True)
class CorpusChoice:
    key: str
    label: str
    text: str
    digest: str
    description: str


@st.cache_data(max_entries=8, show_spinner=False)
def builtin_text(key: str) -> str:
    return english_reference_corpus() if key == "english" else corpus_text(key)


def digest_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def decode_corpus(data: bytes, filename: str) -> str:
    """The upload's text, or ValueError saying why it cannot be a corpus."""
    text = decode_text(data, filename, max_bytes=MAX_CORPUS_BYTES,
                       kept=_("the corpora chosen above are unchanged"))
    if len(text.strip()) < MIN_CORPUS_CHARS:
        raise ValueError(_(
            "{name} has {count} characters of text; a corpus needs at least {minimum} to split "
            "into a training part and a held-out part.", name=filename,
            count=number(len(text.strip())), minimum=number(MIN_CORPUS_CHARS)))
    return text


def _use_upload(text: str, filename: str) -> None:
    """A good upload becomes the "upload" corpus, and is chosen."""
    st.session_state["cp_upload_text"] = text
    st.session_state["cp_upload_name"] = filename
    chosen = list(st.session_state.get("cp_corpora") or [])
    if UPLOAD not in chosen:
        st.session_state["cp_corpora"] = [*chosen, UPLOAD]


def label_of(key: str) -> str:
    """The corpus's plain label in the session's language (it names the user's file: Markdown
    takes it through literal())."""
    if key == UPLOAD:
        return _("Your text ({name})", name=st.session_state.get("cp_upload_name", "upload"))
    return _(BUILT_IN[key][0])


def corpora_ui() -> list[CorpusChoice]:
    """The corpus pills and the upload box; returns the chosen corpora in a fixed order."""
    options = [*BUILT_IN, *([UPLOAD] if "cp_upload_text" in st.session_state else [])]
    st.pills(
        _("Corpora (one line each)"), options, selection_mode="multi", key="cp_corpora",
        persist_state=KEEP,
        format_func=lambda key: literal(label_of(key)),  # pill labels are Markdown
        help=_("Each corpus gets its own training run and its own held-out part."),
    )
    text_upload_ui("cp", decode_corpus, _use_upload,
                   title=_("Train on your own text (a UTF-8 .txt file)"),
                   label=_("UTF-8 text, up to {count} bytes", count=number(MAX_CORPUS_BYTES)))
    chosen = st.session_state.get("cp_corpora") or []
    found = []
    for key in options:
        if key not in chosen:
            continue
        text = st.session_state["cp_upload_text"] if key == UPLOAD else builtin_text(key)
        description = (
            f"Your upload, {len(text):,} characters." if key == UPLOAD else BUILT_IN[key][1]
        )
        found.append(CorpusChoice(key, label_of(key), text, digest_of(text), description))
    return found
