"""The Sequences page in its link: the tab, the tokenizer, and every knob of every tab.

Read once per session (and from a lesson file) through the one tolerant reader, before the
widgets exist; written on every run. Each value keeps its session key as its link name
(`?sq_max_length=12`). Each text box rides in the link up to MAX_URL_TEXT_CHARS; a longer one,
and an uploaded batching corpus, go only into a lesson file, whole (up to the page's bounds).

Leaves out: the upload boxes themselves (a file is not a value) and which expander is open.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import streamlit as st

from tokenizer_core.measure.sequences import PADDINGS, STRATEGIES, TEMPLATES
from tokenizer_core.measure.sequences_chat import FORMATS, OWN_FORMATS
from ui.common import catalog
from ui.common.i18n import N_, _, number
from ui.common.limits import MAX_LESSON_VALUE_CHARS, MAX_LINK_CHOICE_CHARS, MAX_LINK_DIGITS
from ui.common.page_state import first_visit, write_link
from ui.common.query_params import LinkReader, quoted
from ui.common.safe_text import literal
from ui.sequences.batching import CORPORA
from ui.sequences.chat import ROLES
from ui.sequences.inputs import ALL_SPECIALS, PRESETS
from ui.sequences.limits import (
    MAX_BATCH_CORPUS_CHARS,
    MAX_BATCH_ROWS,
    MAX_BATCH_SIZE,
    MAX_BUCKET_WIDTH,
    MAX_CHAT_MESSAGE_CHARS,
    MAX_INPUT_LENGTH,
    MAX_PRICE,
    MAX_SEQUENCE_CHARS,
    MAX_TOKENS_PER_BATCH,
    MAX_URL_TEXT_CHARS,
    MAX_WINDOW_CHARS,
    MAX_WINDOW_LENGTH,
)
from ui.sequences.windows import MODES, SOURCES

PAGE = "sequences"
# The tabs' English names are the link's values (?sq_tab=Batching); shown in the session's language.
TABS = [N_("Model input"), N_("Long text"), N_("Batching"), N_("Chat templates")]
UPLOADED = "Uploaded: "  # the batching corpus radio's label for an upload: "Uploaded: <file name>"

# Every choice the page offers, by session key (the link's name for it).
CHOICES: dict[str, Collection[str]] = {
    "sq_tokenizer": list(catalog.BUILT_IN), "sq_preset": list(PRESETS),
    "sq_template": list(TEMPLATES), "sq_padding": PADDINGS, "sq_strategy": STRATEGIES,
    "sq_side": ("right", "left"), "sq_attention": ("full", "causal"),
    "sq_w_source": SOURCES, "sq_w_mode": list(MODES),
    "sq_c_format": [f.name for f in FORMATS], "sq_c_own": [o.model for o in OWN_FORMATS],
}
# Whole numbers and their ranges (a stride at or over the max length is the page's own error).
NUMBERS: dict[str, tuple[int, int]] = {
    "sq_max_length": (1, MAX_INPUT_LENGTH), "sq_mask_row": (1, MAX_BATCH_ROWS),
    "sq_w_length": (1, MAX_WINDOW_LENGTH), "sq_w_stride": (0, MAX_WINDOW_LENGTH - 1),
    "sq_b_size": (1, MAX_BATCH_SIZE), "sq_b_width": (1, MAX_BUCKET_WIDTH),
    "sq_b_max_tokens": (0, MAX_TOKENS_PER_BATCH),
}
FLAGS = ("sq_allow", "sq_truncate", "sq_ids", "sq_c_prompt")
# Text boxes and the page's own bound on each (what a lesson file may bring whole).
TEXTS: dict[str, int] = {
    "sq_a": MAX_SEQUENCE_CHARS, "sq_b": MAX_SEQUENCE_CHARS, "sq_own": MAX_SEQUENCE_CHARS,
    "sq_w_text": MAX_WINDOW_CHARS, "sq_c_tags": MAX_CHAT_MESSAGE_CHARS,
    **{f"sq_c_{role}": MAX_CHAT_MESSAGE_CHARS for role in ROLES},
}


def read_link() -> str | None:
    """The link's (or lesson file's) values into the page's state, the first time only; the
    tab it names, or None when there is nothing to read."""
    link = first_visit(PAGE)
    if link is None:
        return None
    state = st.session_state
    for key, options in CHOICES.items():
        if key == "sq_tokenizer":  # the models folder's too, as this session found them
            options = catalog.offered()
        state[key] = link.read_choice(key, {o: o for o in options}, state[key])
    for key, (low, high) in NUMBERS.items():
        state[key] = link.read_int(key, state[key], low=low, high=high)
    for key in FLAGS:
        state[key] = link.read_flag(key, bool(state[key]))
    for key, bound in TEXTS.items():
        if key in link.params:  # an empty value is an empty box
            state[key] = link.read_text(key, "", max_chars=MAX_URL_TEXT_CHARS, file_max_chars=bound)
    if link.params.get("sq_specials") == "":  # every special token switched off
        state["sq_specials"] = []
    else:
        state["sq_specials"] = link.read_names("sq_specials", ALL_SPECIALS, state["sq_specials"],
                                               limit=len(ALL_SPECIALS))
    state["sq_c_price"] = _read_price(link, state["sq_c_price"])
    _read_corpus(link)
    tab = link.read_choice("sq_tab", {t: t for t in TABS}, TABS[0])
    if "sq_tab" in link.params:
        # subtle: a lesson step can reopen a page this session has seen, whose tab is kept;
        # kept_tabs (ui/common/page_state.py) keeps it under "<key>_kept".
        state["sq_tab"] = state["sq_tab_kept"] = tab
    return tab


def parse_price(value: str) -> float:
    """A price as the page writes it (`2.5`, `0`): ASCII digits and at most one point."""
    if len(value) > MAX_LINK_DIGITS:
        raise ValueError(_("it has {count} characters, and a price here has at most {max}",
                           count=number(len(value)), max=number(MAX_LINK_DIGITS)))
    digits = value.replace(".", "", 1)
    if not (digits and digits.isascii() and digits.isdigit()):
        raise ValueError(_("it is not a number written with the digits 0-9 and a point"))
    price = float(value)
    if price > MAX_PRICE:
        raise ValueError(_("it is over {max}", max=number(MAX_PRICE)))
    return price


def _read_price(link: LinkReader, default: float) -> float:
    value = link.params.get("sq_c_price")
    if value is None:
        return float(default)
    try:
        return parse_price(value)
    except ValueError as why:  # the reader's own wording, for a value it has no reader for
        link.notes.append(_("This link's `sq_c_price` value “{value}” was not used: {why}. "
                            "Showing {default} instead.", value=literal(quoted(value)),
                            why=literal(str(why)), default=f"{default:g}"))
        return float(default)


def _read_corpus(link: LinkReader) -> None:
    """The batching corpus; an uploaded one only from a lesson file, which carries its text."""
    state = st.session_state
    upload = link.read_text("sq_b_upload_text", "", max_chars=0,
                            file_max_chars=MAX_BATCH_CORPUS_CHARS)
    if upload:
        name = link.read_text("sq_b_upload_name", _("lesson file"),
                               max_chars=MAX_LINK_CHOICE_CHARS)
        state["sq_b_uploaded"] = (name, upload)
    uploaded = state.get("sq_b_uploaded")
    corpora = [*CORPORA, *([UPLOADED + uploaded[0]] if uploaded else [])]
    state["sq_b_corpus"] = link.read_choice("sq_b_corpus", {c: c for c in corpora},
                                            state["sq_b_corpus"])


def link_value(value: object) -> object:
    """A session value as the link writes it: a flag 1/0, a list comma-separated, a price to
    four decimals (`2.5`, never `1e-05`: at most 8 characters below MAX_PRICE)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return repr(round(value, 4)).removesuffix(".0")  # repr reads back exactly
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return value


