"""Chat framing: one conversation in each chat format, and what the framing costs in tokens.

A chat model reads one sequence: every turn wrapped in its format's markers. The formats here
are written out by hand from their published templates (no template engine, nothing executed):

    ChatML    <|im_start|>user\\nHi<|im_end|>\\n                       (Qwen, OpenAI's ChatML)
    Llama 3   <|begin_of_text|><|start_header_id|>user<|end_header_id|>\\n\\nHi<|eot_id|>
    Mistral   <s>[INST] Hi [/INST] Hello</s>   (v1: [INST] is plain text; the system prompt
              goes before the first user turn)
    Tekken    <s>[INST]Hi[/INST]Hello</s>      (Mistral Nemo: [INST] and [/INST] are control
              tokens, no spaces around the turn)
    DeepSeek  <｜begin▁of▁sentence｜>system<｜User｜>Hi<｜Assistant｜>Hello<｜end▁of▁sentence｜>
    Plain     <system>... <human>... <assistant>... <eos>   (the lesson's control tokens, or your own)

The rendered text is encoded once, with the format's specials allowed as special tokens, and
each token is counted for the part its last character is in: content (what the people wrote),
frame text (role names, newlines, [INST]) or a special token. (The last, not the first:
SentencePiece's `▁What` covers the space a format puts before a message, and the word is the
message's.) `count_framed` gives any tokenizer the
format's markers as new ids after its vocabulary (what adding them to GPT-2 would do);
`count_own` encodes a model's own format with the model's own tokenizer, where every marker
must already be one of its special tokens, so each costs exactly one id, the model's.

Leaves out: generation prompts, tool calls, and the default system prompt a template may add
when none is given (Qwen 2.5's "You are Qwen, created by Alibaba Cloud..."). DeepSeek-V4's
package ships no chat template: its layout here is DeepSeek-V3's published one, over the
markers V4's tokenizer.json holds as added tokens.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Literal, Sequence

from ..interface import Tokenizer
from ..messages import N_, Refusal
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
TEKKEN = Format("Mistral Tekken", ("<s>", "</s>", "[INST]", "[/INST]"))
DEEPSEEK = Format("DeepSeek", ("<｜begin▁of▁sentence｜>", "<｜User｜>", "<｜Assistant｜>",
                               "<｜end▁of▁sentence｜>"))
PLAIN = Format(N_("Plain tags"), ("<system>", "<human>", "<assistant>", "<eos>"))
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
    if fmt is TEKKEN:
        return _tekken(messages)
    if fmt is DEEPSEEK:
        return _deepseek(messages)
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


def _tekken(messages: Sequence[Message]) -> list[Part]:
    """Mistral Nemo (mistral_common's InstructTokenizerV3 with Tekken): control tokens around
    each user turn, the system prompt leading the last user turn, no spaces added."""
    parts = [Part("<s>", "special", "system")]
    system = "\n\n".join(m.content for m in messages if m.role == "system")
    last_user = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
    for i, m in enumerate(messages):
        if m.role == "user":
            parts.append(Part("[INST]", "special", "user"))
            if system and i == last_user:
                parts += [Part(system, "content", "system"), Part("\n\n", "frame", "user")]
            parts += [Part(m.content, "content", "user"), Part("[/INST]", "special", "user")]
        elif m.role == "assistant":
            parts += [Part(m.content, "content", "assistant"), Part("</s>", "special", "assistant")]
    return parts


def _deepseek(messages: Sequence[Message]) -> list[Part]:
    """DeepSeek-V3's template: BOS, the system prompt as bare text, then role markers."""
    parts = [Part("<｜begin▁of▁sentence｜>", "special", "system")]
    parts += [Part(m.content, "content", "system") for m in messages if m.role == "system"]
    for m in messages:
        if m.role == "user":
            parts += [Part("<｜User｜>", "special", "user"), Part(m.content, "content", "user")]
        elif m.role == "assistant":
            parts += [Part("<｜Assistant｜>", "special", "assistant"),
                      Part(m.content, "content", "assistant"),
                      Part("<｜end▁of▁sentence｜>", "special", "assistant")]
    return parts


@dataclass(frozen=True)
class ModelFormat:
    """A model's own chat format, to be encoded by that model's own tokenizer (registry name)."""

    model: str
    fmt: Format


OWN_FORMATS = (
    ModelFormat("llama3", LLAMA3),
    ModelFormat("qwen2.5", CHATML),
    ModelFormat("mistral-7b", MISTRAL),
    ModelFormat("mistral-nemo", TEKKEN),
    ModelFormat("deepseek-v4", DEEPSEEK),
)


@dataclass(frozen=True)
class Framed:
    """A framed conversation's tokens, counted by kind of part."""

    text: str
    parts: tuple[Part, ...]
    part_tokens: tuple[int, ...]  # tokens per part (each counts for the part of its last character)
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

    @property
    def messages(self) -> int:
        """How many messages the conversation holds (each is one content part)."""
        return sum(1 for p in self.parts if p.kind == "content")

    @property
    def framing_per_message(self) -> float:
        return self.framing / self.messages if self.messages else 0.0


def _refuse_markers_in_content(parts: Sequence[Part], specials: Sequence[str]) -> None:
    for p in parts:
        for s in specials:
            if p.kind == "content" and s in p.text:
                raise Refusal(N_("the {role} message holds {marker}, a marker of this chat "
                                 "format; a user could forge a turn with it, so it is refused"),
                              role=p.role, marker=repr(s))


def count_framed(tokenizer: Tokenizer, parts: Sequence[Part], specials: Sequence[str]) -> Framed:
    """Encode the framed text once (specials allowed, refused inside content) and count per part."""
    text = "".join(p.text for p in parts)
    _refuse_markers_in_content(parts, specials)
    ids = special_set(specials, first_id=tokenizer.vocab_size)
    tokens = encode_with_set(tokenizer, text, ids, allowed_special="all")
    return framed_counts(text, parts, tokens)


def marker_ids(tokenizer: Tokenizer, fmt: Format) -> dict[str, int]:
    """Each marker of a model's own format, and the one id the model's tokenizer gives it.

    A marker is one of the tokenizer's special tokens, or an added token it always matches
    (DeepSeek's `<｜User｜>` is not marked special in its tokenizer.json, yet is one id); a
    marker that would cost more than one id means this is not the tokenizer's format.
    """
    own = tokenizer.special_tokens
    ids: dict[str, int] = {}
    for marker in fmt.specials:
        if marker in own:
            ids[marker] = own[marker]
            continue
        single = tokenizer.encode(marker, disallowed_special=())
        if len(single) != 1:
            raise Refusal(N_("{marker} is not one token of {name} (it takes {n}), so "
                             "{format} is not its format"), marker=marker,
                          name=tokenizer.name, n=len(single), format=fmt.name)
        ids[marker] = single[0].id
    return ids


def count_own(tokenizer: Tokenizer, parts: Sequence[Part], fmt: Format) -> Framed:
    """Encode a model's own format with the model's own tokenizer: its markers are matched as the
    tokenizer's own tokens (one id each, marker_ids), any other special string reads as text."""
    marker_ids(tokenizer, fmt)  # raises when a marker is not one of its tokens
    _refuse_markers_in_content(parts, fmt.specials)
    text = "".join(p.text for p in parts)
    allowed = frozenset(fmt.specials) & frozenset(tokenizer.special_tokens)
    tokens = tokenizer.encode(text, allowed_special=allowed, disallowed_special=())
    return framed_counts(text, parts, tokens)


def framed_counts(text: str, parts: Sequence[Part], tokens: Sequence[Token]) -> Framed:
    """How many of `tokens` each part of `text` holds (a token counts for the part its last
    character is in): the one counting rule of every chat format, built-in or a model's own
    template (measure/chat_template_count.py)."""
    starts, k = [], 0
    for p in parts:
        starts.append(k)
        k += len(p.text)
    filled = [i for i, p in enumerate(parts) if p.text]  # an empty part holds no token
    filled_starts = [starts[i] for i in filled]
    counts = [0] * len(parts)
    for t in tokens:  # the last non-empty part starting at or before the token's last character
        last = t.end - 1 if t.end > t.start else t.start  # a zero-width token: where it sits
        counts[filled[bisect_right(filled_starts, last) - 1]] += 1
    return Framed(text, tuple(parts), tuple(counts), tuple(tokens))
