"""The HTML table: what goes in as text comes out as text, and only our own tags are made."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.shared import PAYLOAD_LINES, read_tables
from tokenizer_core.render_table import Column, table_html

OUR_TAGS = {"div", "table", "caption", "thead", "tbody", "tr", "th", "td"}
OUR_ATTRIBUTES = {"class", "scope", "title", "hidden", "style"}


def test_every_injection_payload_stays_text_in_headers_cells_help_and_caption():
    columns = [Column(p, help=p) for p in PAYLOAD_LINES[:3]] + [Column("n", numeric=True)]
    rows = [[p, p, p, "1"] for p in PAYLOAD_LINES]
    markup = table_html(columns, rows, caption=PAYLOAD_LINES[0])
    (table,), tags, attributes = read_tables(markup)
    assert set(tags) <= OUR_TAGS  # no <img>, <script>, <a> made from a payload
    assert attributes <= OUR_ATTRIBUTES  # no onerror=, src=, href= either
    assert table["headers"] == [c.header for c in columns]
    assert [row[:3] for row in table["rows"]] == [[p, p, p] for p in PAYLOAD_LINES]


@given(st.lists(st.lists(st.text(), min_size=2, max_size=2), max_size=6), st.text(min_size=1))
def test_any_text_reads_back_as_itself(rows, header):
    (table,), tags, _ = read_tables(table_html([Column(header), Column("b", numeric=True)], rows))
    assert table["headers"] == [header, "b"]
    assert table["rows"] == rows
    assert set(tags) <= OUR_TAGS


def test_marks_numeric_columns_and_height():
    markup = table_html([Column("piece"), Column("count", numeric=True)],
                        [["a", "3"], ["b", "2"], ["c", "1"]],
                        marks={0: "mark", 2: "soft"}, height_rem=12.5, stretch=False)
    (table,), _, _ = read_tables(markup)
    assert table["classes"] == ["mark", None, "soft"]
    assert table["numeric"] == [False, True]
    assert 'style="max-height: 12.50rem"' in markup
    assert 'class="tx-table"' in markup  # not stretched


def test_a_row_of_the_wrong_width_is_refused():
    with pytest.raises(ValueError, match="row 1 has 1 cells for 2 columns"):
        table_html([Column("a"), Column("b")], [["x", "y"], ["z"]])
