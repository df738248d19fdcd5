"""The Chinese catalog is whole and true to the code (issue 20).

Babel extracts every `_()`, `ngettext()` and `N_()` string from app.py, pages/, ui/ and the core,
and the fields a person reads in data/*.json, exactly as `pybabel extract -F locales/babel.cfg`
does; the zh_CN catalog must translate each of them, hold nothing fuzzy or obsolete, keep every
`{placeholder}` of its English sentence, and use the glossary's term wherever the English
sentence uses the English one. Then the sidebar, switched
by a link and by the browser's language, in an AppTest.
"""

from __future__ import annotations

import ast
import csv
import re
from pathlib import Path
from string import Formatter

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from ui.common import i18n

REPO = Path(__file__).resolve().parents[2]
BABEL_CFG = REPO / "locales" / "babel.cfg"
CATALOG = i18n.catalog_path("zh")


def extracted() -> dict[str | tuple[str, ...], str]:
    """msgid (a tuple for plural entries) -> where it was found, for every marked string: what
    `pybabel extract -F locales/babel.cfg` finds (code, the core's refusals, the data files)."""
    with BABEL_CFG.open(encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    # plural_forms: ui/common/i18n.py, the plural a client-side player fills in itself
    keywords = {**DEFAULT_KEYWORDS, "N_": None, "plural_forms": (1, 2)}
    found: dict[str | tuple[str, ...], str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(REPO), method_map, options_map, keywords=keywords
    ):
        found.setdefault(message, f"{filename}:{lineno}")
    return found


@pytest.fixture(scope="module")
def catalog():
    with CATALOG.open("rb") as po:
        return read_po(po, locale="zh_CN")


@pytest.fixture(scope="module")
def code_messages():
    return extracted()


def _entries(catalog):
    return [m for m in catalog if m.id]


def _forms(value) -> list[str]:
    return list(value) if isinstance(value, (tuple, list)) else [value]


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name is not None}


def test_every_string_in_the_code_has_a_chinese_translation(catalog, code_messages):
    missing = []
    for message, where in code_messages.items():
        key = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(key)
        if entry is None or not all(s.strip() for s in _forms(entry.string)):
            missing.append(f"{where}: {key!r}")
    assert not missing, "untranslated (run pybabel extract/update, see locales/README.md):\n" + (
        "\n".join(missing))


def test_nothing_fuzzy_or_obsolete(catalog, code_messages):
    in_code = {m[0] if isinstance(m, tuple) else m for m in code_messages}
    fuzzy = [m.id for m in _entries(catalog) if m.fuzzy]
    stale = [m.id for m in _entries(catalog) if (m.id[0] if isinstance(m.id, tuple) else m.id)
             not in in_code]
    assert not fuzzy, f"fuzzy entries (guesses, never shown): {fuzzy}"
    assert not catalog.obsolete, f"obsolete entries: {list(catalog.obsolete)}"
    assert not stale, f"entries no code uses any more: {stale}"


def test_translations_keep_every_placeholder(catalog):
    wrong = []
    for entry in _entries(catalog):
        wanted = set().union(*(placeholders(i) for i in _forms(entry.id)))
        for form in _forms(entry.string):
            if placeholders(form) != wanted:
                wrong.append(f"{entry.id!r}: {sorted(placeholders(form))} != {sorted(wanted)}")
    assert not wrong, "\n".join(wrong)


def test_plural_entries_have_every_form_chinese_has(catalog):
    assert catalog.num_plurals == 1  # Chinese: one form whatever the number
    for entry in _entries(catalog):
        if entry.pluralizable:
            assert len(_forms(entry.string)) == catalog.num_plurals, entry.id


def glossary() -> list[tuple[str, str]]:
    lines = (REPO / "locales" / "glossary.tsv").read_text(encoding="utf-8").splitlines()
    rows = csv.DictReader((line for line in lines if not line.startswith("#")), delimiter="\t")
    return [(row["english"], row["chinese"]) for row in rows]


