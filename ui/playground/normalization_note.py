"""The sentence under a Playground panel when its tokenizer changed the text before cutting it.

Qwen 2.5 normalizes to NFC and BERT lower-cases and strips accents before cutting, as their own
libraries do; the tokens still point at the characters typed (tokenizer_core/normalization.py),
so a reader who sees `é` in a token where they typed `e` + U+0301 is told why.
"""

from __future__ import annotations

from tokenizer_core.normalization import FORMS, Change
from ui.common import catalog
from ui.common.i18n import _, ngettext, number
from ui.common.safe_text import literal


def normalization_note(name: str, text: str) -> str | None:
    """The sentence to show under tokenizer `name`'s panel, or None when it cut the text as typed
    (a found or uploaded file answers from its worker, with its own library's normalizer)."""
    try:
        change = catalog.normalization_change(name, text)
    except ValueError:  # a worker that overran or could not restart: its panel says why
        return None
    return None if change is None else say_change(change)


def say_change(change: Change) -> str:
    if change.changed is None:
        return _("Normalized by {normalizer} before cutting: the text was changed; the tokens "
                 "point at the characters as typed.", normalizer=literal(change.by))
    if change.by in FORMS:
        return ngettext(
            "Normalized to {form} before cutting: {n} of the {total} characters as typed was "
            "changed; the tokens point at the characters as typed.",
            "Normalized to {form} before cutting: {n} of the {total} characters as typed were "
            "changed; the tokens point at the characters as typed.",
            change.changed, form=change.by, total=number(change.total))
    return ngettext(
        "Normalized by {normalizer} before cutting: {n} of the {total} characters as typed was "
        "changed; the tokens point at the characters as typed.",
        "Normalized by {normalizer} before cutting: {n} of the {total} characters as typed were "
        "changed; the tokens point at the characters as typed.",
        change.changed, normalizer=literal(change.by), total=number(change.total))
