"""Where the Playground's text comes from: the box, a classic-quirk preset, or a .txt upload.

Presets and uploads replace the box's text through callbacks (so the box shows them at once);
an upload that is not UTF-8, or too large, leaves the box untouched and says why.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from tokenizer_core.samples import playground_presets
from ui.common.pills import fill_from_pills
from ui.common.uploads import decode_text, text_upload_ui
from ui.playground.limits import MAX_TOKENIZE_CHARS, MAX_UPLOAD_BYTES


def decode_upload(data: bytes, filename: str) -> str:
    """The upload's text, or ValueError saying why it cannot be used (the box keeps its text)."""
    return decode_text(data, filename, max_bytes=MAX_UPLOAD_BYTES, max_chars=MAX_TOKENIZE_CHARS,
                       kept="the text in the box is unchanged", takes="the Playground tokenizes")


def _apply_preset(prefix: str) -> None:
    """A preset replaces the box's text, and says what to notice in it."""
    by_label = {p.label: p for p in playground_presets()}
    texts = {label: p.text for label, p in by_label.items()}
    chosen = fill_from_pills(f"{prefix}_preset", f"{prefix}_text", texts)
    if chosen is not None:
        st.session_state[f"{prefix}_notice"] = by_label[chosen].what_to_notice


def _use_upload(prefix: str, text: str, filename: str) -> None:
    """A good upload replaces the box's text (and the preset's notice)."""
    st.session_state[f"{prefix}_text"] = text
    st.session_state[f"{prefix}_notice"] = None


def text_source_ui(prefix: str) -> str:
    """The text box with presets and upload; returns the text to tokenize."""
    st.pills(
        "Classic quirks", [p.label for p in playground_presets()], key=f"{prefix}_preset",
        on_change=_apply_preset, args=(prefix,),
        help="Each replaces the text with a short example of a well-known tokenizer quirk.",
    )
    text = st.text_area(
        "Text", key=f"{prefix}_text", height=170, max_chars=MAX_TOKENIZE_CHARS,
        help=f"Up to {MAX_TOKENIZE_CHARS:,} characters are tokenized.",
    )
    notice = st.session_state.get(f"{prefix}_notice")
    if notice:
        st.info(notice, icon="💡")
    text_upload_ui(prefix, decode_upload, partial(_use_upload, prefix))
    return text
