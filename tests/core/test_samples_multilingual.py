"""Parallel files with many languages: header `en<TAB>zh<TAB>ja...`, the built-in eight-language
set, and every way a file can be wrong (each error names the line and the fix)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core.samples import (
    DATA_DIR,
    MAX_FIELD_CHARS,
    MAX_PARALLEL_CHARS,
    MAX_PARALLEL_LANGUAGES,
    MAX_PARALLEL_PAIRS,
    multilingual_set,
    parallel_pairs,
    parse_multilingual,
)

GOOD = (
    "\ufeff# three languages\r\n"
    "en\tzh\tja\r\n"
    "\r\n"
    "Good morning.\t早上好。\tおはよう。\r\n"
    "# a comment between rows\r\n"
    "  Thank you. \t谢谢。\tありがとう。\r\n"
)


def test_good_file_keeps_languages_rows_and_line_numbers():
    found = parse_multilingual(GOOD, "three.tsv")
    assert found.languages == ("en", "zh", "ja")
    assert [r.line for r in found.rows] == [4, 6]
    assert found.rows[1].texts == ("Thank you.", "谢谢。", "ありがとう。")  # trimmed
    assert found.column("zh") == ["早上好。", "谢谢。"]


def test_region_and_script_subtags_are_language_codes():
    found = parse_multilingual("en-GB\tzh-Hant\tsr-Latn-RS\na\tb\tc\n")
    assert found.languages == ("en-GB", "zh-Hant", "sr-Latn-RS")


def test_the_two_column_file_reads_as_a_many_language_file():
    found = parse_multilingual((DATA_DIR / "parallel/en_zh.tsv").read_text(encoding="utf-8"))
    pairs = parallel_pairs()
    assert found.languages == ("en", "zh")
    assert [(r.texts, r.line) for r in found.rows] == [((p.en, p.zh), p.line) for p in pairs]


def test_builtin_set_is_eight_languages_thirty_rows():
    found = multilingual_set()
    assert found.languages == ("en", "zh", "ja", "ko", "ar", "hi", "ru", "es")
    assert len(found.rows) == 30
    assert all(len(r.texts) == 8 and all(t.strip() for t in r.texts) for r in found.rows)
    assert len({r.texts[0] for r in found.rows}) == 30  # thirty different meanings
    scripts = {  # each column is written in its own script
        "zh": ("\u4e00", "\u9fff"), "ko": ("\uac00", "\ud7a3"), "ar": ("\u0600", "\u06ff"),
        "hi": ("\u0900", "\u097f"), "ru": ("\u0400", "\u04ff"),
    }
    for code, (low, high) in scripts.items():
        for text in found.column(code):
            assert any(low <= ch <= high for ch in text), (code, text)
    for text in found.column("ja"):
        assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("english\tchinese\na\tb\n", "line 1: 'english' is not a language code"),
        ("en\ten\na\tb\n", "line 1: the language 'en' appears twice"),
        ("en\na\n", "line 1: a parallel file needs at least two languages"),
        ("en zh\na b\n", "columns must be separated by a tab"),
        ("en\tzh\tja\na\tb\tc\nd\te\n", "line 3: expected 3 tab-separated fields (en, zh, ja), found 2"),
        ("en\tzh\na\tb\tc\n", "line 2: expected 2 tab-separated fields"),
        ("en\tzh\tja\na\t \tc\n", "line 2: the 'zh' field is empty"),
        ("# only\n\n", "no header line"),
        ("en\tzh\n", "no rows after the header"),
        ("en\t\tzh\na\tb\tc\n", "line 1: '' is not a language code"),
    ],
)
def test_bad_files_say_which_line_and_why(text, message):
    with pytest.raises(ValueError) as caught:
        parse_multilingual(text, "mine.tsv")
    assert message in str(caught.value) and "mine.tsv" in str(caught.value)


def test_bound_on_languages():
    codes = [f"l{chr(97 + i)}" for i in range(MAX_PARALLEL_LANGUAGES + 1)]
    text = "\t".join(codes) + "\n" + "\t".join("x" * len(codes)) + "\n"
    with pytest.raises(ValueError, match=f"over the bound of {MAX_PARALLEL_LANGUAGES}"):
        parse_multilingual(text)
    ok = "\t".join(codes[:-1]) + "\n" + "\t".join("x" * (len(codes) - 1)) + "\n"
    assert len(parse_multilingual(ok).languages) == MAX_PARALLEL_LANGUAGES


def test_bound_on_characters():
    text = "en\tzh\n" + "a\tb\n" * (MAX_PARALLEL_CHARS // 4)
    with pytest.raises(ValueError, match=f"over the bound of {MAX_PARALLEL_CHARS:,}"):
        parse_multilingual(text, "big.tsv")


def test_bound_on_rows():
    text = "en\tzh\n" + "a\tb\n" * (MAX_PARALLEL_PAIRS + 1)
    with pytest.raises(ValueError, match=f"over the bound of {MAX_PARALLEL_PAIRS:,}"):
        parse_multilingual(text)
    assert len(parse_multilingual("en\tzh\n" + "a\tb\n" * MAX_PARALLEL_PAIRS).rows) == MAX_PARALLEL_PAIRS


def test_bound_on_one_sentence_names_the_line():
    text = f"en\tzh\nok\tok\n{'x' * (MAX_FIELD_CHARS + 1)}\tb\n"
    with pytest.raises(ValueError, match=f"line 3: a sentence is over {MAX_FIELD_CHARS:,}"):
        parse_multilingual(text)


def test_unknown_column_names_the_languages():
    with pytest.raises(ValueError, match="no column 'fr'; the file has en, zh"):
        parse_multilingual("en\tzh\na\tb\n").column("fr")


TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\t\n\r"),
    min_size=1, max_size=30,
).filter(lambda t: t == t.strip() and t != "")


@given(st.integers(2, 5).flatmap(lambda k: st.lists(st.lists(TEXT, min_size=k, max_size=k),
                                                     min_size=1, max_size=8)))
@settings(max_examples=200, deadline=None)
def test_any_rows_written_out_read_back_the_same(rows):
    rows = [r for r in rows if not r[0].startswith("#")]  # such a line is a comment
    if not rows:
        return
    codes = ["en", "zh", "ja", "ko", "ar"][: len(rows[0])]
    text = "\t".join(codes) + "\n" + "".join("\t".join(r) + "\n" for r in rows)
    found = parse_multilingual(text)
    assert found.languages == tuple(codes)
    assert [list(r.texts) for r in found.rows] == rows
    assert [r.line for r in found.rows] == list(range(2, 2 + len(rows)))
