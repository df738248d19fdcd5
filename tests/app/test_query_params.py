"""The one tolerant reader of a link's query parameters, and every page opened with bad links.

Whatever a link holds (superscript digits, 5,000 digits, `inf`, markup), the page opens with its
default and a quiet note naming the value it did not use; never a traceback.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.common.limits import MAX_LINK_DIGITS
from ui.common.query_params import (
    SHOWN_CHARS,
    LinkReader,
    parse_choice,
    parse_flag,
    parse_int,
    quoted,
)

from .conftest import open_link, shown

LONG_DIGITS = "9" * 5_000


# --- the parsers ----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["²", "٣", "１", "-1", "+5", " 5", "5 ", "", "inf", "-inf",
                                   "nan", "1e3", "0x10", "1_000", "3.0", LONG_DIGITS])
def test_parse_int_takes_only_ascii_digits(value):
    with pytest.raises(ValueError):
        parse_int(value, 0, 10**MAX_LINK_DIGITS)


def test_parse_int_checks_the_range_and_the_allowed_values():
    assert parse_int("0042", 0, 100) == 42
    assert parse_int("100", 0, 100) == 100
    with pytest.raises(ValueError, match="outside 1 to 500"):
        parse_int("501", 1, 500)
    with pytest.raises(ValueError, match="outside 1 to 500"):
        parse_int("0", 1, 500)
    with pytest.raises(ValueError, match="not one of 1,024, 2,048"):
        parse_int("1000", 0, 5_000, allowed=(1_024, 2_048))


def test_parse_int_refuses_long_values_before_converting_them():
    with pytest.raises(ValueError, match="5,000 characters"):
        parse_int(LONG_DIGITS, 0, 10)


@given(st.text(max_size=50))
def test_parse_int_either_fits_or_says_why(value):
    try:
        number = parse_int(value, 3, 700)
    except ValueError:
        return
    assert 3 <= number <= 700 and value.isascii()


def test_parse_choice_accepts_every_spelling_it_is_given():
    choices = {"first": "first", "first met": "first", "lexical": "lexical"}
    assert parse_choice("first met", choices) == "first"
    assert parse_choice("lexical", choices) == "lexical"
    with pytest.raises(ValueError, match="not one of first, lexical"):
        parse_choice("Lexical", choices)


def test_parse_flag_reads_one_and_zero_only():
    assert parse_flag("1") is True and parse_flag("0") is False
    for value in ("true", "2", "", "１"):
        with pytest.raises(ValueError):
            parse_flag(value)


def test_quoted_values_are_short_and_printable():
    assert quoted("abc") == "abc"
    assert quoted(LONG_DIGITS) == "9" * SHOWN_CHARS + "…"
    assert quoted("a\nb\x00") == "a?b?"


# --- the reader -----------------------------------------------------------------------------------


def test_a_missing_value_gives_the_default_quietly():
    reader = LinkReader({})
    assert reader.read_int("ctx", 1_024, low=0, high=10**6) == 1_024
    assert reader.read_choice("view", {"ids": "ids"}, "text") == "text"
    assert reader.read_flag("ws") is False
    assert reader.read_names("tok", {"gpt2"}, ["gpt2"], limit=6) == ["gpt2"]
    assert reader.read_text("text", "hello", max_chars=10) == "hello"
    assert reader.notes == []


@pytest.mark.parametrize("value", ["²", LONG_DIGITS, "inf", "-inf", "900000"])
def test_a_bad_number_gives_the_default_and_one_note(value):
    reader = LinkReader({"ctx": value})
    assert reader.read_int("ctx", 1_024, low=0, high=200_000, shown="1,024 tokens") == 1_024
    [note] = reader.notes
    assert "`ctx`" in note and "1,024 tokens" in shown(note)
    assert len(note) < 300  # 5,000 digits are quoted, not copied


def test_a_note_shows_a_hostile_value_as_plain_characters():
    value = "![x](http://127.0.0.1:8999/a.png)"
    reader = LinkReader({"view": value})
    assert reader.read_choice("view", {"ids": "ids"}, "text") == "text"
    [note] = reader.notes
    assert "](" not in note and "![" not in note  # escaped: no image, no link
    assert quoted(value) in shown(note)


def test_names_keep_the_known_ones_and_note_the_rest():
    reader = LinkReader({"tok": "gpt2,nonsense,o200k_base,gpt2,other"})
    assert reader.read_names("tok", {"gpt2", "o200k_base"}, ["gpt2"], limit=6) == ["gpt2", "o200k_base"]
    [note] = reader.notes
    assert "nonsense" in shown(note) and "1 more" in note
    reader = LinkReader({"tok": "nonsense"})
    assert reader.read_names("tok", {"gpt2"}, ["gpt2"], limit=6) == ["gpt2"]
    reader = LinkReader({"tok": "a,b,c"})
    assert reader.read_names("tok", {"a", "b", "c"}, ["a"], limit=2) == ["a", "b"]
    assert "first 2" in reader.notes[0]


def test_text_is_cut_at_its_bound_with_a_note():
    reader = LinkReader({"text": "x" * 30})
    assert reader.read_text("text", "", max_chars=10) == "x" * 10
    assert "30 characters" in reader.notes[0]


# --- every page opened with a bad link ------------------------------------------------------------

BAD_LINKS = [
    ("pages/playground.py", {"ctx": "²"}, "pg_window", 1_024),
    ("pages/playground.py", {"ctx": LONG_DIGITS}, "pg_window", 1_024),
    ("pages/playground.py", {"view": "<b>x</b>"}, "pg_view", "text"),
    ("pages/merge_steps.py", {"ms_merges": "inf"}, "ms_merges", 10),
    ("pages/merge_steps.py", {"ms_merges": "-inf"}, "ms_merges", 10),
    ("pages/merge_steps.py", {"ms_merges": LONG_DIGITS}, "ms_merges", 10),
    ("pages/merge_steps.py", {"ms_step": "²"}, "ms_step", 0),
    ("pages/merge_steps.py", {"ms_step": LONG_DIGITS}, "ms_step", 0),
    ("pages/merge_steps.py", {"ms_level": "bytes!"}, "ms_level", "word"),
    ("pages/languages.py", {"lg_tab": "Nope"}, "lg_tab", "Byte ruler"),
]


def link_notes(app) -> str:
    return "\n".join(shown(c.value) for c in app.caption if "This link's" in c.value)


@pytest.mark.parametrize(("page", "query", "key", "default"), BAD_LINKS,
                         ids=[f"{p.split('/')[1][:-3]}-{next(iter(q))}={next(iter(q.values()))[:6]}"
                              for p, q, _, _ in BAD_LINKS])
def test_a_bad_link_opens_the_page_with_its_default_and_a_note(app, page, query, key, default):
    open_link(app, page, query)
    assert app.session_state[key] == default
    name = next(iter(query))
    assert f"This link's `{name}` value" in link_notes(app)


def test_a_good_link_opens_the_page_without_notes(app):
    open_link(app, "pages/merge_steps.py", {"ms_merges": "12", "ms_tie": "lexical", "ms_step": "3"})
    assert app.session_state["ms_merges"] == 12
    assert app.session_state["ms_tie"] == "lexical"
    assert app.session_state["ms_step"] == 3
    assert link_notes(app) == ""
