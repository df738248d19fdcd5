"""One table, two ways (ui.common.table_view): Streamlit's data frame normally, our escaped HTML
table in presentation mode (and on light pages) with the same headers, the same rows and every
number formatted as the column's config says, in the session's locale."""

from __future__ import annotations

import pytest
from babel.numbers import format_decimal, format_percent
from hypothesis import example, given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from tests.shared import html_frames
from ui.common import table_view
from ui.common.i18n import LANGUAGES

from .conftest import TIMEOUT_S, open_page


def _table_script(presenting: bool, light: bool, language: str) -> None:
    import pandas as pd
    import streamlit as st

    from ui.common.i18n import LANG_KEY
    from ui.common.table_view import show_table

    st.session_state["presentation"] = presenting
    st.session_state[LANG_KEY] = language
    frame = pd.DataFrame({
        "piece": ["<img src=x onerror=alert(1)>", "**bold**", "你好"],
        "count": [50257, 3, 1234567],
        "id": [50256, 100257, 7],
        "share": [0.2534, 0.5, 1.0],
        "mean": [1234.56, 2.0, 0.06],
        "pct": [42.0, 7.0, 100.0],
        "special": [True, False, True],
        "missing": [None, 1.5, float("nan")],
        "secret": ["a", "b", "c"],
    })
    show_table(frame, light=light, marks={1: "mark"}, column_config={
        "piece": st.column_config.TextColumn("token"),
        "count": st.column_config.NumberColumn(format=",d"),
        "share": st.column_config.NumberColumn(format="percent"),
        "mean": st.column_config.NumberColumn(format="%.1f"),
        "pct": st.column_config.NumberColumn(format="%d%%"),
        "secret": None,
    })


def _run(presenting: bool, light: bool = False, language: str = "en") -> AppTest:
    app = AppTest.from_function(_table_script, kwargs={"presenting": presenting, "light": light,
                                                       "language": language},
                                default_timeout=TIMEOUT_S)
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


# Worked by hand: what each config says of each cell (grouping commas, printf decimals, %).
EXPECTED = {
    "token": ["<img src=x onerror=alert(1)>", "**bold**", "你好"],  # as text, not Markdown
    "count": ["50,257", "3", "1,234,567"],
    "id": ["50256", "100257", "7"],  # ids are names: no thousands separators
    "share": ["25.34%", "50.00%", "100.00%"],
    "mean": ["1,234.6", "2.0", "0.1"],
    "pct": ["42%", "7%", "100%"],
    "special": ["✓", "–", "✓"],
    "missing": ["", "1.5", ""],
}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_presentation_mode_draws_the_html_table_with_each_columns_format(language):
    app = _run(presenting=True, language=language)
    assert not app.dataframe
    (table,) = html_frames(app)
    assert table.to_dict("list") == EXPECTED  # "secret" is hidden, as the data frame hides it
    markup = app.html[0].value
    assert "<img" not in markup and '<tr class="mark">' in markup


def test_outside_presentation_mode_it_is_streamlits_data_frame():
    app = _run(presenting=False)
    assert html_frames(app) == []
    (frame,) = app.dataframe
    assert list(frame.value["count"]) == [50257, 3, 1234567]  # the data itself, unformatted


def test_a_light_page_draws_the_html_table_outside_presentation_mode_too():
    app = _run(presenting=False, light=True)
    assert not app.dataframe
    assert html_frames(app)[0].to_dict("list") == EXPECTED


@pytest.mark.parametrize(("page", "query"), [
    ("pages/languages.py", {"lg_tab": "Byte ruler"}),
    ("pages/unigram.py", {}),
    ("pages/vocabulary.py", {}),
])
def test_each_pages_tables_carry_the_same_headers_and_rows_when_presenting(app, page, query):
    open_page(app, page, query)
    frames = [d.value for d in app.dataframe]
    assert frames, "the page shows data frames outside presentation mode"
    app.session_state["presentation"] = True
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    assert not app.dataframe
    tables = html_frames(app)
    assert [list(t.columns) for t in tables] == [[str(c) for c in f.columns] for f in frames]
    assert [len(t) for t in tables] == [min(len(f), 1_000) for f in frames]


# Values written with a few decimals, as tables hold them, land on half-way cases often.
_SHORT_DECIMALS = st.builds(lambda n, places: n / 10**places,
                            st.integers(-10**12, 10**12), st.integers(0, 6))


@pytest.mark.parametrize("locale", sorted(set(LANGUAGES.values())))
@given(value=st.one_of(st.integers(-10**15, 10**15), _SHORT_DECIMALS,
                       st.floats(-1e12, 1e12, allow_nan=False, allow_infinity=False)),
       digits=st.one_of(st.none(), st.integers(0, 4)))
@example(value=549755813888.727, digits=4)  # CI found it: the binary value is ...72705
@example(value=0.0625, digits=3)  # a tie in decimal and in binary: half to even, 0.062
@example(value=2.675, digits=2)  # binary 2.67499..., decimal a tie: Babel says 2.68
def test_the_fast_number_says_what_babel_says(locale, value, digits):
    pattern = "#,##0.###" if digits is None else (f"#,##0.{'0' * digits}" if digits else "#,##0")
    assert table_view._symbols(locale) is not None  # both of the app's locales take the fast way
    assert table_view._number(value, digits, locale) == format_decimal(value, format=pattern,
                                                                       locale=locale)


@pytest.mark.parametrize("locale", sorted(set(LANGUAGES.values())))
@given(ratio=st.one_of(st.floats(0, 10, allow_nan=False),
                      _SHORT_DECIMALS.map(abs).filter(lambda r: r <= 10)),
       digits=st.integers(0, 3))
@example(ratio=0.145, digits=0)  # 14.499999... in binary times 100; 14.5 in decimal
@example(ratio=0.00125, digits=1)
def test_the_fast_percent_says_what_babel_says(locale, ratio, digits):
    pattern = f"#,##0.{'0' * digits}%" if digits else "#,##0%"
    assert table_view._percent(ratio, digits, locale) == format_percent(ratio, format=pattern,
                                                                        locale=locale)
