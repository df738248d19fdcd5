"""No table on the Compression and Languages pages holds a missing value, and no token table shows
one: Streamlit's grid draws a missing cell as the word "None", which tells a reader nothing. Such a
cell says what it means instead (`n/a: no spaces in Chinese`, `<E4 BD>` for the bytes of a token
that splits a character). The tables are read as the app sends them to the browser."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.shared import tiktoken
from ui.common.tables import token_frame

from .conftest import open_page, shown, uploader

NO_SPACES = "n/a: no spaces in Chinese"
SHORT_TEXT = "The quick brown fox jumps over the lazy dog.\n" * 20  # runs out of pairs before 500


def missing_cells(frame: pd.DataFrame) -> list[tuple[object, str, object]]:
    """(row, column, value) of every cell the grid would draw as "None"."""
    found = []
    for column in frame.columns:
        for row, value in frame[column].items():
            if value is None or (not isinstance(value, str) and pd.isna(value)) or value == "None":
                found.append((row, column, value))
    return found


def every_table(app) -> list[pd.DataFrame]:
    return [d.value for d in app.dataframe] + [t.value for t in app.table]


def assert_no_missing_cells(app) -> None:
    assert not app.exception, [e.value for e in app.exception]
    tables = every_table(app)
    assert tables
    for frame in tables:
        assert missing_cells(frame) == [], list(frame.columns)


def open_compression_with_a_short_upload(app):
    """Chinese (no spaces between words) and an upload whose line ends before 500: both kinds
    of empty cell. No HF lines, so the page trains ours only."""
    app.session_state["cp_corpora"] = ["chinese"]
    app.session_state["cp_hf"] = []
    open_page(app, "pages/compression.py")
    uploader(app, "cp_upload").set_value(("fox.txt", SHORT_TEXT.encode(), "text/plain"))
    app.run()
    assert app.pills(key="cp_corpora").value == ["chinese", "upload"]
    return app


def test_compression_tables_say_what_an_empty_cell_means(app):
    open_compression_with_a_short_upload(app)
    assert_no_missing_cells(app)
    # the per-word tab leaves Chinese out and says why
    words = next(f for f in every_table(app) if "tokens / word" in f.columns)
    assert "Chinese" not in set(words["corpus"])
    assert any("Chinese has no spaces between words" in c.value for c in app.caption)
    doubling = next(f for f in every_table(app) if "Your text (fox.txt)" in f.columns)
    first_step = doubling.set_index("vocab size").loc["256 → 500"]
    assert first_step["Your text (fox.txt)"].startswith("n/a: the line ends at ")
    assert first_step["Chinese"].endswith("%")


def test_compression_tables_in_presentation_mode_too(app):
    app.session_state["presentation"] = True
    open_compression_with_a_short_upload(app)
    assert app.table, "presentation mode shows static tables"
    assert_no_missing_cells(app)
    tables = [t.value.map(shown).rename(index=shown, columns=shown) for t in app.table]
    quality = next(t for t in tables if "words kept whole" in t.columns)
    chinese = quality[quality["corpus"] == "Chinese"]
    assert set(chinese["words kept whole"]) == {NO_SPACES}  # not a bare dash
    doubling = next(t for t in tables if "Your text (fox.txt)" in t.columns)
    assert doubling.loc["256 → 500", "Your text (fox.txt)"].startswith("n/a: the line ends at ")


@pytest.mark.parametrize("tab", ["Byte ruler", "English vs Chinese", "Emoji", "Grow a vocabulary"])
def test_languages_tables_have_no_empty_cells(app, tab):
    open_page(app, "pages/languages.py")
    app.query_params["lg_tab"] = tab
    app.run()
    assert_no_missing_cells(app)


def test_a_token_that_splits_a_character_shows_its_bytes():
    """GPT-2 cuts 你 (E4 BD A0) into E4 BD and A0: those tokens have no string of their own."""
    frame = token_frame(tiktoken("gpt2").encode("你好", disallowed_special=()))
    assert frame["token string"].iloc[0] == "<E4 BD>"
    assert missing_cells(frame) == []
