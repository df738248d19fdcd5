"""Numbers in the session's locale (ui/common/i18n.py number, percent): the text Babel's own
format_decimal / format_percent give, in both languages, while a pattern is parsed once per
process instead of once per call (a table says hundreds of numbers per run)."""

from __future__ import annotations

import math

import pytest
import streamlit as st
from babel.numbers import format_decimal, format_percent
from hypothesis import given, settings
from hypothesis import strategies as some

from ui.common import i18n

DIGITS = [None, 0, 1, 2, 3]
VALUES = some.one_of(
    some.integers(min_value=-(10**12), max_value=10**12),
    some.floats(min_value=-1e9, max_value=1e9, allow_nan=False, allow_infinity=False),
)


@pytest.fixture(params=list(i18n.LANGUAGES))
def language(request):
    st.session_state[i18n.LANG_KEY] = request.param
    yield request.param
    del st.session_state[i18n.LANG_KEY]


def babel_number(value: float, digits: int | None, locale: str) -> str:
    """What number() said before its patterns were kept: Babel called as it documents."""
    if digits is None:
        return format_decimal(value, locale=locale)
    return format_decimal(value, format=f"#,##0.{'0' * digits}" if digits else "#,##0",
                          locale=locale)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(language=some.sampled_from(list(i18n.LANGUAGES)), value=VALUES,
       digits=some.sampled_from(DIGITS))  # fmt: skip
def test_a_number_is_babels_in_both_languages(language, value, digits):
    st.session_state[i18n.LANG_KEY] = language
    assert i18n.number(value, digits) == babel_number(value, digits, i18n.LANGUAGES[language])


@settings(max_examples=200, deadline=None)
@given(language=some.sampled_from(list(i18n.LANGUAGES)),
       ratio=some.floats(min_value=-5, max_value=5, allow_nan=False),
       digits=some.sampled_from([0, 1, 2]))  # fmt: skip
def test_a_percent_is_babels_in_both_languages(language, ratio, digits):
    st.session_state[i18n.LANG_KEY] = language
    pattern = f"#,##0.{'0' * digits}%" if digits else "#,##0%"
    expected = format_percent(ratio, format=pattern, locale=i18n.LANGUAGES[language])
    assert i18n.percent(ratio, digits) == expected


def test_examples_a_reader_knows(language):
    assert i18n.number(50257) == "50,257"  # CLDR: both locales group by three with ","
    assert i18n.number(1.5) == "1.5"
    assert i18n.number(2, 2) == "2.00"
    assert i18n.number(1) == i18n.number(1.0) == "1"
    assert i18n.percent(0.253) == "25.3%"
    assert i18n.number(math.pi, 3) == "3.142"
    locale = i18n.LANGUAGES[language]
    for zero in (-0.0, 0.0, -0.0):  # equal, one hash: a cache by value would say one for both
        assert i18n.number(zero, 0) == format_decimal(zero, format="#,##0", locale=locale)
        assert i18n.percent(zero, 0) == format_percent(zero, format="#,##0%", locale=locale)


def test_each_pattern_is_parsed_once_for_every_call(language, monkeypatch):
    parsed = []

    def counting_parse(pattern):
        parsed.append(pattern)
        return real_parse(pattern)

    real_parse = i18n.parse_pattern
    monkeypatch.setattr(i18n, "parse_pattern", counting_parse)
    i18n._pattern.cache_clear()
    i18n._whole.cache_clear()
    for value in range(500):  # a table's worth of cells, two columns
        i18n.number(value * 7, 1)
        i18n.percent(value / 500)
    assert sorted(parsed) == ["#,##0.0", "#,##0.0%"]
    st.session_state[i18n.LANG_KEY] = "zh" if language == "en" else "en"
    i18n.number(3, 1)
    assert len(parsed) == 3  # the other locale has patterns of its own
