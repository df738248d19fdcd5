"""WordPiece encoding: greedy longest-match-first with `##` continuation over a vocabulary.

What it adds to trainers/wordpiece.py (which learns a vocabulary):
- pre-tokenization as HF's `BertPreTokenizer` does it: split on whitespace as Rust's
  `char::is_whitespace` sees it (not Python's `str.isspace`, which also counts U+001C..U+001F),
  and isolate every punctuation character (ASCII punctuation, or general category P* in the
  Unicode 8.0 tables that HF `tokenizers` is built with; newer punctuation is ordinary text there,
  so it is here; a test checks every code point against HF);
- each word: the longest vocabulary entry that starts it, then the longest `##` entry that
  continues it, and so on. A word that cannot be finished this way becomes ONE `[UNK]` over the
  whole word, and so does a word longer than `max_input_chars_per_word` characters;
- Token records: `bytes` are the input the piece covers (`##able` covers `able`), `start`/`end`
  are character offsets, `piece` is the vocabulary string (`##able`, `[UNK]`);
- special tokens by the rule in interface.py, the model file (`to_dict` / `from_dict`) and
  the command line's reader (`wordpiece_from_json`; its writer is modelfile.train_wordpiece_json).

decode(ids) joins the pieces with spaces and glues each `##` piece to the one before (HF's
`decoders.WordPiece` without its cleanup). It loses: the whitespace layout (any run becomes one
space), the spacing around punctuation (`Hi, you` comes back as `Hi , you`), and what each
`[UNK]` stood for.

Leaves out: normalization (no lowercasing, accent stripping or CJK spacing: HF's
`BertNormalizer`), post-processing (`[CLS] ... [SEP]` templates), training (trainers/wordpiece.py).
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal, Mapping, Protocol, Sequence

from ..interface import AllowedSpecial, DisallowedSpecial, encode_with_specials
from ..pretokenize import Piece
from ..tokens import Token, require_unicode

# The vocabulary's conventions: the trainer (trainers/wordpiece.py) learns by them, this module
# encodes by them, so they live with the model, which imports nothing of training.
ScoreKind = Literal["ratio", "likelihood"]
SCORES: tuple[ScoreKind, ...] = ("ratio", "likelihood")
CONTINUATION = "##"
DEFAULT_SPECIAL_TOKENS: tuple[str, ...] = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
UNK_TOKEN = "[UNK]"
MAX_INPUT_CHARS_PER_WORD = 100
_WORD_CACHE_SIZE = 50_000

# Punctuation as HF's BertPreTokenizer sees it: `char::is_ascii_punctuation` or the
# `unicode_categories` crate's `is_punctuation` (Unicode 8.0 general categories Pc Pd Ps Pe Pi Pf
# Po). Hex code point ranges, read off `tokenizers` itself; test_wordpiece.py checks every code
# point against it, so a `tokenizers` release with newer tables shows up as a failing test.
_HF_PUNCTUATION_RANGES = (
    "21-2F 3A-40 5B-60 7B-7E A1 A7 AB B6-B7 BB BF 37E 387 55A-55F 589-58A 5BE 5C0 5C3 5C6 5F3-5F4 "
    "609-60A 60C-60D 61B 61E-61F 66A-66D 6D4 700-70D 7F7-7F9 830-83E 85E 964-965 970 AF0 DF4 E4F "
    "E5A-E5B F04-F12 F14 F3A-F3D F85 FD0-FD4 FD9-FDA 104A-104F 10FB 1360-1368 1400 166D-166E "
    "169B-169C 16EB-16ED 1735-1736 17D4-17D6 17D8-17DA 1800-180A 1944-1945 1A1E-1A1F 1AA0-1AA6 "
    "1AA8-1AAD 1B5A-1B60 1BFC-1BFF 1C3B-1C3F 1C7E-1C7F 1CC0-1CC7 1CD3 2010-2027 2030-2043 "
    "2045-2051 2053-205E 207D-207E 208D-208E 2308-230B 2329-232A 2768-2775 27C5-27C6 27E6-27EF "
    "2983-2998 29D8-29DB 29FC-29FD 2CF9-2CFC 2CFE-2CFF 2D70 2E00-2E2E 2E30-2E42 3001-3003 "
    "3008-3011 3014-301F 3030 303D 30A0 30FB A4FE-A4FF A60D-A60F A673 A67E A6F2-A6F7 A874-A877 "
    "A8CE-A8CF A8F8-A8FA A8FC A92E-A92F A95F A9C1-A9CD A9DE-A9DF AA5C-AA5F AADE-AADF AAF0-AAF1 "
    "ABEB FD3E-FD3F FE10-FE19 FE30-FE52 FE54-FE61 FE63 FE68 FE6A-FE6B FF01-FF03 FF05-FF0A "
    "FF0C-FF0F FF1A-FF1B FF1F-FF20 FF3B-FF3D FF3F FF5B FF5D FF5F-FF65 10100-10102 1039F 103D0 "
    "1056F 10857 1091F 1093F 10A50-10A58 10A7F 10AF0-10AF6 10B39-10B3F 10B99-10B9C 11047-1104D "
    "110BB-110BC 110BE-110C1 11140-11143 11174-11175 111C5-111C9 111CD 111DB 111DD-111DF "
    "11238-1123D 112A9 114C6 115C1-115D7 11641-11643 1173C-1173E 12470-12474 16A6E-16A6F 16AF5 "
    "16B37-16B3B 16B44 1BC9F 1DA87-1DA8B"
)
# Rust's `char::is_whitespace` (the Unicode White_Space property).
_HF_WHITESPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"


def _char_class(ranges: str) -> str:
    parts = []
    for item in ranges.split():
        low, _, high = item.partition("-")
        parts.append(re.escape(chr(int(low, 16))))
        if high:
            parts.append("-" + re.escape(chr(int(high, 16))))
    return "".join(parts)


_PUNCTUATION = _char_class(_HF_PUNCTUATION_RANGES)
_BERT_PIECE = re.compile(f"[{_PUNCTUATION}]|[^{_PUNCTUATION}{_HF_WHITESPACE}]+")
_IS_WHITESPACE = re.compile(f"[{_HF_WHITESPACE}]")
_IS_PUNCTUATION = re.compile(f"[{_PUNCTUATION}]")


def is_bert_whitespace(ch: str) -> bool:
    return _IS_WHITESPACE.fullmatch(ch) is not None


def is_bert_punctuation(ch: str) -> bool:
    return _IS_PUNCTUATION.fullmatch(ch) is not None


def bert_pieces(text: str) -> list[Piece]:
    """Words and single punctuation characters with character offsets, like HF's
    `BertPreTokenizer().pre_tokenize_str(text)`; whitespace belongs to no piece."""
    return [Piece(m.group(), m.start(), m.end()) for m in _BERT_PIECE.finditer(text)]


def check_score(score: str) -> ScoreKind:
    if score not in SCORES:
        raise ValueError(f"unknown WordPiece score {score!r}; choose 'ratio' or 'likelihood'")
    return score  # type: ignore[return-value]


def join_pieces(a: str, b: str, continuation: str = CONTINUATION) -> str:
    """`un` + `##able` -> `unable`; `##u` + `##g` -> `##ug`; with continuation '' plain `a + b`.

    Subtle: the right part of a pair is never a word's first symbol, so in a `##` split it
    always carries the prefix; stripping it by length (not by `startswith`) keeps a word made
    of `#` characters from losing real ones.
    """
    return a + b[len(continuation):]


def continuation_split(word: str, continuation: str = CONTINUATION) -> tuple[str, ...]:
    """`hug` -> ('h', '##u', '##g')."""
    return (word[0], *(continuation + ch for ch in word[1:]))


Match = tuple[tuple[int, int, int], ...]  # (id, start, end) per piece, offsets inside the word


class LearnedVocabulary(Protocol):
    """What a training run hands the encoder (trainers/wordpiece.py's WordPieceTraining is one).

    The model reads these fields and nothing else, so it never depends on how they were learned.
    """

    vocab: tuple[str, ...]
    special_tokens: tuple[str, ...]
    continuation: str
    score: ScoreKind

    @property
    def merges(self) -> list[tuple[str, str]]: ...

    @property
    def counts(self) -> list[int]: ...

    @property
    def scores(self) -> list[float]: ...


class WordPieceTokenizer:
    """A WordPiece vocabulary and greedy longest-match-first encoding (an interface.Tokenizer).

    Ids are positions in `vocab`. `merges`, `counts` and `scores` record how training built the
    vocabulary (empty for a vocabulary given by hand); encoding needs only the vocabulary.
    """

    def __init__(
        self,
        vocab: Sequence[str],
        *,
        unk_token: str = UNK_TOKEN,
        special_tokens: Sequence[str] | None = None,
        max_input_chars_per_word: int = MAX_INPUT_CHARS_PER_WORD,
        merges: Sequence[tuple[str, str]] = (),
        counts: Sequence[int] = (),
        scores: Sequence[float] = (),
        score: ScoreKind | None = None,
        name: str = "wordpiece",
    ) -> None:
        self.name = name
        self.vocab: tuple[str, ...] = tuple(vocab)
        self._ids = _index_vocab(self.vocab)
        if special_tokens is None:
            special_tokens = [t for t in DEFAULT_SPECIAL_TOKENS if t in self._ids]
        self._specials = {t: self._known(t, "special token") for t in special_tokens}
        self.unk_token = unk_token
        self.unk_id = self._known(unk_token, "unk_token")
        self.max_input_chars_per_word = _check_max_chars(max_input_chars_per_word)
        self.merges = tuple((a, b) for a, b in merges)
        self.counts, self.scores = tuple(counts), tuple(scores)
        self.score = None if score is None else check_score(score)
        self._check_merges()
        self._longest_start = max(len(v) for v in self.vocab)
        continuations = [v for v in self.vocab if v.startswith(CONTINUATION)]
        self._longest_continuation = max(
            (len(v) - len(CONTINUATION) for v in continuations), default=0
        )
        self._cache: dict[str, Match | None] = {}

    # -- construction ----------------------------------------------------------------------------

    @classmethod
    def from_vocab(
        cls,
        vocab: Sequence[str],
        unk_token: str = UNK_TOKEN,
        special_tokens: Sequence[str] | None = None,
        max_input_chars_per_word: int = MAX_INPUT_CHARS_PER_WORD,
        name: str = "wordpiece",
    ) -> WordPieceTokenizer:
        """A model from a vocabulary list (ids are positions), e.g. a classroom example.

        special_tokens=None takes those of [PAD] [UNK] [CLS] [SEP] [MASK] that are in it.
        """
        return cls(vocab, unk_token=unk_token, special_tokens=special_tokens,
                   max_input_chars_per_word=max_input_chars_per_word, name=name)

    @classmethod
    def from_training(
        cls,
        training: LearnedVocabulary,
        unk_token: str = UNK_TOKEN,
        max_input_chars_per_word: int = MAX_INPUT_CHARS_PER_WORD,
        name: str = "wordpiece",
    ) -> WordPieceTokenizer:
        """The tokenizer a `##`-split training run learned."""
        if training.continuation != CONTINUATION:
            raise ValueError(
                "this training joined pieces without '##' continuation (a side-by-side run on a "
                "`</w>` split); train on wordpiece_corpus(...) to get an encoder"
            )
        if unk_token not in training.vocab:
            raise ValueError(
                f"unk_token {unk_token!r} is not in the learned vocabulary; train with it among "
                f"special_tokens (they were {list(training.special_tokens)})"
            )
        return cls(
            training.vocab, unk_token=unk_token, special_tokens=training.special_tokens,
            max_input_chars_per_word=max_input_chars_per_word, merges=training.merges,
            counts=training.counts, scores=training.scores, score=training.score, name=name,
        )

    def _known(self, token: str, what: str) -> int:
        if token not in self._ids:
            raise ValueError(
                f"{what} {token!r} is not in the vocabulary; add it, or name one that is"
            )
        return self._ids[token]

    def _check_merges(self) -> None:
        if not len(self.merges) == len(self.counts) == len(self.scores):
            raise ValueError(
                f"merges, counts and scores go together, one each per merge; got "
                f"{len(self.merges)}, {len(self.counts)} and {len(self.scores)}"
            )
        if self.merges and self.score is None:
            raise ValueError("a trained vocabulary needs its score, 'ratio' or 'likelihood'")
        for i, (a, b) in enumerate(self.merges):
            if not b.startswith(CONTINUATION):
                raise ValueError(f"merge {i} {[a, b]!r}: the right part should be a '##' piece")
            for part in (a, b, join_pieces(a, b)):
                if part not in self._ids:
                    raise ValueError(f"merge {i} {[a, b]!r}: {part!r} is not in the vocabulary")

    # -- the Tokenizer interface -----------------------------------------------------------------

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    @property
    def special_tokens(self) -> dict[str, int]:
        return dict(self._specials)

    def get_vocab(self) -> dict[str, int]:
        """`{piece: id}`, the shape HF's `models.WordPiece(vocab=...)` takes."""
        return dict(self._ids)

    def token_to_id(self, piece: str) -> int | None:
        return self._ids.get(piece)

    def id_to_token(self, token_id: int) -> str | None:
        return self.vocab[token_id] if 0 <= token_id < len(self.vocab) else None

    def encode(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: DisallowedSpecial = "all",
    ) -> list[Token]:
        """Tokens with ids, bytes and character offsets; special tokens by interface.py's rule."""
        _check_text(text)
        return encode_with_specials(
            text, self._specials, allowed_special, disallowed_special, self._encode_plain
        )

    def encode_ordinary(self, text: str) -> list[Token]:
        """Encode with every special-token string read as plain text."""
        _check_text(text)
        return self._encode_plain(text, 0)

    def tokenize_word(self, word: str) -> list[str]:
        """The pieces of one word: `unbelievable` -> ['un', '##believ', '##able'] or ['[UNK]']."""
        match = self._match(word)
        return [self.unk_token] if match is None else [self.vocab[i] for i, _, _ in match]

    def decode(self, ids: Sequence[int]) -> str:
        """Pieces joined by spaces, `##` pieces glued to the one before (see the module docstring
        for what this loses). A leading `##` piece keeps its prefix, as in HF."""
        out: list[str] = []
        for k, token_id in enumerate(ids):
            piece = self.id_to_token(token_id) if isinstance(token_id, int) else None
            if piece is None:
                raise ValueError(
                    f"id {token_id!r} (position {k}) is not in this vocabulary of "
                    f"{len(self.vocab)}; ids run from 0 to {len(self.vocab) - 1}"
                )
            if k and piece.startswith(CONTINUATION):
                out.append(piece[len(CONTINUATION):])
            else:
                out.append(" " + piece if k else piece)
        return "".join(out)

    # -- encoding --------------------------------------------------------------------------------

    def _encode_plain(self, text: str, offset: int) -> list[Token]:
        tokens: list[Token] = []
        for word in bert_pieces(text):
            start = offset + word.start
            match = self._match(word.text)
            if match is None:  # the whole word is one [UNK]
                tokens.append(Token(self.unk_id, word.text.encode("utf-8"), start,
                                    start + len(word.text), piece=self.unk_token, unknown=True))
                continue
            for token_id, a, b in match:
                tokens.append(Token(token_id, word.text[a:b].encode("utf-8"), start + a,
                                    start + b, piece=self.vocab[token_id]))
        return tokens

    def _match(self, word: str) -> Match | None:
        if word not in self._cache:
            if len(self._cache) >= _WORD_CACHE_SIZE:
                self._cache.clear()
            self._cache[word] = self._longest_match_first(word)
        return self._cache[word]

    def _longest_match_first(self, word: str) -> Match | None:
        """Greedy longest-match-first; None when the word is [UNK]."""
        if len(word) > self.max_input_chars_per_word:
            return None
        pieces: list[tuple[int, int, int]] = []
        start, n = 0, len(word)
        while start < n:
            prefix = CONTINUATION if start else ""
            # no entry is longer than the longest one: skip substrings that cannot match
            longest = self._longest_continuation if start else self._longest_start
            for end in range(min(n, start + longest), start, -1):
                token_id = self._ids.get(prefix + word[start:end])
                if token_id is not None:
                    pieces.append((token_id, start, end))
                    start = end
                    break
            else:
                return None
        return tuple(pieces)

    # -- the model file --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The model file (see DESIGN.md, `train --algorithm wordpiece`)."""
        return {
            "algorithm": "wordpiece",
            "level": "word",
            "merges": [[a, b] for a, b in self.merges],
            "counts": list(self.counts),
            "scores": list(self.scores),
            "vocab_size": self.vocab_size,
            "vocab": list(self.vocab),
            "special_tokens": list(self._specials),
            "unk_token": self.unk_token,
            "max_input_chars_per_word": self.max_input_chars_per_word,
            "score": self.score,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], name: str = "model") -> WordPieceTokenizer:
        """A tokenizer from a model file's JSON; ValueError saying what is wrong otherwise.

        Required: algorithm ('wordpiece') and vocab. The rest default as in `from_vocab`; merges,
        counts and scores are empty for a vocabulary written by hand (then score may be null).
        """
        if not isinstance(data, Mapping):
            raise ValueError(
                f"a WordPiece model file holds a JSON object, got {type(data).__name__}"
            )
        unknown = sorted(set(data) - _FILE_KEYS)
        if unknown:
            raise ValueError(
                f"WordPiece model file has unknown key(s) {unknown}; "
                f"the keys are {sorted(_FILE_KEYS)}"
            )
        if data.get("algorithm") != "wordpiece":
            raise ValueError(
                f"model file's algorithm is {data.get('algorithm')!r}, expected 'wordpiece'"
            )
        if data.get("level", "word") != "word":
            raise ValueError(
                f"a WordPiece model works on words: level should be 'word', got {data['level']!r}"
            )
        if "vocab" not in data:
            raise ValueError(
                "WordPiece model file has no 'vocab' (the list of pieces, ids by position)"
            )
        vocab = _string_list(data, "vocab")
        stated = data.get("vocab_size", len(vocab))
        if type(stated) is not int or stated != len(vocab):
            raise ValueError(
                f"model file says vocab_size {stated!r} but its vocab has {len(vocab)} "
                "pieces; the file was edited or truncated"
            )
        specials = _string_list(data, "special_tokens") if "special_tokens" in data else None
        unk = data.get("unk_token", UNK_TOKEN)
        if not isinstance(unk, str):
            raise ValueError(f"model file's unk_token should be a string, got {unk!r}")
        score = data.get("score")
        if score is not None and score not in SCORES:
            raise ValueError(
                f"model file's score should be 'ratio', 'likelihood' or null, got {score!r}"
            )
        return cls(
            vocab, unk_token=unk, special_tokens=specials,
            max_input_chars_per_word=data.get("max_input_chars_per_word", MAX_INPUT_CHARS_PER_WORD),
            merges=_merge_list(data), counts=_count_list(data), scores=_score_list(data),
            score=score, name=name,
        )


