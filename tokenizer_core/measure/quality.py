"""One tokenizer measured on a held-out text: every number of the Compression page's quality table.

What it adds to metrics.py: the numbers gathered into one record per tokenizer, with the rule of
when a per-word number applies (only for space-separated text, where a word is a word), and
`hf_lines`: HF `tokenizers` BPE, WordPiece and Unigram, and the real `sentencepiece` library's
Unigram and BPE, trained on the same training part at a few sizes (one run per size), each
measured on the held-out part.

The text is encoded with special-token strings read as plain text (`disallowed_special=()`), so
no user text is refused and nothing is counted twice.

Leaves out: our own curve (compression.py), tiktoken's loading (registry.py), charts and caching.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, replace
from typing import AbstractSet, Callable, Literal, Sequence

from ..bounds import MAX_HF_WORD_BYTES
from ..interface import Tokenizer
from ..messages import N_, Kept, Refusal, keep
from ..reference.hf import METASPACE, HFTokenizer
from ..reference.hf_train import train_hf
from ..reference.sentencepiece_models import SentencePieceTokenizer, train_sentencepiece
from .metrics import (
    TextStats,
    char_coverage,
    is_space_separated,
    normalized_entropy,
    renyi_efficiency,
    round_trip,
    text_stats,
    unk_rate,
    usage_entropy,
    vocab_used_share,
    word_cuts,
)

# The lines the page can draw beside ours. The `sp_` ones are SentencePiece's (C++), which
# train in well under a second and, unlike HF's trainers, are not slowed by long words.
HFFamily = Literal["bpe", "bpe_bytes", "wordpiece", "unigram", "sp_unigram", "sp_bpe"]
HF_FAMILIES: tuple[HFFamily, ...] = ("bpe_bytes", "bpe", "wordpiece", "unigram", "sp_unigram",
                                     "sp_bpe")
SENTENCEPIECE_FAMILIES: tuple[HFFamily, ...] = ("sp_unigram", "sp_bpe")


@dataclass(frozen=True)
class Quality:
    """How one tokenizer does on a held-out text. Per-word numbers are None for text without
    spaces between words (Chinese, Japanese, Thai) or when no word qualifies."""

    name: str
    vocab_size: int
    stats: TextStats
    round_trip_ok: bool
    round_trip_lost: Kept | str  # what decoding loses, kept unsaid (said in the reader's language)
    single_token_words: float | None
    usage_entropy: float
    normalized_entropy: float
    renyi_efficiency: float
    vocab_used: float
    unk_rate: float
    char_coverage: float
    unseen_words: int
    tokens_per_unseen_word: float | None


def measure(
    tokenizer: Tokenizer,
    text: str,
    seen_words: AbstractSet[str],
    name: str | None = None,
) -> Quality:
    """Encode `text` once and compute every number of the table from its tokens."""
    tokens = tokenizer.encode(text, disallowed_special=())
    ids = [t.id for t in tokens]
    vocab = tokenizer.vocab_size
    # subtle: the record goes to the on-disk store, read later in either language: the
    # sentence is kept unsaid (messages.keep), and the page says it (messages.say_kept).
    trip = round_trip(tokenizer, text, tokens, keep)
    spaced = is_space_separated(text)
    cuts = word_cuts(text, tokens)
    per_unseen, unseen = cuts.unseen(seen_words)
    unk_ids = frozenset(t.id for t in tokens if t.unknown)
    return Quality(
        name=name or tokenizer.name,
        vocab_size=vocab,
        stats=text_stats(text, tokens),
        round_trip_ok=trip.ok,
        round_trip_lost=trip.lost,
        single_token_words=cuts.single_token_share if spaced else None,
        usage_entropy=usage_entropy(ids),
        normalized_entropy=normalized_entropy(ids, vocab),
        renyi_efficiency=renyi_efficiency(ids, vocab),
        vocab_used=vocab_used_share(ids, vocab),
        unk_rate=unk_rate(tokens, unk_ids),
        char_coverage=char_coverage(text, tokens),
        unseen_words=unseen if spaced else 0,
        tokens_per_unseen_word=per_unseen if spaced else None,
    )


# --- HF tokenizers trained on the same split -------------------------------------------------


@dataclass(frozen=True)
class HFPoint:
    """One HF (or SentencePiece) model: the size asked for, the size it reached, its held-out
    tokens, the share of held-out characters it hides in the unknown token (its compression
    there is not real), and the model itself as text, so a cache can keep it as plain data:
    `tokenizer.json` for HF, the serialized model in base64 for SentencePiece. `numbers()` is
    the point without its model (what a chart needs), "" in its place."""

    family: HFFamily
    requested: int
    vocab_size: int
    held_out: TextStats
    hidden_in_unk: float
    tokenizer_json: str

    def numbers(self) -> HFPoint:
        """This point without its model's text: a few hundred bytes instead of up to a megabyte
        (a 16,000-piece tokenizer.json), for a cache that keeps many points and draws them."""
        return replace(self, tokenizer_json="")

    def tokenizer(self) -> Tokenizer:
        if not self.tokenizer_json:
            raise ValueError(f"this point of {self.family} at {self.requested:,} keeps only its "
                             "numbers (numbers()); read the whole point again for its model")
        if self.family in SENTENCEPIECE_FAMILIES:
            proto = base64.b64decode(self.tokenizer_json)
            return SentencePieceTokenizer(proto, f"SentencePiece {self.family[3:]} {self.vocab_size:,}")
        name = f"HF {self.family} {self.vocab_size:,}"
        return HFTokenizer.from_str(self.tokenizer_json, name=name)


def longest_word_bytes(text: str) -> int:
    """UTF-8 bytes of the longest stretch without a space or line break: at least the longest word
    any HF family's pre-tokenizer makes (each splits at spaces, and lines train one by one)."""
    return max((len(word.encode("utf-8")) for line in text.splitlines()
                for word in line.split(" ")), default=0)


