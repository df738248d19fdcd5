"""Chat framing: one conversation in each chat format, and what the framing costs in tokens.

A chat model reads one sequence: every turn wrapped in its format's markers. The formats here
are written out by hand from their published templates (no template engine, nothing executed):

    ChatML    <|im_start|>user\\nHi<|im_end|>\\n                       (Qwen, OpenAI's ChatML)
    Llama 3   <|begin_of_text|><|start_header_id|>user<|end_header_id|>\\n\\nHi<|eot_id|>
    Mistral   <s>[INST] Hi [/INST] Hello</s>   (v1: [INST] is plain text; the system prompt
              goes before the first user turn)
    Plain     <system>... <human>... <assistant>... <eos>   (the lesson's control tokens, or your own)

The rendered text is encoded once, with the format's specials allowed as special tokens, and
each token is counted for the part it starts in: content (what the people wrote), frame text
(role names, newlines, [INST]) or a special token.

Leaves out: generation prompts and tool calls.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Literal, Sequence

from ..interface import Tokenizer
from ..tokens import Token
from .sequences import encode_with_set, special_set

Role = Literal["system", "user", "assistant"]
Kind = Literal["content", "frame", "special"]


@dataclass(frozen=True)
class Message:
    role: Role
    content: str


@dataclass(frozen=True)
class Part:
    """A stretch of the rendered conversation: its text, what it is, and whose turn."""

    text: str
    kind: Kind
    role: Role


@dataclass(frozen=True)
class Format:
    name: str
    specials: tuple[str, ...]


CHATML = Format("ChatML", ("<|im_start|>", "<|im_end|>"))
LLAMA3 = Format("Llama 3", ("<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"))
MISTRAL = Format("Mistral [INST]", ("<s>", "</s>"))
PLAIN = Format("Plain tags", ("<system>", "<human>", "<assistant>", "<eos>"))
FORMATS = (CHATML, LLAMA3, MISTRAL, PLAIN)
PLAIN_TAGS: dict[Role, str] = {"system": "<system>", "user": "<human>", "assistant": "<assistant>"}


def frame(messages: Sequence[Message], fmt: Format, tags: dict[Role, str] = PLAIN_TAGS,
          end: str = "<eos>") -> list[Part]:
    """The conversation laid out in `fmt`, as parts (their texts joined are the model's input)."""
    if fmt is CHATML:
        return [p for m in messages for p in (
            Part("<|im_start|>", "special", m.role), Part(f"{m.role}\n", "frame", m.role),
            Part(m.content, "content", m.role), Part("<|im_end|>", "special", m.role),
            Part("\n", "frame", m.role))]
    if fmt is LLAMA3:
        parts = [Part("<|begin_of_text|>", "special", "system")]
        for m in messages:
            parts += [Part("<|start_header_id|>", "special", m.role), Part(m.role, "frame", m.role),
                      Part("<|end_header_id|>", "special", m.role), Part("\n\n", "frame", m.role),
                      Part(m.content, "content", m.role), Part("<|eot_id|>", "special", m.role)]
        return parts
    if fmt is MISTRAL:
        return _mistral(messages)
    return [p for m in messages for p in (Part(tags[m.role], "special", m.role),
                                          Part(m.content, "content", m.role))] + (
        [Part(end, "special", "assistant")] if end else [])


def _mistral(messages: Sequence[Message]) -> list[Part]:
    parts = [Part("<s>", "special", "system")]
    system = [m.content for m in messages if m.role == "system"]
    pending = "\n\n".join(system)  # Mistral v1 has no system turn: it leads the first user turn
    for m in messages:
        if m.role == "user":
            parts.append(Part("[INST] ", "frame", "user"))
            if pending:
                parts += [Part(pending, "content", "system"), Part("\n\n", "frame", "user")]
                pending = ""
            parts += [Part(m.content, "content", "user"), Part(" [/INST]", "frame", "user")]
        elif m.role == "assistant":
            parts += [Part(" ", "frame", "assistant"), Part(m.content, "content", "assistant"),
                      Part("</s>", "special", "assistant")]
    return parts


@dataclass(frozen=True)
class Framed:
    """A framed conversation's tokens, counted by kind of part."""

    text: str
    parts: tuple[Part, ...]
    part_tokens: tuple[int, ...]  # tokens per part (each token counts for the part it starts in)
    tokens: tuple[Token, ...]  # the whole text's tokens, the format's specials marked special

    @property
    def total(self) -> int:
        return sum(self.part_tokens)

    def tokens_of(self, kind: Kind) -> int:
        return sum(n for p, n in zip(self.parts, self.part_tokens) if p.kind == kind)

    @property
    def framing(self) -> int:
        """Tokens spent on the format, not on what anyone said."""
        return self.total - self.tokens_of("content")


def count_framed(tokenizer: Tokenizer, parts: Sequence[Part], specials: Sequence[str]) -> Framed:
    """Encode the framed text once (specials allowed, refused inside content) and count per part."""
    text = "".join(p.text for p in parts)
    for p in parts:
        for s in specials:
            if p.kind == "content" and s in p.text:
                raise ValueError(f"the {p.role} message holds {s!r}, a marker of this chat format; "
                                 "a user could forge a turn with it, so it is refused")
    ids = special_set(specials, first_id=tokenizer.vocab_size)
    tokens = encode_with_set(tokenizer, text, ids, allowed_special="all")
    starts, k = [], 0
    for p in parts:
        starts.append(k)
        k += len(p.text)
    filled = [i for i, p in enumerate(parts) if p.text]  # an empty part holds no token
    filled_starts = [starts[i] for i in filled]
    counts = [0] * len(parts)
    for t in tokens:  # the last non-empty part that starts at or before the token
        counts[filled[bisect_right(filled_starts, t.start) - 1]] += 1
    return Framed(text, tuple(parts), tuple(counts), tuple(tokens))