_FILE_KEYS = frozenset({
    "algorithm", "level", "merges", "counts", "scores", "vocab_size", "vocab", "special_tokens",
    "unk_token", "max_input_chars_per_word", "score",
})


def _index_vocab(vocab: tuple[str, ...]) -> dict[str, int]:
    if not vocab:
        raise ValueError("the vocabulary is empty; it needs at least the unk_token, e.g. ['[UNK]']")
    ids: dict[str, int] = {}
    for i, piece in enumerate(vocab):
        if not isinstance(piece, str) or not piece:
            raise ValueError(f"vocabulary entry {i} should be a non-empty string, got {piece!r}")
        if piece in ids:
            raise ValueError(
                f"{piece!r} is in the vocabulary twice (ids {ids[piece]} and {i}); keep one"
            )
        ids[piece] = i
    return ids


def _check_max_chars(value: object) -> int:
    if type(value) is not int or value < 1:
        raise ValueError(f"max_input_chars_per_word must be a whole number >= 1, got {value!r}")
    return value


def _check_text(text: str) -> None:
    if not isinstance(text, str):
        raise ValueError(f"text to encode should be a str, got {type(text).__name__}")
    require_unicode(text)


def _string_list(data: Mapping[str, Any], key: str) -> list[str]:
    value = data[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"model file's {key!r} should be a list of strings")
    return value


