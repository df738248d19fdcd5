"""A vocabulary as a table: every token's id, bytes, text, length, script and word-start mark.

`vocabulary(tokenizer)` reads the table of any tokenizer here: tiktoken's encodings and the open
models built on them (ids from `mergeable_ranks` and the special tokens), our byte-level BPE,
character-level BPE, WordPiece and Unigram (its `pieces`), SentencePiece models (the library's
pieces; a byte-fallback piece `<0xE4>` is its one byte), and HF tokenizers (byte-level tokens mapped back through
GPT-2's byte alphabet); reference/vocab_tokens.py reads those three libraries' tables. A tokenizer
whose library runs in another process (isolated.py: a file of the models folder or the Hugging
Face cache) hands over the same tokens from there, by its `vocabulary_tokens()`, and gets the
same table. Bytes are the truth: `text` is derived from them, and is None when they
are not whole UTF-8 characters.

Ids: a vocabulary's `size` is the tokenizer's own count (tiktoken's `n_vocab`, one more than the
largest id). cl100k_base and o200k_base have ids that no token holds (cl100k: 100256 and
100261..100275; o200k: 199998 and 200000..200017); they have no row, and `gaps` lists them.

Script, by this rule (Unicode general categories and Script property, as the `regex` module
ships them; one class per token):
1. bytes that are not whole UTF-8 characters: `partial bytes`;
2. a character shown as an emoji by default (`\\p{Emoji_Presentation}`), or any text with
   VS16 (U+FE0F, "show as emoji"): `emoji`;
3. letters (general category L*): when every letter has the Unicode Script property Latin,
   the token is `Latin`; likewise `Han` and `Cyrillic`; letters of another script or a mix of
   scripts give `other` (combining marks, category M, are not letters and do not count);
4. no letters but a number (N*): `digits`; else punctuation or a symbol (P*, S*): `punctuation`;
5. only whitespace (str.isspace, or `▁`): `whitespace`; else (controls, format): `other`.
Special tokens (`<|endoftext|>`) are their own class, `special`.
The word-start mark (`##`, `▁`) and the word level's `</w>` are set aside first: `##ing` is Latin.

`rank` is, for a BPE vocabulary, the number of the merge that made the token (0 = first merge);
None for the base bytes or alphabet, special tokens, and models that are not BPE. tiktoken's
ranks order its merges, so there the rank is the token's position among multi-byte tokens by
rank. `merge_parts` finds which two tokens a tiktoken-style merge joined.

Search (by text, id, hex bytes, regex) returns ids; a regex is checked before it is compiled
(user_regex.py: its length and its repeats) and bounded in time while it matches.
Compare two vocabularies by their token bytes. Histograms and counts are plain dicts.

Leaves out: rendering (render.py, the pages), which tokens a corpus uses, and pruning.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Iterator, NamedTuple, Sequence

import regex

from ..interface import Tokenizer
from ..messages import N_, Refusal
from ..models.byte_bpe import ByteLevelBPE
from ..models.char_bpe import CharLevelBPE
from ..models.wordpiece import CONTINUATION, WordPieceTokenizer, join_pieces
from ..pretokenize import WORD_END
from ..reference.hf import METASPACE
from ..reference.vocab_tokens import VocabToken, ranked_tokens, reference_tokens
from ..tokens import piece_of
from ..user_regex import compile_user_pattern

# The classes' names are marked for the catalog: the pages show them translated (`_(script)`).
SCRIPTS = (
    N_("Latin"), N_("Han"), N_("Cyrillic"), N_("digits"), N_("whitespace"), N_("punctuation"),
    N_("emoji"), N_("partial bytes"), N_("other"),
)  # fmt: skip
SPECIAL = N_("special")  # the class of special tokens
MAX_REGEX_CHARS = 200  # a search regex longer than this is refused
REGEX_SECONDS = 0.5  # a regex search over the whole table stops after this long
SHORT_TEXT = 12  # characters: a regex on a text this short needs no timeout of its own
COMPARE_EXAMPLES = 20  # tokens shown for each side of a comparison


class VocabRow(NamedTuple):
    """One token of a vocabulary (a NamedTuple: 200,000 of them build in a fraction of a second).

    start: the word-start mark the token begins with: "space" (byte 0x20), "▁", "##"
           (a WordPiece continuation, which marks *not* a word start), or "".
    """

    id: int
    bytes: bytes
    text: str | None
    n_bytes: int
    n_chars: int | None  # None when the bytes are not whole characters
    script: str
    start: str
    special: bool
    rank: int | None

    @property
    def hex(self) -> str:
        return self.bytes.hex()


@dataclass(frozen=True)
class Vocabulary:
    """A tokenizer's vocabulary as rows in id order; `size` is the tokenizer's own count."""

    name: str
    kind: str  # "byte-level BPE", "BPE", "WordPiece", "Unigram", "SentencePiece bpe", "HF"
    size: int
    rows: tuple[VocabRow, ...]
    gaps: tuple[int, ...] = ()
    _by_id: dict[int, VocabRow] = field(default_factory=dict, repr=False, compare=False)
    _texts: list[tuple[int, str]] = field(default_factory=list, repr=False, compare=False)

    def row(self, token_id: int) -> VocabRow | None:
        if not self._by_id:
            self._by_id.update((r.id, r) for r in self.rows)
        return self._by_id.get(token_id)

    def texts(self) -> list[tuple[int, str]]:
        """(id, text) of every token whose bytes are whole characters, made once (searches)."""
        if not self._texts:
            self._texts.extend((r.id, r.text) for r in self.rows if r.text is not None)
        return self._texts


# --- script classes --------------------------------------------------------------------------

# Each test is one regex over the whole token, in C: a per-character Python loop over 200,000
# tokens costs seconds. `[\p{L}--\p{Latin}]` is "a letter that is not Latin" (regex's V1 sets).
_EMOJI = regex.compile(r"\p{Emoji_Presentation}|\uFE0F")
_LETTER = regex.compile(r"\p{L}")
_OTHER_THAN = {
    script: regex.compile(rf"[\p{{L}}--\p{{{script}}}]", regex.V1)
    for script in ("Latin", "Han", "Cyrillic")
}
_DIGIT = regex.compile(r"\p{N}")
_PUNCTUATION = regex.compile(r"[\p{P}\p{S}--\u2581]", regex.V1)


def _bare(text: str) -> str:
    """The text without its word-start mark (`##`, `▁`) and the word level's end mark."""
    if text.startswith(CONTINUATION):
        text = text[len(CONTINUATION):]
    elif text.startswith(METASPACE):
        text = text[1:]
    if text.endswith(WORD_END) and len(text) > len(WORD_END):
        text = text[: -len(WORD_END)]
    return text


