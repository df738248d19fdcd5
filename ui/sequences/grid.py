"""HTML for a padded batch (rows = sequences, columns = positions) and for an attention mask.

Pure functions from core values to HTML strings; every label goes through render.escape.
Special tokens are dark, padding is hatched grey, real tokens take the token view's colours;
under each row, its attention mask (1 = the model reads it, 0 = padding) and token type ids.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from tokenizer_core.measure.sequences import Encoded
from tokenizer_core.render import PALETTE, escape

GRID_CSS = (
    """
.sqwrap { overflow-x: auto; max-width: 100%; padding-bottom: .3rem; }
.sqgrid { border-collapse: separate; border-spacing: 2px 1px; font-family: ui-monospace,
  "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace; font-size: var(--tok-font, 1rem); color: #111; }
.sqgrid td, .sqgrid th { padding: 1px 4px; text-align: center; white-space: pre; border-radius: 3px; }
.sqgrid th { font: 600 .72em sans-serif; color: #555; }
.sqgrid th.lab { text-align: right; padding-right: 6px; }
.sqgrid td.real { border: 1px solid rgba(0,0,0,.28); border-bottom-width: 3px; }
.sqgrid td.special { background: #222; color: #fff; font-weight: 600; border: 1px solid #000; }
.sqgrid td.pad { background: repeating-linear-gradient(45deg, #eee, #eee 4px, #fff 4px, #fff 8px);
  color: #888; border: 1px dashed #999; font-style: italic; }
.sqgrid tr.mask td, .sqgrid tr.types td { font-size: .72em; padding: 0 4px; color: #333; }
.sqgrid tr.mask td.m0 { color: #b00000; font-weight: 700; }
.sqgrid tr.types td.t1 { color: #0047b3; font-weight: 700; }
.sqgrid tr.mask td { border-bottom: 1px solid #ccc; }
.sqgrid tr.gap td { height: .5em; }
.sqgrid td:hover { outline: 3px solid #0047b3; outline-offset: 1px; }
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
    out = ['<div class="sqwrap"><table class="sqgrid">', f'<tr><th class="lab">position</th>{head}</tr>']
    for n, row in enumerate(rows):
        cells = []
        for p in range(min(len(row), width)):
            kind = cell_kind(row, p, pad_id)
            colour = f" c{p % len(PALETTE)}" if kind == "real" else ""
            token_id = row.ids[p]
            shown = str(token_id) if show_ids else labels.get(token_id, str(token_id))
            if kind == "pad" and not show_ids:
                shown = "pad"
            title = (f"row {n + 1} · position {p} · {kind} · token {labels.get(token_id, '?')!r} · "
                     f"id {token_id} · type id {row.type_ids[p]} · mask {row.attention_mask[p]}")
            cells.append(f'<td class="{kind}{colour}" title="{escape(title)}">{escape(shown)}</td>')
        types = "".join(f'<td class="t{t}">{t}</td>' for t in row.type_ids[:width])
        mask = "".join(f'<td class="m{m}">{m}</td>' for m in row.attention_mask[:width])
        out.append(f'<tr class="toks"><th class="lab">sequence {n + 1}</th>{"".join(cells)}</tr>')
        out.append(f'<tr class="types"><th class="lab">type ids</th>{types}</tr>')
        out.append(f'<tr class="mask"><th class="lab">attention mask</th>{mask}</tr>')
        out.append('<tr class="gap"><td></td></tr>')
    out.append("</table></div>")
    return "".join(out)


def mask_grid(mask: Sequence[Sequence[int]], names: Sequence[str]) -> str:
    """An attention mask as squares: row = the token looking, column = the token looked at."""
    head = "".join(f'<th class="col">{escape(n)}</th>' for n in names)
    out = [f'<div class="sqwrap"><table class="sqmask"><tr><th></th>{head}</tr>']
    for i, (name, line) in enumerate(zip(names, mask)):
        cells = "".join(
            f'<td class="{"on" if v else "off"}" title="{escape(f"{name!r} at {i} sees {names[j]!r} at {j}: {v}")}"></td>'
            for j, v in enumerate(line)
        )
        out.append(f"<tr><th>{escape(name)}</th>{cells}</tr>")
    out.append("</table></div>")
    return "".join(out)
