"""The core's sentences said in the session's language.

The narration (tokenizer_core.lessons.narration) writes every sentence as a `Phrase`: the
English sentence, and beside it its template (the catalog's message id) and its values, some
of them phrases of their own. `say` translates the template, and the phrases inside it first,
then fills it; numbers by Babel for the locale; token text, pairs and ids as they are.
"""

from __future__ import annotations

from numbers import Number

from tokenizer_core.lessons.narration import Phrase
from ui.common.i18n import _, ngettext, number


def say(text: object) -> str:
    """A Phrase in the session's language (anything else as it is)."""
    if not isinstance(text, Phrase):
        return "" if text is None else str(text)
    values = {name: _value(value) for name, value in text.values.items()}
    if text.plural is not None and text.n is not None:
        return ngettext(text.template, text.plural, text.n, **values)
    return _(text.template, **values)


def _value(value: object) -> object:
    if isinstance(value, Phrase):
        return say(value)
    if isinstance(value, Number) and not isinstance(value, bool):
        return number(value)
    return value


def joined(sentences: list[str]) -> str:
    """Whole sentences one after another, as the language puts them (English: a space between;
    Chinese: none after a 。)."""
    text = sentences[0] if sentences else ""
    for sentence in sentences[1:]:
        text = _("{first} {then}", first=text, then=sentence)
    return text
