"""Where the Playground's text comes from: the box, a classic-quirk preset, or a .txt upload.

Presets and uploads replace the box's text through callbacks (so the box shows them at once);
an upload that is not UTF-8, or too large, leaves the box untouched and says why.
"""

from __future__ import annotations

import streamlit as st

from tokenizer_core.samples import playground_presets

from .limits import MAX_TOKENIZE_CHARS, MAX_UPLOAD_BYTES
from .safe_text import literal
from .uploads import decode_text


def decode_upload(data: bytes, filename: str) -> str:
    """The upload's text, or ValueError saying why it cannot be used (the box keeps its text)."""
    return decode_text(data, filename, max_bytes=MAX_UPLOAD_BYTES, max_chars=MAX_TOKENIZE_CHARS,
                       kept="the text in the box is unchanged", takes="the Playground tokenizes")


def _apply_preset(prefix: str) -> None:
    chosen = st.session_state.get(f"{prefix}_preset")
    for preset in playground_presets():
        if preset.label == chosen:
            st.session_state[f"{prefix}_text"] = preset.text
            st.session_state[f"{prefix}_notice"] = preset.what_to_notice
    st.session_state[f"{prefix}_preset"] = None


def _apply_upload(prefix: str) -> None:
    upload = st.session_state.get(f"{prefix}_upload")
    st.session_state[f"{prefix}_upload_error"] = None
    if upload is None:
        return
    try:
        st.session_state[f"{prefix}_text"] = decode_upload(upload.getvalue(), upload.name)
        st.session_state[f"{prefix}_notice"] = None
    except ValueError as error:
        st.session_state[f"{prefix}_upload_error"] = str(error)


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
    with st.expander("Upload a .txt file"):
        st.file_uploader(
            "UTF-8 text", type=["txt"], key=f"{prefix}_upload",
            on_change=_apply_upload, args=(prefix,),
        )
        error = st.session_state.get(f"{prefix}_upload_error")
        if error:
            st.error(literal(error), icon="⚠️")
    return text
