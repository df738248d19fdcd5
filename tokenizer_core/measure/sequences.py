"""From token ids to model inputs: special tokens, templates, truncation, padding, attention masks.

A model does not read the ids of one text: it reads a *batch* of fixed-length rows. This module
does the four steps between them, in the order HF `tokenizers` does them (its `TemplateProcessing`,
`enable_truncation` and `enable_padding`, which the tests use as the oracle):

1. truncate the content to `max_length` minus the specials the template will add (so the
   end-of-sequence token is never cut off), with a strategy for pairs;
2. add the template's specials: `<bos> A <eos>`, or `<cls> A <sep> B <sep>` with token type ids
   0 for the first sentence and 1 for the second;
3. pad on the left or the right to `max_length`, or to the longest row of the batch;
4. the attention mask: 1 on every real or special token, 0 on padding.

Special tokens come from the lesson's families (structural, functional, control, language and
task tags) or are typed by the user; their ids come first, before any ordinary token, as the
lesson's tokenizer exercise requires.

Leaves out: turning text into ids (any Tokenizer does that, see `encode_with_set`), long-text
windows (sequences_windows.py) and batching by length (sequences_batches.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Mapping, Sequence

from ..interface import AllowedSpecial, Tokenizer, encode_with_specials
from ..messages import N_, Refusal
from ..tokens import Token

# The lesson's families of special tokens, by what they do.
SPECIAL_FAMILIES: dict[str, tuple[str, ...]] = {
    "structural": ("<bos>", "<eos>", "<pad>", "<mask>"),
    "functional": ("<sep>", "<cls>", "<unk>"),
    "control": ("<system>", "<human>", "<assistant>", "<code>"),
    "language and task": ("<en>", "<zh>", "<translate>"),
}
MAX_SPECIAL_CHARS = 40  # one special token's string: a tag, not a paragraph

Strategy = Literal["longest_first", "only_first", "only_second"]
STRATEGIES: tuple[Strategy, ...] = ("longest_first", "only_first", "only_second")
Side = Literal["right", "left"]
Padding = Literal["none", "max_length", "longest"]
PADDINGS: tuple[Padding, ...] = ("none", "max_length", "longest")


# --- the special-token set ----------------------------------------------------------------------


def special_set(tokens: Sequence[str], first_id: int = 0) -> dict[str, int]:
    """Ids for special tokens, in the order given, starting at `first_id`.

    A tokenizer trained from scratch gives its specials ids 0, 1, 2... before the base symbols
    (the lesson's rule); one that already exists (GPT-2) gets them after its vocabulary, which is
    what HF's `add_special_tokens` does. Duplicates keep their first place.
    """
    ids: dict[str, int] = {}
    for token in tokens:
        check_special(token)
        ids.setdefault(token, first_id + len(ids))
    return ids


def check_special(token: str) -> None:
    if not token or token != token.strip():
        raise Refusal(N_("special token {token} is empty or has spaces around it; type it bare, "
                         "e.g. '<bos>'"), token=repr(token))
    if len(token) > MAX_SPECIAL_CHARS:
        raise Refusal(N_("special token {token}... is over {max} characters"),
                      token=repr(token[:20]), max=MAX_SPECIAL_CHARS)


def encode_with_set(
    tokenizer: Tokenizer,
    text: str,
    specials: Mapping[str, int],
    allowed_special: AllowedSpecial = frozenset(),
) -> list[Token]:
    """Text to tokens with an added special-token set: each allowed special string is one token
    (never split), the rest goes through `tokenizer` as plain text.

    The project's one rule holds for the added set too: a special string the caller did not
    allow raises DisallowedSpecialToken, which says how to allow it.
    """

    def plain(segment: str, offset: int) -> list[Token]:
        tokens = tokenizer.encode(segment, disallowed_special=())
        return [_shifted(t, offset) for t in tokens]

    return encode_with_specials(text, specials, allowed_special, "all", plain)


def _shifted(token: Token, offset: int) -> Token:
    return Token(token.id, token.bytes, token.start + offset, token.end + offset, token.partial,
                 token.piece, token.special, token.unknown)


# --- templates ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    """One slot of a template: `$A`, `$B` or a special token, with its token type id."""

    name: str
    type_id: int = 0

    @property
    def is_sequence(self) -> bool:
        return self.name in ("$A", "$B")


@dataclass(frozen=True)
class Template:
    """Where the specials go around one sequence and around a pair (HF's TemplateProcessing).

    Written in HF's own syntax: `"<cls> $A <sep>"` and `"<cls> $A <sep> $B:1 <sep>:1"`.
    """

    single: tuple[Piece, ...]
    pair: tuple[Piece, ...]

    @classmethod
    def parse(cls, single: str, pair: str) -> Template:
        return cls(_parse_side(single, ("$A",)), _parse_side(pair, ("$A", "$B")))

    def specials(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p.name for p in self.single + self.pair if not p.is_sequence))

    def added(self, is_pair: bool) -> int:
        """How many special tokens this template adds (truncation leaves room for them)."""
        return sum(not p.is_sequence for p in (self.pair if is_pair else self.single))


def _parse_side(text: str, sequences: tuple[str, ...]) -> tuple[Piece, ...]:
    pieces = []
    for word in text.split():
        name, _, type_id = word.rpartition(":") if ":" in word[1:] else (word, "", "0")
        if not type_id.isdigit():
            raise ValueError(f"template piece {word!r}: the part after ':' must be a type id like 1")
        pieces.append(Piece(name, int(type_id)))
    found = [p.name for p in pieces if p.is_sequence]
    if found != list(sequences):
        raise ValueError(f"template {text!r} must hold {' and '.join(sequences)} once each, in order")
    return tuple(pieces)


BOS_EOS = Template.parse("<bos> $A <eos>", "<bos> $A <eos> $B:1 <eos>:1")
CLS_SEP = Template.parse("<cls> $A <sep>", "<cls> $A <sep> $B:1 <sep>:1")
NO_SPECIALS = Template.parse("$A", "$A $B:1")
# BERT's own, as bert-base-uncased's tokenizer.json writes its post-processor: the tokenizer's
# own [CLS] (101) and [SEP] (102), not ids added after the vocabulary.
BERT_OWN = Template.parse("[CLS] $A [SEP]", "[CLS] $A [SEP] $B:1 [SEP]:1")
BERT_OWN_NAME = N_("BERT's own [CLS] [SEP]")  # names in words are marked: the page says them
TEMPLATES: dict[str, Template] = {"<bos> A <eos>": BOS_EOS, "<cls> A <sep> B <sep>": CLS_SEP,
                                  BERT_OWN_NAME: BERT_OWN, N_("none"): NO_SPECIALS}


# --- the model input ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Encoded:
    """One row of model input: ids, token type ids, attention mask, and which ids are special.

    `special_mask` marks the template's specials *and* padding (HF's special_tokens_mask does
    the same); `attention_mask` is 0 only on padding.
    """

    ids: tuple[int, ...]
    type_ids: tuple[int, ...]
    attention_mask: tuple[int, ...]
    special_mask: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def padding(self) -> int:
        return self.attention_mask.count(0)


@dataclass(frozen=True)
class Settings:
    """How to turn ids into model input (the page's and the tests' knobs, in one value)."""

    template: Template = BOS_EOS
    max_length: int | None = None  # None: no truncation
    strategy: Strategy = "longest_first"
    padding: Padding = "none"
    side: Side = "right"
    pad_id: int = 0
    pad_type_id: int = 0


def truncate_pair(
    a: Sequence[int], b: Sequence[int] | None, room: int, strategy: Strategy
) -> tuple[list[int], list[int] | None]:
    """Cut content ids to fit `room` tokens, keeping each sequence's start (HF's rule).

    longest_first: shorten the longer one until they are equal, then both, alternately
    (subtle: when both are over half, HF gives the first half the room, rounded down, and the
    second the rest). only_first / only_second: cut one, and refuse if it is too short to
    make room.
    """
    n1, n2 = len(a), len(b or ())
    if n1 + n2 <= room:
        return list(a), None if b is None else list(b)
    if b is None:
        if strategy == "only_second":
            raise Refusal(N_("only_second truncation needs a second sequence; pick longest_first"))
        return list(a[:room]), None
    if strategy == "longest_first":
        short, long_ = sorted((n1, n2))
        keep_short, keep_long = short, (short if short > room else max(short, room - short))
        if keep_short + keep_long > room:
            keep_short, keep_long = room // 2, room // 2 + room % 2
        k1, k2 = (keep_long, keep_short) if n1 > n2 else (keep_short, keep_long)
        return list(a[:k1]), list(b[:k2])
    over = n1 + n2 - room
    if strategy == "only_first":
        if n1 <= over:
            raise Refusal(N_("only_first cannot make room: the first sequence has {n} tokens and "
                             "{over} must go; pick longest_first or a larger max length"),
                          n=n1, over=over)
        return list(a[: n1 - over]), list(b)
    if n2 <= over:
        raise Refusal(N_("only_second cannot make room: the second sequence has {n} tokens and "
                         "{over} must go; pick longest_first or a larger max length"),
                      n=n2, over=over)
    return list(a), list(b[: n2 - over])


def add_specials(
    a: Sequence[int], b: Sequence[int] | None, template: Template, specials: Mapping[str, int]
) -> Encoded:
    """Lay the content into the template: ids, type ids, and which positions are special."""
    ids: list[int] = []
    types: list[int] = []
    special: list[int] = []
    for piece in template.pair if b is not None else template.single:
        if piece.is_sequence:
            run = a if piece.name == "$A" else (b or ())
            ids += run
            types += [piece.type_id] * len(run)
            special += [0] * len(run)
        else:
            if piece.name not in specials:
                raise Refusal(N_("the template uses {token}, which is not in the special-token "
                                 "set"), token=repr(piece.name))
            ids.append(specials[piece.name])
            types.append(piece.type_id)
            special.append(1)
    return Encoded(tuple(ids), tuple(types), (1,) * len(ids), tuple(special))


def pad(row: Encoded, length: int, side: Side, pad_id: int, pad_type_id: int = 0) -> Encoded:
    """Pad a row to `length` (a longer row is left as it is: padding never truncates)."""
    n = max(0, length - len(row))

    def fill(values: tuple[int, ...], value: int) -> tuple[int, ...]:
        return values + (value,) * n if side == "right" else (value,) * n + values

    return Encoded(fill(row.ids, pad_id), fill(row.type_ids, pad_type_id),
                   fill(row.attention_mask, 0), fill(row.special_mask, 1))


def prepare(
    a: Sequence[int], b: Sequence[int] | None, settings: Settings, specials: Mapping[str, int]
) -> Encoded:
    """One sequence (or a pair) of ids -> one row of model input (padding to max_length only)."""
    return prepare_batch([(a, b)], settings, specials)[0]


def prepare_batch(
    items: Sequence[tuple[Sequence[int], Sequence[int] | None]],
    settings: Settings,
    specials: Mapping[str, int],
) -> list[Encoded]:
    """Several sequences (or pairs) -> rows, truncated, framed, then padded together."""
    rows = []
    for a, b in items:
        if settings.max_length is not None:
            room = settings.max_length - settings.template.added(b is not None)
            if room < 0:
                raise Refusal(N_("max length {max_length} leaves no room: the template adds "
                                 "{added} special tokens"), max_length=settings.max_length,
                              added=settings.template.added(b is not None))
            a, b = truncate_pair(a, b, room, settings.strategy)
        rows.append(add_specials(a, b, settings.template, specials))
    if settings.padding == "none" or not rows:
        return rows
    if settings.padding == "max_length":
        if settings.max_length is None:
            raise Refusal(N_("padding to max_length needs a max length; set one or pad to the "
                             "longest"))
        length = settings.max_length
    else:
        length = max(len(r) for r in rows)
    return [pad(r, length, settings.side, settings.pad_id, settings.pad_type_id) for r in rows]
