"""How the Playground draws its panels: one row of switches right above them.

One row, not three: with the text box and the tokenizer list above it, the first tokens of
three panels must still fit a laptop's first screen (1280x720). The context window belongs to
the numbers table only, so it sits there (numbers.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from ui.common.i18n import _
from ui.common.page_state import KEEP
from ui.playground.url_state import VIEW_NAMES, VIEWS


@dataclass(frozen=True)
class ViewChoice:
    view: str  # one of VIEWS
    visible_ws: bool
    allow_special: bool
    mark_disagreements: bool


def view_options_ui(prefix: str, panels: int, large_type: bool = False) -> ViewChoice:
    """The switches; marking disagreements needs two panels to compare. With `large_type`
    (presentation mode) they take two rows, so no label is cut short."""
    show, ws, special, diff = (
        [*st.columns(2), *st.columns(2)] if large_type
        else st.columns([1.05, 1.35, 1.2, 1.2], vertical_alignment="center")
    )
    view = show.segmented_control(
        _("Show"), VIEWS, key=f"{prefix}_view", persist_state=KEEP, label_visibility="collapsed",
        format_func={v: _(name) for v, name in VIEW_NAMES.items()}.__getitem__,
        help=_("What each token box shows: its text, its id, or its bytes in hex."),
    )
    return ViewChoice(
        view=view or "text",
        visible_ws=ws.toggle(_("Visible whitespace (· → ↵)"), key=f"{prefix}_ws", persist_state=KEEP),
        allow_special=special.toggle(
            _("Encode special tokens"), key=f"{prefix}_special", persist_state=KEEP,
            help=_("Off: text like <|endoftext|> is read as ordinary text."),
        ),
        mark_disagreements=diff.toggle(
            _("Mark disagreements"), key=f"{prefix}_diff", persist_state=KEEP, disabled=panels < 2,
            help=_("Outline, in tokenizers A and B, the tokens the other one cuts differently."),
        ),
    )