def script_of(text: str | None) -> str:
    """The script class of a token's text (None: partial bytes), by the module docstring's rule."""
    if text is None:
        return "partial bytes"
    bare = _bare(text)
    if bare.isascii() and bare.lower() != bare.upper():  # fast path: ASCII with a letter
        return "Latin"
    if _EMOJI.search(bare):
        return "emoji"
    if _LETTER.search(bare):
        for script, other in _OTHER_THAN.items():
            if not other.search(bare):
                return script
        return "other"
    if _DIGIT.search(bare):
        return "digits"
    if _PUNCTUATION.search(bare):
        return "punctuation"
    if all(ch.isspace() or ch == METASPACE for ch in text):
        return "whitespace"
    return "other"


def start_mark(data: bytes, text: str | None, continuation: bool) -> str:
    """The word-start mark a token begins with (VocabRow.start)."""
    if data[:1] == b" ":
        return "space"
    if text is not None and text.startswith(METASPACE):
        return METASPACE
    if continuation and text is not None and text.startswith(CONTINUATION):
        return CONTINUATION
    return ""


# --- reading a tokenizer's tokens ------------------------------------------------------------


# The tables of tiktoken's, HF's and SentencePiece's tokenizers are read by
# reference/vocab_tokens.py (the isolated worker reads a models-folder file's there too).
_Token = VocabToken


def _string_tokens(
    vocab: Sequence[str], specials: dict[str, int], merges: Iterable[tuple[str, str]], wordpiece: bool
) -> list[_Token]:
    made: dict[str, int] = {}
    for k, (a, b) in enumerate(merges):
        made.setdefault(join_pieces(a, b) if wordpiece else a + b, k)
    special_ids = set(specials.values())
    return [
        (i, s.encode("utf-8"), s, i in special_ids,
               None if i in special_ids else made.get(s))
        for i, s in enumerate(vocab)
    ]


def _tokens_of(tokenizer: Tokenizer) -> tuple[str, list[_Token]]:
    read = reference_tokens(tokenizer)
    if read is not None:
        return read
    # subtle: a tokenizer whose library runs elsewhere (isolated.py's worker, for a file of the
    # models folder) reads its table there and hands it over; it says what kind it is.
    remote = getattr(tokenizer, "vocabulary_tokens", None)
    if callable(remote):
        kind, tokens = remote()
        return kind, list(tokens)
    if isinstance(tokenizer, ByteLevelBPE):
        return "byte-level BPE", ranked_tokens(tokenizer.encoder, tokenizer.special_tokens)
    if isinstance(tokenizer, CharLevelBPE):
        return "BPE", _string_tokens(tokenizer.vocab, tokenizer.special_tokens,
                                     tokenizer.merges, wordpiece=False)  # type: ignore[arg-type]
    if isinstance(tokenizer, WordPieceTokenizer):
        return "WordPiece", _string_tokens(tokenizer.vocab, tokenizer.special_tokens,
                                           tokenizer.merges, wordpiece=True)
    pieces = getattr(tokenizer, "pieces", None)  # Unigram (models/unigram.py): (piece, log_prob)
    if isinstance(pieces, tuple) and all(isinstance(p, tuple) and len(p) == 2 for p in pieces):
        return "Unigram", _string_tokens([p for p, _ in pieces], tokenizer.special_tokens, (),
                                         wordpiece=False)
    raise ValueError(
        f"cannot read the vocabulary of {tokenizer.name!r} ({type(tokenizer).__name__}); "
        "the table reads tiktoken encodings, our BPE, WordPiece and Unigram models, "
        "SentencePiece models and HF tokenizers"
    )


