"""The code of an exercise with its blanks, drawn as HTML instead of st.code.

st.code wraps a long line back to the left edge, so a wrapped body line lost its indentation,
and two blanks side by side read as one (`__9____10__`). Here every line is its own block with
a hanging indent: its first row starts at its indentation, the rows it wraps onto start a little
further right (padding-left, then a negative text-indent). Each blank `__n__` is a bordered chip
with a margin, so two adjacent blanks have a visible gap. Everything is escaped by
render.escape; the code is this project's own, the markers are ours.

Leaves out: syntax colours (the blanks are what the eye should find).
"""

from __future__ import annotations

import re

import streamlit as st

from tokenizer_core.render import escape

BLANK = re.compile(r"__(\d+)__")
HANG_CH = 4  # how much further right a wrapped row starts than its line

CODE_CSS = """
.prcode {font-family: 'Source Code Pro', 'DejaVu Sans Mono', monospace; font-size: 0.86rem;
  background: #f6f7f9; border-radius: 6px; padding: 10px 12px; line-height: 1.55}
.prcode .ln {display: flex; gap: 10px}
.prcode .no {flex: 0 0 2.5ch; text-align: right; color: #9aa3b5; user-select: none}
.prcode .src {flex: 1 1 auto; min-width: 0; white-space: pre-wrap; overflow-wrap: anywhere}
.prcode .blank {display: inline-block; text-indent: 0; margin: 1px 3px; padding: 0 4px;
  border: 1.5px solid #d33f49; border-radius: 5px; background: #fdecee; color: #8e1b24;
  font-weight: 700; line-height: 1.3}
"""


def _line_html(line: str) -> str:
    body = line.lstrip(" ")
    indent = len(line) - len(body)
    parts, last = [], 0
    for match in BLANK.finditer(body):
        parts.append(escape(body[last:match.start()]))
        parts.append(f'<span class="blank">{escape(match.group(0))}</span>')
        last = match.end()
    parts.append(escape(body[last:]) or " ")
    style = f"padding-left: {indent + HANG_CH}ch; text-indent: -{HANG_CH}ch"
    return f'<span class="src" style="{style}">{"".join(parts)}</span>'


def code_html(code: str) -> str:
    """The code as numbered lines with hanging indents and blank chips (see the docstring)."""
    rows = "".join(f'<div class="ln"><span class="no">{n}</span>{_line_html(line)}</div>'
                   for n, line in enumerate(code.rstrip("\n").split("\n"), start=1))
    return f'<style>{CODE_CSS}</style><div class="prcode">{rows}</div>'


def code_view(code: str) -> None:
    st.html(code_html(code))
