"""The byte ruler section: any text as characters, UTF-8 bytes and tokens, in aligned rows."""

from __future__ import annotations

from typing import Sequence

import pandas as pd
import streamlit as st

from tokenizer_core.measure.byte_ruler import render_ruler
from ui.common import catalog
from ui.common.page_state import KEEP
from ui.common.pills import fill_from_pills
from ui.common.safe_text import literal
from ui.common.shell import presentation_mode
from ui.common.unicode_guard import unicode_guard
from ui.languages import data as data
from ui.languages.limits import (
    MAX_RULER_CHARS,
    MAX_RULER_INPUT_CHARS,
    RULER_BYTES_PER_LINE,
    RULER_BYTES_PER_LINE_BIG,
)

DEFAULT_TEXT = "你好，世界！Hello 👍🏽"
PRESETS: dict[str, str] = {
    "你好": "你好",
    "你好，世界！": "你好，世界！",
    "Hello vs 你好": "Hello world. 你好世界。",
    "👍🏽 skin tone": "👍🏽",
    "👨‍👩‍👧‍👦 family": "👨‍👩‍👧‍👦",
    "🇯🇵 flag": "🇯🇵",
    "1️⃣ keycap": "1️⃣",
    "café vs café": "café vs cafe\u0301",
    "1 to 4 bytes: a é 你 😀": "a é 你 😀",
}


def ruler(text: str, names: Sequence[str], code_points: bool = False) -> None:
    """Draw the ruler for text and tokenizers (at most MAX_RULER_CHARS characters)."""
    big = presentation_mode()
    rows, errors = [], []
    for name in names:
        try:
            rows.append((data.label(name), catalog.tokenize(name, text, "plain")))
        except ValueError as error:
            errors.append(f"{data.label(name)}: {error}")
    for message in errors:
        st.error(literal(message), icon="⚠️")
    st.html(render_ruler(
        text, rows, max_chars=MAX_RULER_CHARS, code_points=code_points, big=big, contrast=big,
        bytes_per_line=RULER_BYTES_PER_LINE_BIG if big else RULER_BYTES_PER_LINE,
    ))  # fmt: skip
    if len(text) > MAX_RULER_CHARS:
        st.caption(
            f"Drawing the first {MAX_RULER_CHARS:,} of {len(text):,} characters (the drawing "
            "bound); the counts below cover the whole text."
        )
    summary = pd.DataFrame({
        "tokenizer": [header for header, _ in rows],
        "tokens": [len(tokens) for _, tokens in rows],
        "tokens that split a character": [sum(t.partial for t in tokens) for _, tokens in rows],
        "characters": len(text), "UTF-8 bytes": len(text.encode("utf-8")),
    })  # fmt: skip
    st.dataframe(summary, hide_index=True, width="stretch")


def ruler_section(names: Sequence[str]) -> None:
    st.markdown(
        "Each character sits over its UTF-8 bytes, and each tokenizer's tokens sit over the "
        "bytes they cover. A **dashed red** box is a token that begins or ends *inside* a "
        "character (shown as its bytes, e.g. `<E4 BD>`); a double bar at a line end means the "
        "token goes on in the next line. Hover any box for its code point, byte or token id."
    )
    st.session_state.setdefault("lg_ruler_text", DEFAULT_TEXT)
    st.pills("Examples", list(PRESETS), key="lg_ruler_preset", on_change=fill_from_pills,
             args=("lg_ruler_preset", "lg_ruler_text", PRESETS),
             help="Each replaces the text in the box.")
    unicode_guard()  # before the box is used: a lone surrogate would lose the box's new text
    # subtle: no max_chars. The browser would refuse a longer paste without a word (and count
    # UTF-16 units); the box keeps any text, and the page cuts it here and says so.
    text = st.text_area(
        "Text", key="lg_ruler_text", height=90, persist_state=KEEP,
        help=f"Up to {MAX_RULER_INPUT_CHARS:,} characters are tokenized; the first "
        f"{MAX_RULER_CHARS:,} are drawn.",
    )  # fmt: skip
    if len(text) > MAX_RULER_INPUT_CHARS:
        st.warning(f"The box holds {len(text):,} characters; the ruler tokenizes the first "
                   f"{MAX_RULER_INPUT_CHARS:,} and draws the first {MAX_RULER_CHARS:,}. Your "
                   "whole text stays in the box.", icon="✂️")
        text = text[:MAX_RULER_INPUT_CHARS]
    code_points = st.toggle("Show code points (U+…)", key="lg_ruler_cp", persist_state=KEEP)
    if not text:
        st.info("Type or paste some text above, or pick an example.", icon="✍️")
        return
    ruler(text, names, code_points)
