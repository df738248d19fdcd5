"""Messages a person reads, kept apart from their language: a sentence and its values.

The core explains bad input in English sentences with named `{placeholders}` (`Refusal`), and
keeps the values beside them. The interface looks the sentence up in its own catalog (its
gettext message id is the English sentence itself) and fills the placeholders in the reader's
language; everyone else (the command line, tests, logs) reads `str(error)`, the English filled.

`N_` marks such a sentence for `pybabel extract` (locales/babel.cfg reads tokenizer_core/ for
it); it returns the sentence unchanged. The core knows nothing of sessions or languages.
"""

from __future__ import annotations

from numbers import Number
from typing import Callable


def N_(message: str, /) -> str:  # gettext's own name for "mark, translate later"
    return message


def english(value: object) -> object:
    """A value as the English sentence shows it: whole numbers with thousands separators."""
    if isinstance(value, bool) or not isinstance(value, Number):
        return value
    return f"{value:,}" if isinstance(value, int) else value


Say = Callable[..., str]  # (English sentence, **values) -> the sentence as the reader reads it


def in_english(template: str, /, **values: object) -> str:
    """`say` for English readers: the sentence filled in (whole numbers grouped). Core code that
    draws words (the byte ruler, the token views' hover titles) takes a `say`; the interface
    passes one that speaks the session's language."""
    return template.format_map({k: english(v) for k, v in values.items()}) if values else template


Kept = list  # [English sentence, {name: value}]: a sentence not yet said, as plain JSON data


def keep(template: str, /, **values: object) -> Kept:
    """`say` for what is stored (the on-disk store, read later in either language): the
    sentence and its values kept apart; `say_kept` says it to whoever reads it."""
    return [template, values]


def say_kept(message: Kept | str, say: Say = in_english) -> str:
    """A sentence `keep` made, said through `say`; a value kept the same way (a reason inside
    a reason) is said first. "" stays "" (nothing to say)."""
    if not message:
        return ""
    if isinstance(message, str):  # already said
        return message
    template, values = message
    return say(template, **{name: say_kept(value, say) if isinstance(value, list) else value
                            for name, value in values.items()})


class Refusal(ValueError):
    """Bad input, explained in one sentence: `template` (the message id) and its `values`.

    A `ValueError`, so every caller that catches those still does; `str()` is the English
    sentence filled in.
    """

    def __init__(self, template: str, /, **values: object) -> None:
        self.template, self.values = template, values
        super().__init__(template.format_map({k: english(v) for k, v in values.items()}))
