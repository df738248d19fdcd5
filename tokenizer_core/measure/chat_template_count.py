"""A model's own chat template, counted per message: `count_template`.

What it adds to sequences_chat.py (the built-in formats, framed by hand, so each part is known
as it is written): a template's output is one string, so the parts are found in it afterwards.
Each message's text is looked for in the rendering, in the conversation's order, after the
previous one (as written, else trimmed: templates often `| trim` it); what lies between is the
template's own framing, cut into its special tokens (the tokenizer's, matched in the text as the
tokenizer matches them) and frame text. The rendering is encoded once, as transformers'
`apply_chat_template(tokenize=True)` encodes it (`add_special_tokens=False`: every added token
the text spells is its one id, nothing put around it), and each token counts for the part its
last character is in (sequences_chat's rule).

Leaves out: a message the template changed beyond trimming (upper-cased, cut): it is not
found, its tokens count as framing, and `found` says so. Forged markers: a message holding
`<|im_start|>` is encoded as transformers encodes it (one special id); the built-in formats
refuse such a message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from ..interface import Tokenizer
from .sequences_chat import Framed, Message, Part, Role, _counted


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


def _locate(rendered: str, content: str, start: int) -> tuple[int, str] | None:
    for wanted in (content, content.strip()):
        if wanted:
            at = rendered.find(wanted, start)
            if at >= 0:
                return at, wanted
    return None


def template_parts(rendered: str, messages: Sequence[Message], specials: Iterable[str],
                   ) -> tuple[list[Part], tuple[bool, ...]]:
    """The rendering cut into parts (their texts joined are `rendered`), and which messages
    were found in it. The framing before a message is that message's; after the last, the
    assistant's (the generation prompt)."""
    ordered = sorted(set(s for s in specials if s), key=len, reverse=True)
    pattern = re.compile("|".join(map(re.escape, ordered))) if ordered else None
    parts: list[Part] = []
    found: list[bool] = []
    k = 0
    for m in messages:
        hit = _locate(rendered, m.content, k)
        found.append(hit is not None)
        if hit is None:
            continue
        at, wanted = hit
        parts += _framing(rendered[k:at], m.role, pattern)
        parts.append(Part(wanted, "content", m.role))
        k = at + len(wanted)
    parts += _framing(rendered[k:], "assistant", pattern)
    return parts, tuple(found)


def count_template(tokenizer: Tokenizer, rendered: str, messages: Sequence[Message],
                   ) -> TemplateCount:
    """The rendering's tokens, as transformers encodes it, counted per part and per message."""
    parts, found = template_parts(rendered, messages, tokenizer.special_tokens)
    tokens = tokenizer.encode(rendered, allowed_special="all", disallowed_special=())
    framed = _counted(rendered, parts, tokens)
    content = iter(n for p, n in zip(framed.parts, framed.part_tokens) if p.kind == "content")
    per_message = tuple(next(content) if was_found else None for was_found in found)
    return TemplateCount(framed, found, per_message)
