"""Tokens -> HTML spans. The one place user text becomes HTML, and it is always escaped.

Every string that came from a user or a vocabulary (the text, a token's display form, its piece
in the hover title) goes through `html.escape(..., quote=True)` here and nowhere else; numbers
are formatted by us. Nothing is ever put into an `href`, a `style` or an event attribute.

What a span carries: a colour class that never repeats between neighbours (`c0`..`c5` by
position, so no reruns reshuffle it), a border and an alternating underline so boundaries show
without colour (colour-blind viewers, black-and-white projectors), `partial` for tokens that
split a character (shown as `<E4 BD>`, never U+FFFD), `special` for special tokens, `diff` for
tokens whose boundaries another tokenizer does not share, `unk` for the unknown token (shown as
the model's `[UNK]`, the lost text in the hover), and data attributes with the token's
index and character span for hover linking.

Leaves out: choosing which tokens to render (callers bound the count) and the page layout.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Literal, Sequence

from .tokens import Token, hex_bytes, show_whitespace

View = Literal["text", "ids", "bytes"]
# Token background colours, class `c{i}` for position i mod PALETTE_SIZE (the byte ruler too).
PALETTE = ("#cfe8ff", "#ffe0b3", "#d4f5d0", "#f6d0ea", "#fff3a6", "#dcd6ff")
PALETTE_SIZE = len(PALETTE)


def palette_css(scope: str) -> str:
    """`{scope} .c0 { background: ...; }` and so on, one rule per PALETTE colour."""
    return "".join(f"{scope} .c{i} {{ background: {c}; }}\n" for i, c in enumerate(PALETTE))


TOKEN_CSS = (
    """
.tokview { font-family: ui-monospace, "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace;
  font-size: var(--tok-font, 1.05rem); line-height: 2.1; white-space: pre-wrap;
  word-break: break-word; color: #111; }
.tokview .tok { border: 1px solid rgba(0,0,0,.28); border-radius: 3px; padding: 1px 1px;
  margin: 0 1px 0 0; border-bottom-width: 3px;
  -webkit-box-decoration-break: clone; box-decoration-break: clone; }
.tokview .tok.alt { border-bottom-style: dotted; }
"""
    + palette_css(".tokview")
    + """\
.tokview .partial { border-style: dashed; font-size: .82em; }
.tokview .special { background: #222 !important; color: #fff; font-weight: 600; }
.tokview .diff { outline: 2px solid #d10000; outline-offset: 1px; }
.tokview .gap { color: #777; }
.tokview .unk { background: repeating-linear-gradient(45deg, #ddd, #ddd 4px, #fff 4px, #fff 8px) !important;
  color: #8a0000; font-weight: 600; }
.tokview .marker { color: #555; font-size: .75em; }
.tokview .tokinfo { font-size: .8em; color: #333; line-height: 1.5; min-height: 1.5em;
  border-bottom: 1px solid #ddd; margin-bottom: .3em; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
.tokview .tok:hover, .tokview .tok.linked { outline: 3px solid #0047b3; outline-offset: 1px; }
.tokview.big { --tok-font: 1.6rem; }
.tokview.contrast .tok { border-color: #000; color: #000; }
"""
)


def escape(text: str) -> str:
    """The only escape: text and attribute values alike (quotes included)."""
    return html.escape(text, quote=True)


@dataclass(frozen=True)
class RenderOptions:
    view: View = "text"
    visible_whitespace: bool = False
    big: bool = False
    contrast: bool = False
    readout: bool = False  # an empty line above the tokens that hover scripts fill (textContent)


def token_label(token: Token, view: View, visible_whitespace: bool) -> str:
    """What a token's span shows, before escaping."""
    if view == "ids":
        return str(token.id)
    if view == "bytes":
        return hex_bytes(token.bytes) or "∅"
    if token.unknown and token.piece:  # show what the model sees, not the text it lost
        return token.piece
    if not token.bytes and token.piece:  # zero-width, e.g. a lone </w> at the end of a word
        return token.piece
    return token.display(visible_whitespace, name_invisible=True)


def token_title(token: Token) -> str:
    """Hover text: id, bytes in hex, and the token's own string."""
    shown = hex_bytes(token.bytes) or "none"
    piece = repr(token.piece) if token.piece is not None else "not whole UTF-8 characters"
    kind = " · special token" if token.special else ""
    kind += f" · unknown: stands in for {token.bytes.decode('utf-8', 'replace')!r}" if token.unknown else ""
    kind += " · splits a character" if token.partial else ""
    return f"id {token.id} · bytes {shown} · {piece}{kind}"


def render_tokens(
    text: str,
    tokens: Sequence[Token],
    options: RenderOptions = RenderOptions(),
    disagree: frozenset[int] = frozenset(),
) -> str:
    """HTML for tokens over the text they came from; gaps (text no token covers) shown plain.

    `disagree` holds indices of tokens to mark as not shared with another tokenizer.
    """
    classes = ["tokview"] + (["big"] if options.big else []) + (["contrast"] if options.contrast else [])
    out = [f'<div class="{" ".join(classes)}">']
    if options.readout:
        out.append('<div class="tokinfo">Hover a token to see its id and bytes.</div>')
    covered = 0
    for i, token in enumerate(tokens):
        if token.start > covered:
            out.append(_gap(text[covered : token.start], options.visible_whitespace))
        out.append(_span(i, token, options, i in disagree))
        covered = max(covered, token.end)
    if covered < len(text) and (not tokens or tokens[-1].end <= len(text)):
        out.append(_gap(text[covered:], options.visible_whitespace))
    out.append("</div>")
    return "".join(out)


def _gap(text: str, visible_whitespace: bool) -> str:
    shown = show_whitespace(text) if visible_whitespace else text
    return f'<span class="gap">{escape(shown)}</span>'


def _span(i: int, token: Token, options: RenderOptions, disagrees: bool) -> str:
    classes = ["tok", f"c{i % PALETTE_SIZE}"]
    if i % 2:
        classes.append("alt")
    if token.partial:
        classes.append("partial")
    if token.special:
        classes.append("special")
    if token.unknown:
        classes.append("unk")
    if disagrees:
        classes.append("diff")
    if not token.bytes and token.piece:
        classes.append("marker")
    label = escape(token_label(token, options.view, options.visible_whitespace))
    title = escape(token_title(token))
    return (
        f'<span class="{" ".join(classes)}" data-i="{i}" data-s="{token.start}" '
        f'data-e="{token.end}" title="{title}">{label}</span>'
    )