def vocabulary(tokenizer: Tokenizer) -> Vocabulary:
    """The vocabulary table of a tokenizer, rows in id order.

    Built column by column with map and zip (C loops): o200k's 200,000 rows in well under a
    second, where a Python loop that builds each row on its own takes several.
    """
    with _collector_paused():
        return _vocabulary(tokenizer)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """subtle: building a table makes about two million small objects, and Python's cycle
    collector would walk the whole heap (a loaded o200k holds 200,000 ranks) again and again
    meanwhile; none of these objects form cycles, and pausing it saves about a quarter of the
    time (o200k: 0.71 s -> 0.52 s of CPU)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _vocabulary(tokenizer: Tokenizer) -> Vocabulary:
    kind, tokens = _tokens_of(tokenizer)
    tokens.sort()
    ids, datas, given, specials, ranks = zip(*tokens) if tokens else ((),) * 5
    texts = [g if g is not None else piece_of(d) for g, d in zip(given, datas)]
    scripts = [
        "special" if special else script_of(text) for special, text in zip(specials, texts)
    ]
    continuation = [kind == "WordPiece"] * len(texts)
    columns = (
        ids, datas, texts, map(len, datas), (None if t is None else len(t) for t in texts),
        scripts, map(start_mark, datas, texts, continuation), specials, ranks,
    )  # fmt: skip
    rows = tuple(map(VocabRow._make, zip(*columns)))
    size = tokenizer.vocab_size
    held = set(ids)
    gaps = tuple(i for i in range(size) if i not in held)
    return Vocabulary(tokenizer.name, kind, size, rows, gaps)


def merge_parts(ranks: dict[bytes, int], token: bytes) -> tuple[bytes, bytes] | None:
    """The two tokens whose merge made `token`, under tiktoken's rule (None for one byte).

    Replays BPE on the token's bytes with only the ranks below its own (tiktoken's
    `_educational.bpe_encode` with `max_rank`): what is left is the last pair joined.
    """
    rank = ranks.get(token)
    if rank is None or len(token) < 2:
        return None
    parts = [token[i : i + 1] for i in range(len(token))]
    while len(parts) > 2:
        found = [(ranks.get(a + b), k) for k, (a, b) in enumerate(zip(parts, parts[1:]))]
        best = min(((r, k) for r, k in found if r is not None and r < rank), default=None)
        if best is None:
            return None  # no merge path reaches this token (tiktoken allows such tokens)
        k = best[1]
        parts[k : k + 2] = [parts[k] + parts[k + 1]]
    return parts[0], parts[1]


# --- search ----------------------------------------------------------------------------------


def search_text(vocab: Vocabulary, needle: str, ignore_case: bool = False) -> list[int]:
    """Ids of the tokens whose text holds `needle`."""
    if ignore_case:
        needle = needle.casefold()
        return [i for i, text in vocab.texts() if needle in text.casefold()]
    return [i for i, text in vocab.texts() if needle in text]


def search_id(vocab: Vocabulary, token_id: int) -> list[int]:
    return [token_id] if vocab.row(token_id) is not None else []


def parse_hex(query: str) -> bytes:
    """`e4 bd a0`, `E4BDA0` or `<E4 BD A0>` -> bytes; ValueError saying what is wrong otherwise."""
    cleaned = query.strip().strip("<>").replace(" ", "")
    try:
        return bytes.fromhex(cleaned)
    except ValueError:
        raise Refusal(
            N_("{query} is not hex bytes; write each byte as two hex digits, e.g. 'e4 bd a0'"),
            query=repr(query)) from None


def search_bytes(vocab: Vocabulary, query: str) -> list[int]:
    """Ids of the tokens whose bytes hold the hex `query` (partial tokens included)."""
    needle = parse_hex(query)
    return [r.id for r in vocab.rows if needle in r.bytes]


def compile_search(pattern: str) -> regex.Pattern[str]:
    """The search regex compiled, once user_regex has checked that compiling it is safe: bounded
    in length (MAX_REGEX_CHARS) and in what its repeats spell out."""
    return compile_user_pattern(pattern, MAX_REGEX_CHARS)


def search_regex(vocab: Vocabulary, pattern: str, seconds: float = REGEX_SECONDS) -> list[int]:
    """Ids of the tokens whose text the regex finds a match in, within `seconds` of CPU in all.

    subtle: a pattern like `(a+)+b` backtracks exponentially on some texts. Short texts are
    searched plainly (the backtracking has too few characters to grow), longer ones with the
    regex module's own timeout, and a deadline checked every 1,024 rows stops the scan: no
    pattern stalls a server. The timeout is not passed for every row since it doubles the cost.
    """
    compiled = compile_search(pattern)
    search = compiled.search
    # CPU time of this thread, not wall-clock: on a busy server a plain search must not be
    # stopped because other sessions had the processor.
    deadline = time.thread_time() + seconds
    found = []
    try:
        for k, (token_id, text) in enumerate(vocab.texts()):
            if not k & 1023 and time.thread_time() > deadline:
                raise TimeoutError
            if search(text) if len(text) <= SHORT_TEXT else _search_long(search, text, deadline):
                found.append(token_id)
    except TimeoutError:
        raise Refusal(
            N_("the search regex {pattern} took over {seconds} s of processor time and was "
               "stopped; simplify it (nested repeats such as (a+)+ backtrack without end)"),
            pattern=repr(pattern), seconds=seconds) from None
    return found


def _search_long(search, text: str, deadline: float):
    """`search(text)` with the regex module's timeout, which counts wall-clock time.

    subtle: on a loaded machine (CI, a busy server) the thread can wait for the processor longer
    than the timeout while its search is cheap; that is not the pattern's fault. So a timeout is
    believed only once this thread's own CPU time has passed the deadline; before that, the
    text is searched again with what is left."""
    while True:
        left = deadline - time.thread_time()
        if left <= 0:
            raise TimeoutError
        try:
            return search(text, timeout=left)
        except TimeoutError:
            continue


# --- counts ----------------------------------------------------------------------------------


def script_counts(rows: Iterable[VocabRow]) -> dict[str, int]:
    """Tokens per script class, in SCRIPTS order (then `special`), zero counts left out."""
    counts = Counter(r.script for r in rows)
    return {s: counts[s] for s in (*SCRIPTS, "special") if counts[s]}


def length_histogram(rows: Iterable[VocabRow], unit: str = "bytes") -> dict[int, int]:
    """How many tokens have each length, in bytes or characters (partial tokens: bytes only)."""
    if unit not in ("bytes", "chars"):
        raise ValueError(f"unit {unit!r}: choose 'bytes' or 'chars'")
    lengths = (r.n_bytes if unit == "bytes" else r.n_chars for r in rows if not r.special)
    counts = Counter(n for n in lengths if n is not None)
    return dict(sorted(counts.items()))


def longest(vocab: Vocabulary, n: int = 20) -> list[VocabRow]:
    """The n longest ordinary tokens by bytes (ties: lower id first)."""
    ordinary = (r for r in vocab.rows if not r.special)
    return sorted(ordinary, key=lambda r: (-r.n_bytes, r.id))[:n]


@dataclass(frozen=True)
class Comparison:
    """Two vocabularies compared by token bytes (a token is the same token when its bytes are).

    Counts are of distinct byte strings: |A| = shared + only_a and |B| = shared + only_b.
    Scripts of shared and only-in-A tokens are A's classes; of only-in-B, B's.
    """

    a: str
    b: str
    shared: int
    only_a: int
    only_b: int
    shared_scripts: dict[str, int]
    only_a_scripts: dict[str, int]
    only_b_scripts: dict[str, int]
    only_a_examples: tuple[VocabRow, ...]
    only_b_examples: tuple[VocabRow, ...]


def _first_by_bytes(vocab: Vocabulary) -> dict[bytes, VocabRow]:
    table: dict[bytes, VocabRow] = {}
    for row in vocab.rows:
        table.setdefault(row.bytes, row)
    return table


def compare(a: Vocabulary, b: Vocabulary, examples: int = COMPARE_EXAMPLES) -> Comparison:
    """Shared, only-in-A and only-in-B tokens, with counts per script and a few examples each."""
    in_a, in_b = _first_by_bytes(a), _first_by_bytes(b)
    shared = [r for k, r in in_a.items() if k in in_b]
    only_a = [r for k, r in in_a.items() if k not in in_b]
    only_b = [r for k, r in in_b.items() if k not in in_a]
    return Comparison(
        a.name, b.name, len(shared), len(only_a), len(only_b),
        script_counts(shared), script_counts(only_a), script_counts(only_b),
        tuple(only_a[:examples]), tuple(only_b[:examples]),
    )  # fmt: skip
