"""What text costs: characters, UTF-8 bytes and tokens, and the token premium of Chinese.

Adds, over metrics.py (which describes one text and one tokenizer):
- `premium`: for parallel English/Chinese pairs and one way of counting tokens, the totals per
  language and the premium of Chinese over English, reported two ways because they answer two
  questions: the ratio of totals, sum(tokens(zh)) / sum(tokens(en)) (what a whole document
  costs; long pairs weigh more), and the median of the per-pair ratios tokens(zh)/tokens(en)
  (what a typical sentence costs; one odd pair cannot move it);
- `language_premiums`: for a file of many languages (samples.parse_multilingual), each
  language's totals and its premium over the first column, as a ratio of totals;
- `string_cost`: code points and bytes of one short string, such as an emoji sequence;
- `token_counts`: how many tokens each of many texts needs, without building Token records
  (20,000 pairs are 40,000 encodings: counting ids instead of making records is what keeps a
  file at the bound to about a second per tokenizer), with a progress callback.

The count is a plain function `str -> int`, so the same code measures any tokenizer, and
`utf8_bytes` measures the floor every byte-level tokenizer starts from (each byte a token).

Leaves out: tokenizing (callers pass the count), reading files (samples.parse_parallel), charts.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence, runtime_checkable

from ..interface import Tokenizer
from ..messages import N_, Refusal
from ..samples import ParallelPair, ParallelSet
from ..tokens import require_unicode

Count = Callable[[str], int]
Progress = Callable[[int, int], None]  # (texts counted, texts in all); may raise to stop
PROGRESS_CHARS = 50_000  # characters counted between two progress calls


def utf8_bytes(text: str) -> int:
    """The count of a tokenizer that made every UTF-8 byte a token (the 256-token start)."""
    return len(text.encode("utf-8"))


@dataclass(frozen=True)
class PairCost:
    """Tokens for one parallel pair; `line` is where the pair stands in its file."""

    line: int
    en_tokens: int
    zh_tokens: int

    @property
    def ratio(self) -> float:
        """tokens(zh) / tokens(en) for this pair."""
        return self.zh_tokens / self.en_tokens


@dataclass(frozen=True)
class LanguageTotals:
    """One language's side of the pairs, summed."""

    characters: int
    utf8_bytes: int
    tokens: int

    @property
    def bytes_per_char(self) -> float:
        return self.utf8_bytes / self.characters

    @property
    def tokens_per_char(self) -> float:
        return self.tokens / self.characters

    @property
    def chars_per_token(self) -> float:
        return self.characters / self.tokens

    @property
    def bytes_per_token(self) -> float:
        return self.utf8_bytes / self.tokens


@dataclass(frozen=True)
class Premium:
    """How much more Chinese costs than English on the same pairs, for one count."""

    pairs: tuple[PairCost, ...]
    en: LanguageTotals
    zh: LanguageTotals

    @property
    def total_ratio(self) -> float:
        """sum(tokens(zh)) / sum(tokens(en)): the premium of the whole file."""
        return self.zh.tokens / self.en.tokens

    @property
    def median_ratio(self) -> float:
        """The median of the per-pair ratios: the premium of a typical sentence."""
        return statistics.median(p.ratio for p in self.pairs)

    @property
    def pairs_costlier_in_zh(self) -> int:
        """How many pairs need more tokens in Chinese than in English."""
        return sum(p.zh_tokens > p.en_tokens for p in self.pairs)


def _totals(texts: Sequence[str], tokens: Sequence[int]) -> LanguageTotals:
    return LanguageTotals(sum(map(len, texts)), sum(map(utf8_bytes, texts)), sum(tokens))


