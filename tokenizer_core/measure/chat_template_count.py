"""A model's own chat template, counted per message: `count_template`.

What it adds to sequences_chat.py (the built-in formats, framed by hand, so each part is known
as it is written): a template's output is one string, so the parts are found in it afterwards.
The template is rendered a second time with each message's text between two private-use marks
(`marked`); when that rendering is the real one plus the marks, one pair a message, the marks
say exactly where each message is (even a message "user" beside ChatML's role name "user").
Otherwise (the template trimmed a text, which the marks stop, or wrote a message twice) each
message's text is looked for in the rendering, in the conversation's order, after the previous
one (as written, else trimmed: templates often `| trim` it). What lies between is the
template's own framing, cut into its special tokens (the tokenizer's, matched in the text as the
tokenizer matches them) and frame text. The rendering is encoded once, as transformers'
`apply_chat_template(tokenize=True)` encodes it (`add_special_tokens=False`: every added token
the text spells is its one id, nothing put around it), and each token counts for the part its
last character is in (sequences_chat's rule).

Leaves out: a message the template changed beyond trimming (upper-cased, escaped by `tojson`)
in a template the marks cannot follow: it is not found, its tokens count as framing, and
`found` says so. Forged markers: a message holding `<|im_start|>` is encoded as transformers encodes it (one special id); the built-in formats
refuse such a message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from ..interface import Tokenizer
from .sequences_chat import Framed, Message, Part, Role, framed_counts


@dataclass(frozen=True)
class TemplateCount:
    framed: Framed
    found: tuple[bool, ...]  # per message: was its text found in the rendering
    content_tokens: tuple[int | None, ...]  # per message; None when not found

    @property
    def ids(self) -> list[int]:
        return [t.id for t in self.framed.tokens]


def _framing(text: str, role: Role, specials: re.Pattern[str] | None) -> list[Part]:
    """Frame text cut at the special tokens it spells (leftmost, longest first)."""
    parts, plain = [], 0
    for hit in specials.finditer(text) if specials is not None else ():
        if plain < hit.start():
            parts.append(Part(text[plain:hit.start()], "frame", role))
        parts.append(Part(hit.group(), "special", role))
        plain = hit.end()
    if plain < len(text):
        parts.append(Part(text[plain:], "frame", role))
    return parts


Span = tuple[int, int] | None  # where a message's text is in the rendering; None: not found
OPEN, CLOSE = "\ue000", "\ue001"  # private-use characters no template treats specially


def marked(messages: Sequence[Message]) -> list[dict[str, str]] | None:
    """The messages with each text between OPEN and CLOSE, to be rendered a second time; None
    when a message holds one of them already."""
    if any(OPEN in m.content or CLOSE in m.content for m in messages):
        return None
    return [{"role": m.role, "content": OPEN + m.content + CLOSE} for m in messages]


def spans_from_marked(rendered: str, marked_rendering: str, count: int) -> list[Span] | None:
    """Each message's span, read off the rendering of `marked` messages: exact, when that
    rendering is the real one plus the marks, one pair a message in order. None otherwise (the
    template trimmed a text, which the marks stop, or wrote a message twice, or skipped one)."""
    spans: list[Span] = []
    plain: list[str] = []
    opened: int | None = None
    at = 0
    for piece in re.split(f"([{OPEN}{CLOSE}])", marked_rendering):
        if piece == OPEN:
            if opened is not None:
                return None
            opened = at
        elif piece == CLOSE:
            if opened is None:
                return None
            spans.append((opened, at))
            opened = None
        else:
            plain.append(piece)
            at += len(piece)
    if opened is not None or len(spans) != count or "".join(plain) != rendered:
        return None
    return spans


def _searched(rendered: str, messages: Sequence[Message]) -> list[Span]:
    """Each message's text looked for after the previous one: as written, else trimmed."""
    spans: list[Span] = []
    k = 0
    for m in messages:
        span = None
        for wanted in (m.content, m.content.strip()):
            at = rendered.find(wanted, k) if wanted else -1
            if at >= 0:
                span = (at, at + len(wanted))
                break
        spans.append(span)
        k = span[1] if span else k
    return spans


def template_parts(rendered: str, messages: Sequence[Message], specials: Iterable[str],
                   spans: Sequence[Span]) -> list[Part]:
    """The rendering cut into parts (their texts joined are `rendered`) at the messages' spans.
    The framing before a message is that message's; after the last, the assistant's (the
    generation prompt)."""
    ordered = sorted(set(s for s in specials if s), key=len, reverse=True)
    pattern = re.compile("|".join(map(re.escape, ordered))) if ordered else None
    parts: list[Part] = []
    k = 0
    for m, span in zip(messages, spans):
        if span is None:
            continue
        parts += _framing(rendered[k:span[0]], m.role, pattern)
        parts.append(Part(rendered[span[0]:span[1]], "content", m.role))
        k = span[1]
    parts += _framing(rendered[k:], "assistant", pattern)
    return parts


def count_template(tokenizer: Tokenizer, rendered: str, messages: Sequence[Message],
                   marked_rendering: str | None = None) -> TemplateCount:
    """The rendering's tokens, as transformers encodes it, counted per part and per message.
    `marked_rendering`: the template's rendering of `marked(messages)`, when there is one."""
    spans = (spans_from_marked(rendered, marked_rendering, len(messages))
             if marked_rendering is not None else None) or _searched(rendered, messages)
    parts = template_parts(rendered, messages, tokenizer.special_tokens, spans)
    tokens = tokenizer.encode(rendered, allowed_special="all", disallowed_special=())
    framed = framed_counts(rendered, parts, tokens)
    content = iter(n for p, n in zip(framed.parts, framed.part_tokens) if p.kind == "content")
    found = tuple(span is not None for span in spans)
    per_message = tuple(next(content) if was_found else None for was_found in found)
    return TemplateCount(framed, found, per_message)
