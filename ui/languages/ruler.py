"""The byte ruler section: any text as characters, UTF-8 bytes and tokens, in aligned rows."""

from __future__ import annotations

from typing import Sequence

import pandas as pd
import streamlit as st

from tokenizer_core.measure.byte_ruler import render_ruler
from ui.common import catalog
from ui.common.i18n import N_, _, explain, number, say
from ui.common.page_state import KEEP
from ui.common.pills import fill_from_pills
from ui.common.safe_text import literal
from ui.common.shell import presentation_mode
from ui.common.table_view import show_table
from ui.languages import data as data
from ui.languages.limits import (
    MAX_RULER_CHARS,
    MAX_RULER_INPUT_CHARS,
    RULER_BYTES_PER_LINE,
    RULER_BYTES_PER_LINE_BIG,
)

DEFAULT_TEXT = "你好，世界！Hello 👍🏽"
PRESETS: dict[str, str] = {  # the pill's name (shown translated) -> the text it puts in the box
    "你好": "你好",
    "你好，世界！": "你好，世界！",
    "Hello vs 你好": "Hello world. 你好世界。",
    N_("👍🏽 skin tone"): "👍🏽",
    N_("👨‍👩‍👧‍👦 family"): "👨‍👩‍👧‍👦",
    N_("🇯🇵 flag"): "🇯🇵",
    N_("1️⃣ keycap"): "1️⃣",
    "café vs café": "café vs cafe\u0301",
    N_("1 to 4 bytes: a é 你 😀"): "a é 你 😀",
}


def ruler(text: str, names: Sequence[str], code_points: bool = False) -> None:
    """Draw the ruler for text and tokenizers (at most MAX_RULER_CHARS characters)."""
    big = presentation_mode()
    rows, errors = [], []
    for name in names:
        try:
            rows.append((data.shown(data.label(name)), catalog.tokenize(name, text, "plain")))
        except ValueError as error:
            errors.append(f"{data.shown(data.label(name))}: {explain(error)}")
    for message in errors:
        st.error(literal(message), icon="⚠️")
    st.html(render_ruler(
        text, rows, max_chars=MAX_RULER_CHARS, code_points=code_points, big=big, contrast=big,
        bytes_per_line=RULER_BYTES_PER_LINE_BIG if big else RULER_BYTES_PER_LINE, say=say,
    ))  # fmt: skip
    if len(text) > MAX_RULER_CHARS:
        st.caption(_(
            "Drawing the first {shown} of {total} characters (the drawing bound); the counts "
            "below cover the whole text.", shown=number(MAX_RULER_CHARS), total=number(len(text))))
    summary = pd.DataFrame({
        _("tokenizer"): [header for header, _tokens in rows],
        _("tokens"): [len(tokens) for _header, tokens in rows],
        _("tokens that split a character"): [sum(t.partial for t in tokens)
                                             for _header, tokens in rows],
        _("characters"): len(text), _("UTF-8 bytes"): len(text.encode("utf-8")),
    })  # fmt: skip
    show_table(summary, hide_index=True, width="stretch")


def ruler_section(names: Sequence[str]) -> None:
    st.markdown(_(
        "Each character sits over its UTF-8 bytes, and each tokenizer's tokens sit over the "
        "bytes they cover. A **dashed red** box is a token that begins or ends *inside* a "
        "character (shown as its bytes, e.g. `<E4 BD>`); a double bar at a line end means the "
        "token goes on in the next line. Hover any box for its code point, byte or token id."
    ))
    st.session_state.setdefault("lg_ruler_text", DEFAULT_TEXT)
    st.pills(_("Examples"), list(PRESETS), key="lg_ruler_preset", on_change=fill_from_pills,
             args=("lg_ruler_preset", "lg_ruler_text", PRESETS), format_func=_,
             help=_("Each replaces the text in the box."))
    # subtle: no max_chars. The browser would refuse a longer paste without a word (and count
    # UTF-16 units); the box keeps any text, and the page cuts it here and says so.
    text = st.text_area(
        _("Text"), key="lg_ruler_text", height=90, persist_state=KEEP,
        help=_("Up to {tokenized} characters are tokenized; the first {drawn} are drawn.",
               tokenized=number(MAX_RULER_INPUT_CHARS), drawn=number(MAX_RULER_CHARS)),
    )  # fmt: skip
    if len(text) > MAX_RULER_INPUT_CHARS:
        st.warning(_("The box holds {count} characters; the ruler tokenizes the first "
                     "{tokenized} and draws the first {drawn}. Your whole text stays in the box.",
                     count=number(len(text)), tokenized=number(MAX_RULER_INPUT_CHARS),
                     drawn=number(MAX_RULER_CHARS)), icon="✂️")
        text = text[:MAX_RULER_INPUT_CHARS]
    code_points = st.toggle(_("Show code points (U+…)"), key="lg_ruler_cp", persist_state=KEEP)
    if not text:
        st.info(_("Type or paste some text above, or pick an example."), icon="✍️")
        return
    ruler(text, names, code_points)
