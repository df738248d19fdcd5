"""Where the Playground's text comes from: the box, a classic-quirk preset, or a .txt upload.

Presets and uploads replace the box's text through callbacks (so the box shows them at once;
the page places the uploads, `own_files_ui`, below the token panels);
an upload that is not UTF-8, or too large, leaves the box untouched and says why.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from tokenizer_core.samples import playground_presets
from ui.common import catalog, found_models
from ui.common.i18n import _, number
from ui.common.lazy_expander import lazy_expander
from ui.common.page_state import KEEP
from ui.common.pills import fill_from_pills
from ui.common.unicode_guard import REPLACEMENT, REPLACEMENT_NOTE
from ui.common.uploads import decode_text, text_upload_ui
from ui.playground.limits import MAX_TOKENIZE_CHARS, MAX_UPLOAD_BYTES


def decode_upload(data: bytes, filename: str) -> str:
    """The upload's text, or ValueError saying why it cannot be used (the box keeps its text)."""
    return decode_text(data, filename, max_bytes=MAX_UPLOAD_BYTES, max_chars=MAX_TOKENIZE_CHARS,
                       kept=_("the text in the box is unchanged"),
                       takes=_("the Playground tokenizes"))


def _apply_preset(prefix: str) -> None:
    """A preset replaces the box's text (its note shows while the text is the preset's)."""
    texts = {p.label: p.text for p in playground_presets()}
    fill_from_pills(f"{prefix}_preset", f"{prefix}_text", texts)


def preset_note(text: str) -> str | None:
    """What to notice in the text, when it is exactly a preset's (picked, typed or from a link):
    the note belongs to its text, so it leaves as soon as the text is edited or replaced."""
    return next((_(p.what_to_notice) for p in playground_presets() if p.text == text), None)


def _use_upload(prefix: str, text: str, filename: str) -> None:
    """A good upload replaces the box's text."""
    st.session_state[f"{prefix}_text"] = text


def text_source_ui(prefix: str) -> str:
    """The text box beside the classic-quirk presets (side by side, so the first tokens still
    fit a laptop's first screen), then the preset's note; returns the text to tokenize: the
    box's first MAX_TOKENIZE_CHARS characters (a longer text stays in the box, and is cut with
    a note)."""
    box, quirks = st.columns([2, 3])
    quirks.pills(  # the options are the presets' English labels (the values), shown translated
        _("Classic quirks"), [p.label for p in playground_presets()], key=f"{prefix}_preset",
        on_change=_apply_preset, args=(prefix,), wrap=True,
        format_func={p.label: _(p.label) for p in playground_presets()}.__getitem__,
        help=_("Each replaces the text with a short example of a well-known tokenizer quirk."),
    )
    # subtle: no max_chars. The browser refuses a longer value without a word (and counts UTF-16
    # units, so 60,000 emoji are "over" 100,000); the box keeps any text, the page cuts it here.
    text = box.text_area(
        _("Text"), key=f"{prefix}_text", height=160, persist_state=KEEP,
        help=_("Up to {count} characters are tokenized.", count=number(MAX_TOKENIZE_CHARS)),
    )
    if len(text) > MAX_TOKENIZE_CHARS:
        box.warning(_("The box holds {count} characters; the Playground tokenizes the first "
                      "{bound}, and everything below is about those. Your whole text stays in the "
                      "box.", count=number(len(text)), bound=number(MAX_TOKENIZE_CHARS)), icon="✂️")
    if REPLACEMENT in text:
        box.caption(_(REPLACEMENT_NOTE))
    notice = preset_note(text)
    if notice:
        st.info(notice, icon="💡")
    return text[:MAX_TOKENIZE_CHARS]


def own_files_ui(prefix: str) -> None:
    """The user's own files, side by side: a .txt replaces the box's text; a tokenizer.json
    joins the comparison."""
    text_file, tokenizer_file = st.columns(2)
    with text_file:
        text_upload_ui(prefix, decode_upload, partial(_use_upload, prefix))
    with tokenizer_file:
        box = lazy_expander(_("Add your own tokenizer.json (Hugging Face format)"),
                            key=f"{prefix}_hf_upload_box")
        if box.open:
            with box:
                st.file_uploader("tokenizer.json", type=["json"], key=f"{prefix}_hf_upload",
                                 on_change=catalog.upload_callback, args=(prefix,))
                catalog.show_upload_message(prefix)
    found_models.folder_ui(prefix)  # the models folder and the HF cache, with a rescan button
