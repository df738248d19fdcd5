"""How every page shows a table: `show_table`, called as `st.dataframe` is.

Streamlit's data frame (sorting, resizing, a search) is what a table is, except where its
canvas cannot serve: in presentation mode its type stays 14 px on a projector (the canvas font
is fixed at mount), so there every table is our escaped HTML table (`render_table`), which grows
with the mode's type. A page whose first visit must stay light (the Playground) asks for the HTML
table always (`light=True`) while its rows are few enough for the page to hold.

Cells are formatted here, in the session's locale, by the same `column_config` the data frame
reads (the NumberColumn formats this app uses: printf-style `%.1f`, `%d%%`, and `localized`,
`percent`, `,d`, `.0%`); a column whose config is None is hidden, as st.dataframe hides it.
"""

from __future__ import annotations

import functools
import math
import numbers
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st
from babel import Locale
from babel.numbers import get_decimal_symbol, get_group_symbol

from tokenizer_core.render_table import MARK_STYLES, TABLE_CSS, Column, Mark, table_html
from ui.common.i18n import _, current_locale, number, percent
from ui.common.limits import HTML_MAX_ROWS
from ui.common.shell import presentation_mode

__all__ = ["Mark", "show_table", "html_table"]

DEFAULT_HEIGHT_PX = 400  # st.dataframe's own height for a long table: about ten rows, then it scrolls
ROOT_PX = 16  # the root font st.dataframe's pixel heights are measured in (presentation mode: 20)
_PRINTF = re.compile(r"%(?P<group>,)?(?:\.(?P<digits>\d+))?(?P<kind>[dif])(?P<pct>%%)?")
_D3_PERCENT = re.compile(r"\.(?P<digits>\d+)%")


def show_table(
    data: Any,
    *,
    column_config: Mapping[str, Any] | None = None,
    hide_index: bool = True,
    height: int | str | None = None,
    width: int | str = "stretch",
    row_height: int | None = None,
    column_order: list[str] | None = None,
    marks: Mapping[int, Mark] | None = None,
    light: bool = False,
) -> None:
    """`data` (a frame, or what pd.DataFrame takes) as the session needs it drawn.

    `column_order` names the columns shown, in order; `row_height` is the data frame's own (the HTML table's rows are as tall as their text);
    `marks`: positions of rows to highlight, and how. `light`: the HTML table even outside presentation
    mode, up to HTML_MAX_ROWS rows.
    """
    frame = data if isinstance(data, pd.DataFrame) else pd.DataFrame(data)
    config = dict(column_config or {})
    if not (presentation_mode() or (light and len(frame) <= HTML_MAX_ROWS)):
        shown: Any = frame.style.apply(_marked_style(marks), axis=1) if marks else frame
        st.dataframe(shown, column_config=config or None, hide_index=hide_index,
                     height=height if height is not None else "auto", width=width,
                     row_height=row_height, column_order=column_order)
        return
    st.html(html_table(frame[column_order] if column_order else frame, config, hide_index=hide_index, height=height, width=width,
                       marks=marks))
    if len(frame) > HTML_MAX_ROWS:
        st.caption(_("Presentation mode shows the first {shown} of {total} rows; without it, "
                     "the table holds them all.", shown=number(HTML_MAX_ROWS),
                     total=number(len(frame))))


def html_table(
    frame: pd.DataFrame,
    config: Mapping[str, Any],
    *,
    hide_index: bool = True,
    height: int | str | None = None,
    width: int | str = "stretch",
    marks: Mapping[int, Mark] | None = None,
) -> str:
    """The escaped HTML (with its style) of `frame`'s first HTML_MAX_ROWS rows."""
    frame = frame.head(HTML_MAX_ROWS)
    if not hide_index:
        frame = frame.reset_index()
    names = [c for c in frame.columns if not (c in config and config[c] is None)]
    columns, formats = [], []
    for name in names:
        spec = config.get(name)
        label, help_, fmt, numeric_type = _spec(spec)
        if _is_id(name) and fmt is None:
            fmt = "plain"  # an id is a name, not an amount: 50257, never 50,257
        numeric = numeric_type or _numeric(frame[name])
        columns.append(Column(str(name) if label is None else label, numeric, help_))
        formats.append(fmt)
    locale = current_locale()
    rows = [[_cell(v, fmt, locale) for v, fmt in zip(values, formats)]
            for values in frame[names].itertuples(index=False, name=None)]
    return f"<style>{TABLE_CSS}</style>" + table_html(
        columns, rows, marks=marks, height_rem=_height_rem(height, len(rows)),
        stretch=width == "stretch")


def _spec(spec: Any) -> tuple[str | None, str | None, str | None, bool]:
    """(label, help, number format, declared numeric) of one column_config entry."""
    if spec is None:
        return None, None, None, False
    if isinstance(spec, str):
        return spec, None, None, False
    type_config = spec.get("type_config") or {}
    return (spec.get("label"), spec.get("help"), type_config.get("format"),
            type_config.get("type") == "number" or spec.get("alignment") == "right")


