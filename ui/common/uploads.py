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

from tokenizer_core.messages import N_, Refusal
from ui.common.i18n import _, explain
from ui.common.lazy_expander import lazy_expander
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
    takes: str | None = None,
) -> str:
    """The file's text (a UTF-8 byte-order mark dropped), or a Refusal saying why not.

    `kept`: what stays as it was ("the text in the box is unchanged"); `takes`: who has the
    character bound ("the Playground tokenizes"). Both are phrases of the sentence, so a page
    passes them in the session's language (`_()`).
    """
    if len(data) > max_bytes:
        raise Refusal(N_("{file} is {size} bytes; uploads here are bounded at {bound} bytes. "
                         "Upload a shorter part; {kept}."),
                      file=filename, size=len(data), bound=max_bytes, kept=kept)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        # The byte and its offset are figures of the file, not counts: shown as written here.
        raise Refusal(N_("{file} is not UTF-8 text (byte {byte} at offset {offset}). Save it as "
                         "UTF-8 and upload it again; {kept}."),
                      file=filename, byte=f"0x{data[error.start]:02X}", offset=str(error.start),
                      kept=kept) from None
    if max_chars is not None and len(text) > max_chars:
        raise Refusal(N_("{file} has {count} characters; {takes} up to {bound}. Upload a shorter "
                         "part; {kept}."), file=filename, count=len(text),
                      takes=takes if takes is not None else _("this takes"), bound=max_chars,
                      kept=kept)
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
        st.session_state[f"{prefix}_upload_error"] = explain(error)  # said in the session's language
        return
    use(text, upload.name)


def text_upload_ui(
    prefix: str, decode: Decode, use: Use, *, title: str | None = None,
    label: str | None = None,
) -> None:
    """An expander holding a .txt uploader (key `{prefix}_upload`) and, under it, why the last
    file was refused (drawn while it is open). `decode` reads the file (bounds, UTF-8); `use`
    takes the text. `title` and `label` are in the session's language (the defaults are
    translated here)."""
    error = st.session_state.get(f"{prefix}_upload_error")
    # subtle: keyed, so the box keeps its identity (and stays open) when what is drawn above it
    # changes between runs; and open while a refusal waits, so the reason is never hidden (a
    # switch of language makes a new box: it opens again)
    if error:
        st.session_state[f"{prefix}_upload_box"] = True
    box = lazy_expander(title if title is not None else _("Upload a .txt file"),
                        key=f"{prefix}_upload_box")
    if not box.open:
        return
    with box:
        st.file_uploader(label if label is not None else _("UTF-8 text"), type=["txt"],
                         key=f"{prefix}_upload",
                         on_change=_take_upload, args=(prefix, decode, use))
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
        st.session_state[f"{prefix}_error"] = explain(error)
        return
    st.session_state[f"{prefix}_custom"] = (upload.name, found)
