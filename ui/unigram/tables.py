"""How tall a table is drawn: every row shown, no inner scroll bar, up to a bound."""

ROW_PX = 35  # st.dataframe's row height (the header is one row too)
BORDER_PX = 3


def table_height(rows: int, max_rows: int = 20) -> int:
    """Pixels for the header and `rows` rows (at most `max_rows`; past it the table scrolls)."""
    return (min(rows, max_rows) + 1) * ROW_PX + BORDER_PX