# Streamlit calls whose first argument or label/help/placeholder a person reads.
SHOWN_CALLS = frozenset({
    "title", "header", "subheader", "caption", "markdown", "info", "warning", "error", "success",
    "toast", "spinner", "progress", "expander", "popover", "tabs", "metric", "button",
    "link_button", "download_button", "toggle", "checkbox", "radio", "selectbox", "multiselect",
    "pills", "segmented_control", "slider", "select_slider", "text_input", "text_area",
    "number_input", "file_uploader",
})
SHOWN_KEYWORDS = frozenset({"label", "help", "placeholder", "text", "body"})
# Names, the same in both languages: the lesson's symbol, a file name, special-token strings
# and the language switch (which says itself in both).
NOT_WORDS = frozenset({"alpha", "tokenizer.json", "<|user|>, <|end|>", "Language · 语言"})


def _plain_words(node: ast.expr) -> str | None:
    """The English of a literal (or an f-string's literal parts) with a letter in it, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    else:
        return None
    return text if re.search(r"[A-Za-z]", text) and text not in NOT_WORDS else None


def test_no_widget_or_message_is_given_english_outside_the_catalog():
    """pybabel finds only what goes through _(): a label written as a plain literal stays English
    in the Chinese interface, and no catalog test can see it."""
    found = []
    for path in sorted([*REPO.glob("pages/*.py"), *(REPO / "ui").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in SHOWN_CALLS):
                continue
            shown = node.args[:1] + [k.value for k in node.keywords if k.arg in SHOWN_KEYWORDS]
            found += [f"{path.relative_to(REPO)}:{node.lineno}: {words!r}"
                      for words in map(_plain_words, shown) if words]
    assert found == []


def test_glossary_is_one_term_per_english_word():
    english = [e for e, _ in glossary()]
    assert len(english) == len(set(english))
    assert ("tokenizer", "分词器") in glossary() and ("vocabulary", "词表") in glossary()


def test_every_translation_uses_the_glossary_terms(catalog):
    wrong = []
    for entry in _entries(catalog):
        for english_form, chinese_form in zip(_forms(entry.id), _forms(entry.string) * 2):
            for english, chinese in glossary():
                term = re.compile(rf"\b{re.escape(english)}(s|es|d|ed)?\b", re.IGNORECASE)
                if term.search(english_form) and chinese.lower() not in chinese_form.lower():
                    wrong.append(f"{english!r} -> {chinese!r} missing in {chinese_form!r}")
    assert not wrong, "\n".join(wrong)


def test_the_glossary_check_catches_another_word():
    # the check above, on a sentence translated with another word for "vocabulary"
    term = re.compile(r"\bvocabulary(s|es|d|ed)?\b", re.IGNORECASE)
    assert term.search("The vocabulary grows") and "词表" not in "词汇表增长"


# --- the machinery -----------------------------------------------------------------------------


@pytest.mark.parametrize(("locale", "language"), [
    ("zh-CN", "zh"), ("zh-Hans-TW", "zh"), ("zh_TW", "zh"), ("ZH", "zh"),
    ("en-US", "en"), ("fr-FR", "en"), (None, "en"), ("", "en"),
])
def test_the_browser_language_picks_ours(locale, language):
    assert i18n.language_from_browser(locale) == language


def test_the_chinese_catalog_compiles_and_translates():
    zh = i18n.translations("zh")
    assert zh.gettext("Vocabulary") == "词表"
    assert zh.gettext("a sentence nobody wrote") == "a sentence nobody wrote"  # falls back


# --- the sidebar, in the app ---------------------------------------------------------------------


def _labels(app) -> list[str]:
    return [t.label for t in app.sidebar.toggle]


def test_a_link_with_lang_zh_opens_the_interface_in_chinese(app):
    app.query_params["lang"] = "zh"
    app.run()
    assert not app.exception
    assert _labels(app) == ["演示模式"]
    assert app.sidebar.radio[0].value == "zh"


def test_the_switch_changes_the_language_and_the_session_keeps_it(app):
    app.run()
    assert _labels(app) == ["Presentation mode"]
    app.sidebar.radio[0].set_value("zh").run()
    assert _labels(app) == ["演示模式"]
    app.switch_page("pages/vocabulary.py").run()
    assert not app.exception
    assert _labels(app) == ["演示模式"]
    assert app.sidebar.radio[0].value == "zh"


def test_every_link_the_pages_write_keeps_the_language(app):
    app.query_params["lang"] = "zh"
    app.run()  # the Playground writes its link
    assert app.query_params.get("lang") == "zh"
    app.sidebar.radio[0].set_value("en").run()
    assert "lang" not in app.query_params
