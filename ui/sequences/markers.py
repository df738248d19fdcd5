"""HTML for each model's chat markers and their ids: one line per model, the markers as chips
that wrap onto the next line instead of running off a table's edge at 1280 px.

Pure: (model, {marker: id}) rows -> HTML; every marker goes through render.escape. A marker is
drawn dark, like a special token in the token view, with its id beside it.

Leaves out: the counts (the table above it has those) and the tokens of the conversation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tokenizer_core.render import escape

MARKER_CSS = """
.sqmarks { font-size: var(--tok-font, 1rem); color: #111; margin: .2rem 0 .6rem; }
.sqmarks .mrow { display: flex; align-items: baseline; gap: .6rem; padding: .25rem 0;
  border-bottom: 1px solid #e6e6e6; }
.sqmarks .mmodel { font: 600 .85em sans-serif; flex: 0 0 8.5em; }
.sqmarks .mchips { display: flex; flex-wrap: wrap; gap: .3rem .6rem; min-width: 0; }
.sqmarks .mk { display: inline-flex; align-items: baseline; gap: .25em; max-width: 100%; }
.sqmarks .mt { font-family: ui-monospace, "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace;
  font-size: .85em; background: #222; color: #fff; border-radius: 3px; padding: 0 .3em;
  overflow-wrap: anywhere; }
.sqmarks .mid { font: .8em ui-monospace, "DejaVu Sans Mono", monospace; color: #333; }
"""


def marker_html(rows: Sequence[tuple[str, Mapping[str, int]]]) -> str:
    """One row per model: its name, then its markers as dark chips with their ids, wrapping
    under one another (never under the name) when the column is narrow."""
    out = ['<div class="sqmarks">']
    for model, ids in rows:
        chips = "".join(f'<span class="mk" title="{escape(f"{marker}: id {i}")}">'
                        f'<span class="mt">{escape(marker)}</span><span class="mid">{i}</span></span>'
                        for marker, i in ids.items())
        out.append(f'<div class="mrow"><span class="mmodel">{escape(model)}</span>'
                   f'<span class="mchips">{chips}</span></div>')
    out.append("</div>")
    return "".join(out)
