"""Uploaded text files: bounded, strictly UTF-8, and refused with a message that says what to do.

Every page that takes a `.txt` or `.tsv` upload reads it here, so the rules and the wording are
the same everywhere: too many bytes, not UTF-8 (which byte, where), too many characters. The
caller says what stays as it was (`kept`), because refusing an upload must never lose anything.

`text_upload_ui` is the upload box that the Playground, Merge steps and Compression share: an
expander with the uploader, a callback that reads the file, and the refusal shown in the box.
The Languages page's parallel file differs (removing it goes back to the built-in pairs, and its
refusal is shown outside the box) and keeps its own.
"""

from __future__ import annotations

from typing import Callable

import streamlit as st

from ui.common.safe_text import literal

Decode = Callable[[bytes, str], str]  # (file's bytes, file's name) -> text, or ValueError
Use = Callable[[str, str], None]  # (text, file's name): put the text where it goes


def decode_text(
    data: bytes,
    filename: str,
    *,
    max_bytes: int,
    kept: str,
    max_chars: int | None = None,
    takes: str = "this takes",
) -> str:
    """The file's text (a UTF-8 byte-order mark dropped), or ValueError saying why not.

    `kept`: what stays as it was ("the text in the box is unchanged"); `takes`: who has the
    character bound ("the Playground tokenizes").
    """
    if len(data) > max_bytes:
        raise ValueError(
            f"{filename} is {len(data):,} bytes; uploads here are bounded at {max_bytes:,} bytes. "
            f"Upload a shorter part; {kept}."
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{filename} is not UTF-8 text (byte 0x{data[error.start]:02X} at offset "
            f"{error.start}). Save it as UTF-8 and upload it again; {kept}."
        ) from None
    if max_chars is not None and len(text) > max_chars:
        raise ValueError(
            f"{filename} has {len(text):,} characters; {takes} up to {max_chars:,}. "
            f"Upload a shorter part; {kept}."
        )
    return text


def _take_upload(prefix: str, decode: Decode, use: Use) -> None:
    """on_change of the uploader: a good file goes to `use`; a refused one leaves everything as
    it was and its reason waits in `{prefix}_upload_error`."""
    upload = st.session_state.get(f"{prefix}_upload")
    st.session_state[f"{prefix}_upload_error"] = None
    if upload is None:
        return
    try:
        text = decode(upload.getvalue(), upload.name)
    except ValueError as error:
        st.session_state[f"{prefix}_upload_error"] = str(error)
        return
    use(text, upload.name)


def text_upload_ui(
    prefix: str, decode: Decode, use: Use, *, title: str = "Upload a .txt file",
    label: str = "UTF-8 text",
) -> None:
    """An expander holding a .txt uploader (key `{prefix}_upload`) and, under it, why the last
    file was refused. `decode` reads the file (bounds, UTF-8); `use` takes the text."""
    with st.expander(title):
        st.file_uploader(label, type=["txt"], key=f"{prefix}_upload",
                         on_change=_take_upload, args=(prefix, decode, use))
        error = st.session_state.get(f"{prefix}_upload_error")
        if error:
            st.error(literal(error), icon="⚠️")  # it names the user's file


def apply_upload(prefix: str, read: Callable[[bytes, str], object]) -> None:
    """The on_change of an upload box keyed `{prefix}_upload`: what `read(content, name)` found
    goes to `{prefix}_custom` as (name, found); its ValueError to `{prefix}_error`, and what was
    in use stays; a removed file means the built-in data again (`{prefix}_custom` = None)."""
    upload = st.session_state.get(f"{prefix}_upload")
    st.session_state[f"{prefix}_error"] = None
    if upload is None:
        st.session_state[f"{prefix}_custom"] = None
        return
    try:
        found = read(upload.getvalue(), upload.name)
    except ValueError as error:
        st.session_state[f"{prefix}_error"] = str(error)
        return
    st.session_state[f"{prefix}_custom"] = (upload.name, found)
