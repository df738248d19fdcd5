"""Which tokens a corpus uses, and what a BPE vocabulary learned early versus late.

- `token_counts(tokenizer, text)`: how often each id appears when the text is encoded (special
  token strings in the text are read as plain text, so only ordinary tokens are counted).
- `unused_tokens(vocab, counts)`: the "glitch" candidates, ordinary tokens the reference corpus
  never produced, longest first. A token the training data made common but ordinary text never
  uses (GPT-2's ` SolidGoldMagikarp`, a Reddit user name) is the kind a model saw too rarely
  to learn: a candidate, not a proof (a bigger corpus would use more of them).
- `rank_bands(vocab, n)`: the first n merges against the last n, by length, script, word
  starts and examples; early merges join frequent short pieces (` t`, `he`), late ones rare
  whole words.

Leaves out: the model's own view of a token (embedding norms, which glitch-token studies use);
this measures the tokenizer alone.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..interface import Tokenizer
from .vocabulary import VocabRow, Vocabulary, script_counts

BAND = 1_000  # merges in each band of the growth comparison
BAND_EXAMPLES = 24


def token_counts(tokenizer: Tokenizer, text: str) -> Counter[int]:
    """Each id's count in the text's encoding, special-token strings read as plain text."""
    fast = getattr(tokenizer, "encode_ordinary_ids", None)
    if fast is not None:
        return Counter(fast(text))
    return Counter(t.id for t in tokenizer.encode(text, disallowed_special=()))


def unused_tokens(vocab: Vocabulary, counts: Counter[int]) -> list[VocabRow]:
    """Ordinary tokens the counts never saw, longest (in bytes) first, ties by id."""
    unused = (r for r in vocab.rows if not r.special and counts[r.id] == 0)
    return sorted(unused, key=lambda r: (-r.n_bytes, r.id))


@dataclass(frozen=True)
class Band:
    """A run of merges by rank: [first, last], and what the tokens they made look like."""

    first: int
    last: int
    mean_bytes: float
    space_start: float  # share of tokens that begin with a space or ▁ (word starts)
    scripts: dict[str, int]
    examples: tuple[VocabRow, ...]


def _band(rows: list[VocabRow]) -> Band:
    n = len(rows)
    starts = sum(r.start in ("space", "▁") for r in rows)
    return Band(
        rows[0].rank or 0, rows[-1].rank or 0, sum(r.n_bytes for r in rows) / n, starts / n,
        script_counts(rows), tuple(rows[:BAND_EXAMPLES]),
    )  # fmt: skip


def rank_bands(vocab: Vocabulary, n: int = BAND) -> tuple[Band, Band] | None:
    """The first n and the last n merges' tokens (fewer merges: split in halves); None when the
    vocabulary has no merge ranks (WordPiece, Unigram, HF files)."""
    ranked = sorted((r for r in vocab.rows if r.rank is not None), key=lambda r: r.rank or 0)
    if len(ranked) < 2:
        return None
    n = min(n, len(ranked) // 2)
    return _band(ranked[:n]), _band(ranked[-n:])