def _merge_list(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    merges = data.get("merges", [])
    if not isinstance(merges, list):
        raise ValueError("model file's 'merges' should be a list of [a, b] pairs")
    for i, merge in enumerate(merges):
        if not (isinstance(merge, list) and len(merge) == 2
                and all(isinstance(p, str) for p in merge)):
            raise ValueError(f"model file's merge {i} should be a pair of strings, got {merge!r}")
    return [(a, b) for a, b in merges]


def _count_list(data: Mapping[str, Any]) -> list[int]:
    counts = data.get("counts", [])
    if not isinstance(counts, list) or not all(type(c) is int and c >= 1 for c in counts):
        raise ValueError(
            "model file's 'counts' should be a list of whole numbers >= 1, one per merge"
        )
    return counts


def _score_list(data: Mapping[str, Any]) -> list[float]:
    scores = data.get("scores", [])
    if not isinstance(scores, list) or not all(
        type(s) in (int, float) and math.isfinite(s) for s in scores
    ):
        raise ValueError("model file's 'scores' should be a list of finite numbers, one per merge")
    return [float(s) for s in scores]


def wordpiece_from_json(data: Mapping[str, Any], name: str = "model") -> WordPieceTokenizer:
    """`encode --tokenizer model --model FILE` for a WordPiece file."""
    return WordPieceTokenizer.from_dict(data, name)
