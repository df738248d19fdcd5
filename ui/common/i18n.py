"""The interface in two languages: one entry point for every word a person reads.

`_("Tokens: {count}", count=number(n))` looks the whole English sentence up in the session's
catalog and then fills its named placeholders, so a translation may put them in any order;
`ngettext` picks a plural form by the locale's rule (English has two, Chinese one); `number` and
`percent` format by Babel for the locale (CLDR's separators, not Python's). `N_` marks a string
for the catalog where it is defined (a module-level label) and leaves it as it is, to be passed
through `_` where it is shown.

The catalogs are gettext `.po` files under `locales/`, written by hand from `pybabel extract`
(locales/README.md) and compiled in memory the first time a language is used: the `.po` is the
one source, no compiled `.mo` can drift from it, and compiling a few thousand entries takes
milliseconds. English is the source language: its catalog is the messages themselves.

What it leaves out: token text, ids, code, model names and the command line stay as they are in
both languages; the core never imports this: its messages are `Refusal`s (an English sentence as
the message id, and its values), which `explain()` says in the session's language.
"""

from __future__ import annotations

import gettext
import io
from functools import lru_cache
from numbers import Number
from pathlib import Path

import streamlit as st
from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import NumberPattern, parse_pattern

from tokenizer_core.messages import Refusal

LOCALES_DIR = Path(__file__).resolve().parents[2] / "locales"
DOMAIN = "messages"
# The link's value -> Babel's locale. The link says `lang=zh`; the catalog lives in zh_CN.
LANGUAGES: dict[str, str] = {"en": "en", "zh": "zh_CN"}
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "zh": "中文"}
SOURCE_LANGUAGE = "en"
LANG_PARAM = "lang"  # in every link while the interface is not English: ?lang=zh
LANG_KEY = "ui_lang"  # session state: the language the session chose (the sidebar's switch)


def catalog_path(language: str) -> Path:
    return LOCALES_DIR / LANGUAGES[language] / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=len(LANGUAGES))
def translations(language: str) -> gettext.NullTranslations:
    """The language's catalog, compiled from its .po (English: the messages themselves)."""
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    with catalog_path(language).open("rb") as po:
        catalog = read_po(po, locale=LANGUAGES[language])
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)  # a fuzzy entry is a guess: never shown
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def language_from_browser(locale: str | None) -> str:
    """`st.context.locale` ("zh-CN", "zh-Hans-TW", "en-US", None) -> a language we have."""
    if locale and locale.replace("_", "-").lower().split("-")[0] == "zh":
        return "zh"
    return SOURCE_LANGUAGE


def current_language() -> str:
    """The session's language: its own choice, else the link's `lang`, else the browser's.

    Decided once per session and kept in session state, so every page of the session speaks
    the same language and the sidebar's switch is the one way to change it afterwards."""
    state = st.session_state
    chosen = state.get(LANG_KEY)  # subtle: one look-up; a table asks once per cell
    if chosen in LANGUAGES:
        return chosen
    linked = st.query_params.get(LANG_PARAM)
    state[LANG_KEY] = linked if linked in LANGUAGES else language_from_browser(st.context.locale)
    return state[LANG_KEY]


def current_locale() -> str:
    return LANGUAGES[current_language()]


def _fill(text: str, values: dict[str, object]) -> str:
    return text.format_map(values) if values else text


def _(message: str, /, **values: object) -> str:
    """The session's translation of `message`, its `{placeholders}` filled from `values`."""
    return _fill(translations(current_language()).gettext(message), values)


def ngettext(singular: str, plural: str, n: int, /, **values: object) -> str:
    """The plural form of the session's language for `n` (`values` may use {n} too)."""
    text = translations(current_language()).ngettext(singular, plural, n)
    return _fill(text, {"n": number(n), **values})


def plural_forms(singular: str, plural: str, language: str, /, **values: object) -> dict[str, str]:
    """Every plural form of `language` for a sentence the browser fills in, keyed by CLDR's
    plural categories ("one", "other", ...), which the browser's `Intl.PluralRules` picks by.

    Why: the merge player counts in JavaScript, so it cannot ask gettext per number. Babel and
    `Intl.PluralRules` read the same CLDR rules; each category's form is the catalog's for the
    first number in that category, so the browser's pick is the catalog's for every number
    (tests/app/test_i18n_plurals.py checks it against gettext for 0 to 1,000)."""
    rule = Locale.parse(LANGUAGES[language]).plural_form
    first: dict[str, int] = {}
    for n in range(1_000):
        first.setdefault(rule(n), n)
    catalog = translations(language)
    return {category: _fill(catalog.ngettext(singular, plural, n), values)
            for category, n in first.items()}


def N_(message: str, /) -> str:  # gettext's own name: mark for the catalog, translate later
    return message


@lru_cache(maxsize=32)
def _pattern(locale: str, pattern: str | None, kind: str) -> tuple[Locale, NumberPattern]:
    """Babel's locale and parsed number pattern, once per process: what format_decimal and
    format_percent parse again on every call (about 0.1 ms each, per table cell)."""
    parsed = Locale.parse(locale)
    default = parsed.decimal_formats[None] if kind == "decimal" else parsed.percent_formats[None]
    return parsed, default if pattern is None else parse_pattern(pattern)


def _apply(value: float, locale: str, pattern: str | None, kind: str) -> str:
    """format_decimal / format_percent's text: the same pattern.apply, the pattern parsed once."""
    parsed, number_pattern = _pattern(locale, pattern, kind)
    return number_pattern.apply(value, parsed, numbering_system="latn")


# A whole number's text, kept: a class's tables say the same counts in every session.
# subtle: ints only; 0.0 and -0.0 are one key, and Babel says the second "-0".
_whole = lru_cache(maxsize=8192)(_apply)


def _formatted(value: float, locale: str, pattern: str | None, kind: str) -> str:
    return (_whole if type(value) is int else _apply)(value, locale, pattern, kind)


def number(value: float, digits: int | None = None) -> str:
    """A count or measure in the session's locale: 50,257; 1.5; with `digits` fixed decimals."""
    pattern = None if digits is None else f"#,##0.{'0' * digits}" if digits else "#,##0"
    return _formatted(value, current_locale(), pattern, "decimal")


def percent(ratio: float, digits: int = 1) -> str:
    """0.253 -> 25.3% (by the locale's pattern)."""
    pattern = f"#,##0.{'0' * digits}%" if digits else "#,##0%"
    return _formatted(ratio, current_locale(), pattern, "percent")


def language_ui() -> None:
    """The sidebar's switch. Its label is in both languages on purpose: whoever cannot read
    the interface's current language can still find the way to their own."""
    current_language()  # decided before the widget takes the key over
    st.radio("Language · 语言", options=list(LANGUAGE_NAMES), format_func=LANGUAGE_NAMES.get,
             key=LANG_KEY, horizontal=True)


def say(template: str, /, **values: object) -> str:
    """The core's `say` (tokenizer_core.messages.Say) in the session's language: the English
    sentence looked up, its whole numbers by Babel."""
    return _(template, **{k: number(v) if isinstance(v, int) and not isinstance(v, bool) else v
                          for k, v in values.items()})


def explain(error: BaseException) -> str:
    """What went wrong, in the session's language: a core `Refusal` is looked up by its English
    sentence and filled with its values (numbers by Babel); any other error says itself."""
    if isinstance(error, Refusal):
        values = {name: number(value) if isinstance(value, Number) and not isinstance(value, bool)
                  else value for name, value in error.values.items()}
        return _(error.template, **values)
    return str(error)