def hf_refusal(train_text: str) -> Refusal | None:
    """Why HF's trainers are not run on this text (a sentence to show: `str()` of it, or its
    template and values for the interface's language), or None when they may be."""
    longest = longest_word_bytes(train_text)
    if longest <= MAX_HF_WORD_BYTES:
        return None
    return Refusal(
        N_("its longest stretch without a space is {longest} bytes, over the {bound} that HF's "
           "trainers handle in seconds: they rewrite a whole word for every merge made inside "
           "it, and text with no spaces is one long word"),
        longest=longest, bound=MAX_HF_WORD_BYTES)


def train_family(family: HFFamily, train_text: str,
                 vocab_size: int) -> HFTokenizer | SentencePieceTokenizer:
    """`bpe_bytes`: GPT-2-style byte-level BPE (our setting); `bpe`: word-level BPE with `</w>`;
    `wordpiece` and `unigram`: as reference.train_hf sets them up. Trained on the text's lines
    (line breaks kept, so a held-out line break is not unknown to Unigram). `sp_unigram` and
    `sp_bpe`: sentencepiece_models.train_sentencepiece, the lesson's parameters; its vocab size
    counts its 256 byte pieces and 5 specials, and a size below what the text needs is refused."""
    if family in SENTENCEPIECE_FAMILIES:
        return train_sentencepiece(train_text, vocab_size, "unigram" if family == "sp_unigram" else "bpe")
    lines = _training_lines(train_text)
    if family == "bpe_bytes":
        return train_hf("bpe", lines, vocab_size, byte_level=True)
    return train_hf(family, lines, vocab_size)


def _training_lines(train_text: str) -> list[str]:
    return [line for line in train_text.splitlines(keepends=True) if line.strip()]


def unigram_alphabet(train_text: str) -> int:
    """How many pieces HF's Unigram must start from: one per distinct character of its training
    lines, spaces as `▁` (the Metaspace pre-tokenizer also puts one before every word). HF
    refuses a smaller vocab size ("The vocabulary is not large enough to contain all chars"),
    so on Chinese, with over a thousand characters in use, the small sizes have no model."""
    return len(set("".join(_training_lines(train_text)).replace(" ", METASPACE)) | {METASPACE})


def hf_lines(
    family: HFFamily,
    train_text: str,
    held_out: str,
    sizes: Sequence[int],
    progress: Callable[[int, int], None] | None = None,
) -> list[HFPoint]:
    """One HF family at each size, measured on `held_out`. A size the training text cannot reach
    gives a smaller model (`vocab_size` says which). Sizes HF refuses (ValueError from train_hf)
    are skipped. A text with a word too long for HF (`hf_refusal`) is refused with ValueError."""
    refusal = None if family in SENTENCEPIECE_FAMILIES else hf_refusal(train_text)
    if refusal is not None:
        raise ValueError(f"HF {family} is not trained on this text: {refusal}")
    points: list[HFPoint] = []
    for done, size in enumerate(sizes):
        if progress is not None:
            progress(done, len(sizes))
        try:
            model = train_family(family, train_text, size)
        except ValueError:
            continue
        reached = model.vocab_size
        tokens = model.encode(held_out, disallowed_special=())
        stats = text_stats(held_out, tokens)
        hidden = 1 - char_coverage(held_out, tokens)
        points.append(HFPoint(family, size, reached, stats, hidden, _model_text(model)))
    if progress is not None:
        progress(len(sizes), len(sizes))
    return points


def _model_text(model: HFTokenizer | SentencePieceTokenizer) -> str:
    if isinstance(model, SentencePieceTokenizer):
        return base64.b64encode(model.model_proto).decode("ascii")
    return model.tokenizer.to_str()