def premium(pairs: Sequence[ParallelPair], count: Count) -> Premium:
    """Count every sentence on its own and compare the languages; ValueError on no pairs, or on
    a sentence that counts zero tokens (its ratio would be undefined)."""
    if not pairs:
        raise Refusal(N_("no parallel pairs to compare; give at least one en<TAB>zh line"))
    costs = []
    for pair in pairs:
        en, zh = count(pair.en), count(pair.zh)
        for sentence, n in (
            (N_("line {line}: the English sentence counts {n} tokens, so its ratio is undefined; "
                "every sentence must be non-empty"), en),
            (N_("line {line}: the Chinese sentence counts {n} tokens, so its ratio is undefined; "
                "every sentence must be non-empty"), zh),
        ):
            if n <= 0:
                raise Refusal(sentence, line=str(pair.line), n=n)
        costs.append(PairCost(pair.line, en, zh))
    return Premium(
        pairs=tuple(costs),
        en=_totals([p.en for p in pairs], [c.en_tokens for c in costs]),
        zh=_totals([p.zh for p in pairs], [c.zh_tokens for c in costs]),
    )


@dataclass(frozen=True)
class LanguagePremiums:
    """Each language's side of a many-language file, summed, for one count; the first is the
    base the others are compared with."""

    languages: tuple[str, ...]
    totals: tuple[LanguageTotals, ...]  # in the languages' order

    def ratios(self) -> dict[str, float]:
        """language -> sum(tokens(language)) / sum(tokens(first language)); the first is 1."""
        base = self.totals[0].tokens
        return {code: t.tokens / base for code, t in zip(self.languages, self.totals)}


def language_premiums(parallel: ParallelSet, count: Count) -> LanguagePremiums:
    """Count every text on its own and sum each language; ValueError on a text that counts zero
    tokens (naming its line and language), as premium() does."""
    columns = []
    for i, code in enumerate(parallel.languages):
        texts = [row.texts[i] for row in parallel.rows]
        tokens = [count(text) for text in texts]
        for row, n in zip(parallel.rows, tokens):
            if n <= 0:
                raise Refusal(N_("line {line}: the {code} text counts {n} tokens, so its ratio "
                                 "is undefined; every text must be non-empty"),
                              line=str(row.line), code=repr(code), n=n)
        columns.append(_totals(texts, tokens))
    return LanguagePremiums(parallel.languages, tuple(columns))


@dataclass(frozen=True)
class StringCost:
    """A short string's code points (`U+1F44D`) and UTF-8 bytes (uppercase hex)."""

    text: str
    code_points: tuple[str, ...]
    utf8_hex: tuple[str, ...]

    @property
    def n_code_points(self) -> int:
        return len(self.code_points)

    @property
    def n_bytes(self) -> int:
        return len(self.utf8_hex)


def string_cost(text: str) -> StringCost:
    """Code points and bytes of `text`: 👍🏽 is U+1F44D U+1F3FD, 8 bytes."""
    return StringCost(
        text=text,
        code_points=tuple(f"U+{ord(ch):04X}" for ch in text),
        utf8_hex=tuple(f"{b:02X}" for b in text.encode("utf-8")),
    )


@runtime_checkable
class _OrdinaryIds(Protocol):
    """tiktoken's and our byte-level encoder's fast path: ids only, special strings as text."""

    def encode_ordinary_ids(self, text: str) -> list[int]: ...


def _counter(tokenizer: Tokenizer) -> Count:
    """Tokens of one text, special-token strings read as plain text (disallowed_special=())."""
    if isinstance(tokenizer, _OrdinaryIds):
        ids = tokenizer.encode_ordinary_ids

        def fast(text: str) -> int:
            require_unicode(text)  # encode() refuses lone surrogates; so must the count
            return len(ids(text))

        return fast
    return lambda text: len(tokenizer.encode(text, disallowed_special=()))


def token_counts(
    tokenizer: Tokenizer, texts: Sequence[str], progress: Progress | None = None
) -> list[int]:
    """len(tokenizer.encode(text, disallowed_special=())) for each text, the same numbers made
    faster: ids instead of Token records where the tokenizer offers them, and each distinct
    text counted once. `progress(done, total)` is called every PROGRESS_CHARS characters or so
    (done counts distinct texts); it may raise to stop the count."""
    count = _counter(tokenizer)
    distinct = list(dict.fromkeys(texts))
    known: dict[str, int] = {}
    since = 0
    for done, text in enumerate(distinct, 1):
        known[text] = count(text)
        since += len(text)
        if progress is not None and (since >= PROGRESS_CHARS or done == len(distinct)):
            since = 0
            progress(done, len(distinct))
    return [known[text] for text in texts]
