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
index and character span for hover linking. The end-of-word marker `</w>` is always drawn,
small and grey, in the box of the token that holds it (`end_of_word`).

Lines: a box is an inline block, so the wrap at a panel's edge falls between tokens, never
inside one; a newline ends its line in the text view, marked (`↵`) or not, and a token that
holds one is drawn one box per line (`cut`, `cont`: dashed open ends), the break between them.

Leaves out: choosing which tokens to render (callers bound the count) and the page layout.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Literal, Sequence

from .messages import N_, Say, in_english
from .pretokenize import WORD_END
from .tokens import Token, display_bytes, hex_bytes, show_whitespace

View = Literal["text", "ids", "bytes"]
# Token background colours, class `c{i}` for position i mod PALETTE_SIZE (the byte ruler too).
# Neighbouring tokens must stay apart for the 1 in 12 men with red-green colour blindness:
# six of Paul Tol's "light" qualitative colours (made for labels under black text), mixed 30%
# toward white and ordered so that neighbours alternate between blue and yellow, the axis
# protanopia and deuteranopia keep. tests/core/test_palette.py checks it: every neighbouring
# pair (the last next to the first, as tokens wrap) differs by CIELAB distance of 20 or more
# under Machado et al.'s (2009) simulation of both, and black text on each keeps WCAG AAA.
PALETTE = ("#a0c4e7", "#f3e7ac", "#b8e7ff", "#cfdb70", "#7ccfb8", "#c4c44c")
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
  margin: 2px 1px 2px 0; border-bottom-width: 3px; line-height: 1.45;
  display: inline-block; max-width: 100%; overflow-wrap: anywhere; }
.tokview .tok:empty { min-width: .5em; }
.tokview .tok:empty::before { content: "\\200b"; }
.tokview .tok.alt { border-bottom-style: dotted; }
.tokview .tok.cut { border-right: 2px dashed #555; border-top-right-radius: 0;
  border-bottom-right-radius: 0; margin-right: 0; }
.tokview .tok.cont { border-left: 2px dashed #555; border-top-left-radius: 0;
  border-bottom-left-radius: 0; }
"""
    + palette_css(".tokview")
    + """\
