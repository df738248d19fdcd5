"""HTML for a padded batch (rows = sequences, columns = positions) and for an attention mask.

Pure functions from core values to HTML strings; every label goes through render.escape.
Special tokens are dark, padding is hatched grey, real tokens take the token view's colours;
under each row, its attention mask (1 = the model reads it, 0 = padding) and token type ids.
"""

from __future__ import annotations

import unicodedata
from typing import Mapping, Sequence

from tokenizer_core.measure.sequences import Encoded
from tokenizer_core.render import PALETTE, escape
from ui.common.i18n import N_, _

GRID_CSS = (
    """
.sqwrap { overflow-x: auto; max-width: 100%; padding-bottom: .3rem; }
.sqwrap.fit { container-type: inline-size; }
/* the grid's font shrinks until its width (--fit em, counted by batch_grid) fits the box's
   width (100cqw), never below 12px (a grid wider than that scrolls) nor over the token font:
   at 12px its smallest text, the .85em labels and digits, is still 10px on a projector */
.sqgrid { border-collapse: separate; border-spacing: .12em 1px; font-family: ui-monospace,
  "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace; color: #111;
  font-size: clamp(12px, calc(100cqw / var(--fit, 1)), var(--tok-font, 1rem)); }
.sqgrid td, .sqgrid th { padding: 1px .16em; text-align: center; white-space: pre; border-radius: 3px; }
.sqgrid th { font: 600 .85em sans-serif; color: #555; }
/* the label column as narrow as its longest word: "attention mask" takes two lines */
.sqgrid th.lab { text-align: right; padding-right: .4em; white-space: normal; width: 1px;
  word-break: keep-all;  /* Chinese labels break at spaces only, as English ones do */
  line-height: 1.05; }
.sqgrid td.real { border: 1px solid rgba(0,0,0,.28); border-bottom-width: 3px; }
.sqgrid td.special { background: #222; color: #fff; font-weight: 600; border: 1px solid #000; }
.sqgrid td.pad { background: repeating-linear-gradient(45deg, #eee, #eee 4px, #fff 4px, #fff 8px);
  color: #888; border: 1px dashed #999; font-style: italic; }
.sqgrid tr.mask td, .sqgrid tr.types td { font-size: .85em; padding: 0 .3em; color: #333; }
.sqgrid tr.mask td.m0 { color: #b00000; font-weight: 700; }
.sqgrid tr.types td.t1 { color: #0047b3; font-weight: 700; }
.sqgrid tr.mask td { border-bottom: 1px solid #ccc; }
.sqgrid tr.gap td { height: .5em; }
.sqgrid td:hover { outline: 3px solid #0047b3; outline-offset: 1px; }
.sqtitle { font-weight: 600; font-size: 1.05rem; color: #262730; margin: .2rem 0 0 .3rem;
  white-space: normal; overflow-wrap: anywhere; }
.sqmask { border-collapse: collapse; font: .7em ui-monospace, monospace; }
.sqmask td { width: 1.1em; height: 1.1em; border: 1px solid #fff; padding: 0; }
.sqmask td.on { background: #1f6fd1; }
.sqmask td.off { background: #e9e9e9; }
.sqmask th { font-weight: 400; color: #333; padding: 0 4px; white-space: pre; text-align: right; }
.sqmask th.col { writing-mode: vertical-rl; transform: rotate(180deg); text-align: left; height: 4.5em; }
"""
    + "".join(f".sqgrid td.c{i} {{ background: {c}; }}\n" for i, c in enumerate(PALETTE))
)


def cell_kind(row: Encoded, position: int, pad_id: int) -> str:
    """real, special or pad: padding is where the mask is 0 (a pad id may also be a real token)."""
    if row.attention_mask[position] == 0:
        return "pad"
    return "special" if row.special_mask[position] else "real"