def _is_id(name: object) -> bool:
    text = str(name).lower()
    return text == "id" or text.endswith(" id") or text == "ids"


def _numeric(column: pd.Series) -> bool:
    if pd.api.types.is_bool_dtype(column):
        return False
    if pd.api.types.is_numeric_dtype(column):
        return True
    values = [v for v in column if v is not None]  # a mixed column: numbers and "n/a"
    return bool(values) and any(_is_number(v) for v in values) and all(
        _is_number(v) or isinstance(v, str) and len(v) <= 4 for v in values)


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _height_rem(height: int | str | None, rows: int) -> float | None:
    """st.dataframe's height in rem: an int is pixels at the root's 16; None is its own ~10
    rows; "content" and "stretch" show every row."""
    if isinstance(height, int):
        return height / ROOT_PX
    if height is None and rows > 10:
        return DEFAULT_HEIGHT_PX / ROOT_PX
    return None


def _cell(value: Any, fmt: str | None, locale: str) -> str:
    """One cell as the data frame would say it, numbers in the session's locale."""
    if value is None or isinstance(value, float) and math.isnan(value):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "✓" if value else "–"
    if _is_number(value):
        return _formatted(value, fmt, locale)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def _formatted(value: float, fmt: str | None, locale: str) -> str:
    if fmt in (None, "localized"):
        return _number(value, None, locale)
    if fmt == "plain":
        return str(value)
    if fmt == "percent":
        return _percent(value, 2, locale)
    if fmt == ",d":
        return _number(round(value), 0, locale)
    if m := _D3_PERCENT.fullmatch(fmt):
        return _percent(value, int(m["digits"]), locale)
    if m := _PRINTF.fullmatch(fmt):
        whole = m["kind"] in "di"
        shown = _number(round(value) if whole else value, 0 if whole else int(m["digits"] or 6),
                        locale)
        return shown + ("%" if m["pct"] else "")
    return _number(value, None, locale)


# A table of 1,000 rows formats thousands of numbers; Babel's format_decimal parses its pattern
# and locale on every call (~100 us each, most of a Playground run's server time). Here Babel
# gives the locale's symbols once, and Python's own grouping does the rest, for every locale
# whose pattern groups by threes as "#,##0.###" does (both of this app's); any other goes
# through i18n.number. tests/app/test_table_view.py checks the two agree.
@functools.cache
def _symbols(locale: str) -> tuple[str, str, str] | None:
    known = Locale.parse(locale)
    pattern = known.decimal_formats[None]
    if (pattern.grouping != (3, 3) or pattern.frac_prec != (0, 3)
            or known.percent_formats[None].pattern != "#,##0%"):
        return None
    return (get_group_symbol(locale), get_decimal_symbol(locale),
            known.number_symbols["latn"]["percentSign"])


def _number(value: float, digits: int | None, locale: str) -> str:
    """number(value, digits) of i18n, the same text, faster: `digits` None is up to 3 decimals.

    A float is read as its shortest decimal (repr), as Babel reads it, and rounded half to even
    there: 549755813888.727 to 4 places is ...7270, though its binary value is ...72705."""
    symbols = _symbols(locale)
    if symbols is None or not math.isfinite(value):
        return number(value, digits)
    exact = _decimal(value)
    if digits is not None:
        text = f"{exact:,.{digits}f}"
    elif isinstance(value, numbers.Integral) or float(value).is_integer():
        text = f"{exact:,.0f}"  # -0.0 stays "-0", as Babel says it
    else:
        text = f"{exact:,.3f}".rstrip("0").rstrip(".")
    return text.translate({ord(","): symbols[0], ord("."): symbols[1]})


def _decimal(value: float) -> Decimal:
    if isinstance(value, numbers.Integral):
        return Decimal(int(value))
    return Decimal(repr(float(value)))  # numpy's own repr says "np.float64(...)"


def _percent(ratio: float, digits: int, locale: str) -> str:
    symbols = _symbols(locale)
    if symbols is None or not math.isfinite(ratio):
        return percent(ratio, digits)
    # Babel multiplies the decimal by 100, so 0.145 is 14.5% exactly, not 14.499999...
    hundred = _decimal(ratio).scaleb(2)
    text = f"{hundred:,.{digits}f}".translate({ord(","): symbols[0], ord("."): symbols[1]})
    return text + symbols[2]


def _marked_style(marks: Mapping[int, Mark]):
    """The data frame's highlight of the rows in `marks` (the HTML table's classes); the frame's
    index is its positions (a RangeIndex), as every table here has."""
    def style(row: pd.Series) -> list[str]:
        mark = marks.get(row.name)
        return [MARK_STYLES[mark] if mark else ""] * len(row)
    return style
