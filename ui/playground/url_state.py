"""The Playground's state in the link: text (up to a bound) and choices, so a link reopens a view.

Read once per session, before the widgets exist; written back after every run. Values from the
URL go through the one tolerant reader (ui/common/query_params.py): one that does not fit what
the widget accepts gives the default, and a quiet note under the title says so.
"""

from __future__ import annotations

import streamlit as st

from ui.common.catalog import DEFAULT_TOKENIZERS, offered
from ui.common.i18n import N_, _, ngettext
from ui.common.limits import MAX_PANELS
from ui.common.page_state import first_visit, write_link
from ui.playground.limits import MAX_TOKENIZE_CHARS, MAX_URL_TEXT_CHARS

VIEWS = ("text", "ids", "bytes")  # values in links and lesson files: the same in both languages
VIEW_NAMES = {"text": N_("text"), "ids": N_("ids"), "bytes": N_("bytes")}  # what the switch shows
WINDOWS = (1_024, 2_048, 4_096, 8_192, 32_768, 128_000, 200_000)


def restore(prefix: str, default_text: str) -> None:
    """Fill the page's widget state from the URL the first time this session opens the page
    (every key, so no widget needs a default of its own); afterwards the session's values win."""
    link = first_visit("playground")
    if link is None:
        return
    state = st.session_state
    # a link names the built-in tokenizers and the models folder's (a class shares the folder;
    # an upload is one session's and has no link name)
    names = offered()
    state[f"{prefix}_text"] = link.read_text("text", default_text, max_chars=MAX_URL_TEXT_CHARS,
                                             file_max_chars=MAX_TOKENIZE_CHARS)
    state[f"{prefix}_tokenizers"] = link.read_names("tok", names, list(DEFAULT_TOKENIZERS),
                                                    limit=MAX_PANELS)
    state[f"{prefix}_view"] = link.read_choice("view", {v: v for v in VIEWS}, "text")
    state[f"{prefix}_ws"] = link.read_flag("ws")
    state[f"{prefix}_special"] = link.read_flag("special")
    state[f"{prefix}_diff"] = link.read_flag("diff")
    # The A/B pair: names only here; the page keeps them to the panels shown (`pair`).
    for side in ("a", "b"):
        state[f"{prefix}_diff_{side}"] = link.read_choice(f"diff_{side}", {n: n for n in names},
                                                          None, shown=_("the first two panels"))
    state[f"{prefix}_window"] = link.read_int("ctx", WINDOWS[0], low=0, high=max(WINDOWS),
                                              allowed=WINDOWS,
                                              shown=ngettext("{n} token", "{n} tokens", WINDOWS[0]))


def pair(prefix: str, names: list[str]) -> tuple[str, str] | None:
    """Tokenizers A and B of the disagreement marks, kept to `names` (the panels that can be
    compared): the session's (or the link's) pair while both are shown, else the first two.
    Written into the widgets' state before they are drawn, so a link reopens the same pair."""
    if len(names) < 2:
        return None
    state = st.session_state
    first = state.get(f"{prefix}_diff_a")
    if first not in names:
        first = names[0]
    second = state.get(f"{prefix}_diff_b")
    if second not in names:
        second = next(n for n in names if n != first)
    state[f"{prefix}_diff_a"], state[f"{prefix}_diff_b"] = first, second
    return first, second


def save(text: str, names: list[str], view: str, ws: bool, special: bool, window: int,
         marks: bool = False, marked_pair: tuple[str, str] | None = None) -> bool:
    """Write the view into the URL (`marks`: disagreements outlined, between `marked_pair`);
    returns False when the text was too long to keep."""
    linkable = set(offered())
    params = {
        "tok": ",".join(n for n in names if n in linkable),
        "view": view,
        "ws": "1" if ws else "0",
        "special": "1" if special else "0",
        "ctx": str(window),
        "diff": "1" if marks else "0",
    }
    if marks and marked_pair and all(n in linkable for n in marked_pair):
        params["diff_a"], params["diff_b"] = marked_pair  # an uploaded file has no link name
    fits = len(text) <= MAX_URL_TEXT_CHARS
    if fits:
        params["text"] = text
    write_link("playground", params, whole={"text": text})  # a lesson file keeps all of it
    return fits
