"""Rows of cells -> one HTML table, every header and cell escaped.

Why a table of our own beside Streamlit's data frame: `st.dataframe` draws on a canvas whose
font is fixed when it mounts, so a projector's larger type never reaches it, and its grid costs
a first visit about 0.3 s of browser CPU (benchmarks/bench_browser_cpu.py --probes). This table
is text in the page: it scales with the root font (`rem`), wraps nothing it should not, and
weighs what its cells weigh.

Cells arrive as finished strings: formatting numbers in the reader's locale is the caller's job
(the core has no notion of a session's language). Everything here goes through `render.escape`;
nothing is put into an `href` or an event attribute, and the one `style` holds a number of ours. Leaves out: sorting, paging and
choosing which rows to send (callers bound the rows).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Literal, Mapping, Sequence

from .render import escape

# Numbers right-aligned in tabular figures, so a column of counts reads by magnitude; the header
# stays on screen while the rows scroll (when a height is set); a marked row is the one a lesson
# points at (where BPE and WordPiece first differ), a softly marked one is of the same kind.
TABLE_CSS = """
.tx-table-box { overflow: auto; border: 1px solid rgba(49,51,63,.2); border-radius: .5rem;
  margin-bottom: 1rem; max-width: 100%; }
.tx-table { border-collapse: separate; border-spacing: 0; font-size: .875rem; line-height: 1.4;
  color: #1f2129; }
.tx-table.stretch { width: 100%; }
.tx-table th, .tx-table td { padding: .3rem .6rem; border-bottom: 1px solid rgba(49,51,63,.1);
  text-align: left; vertical-align: top; white-space: pre-wrap; overflow-wrap: anywhere; }
.tx-table th { position: sticky; top: 0; background: #f0f2f6; font-weight: 600; z-index: 1;
  white-space: normal; overflow-wrap: normal; word-break: keep-all; }
.tx-table td.num, .tx-table th.num { text-align: right; font-variant-numeric: tabular-nums;
  white-space: nowrap; }
.tx-table tbody tr:nth-child(even) td { background: #fafbfc; }
.tx-table tbody tr.mark td { background: #ffe08a; font-weight: 700; color: #111; }
.tx-table tbody tr.soft td { background: #fff6d6; color: #111; }
.tx-table th[title] { text-decoration: underline dotted; cursor: help; }
"""


Mark = Literal["mark", "soft"]
MARK_STYLES: dict[str, str] = {  # the same marks where a table is Streamlit's data frame
    "mark": "background-color: #ffe08a; font-weight: 700; color: #111",
    "soft": "background-color: #fff6d6; color: #111",
}


@dataclass(frozen=True)
class Column:
    header: str
    numeric: bool = False  # right-aligned, tabular figures, never wrapped
    help: str | None = None  # the header's hover title


def table_html(
    columns: Sequence[Column],
    rows: Iterable[Sequence[str]],
    *,
    marks: Mapping[int, Mark] | None = None,
    height_rem: float | None = None,
    stretch: bool = True,
    caption: str | None = None,
) -> str:
    """An HTML table: `columns` as its header, each row's cells in order (as many as columns).

    `marks` maps row indexes to how they are highlighted; `height_rem` bounds the box in rem, so it
    grows with a projector's type (the rows scroll under a sticky header), None shows every
    row; `stretch` fills the container's width, else the table is as wide as its content.
    `caption` is read by screen readers.
    """
    marks = marks or {}
    numeric = [c.numeric for c in columns]
    head = "".join(_header(c) for c in columns)
    body = []
    for i, row in enumerate(rows):
        if len(row) != len(columns):
            raise ValueError(f"row {i} has {len(row)} cells for {len(columns)} columns")
        cells = "".join(
            f'<td class="num">{escape(cell)}</td>' if num else f"<td>{escape(cell)}</td>"
            for cell, num in zip(row, numeric)
        )
        mark = marks.get(i)
        body.append(f'<tr class="{MARK_CLASS[mark]}">{cells}</tr>' if mark else f"<tr>{cells}</tr>")
    # the one style attribute: a number of ours, never text
    box_style = f' style="max-height: {float(height_rem):.2f}rem"' if height_rem is not None else ""
    label = f"<caption hidden>{escape(caption)}</caption>" if caption else ""
    width = "tx-table stretch" if stretch else "tx-table"
    return (f'<div class="tx-table-box"{box_style}><table class="{width}">{label}'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>")


MARK_CLASS: dict[str, str] = {"mark": "mark", "soft": "soft"}  # a mark's class is ours, never data


def _header(column: Column) -> str:
    cls = ' class="num"' if column.numeric else ""
    title = f' title="{escape(column.help)}"' if column.help else ""
    return f'<th scope="col"{cls}{title}>{escape(column.header)}</th>'