def batch_grid(
    rows: Sequence[Encoded],
    labels: Mapping[int, str],
    pad_id: int,
    show_ids: bool = False,
    max_columns: int = 256,
) -> str:
    """The batch as one table: per sequence a token row, then its type ids and attention mask."""
    width = min(max((len(r) for r in rows), default=0), max_columns)
    head = "".join(f"<th>{p}</th>" for p in range(width))
    shown_rows = [[_shown(row, p, labels, pad_id, show_ids) for p in range(min(len(row), width))]
                  for row in rows]
    fit = _width_em(shown_rows, width)
    position = escape(_("position"))  # not inside the f-string: pybabel would not see it
    out = [f'<div class="sqwrap fit"><table class="sqgrid" style="--fit: {fit:.1f}">',
           f'<tr><th class="lab">{position}</th>{head}</tr>']
    type_ids, attention = escape(_("type ids")), escape(_("attention mask"))
    for n, row in enumerate(rows):
        cells = []
        for p, shown in enumerate(shown_rows[n]):
            kind = cell_kind(row, p, pad_id)
            colour = f" c{p % len(PALETTE)}" if kind == "real" else ""
            token_id = row.ids[p]
            title = _("row {row} · position {position} · {kind} · token {token} · id {id} · "
                      "type id {type_id} · mask {mask}", row=n + 1, position=p, kind=_(kind),
                      token=repr(labels.get(token_id, "?")), id=token_id,
                      type_id=row.type_ids[p], mask=row.attention_mask[p])
            cells.append(f'<td class="{kind}{colour}" title="{escape(title)}">{escape(shown)}</td>')
        types = "".join(f'<td class="t{t}">{t}</td>' for t in row.type_ids[:width])
        mask = "".join(f'<td class="m{m}">{m}</td>' for m in row.attention_mask[:width])
        # a no-break space: "sequence 1" stays one line where the labels column wraps
        name = escape(_("sequence {n}", n=n + 1)).replace(" ", "\u00a0")
        out.append(f'<tr class="toks"><th class="lab">{name}</th>{"".join(cells)}</tr>')
        out.append(f'<tr class="types"><th class="lab">{type_ids}</th>{types}</tr>')
        out.append(f'<tr class="mask"><th class="lab">{attention}</th>{mask}</tr>')
        out.append('<tr class="gap"><td></td></tr>')
    out.append("</table></div>")
    return "".join(out)


def _shown(row: Encoded, p: int, labels: Mapping[int, str], pad_id: int, show_ids: bool) -> str:
    """What the cell at position p says: the token, its id, or "pad"."""
    token_id = row.ids[p]
    if show_ids:
        return str(token_id)
    return _("pad") if cell_kind(row, p, pad_id) == "pad" else labels.get(token_id, str(token_id))


N_("real"), N_("special")  # the cells' kinds, said in their titles (and "pad")


# Widths in em of the grid's font, for --fit: a monospace character is 0.6 em (DejaVu Sans Mono,
# the fallback, is 0.602), a wide one (CJK, most emoji) two of them; a cell adds its padding,
# borders and spacing; the label column holds "sequence 1" in .85em sans-serif ("attention
# mask" wraps). Measured in Chromium: see tests/browser/test_sequences.py's grid test.
MONO_EM, CELL_EXTRA_EM, LABEL_EM, FIT_MARGIN = 0.6, 0.6, 5.6, 1.04


def _width_em(shown_rows: Sequence[Sequence[str]], width: int) -> float:
    """The grid's width in em: each column as wide as its widest cell (or its header)."""
    columns = [len(str(p)) * 0.85 for p in range(width)]  # the position header, .85em digits
    for cells in shown_rows:
        for p, text in enumerate(cells):
            columns[p] = max(columns[p], _columns(text))
    return FIT_MARGIN * (LABEL_EM + sum(c * MONO_EM + CELL_EXTRA_EM for c in columns))


def _columns(text: str) -> int:
    """Character cells a text takes in a monospace font (wide characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def mask_grid(mask: Sequence[Sequence[int]], names: Sequence[str]) -> str:
    """An attention mask as squares: row = the token looking, column = the token looked at."""
    head = "".join(f'<th class="col">{escape(n)}</th>' for n in names)
    out = [f'<div class="sqwrap"><table class="sqmask"><tr><th></th>{head}</tr>']
    for i, (name, line) in enumerate(zip(names, mask)):
        cells = "".join(
            f'<td class="{"on" if v else "off"}" title="{escape(_sees(name, i, names[j], j, v))}"></td>'
            for j, v in enumerate(line)
        )
        out.append(f"<tr><th>{escape(name)}</th>{cells}</tr>")
    out.append("</table></div>")
    return "".join(out)


def _sees(name: str, i: int, other: str, j: int, v: int) -> str:
    return _("{token} at {i} sees {other} at {j}: {value}", token=repr(name), i=i,
             other=repr(other), j=j, value=v)
