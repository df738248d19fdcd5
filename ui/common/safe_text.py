"""User text inside Streamlit's Markdown (st.error, st.caption, st.markdown, labels).

Those elements read Markdown: a file named `![x](http://example.com/x.png).txt` would become an
image fetched from the web, `**x**` bold, `<b>` an entity. `literal()` makes what the user wrote
show as exactly those characters:
- every ASCII punctuation character Markdown gives a meaning to is backslash-escaped;
- subtle: GitHub-flavoured Markdown also links bare `http://…`, `www.…` and `a@b.c` *after*
  escapes are resolved, so an invisible WORD JOINER (U+2060) is put after each `:` and `www`
  and before each `@`, which those patterns cannot cross.
HTML never goes this way: it goes through tokenizer_core/render.py.
"""

from __future__ import annotations

import re

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$&=\"'%])")
_AUTOLINK_PARTS = re.compile(r"(:)|(@)|(www)", re.IGNORECASE)
WORD_JOINER = "\u2060"


def _break_autolink(match: re.Match[str]) -> str:
    if match.group(2):
        return WORD_JOINER + match.group(2)
    return match.group(0) + WORD_JOINER


def literal(text: str) -> str:
    """`text` made inert for Markdown: no links, images, emphasis or entities, just characters."""
    escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    return _AUTOLINK_PARTS.sub(_break_autolink, escaped)


def lone_surrogates(text: str) -> int:
    """How many halves of UTF-16 surrogate pairs `text` holds (a Python string from JSON's
    `"\\ud800"` can; one from the browser cannot). No page can send such a string back."""
    return len(_LONE_SURROGATE.findall(text))


def without_lone_surrogates(text: str) -> str:
    """`text` with U+FFFD in place of each lone surrogate (what a browser's TextEncoder does)."""
    return _LONE_SURROGATE.sub("\ufffd", text)