def save_link(english_tab: Callable[[str], str] = str) -> None:
    """Every knob into the link; text boxes up to the link's bound, all of them (and an
    uploaded corpus) whole into the screen a lesson file saves. `english_tab`: the open tab's
    English name (the link's value) from the name shown."""
    state = st.session_state
    keys = [*CHOICES, *NUMBERS, *FLAGS, "sq_specials", "sq_c_price", "sq_b_corpus"]
    params = {"sq_tab": link_value(english_tab(state["sq_tab"])) if state.get("sq_tab") else None,
              **{key: link_value(state.get(key)) for key in keys}}
    whole: dict[str, str] = {}
    for key in TEXTS:
        text = state.get(key)
        if not isinstance(text, str):
            continue
        if len(text) <= MAX_URL_TEXT_CHARS:
            params[key] = text
        if len(text) <= MAX_LESSON_VALUE_CHARS:
            whole[key] = text
    uploaded = state.get("sq_b_uploaded")
    if uploaded and str(state.get("sq_b_corpus", "")).startswith(UPLOADED) \
            and len(uploaded[1]) <= MAX_LESSON_VALUE_CHARS:
        whole |= {"sq_b_upload_text": uploaded[1], "sq_b_upload_name": uploaded[0]}
    write_link(PAGE, params, whole=whole)