.tokview .partial { border-style: dashed; font-size: .82em; }
.tokview .special { background: #222 !important; color: #fff; font-weight: 600; }
.tokview .diff { outline: 2px solid #d10000; outline-offset: 1px; }
.tokview .gap { color: #777; }
.tokview .unk { background: repeating-linear-gradient(45deg, #ddd, #ddd 4px, #fff 4px, #fff 8px) !important;
  color: #8a0000; font-weight: 600; }
.tokview .marker, .tokview .wend { color: #555; font-size: .75em; }
.tokview .tokinfo { font-family: sans-serif; font-size: .78em; color: #333; line-height: 1.35;
  min-height: 2.7em; border-bottom: 1px solid #ddd; margin-bottom: .3em; white-space: normal;
  overflow-wrap: anywhere; }
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
    say: Say = in_english  # the words of hover titles and the readout, in the reader's language


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
    if is_space_marked(token):  # SentencePiece: show ▁Hello as the model holds it
        return token.piece or ""
    return token.display(visible_whitespace, name_invisible=True)


SPACE_MARK = "\u2581"  # ▁, SentencePiece's space


def is_space_marked(token: Token) -> bool:
    """Whether the token's piece is its text with each space written ▁ (SentencePiece's rule),
    perhaps after the ▁ the library puts before a text's first word (`▁He` covering `He`).

    Only then is the piece shown instead of the text: a byte-level token's piece is its text, and
    a piece that merely contains a typed ▁ equals its text too, so neither changes."""
    piece = token.piece
    if not piece or SPACE_MARK not in piece or token.partial or b"\n" in token.bytes:
        return False  # a token holding a line break is drawn line by line (_lines)
    text = token.bytes.decode("utf-8")
    marked = text.replace(" ", SPACE_MARK)
    return piece != text and piece in (marked, SPACE_MARK + marked)


def end_of_word(token: Token) -> str:
    """The end-of-word marker a token holds beyond the text it covers, or "".

    One rule for `</w>` in every view: it is always shown, small and grey, inside the box of the
    token that holds it (`est</w>` covers `est` and draws `est</w>`); a lone `</w>` is a box of
    its own (token_label). Subtle: only a marker that is not part of the text counts, so a word
    that really contains `</w>` is not marked twice.
    """
    piece = token.piece
    if not token.bytes or piece is None or not piece.endswith(WORD_END):
        return ""
    covered = token.bytes.decode("utf-8", "replace")
    return WORD_END if piece == covered + WORD_END else ""


def token_title(token: Token, say: Say = in_english) -> str:
    """Hover text: id, bytes in hex, and the token's own string (ids, bytes and the string stay
    as they are in every language; `say` says the words around them)."""
    shown = hex_bytes(token.bytes) or say(N_("none"))
    piece = repr(token.piece) if token.piece is not None else say(N_("not whole UTF-8 characters"))
    parts = [say(N_("id {id} · bytes {bytes} · {piece}"), id=str(token.id), bytes=shown,
                 piece=piece)]
    if token.special:
        parts.append(say(N_("special token")))
    if token.unknown:
        parts.append(say(N_("unknown: stands in for {text}"),
                         text=repr(token.bytes.decode("utf-8", "replace"))))
    if token.partial:
        parts.append(say(N_("splits a character")))
    return " · ".join(parts)


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
    # subtle: the line breaks are the text's, so they travel with the view itself: the page's
    # stylesheet is a separate element and may arrive after the view (all lines ran into one
    # in CI); without it the boxes look plain for a moment, but the lines never merge.
    out = [f'<div class="{" ".join(classes)}" style="white-space: pre-wrap">']
    if options.readout:
        hint = options.say(N_("Hover a token to see its id and bytes."))
        out.append(f'<div class="tokinfo">{escape(hint)}</div>')
    covered = 0
    for i, token in enumerate(tokens):
        if token.start > covered:
            out.append(_gap(text[covered : token.start], options.visible_whitespace))
        out.append(_spans(i, token, options, i in disagree))
        covered = max(covered, token.end)
    if covered < len(text) and (not tokens or tokens[-1].end <= len(text)):
        out.append(_gap(text[covered:], options.visible_whitespace))
    out.append("</div>")
    return "".join(out)


def _shown_line(text: str, visible_whitespace: bool) -> str:
    """One line's worth of text as drawn: marks for whitespace, or the text itself.

    subtle: without marks a carriage return is dropped, not drawn: the browser's HTML parser
    turns a raw CR into a line break, and the line breaks are the newlines' alone.
    """
    return show_whitespace(text) if visible_whitespace else text.replace("\r", "")


def _gap(text: str, visible_whitespace: bool) -> str:
    # A marked newline still ends its line: `↵` then the real break (the view keeps white space).
    marked = "↵\n" if visible_whitespace else "\n"
    shown = marked.join(_shown_line(line, visible_whitespace) for line in text.split("\n"))
    return f'<span class="gap">{escape(shown)}</span>'


def _lines(token: Token, options: RenderOptions) -> list[str]:
    """What a token's box shows, one label per line the token reaches.

    A token that holds a newline (`.\n\n`, `\n   `) is drawn as one box per line, with the
    real line break between the boxes: so a box never breaks across lines, and the text keeps
    its lines and indentation whether or not whitespace is marked. Other views draw one box.
    """
    if options.view != "text" or token.unknown or not token.bytes or is_space_marked(token):
        return [token_label(token, options.view, options.visible_whitespace)]
    # subtle: cutting at b"\n" never cuts a UTF-8 character (its bytes are all >= 0x80).
    *ended, rest = token.bytes.split(b"\n")
    ws = options.visible_whitespace
    lines = [display_bytes(line, ws, name_invisible=True) + ("↵" if ws else "") for line in ended]
    if rest or not ended:
        lines.append(display_bytes(rest, ws, name_invisible=True))
    return lines if ws else [line.replace("\r", "") for line in lines]


def _spans(i: int, token: Token, options: RenderOptions, disagrees: bool) -> str:
    """The token's box, or its boxes (one per line, the pieces marked `cut`/`cont`), and the
    line breaks the token holds, drawn between the boxes."""
    lines = _lines(token, options)
    last = len(lines) - 1
    boxes = [
        _span(i, token, options, disagrees, label, ("cut",) * (k < last) + ("cont",) * (k > 0))
        for k, label in enumerate(lines)
    ]
    ends_line = options.view == "text" and token.bytes.endswith(b"\n") and not token.unknown
    return "\n".join(boxes) + ("\n" if ends_line else "")


def _span(i: int, token: Token, options: RenderOptions, disagrees: bool, label: str,
          piece: tuple[str, ...]) -> str:
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
    classes.extend(piece)
    shown = escape(label)
    marker = end_of_word(token) if options.view == "text" and "cut" not in piece else ""  # last box
    if marker:
        shown += f'<span class="wend">{escape(marker)}</span>'
    title = escape(token_title(token, options.say))
    return (
        f'<span class="{" ".join(classes)}" data-i="{i}" data-s="{token.start}" '
        f'data-e="{token.end}" title="{title}">{shown}</span>'
    )
