"""Design a byte-level BPE vocabulary: prune what a corpus does not use, add a domain's words.

Both work on the merge list, so the result is again an ordinary byte-level BPE (it encodes,
exports to HF's tokenizer.json, and keeps all 256 bytes, so no text is ever unencodable).

Prune (`prune`): count the tokens the model uses on a corpus; keep every merge whose token is
used at least `min_count` times, *and the merges that build those tokens* (` the` needs ` t` and
`he` or whatever its merge joined, even if the corpus never ends on them), and drop the rest.
Merges keep their learned order, so ids are renumbered compactly. A dropped token's text is
still spelled, by shorter tokens: that is the compression lost.

Add domain tokens (`extend`): for each new word (a pre-tokenized chunk, e.g. ` tensor`), encode
it with the model so far into parts p1 p2 ... pk and append the merges (p1, p2), (p1p2, p3), ...
after every learned merge. Appended merges rank last, so they fire only once the learned ones
are done, and the chunk then joins into one token. subtle: an appended merge also fires inside
other chunks holding the same pair (` tensors`), which is why general text is measured too.
`domain_words` picks the candidates: the most frequent word chunks of a domain text that the
model cuts into 3+ tokens.

Leaves out: HF-style "added tokens" matched before pre-tokenization (they cut inside words),
and re-training: neither operation learns a new merge from pair counts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from ..models.byte_bpe import ByteLevelBPE
from ..pretokenize import PATTERNS, regex_chunks

Merge = tuple[bytes, bytes]
MAX_DOMAIN_WORDS = 500  # words one extension adds at most
MAX_WORD_BYTES = 64  # a longer "word" is refused


def learned_merges(model: ByteLevelBPE) -> list[Merge]:
    """The merges, in learned order, of a model built by `ByteLevelBPE.from_merges`.

    Every learned pair (a, b) made the token a + b, so trying each token's splits against the
    model's pair ranks finds every merge; sorting by rank gives the learned order back.
    subtle: reads the model's `_rank_of` (its pair ranks); tiktoken-style models (from_ranks)
    rank a token, not a pair, and are refused.
    """
    if model.vocab_size and getattr(model, "_whole_chunk_shortcut", False):
        raise ValueError(
            f"{model.name!r} is built from tiktoken ranks, not learned merges; prune and extend "
            "work on a BPE trained here"
        )
    found: list[tuple[int, bytes, bytes]] = []
    for token in model.encoder:
        for cut in range(1, len(token)):
            rank = model._rank_of(token[:cut], token[cut:])
            if rank is not None:
                found.append((rank, token[:cut], token[cut:]))
    return [(a, b) for _, a, b in sorted(found)]


def _rebuilt(model: ByteLevelBPE, merges: Sequence[Merge], name: str) -> ByteLevelBPE:
    specials = sorted(model.special_tokens, key=model.special_tokens.get)  # type: ignore[arg-type]
    return ByteLevelBPE.from_merges(name, merges, model.pat_str, tuple(specials))


def model_json(model: ByteLevelBPE, merges: Sequence[Merge]) -> dict:
    """The model file (modelfile.py's format) for a designed model, for export and download."""
    pattern = next((n for n, p in PATTERNS.items() if p == model.pat_str), model.pat_str)
    return {
        "algorithm": "bpe", "level": "byte", "merges": [[a.hex(), b.hex()] for a, b in merges],
        "special_tokens": sorted(model.special_tokens, key=model.special_tokens.get),  # type: ignore[arg-type]
        "pattern": pattern, "vocab_size": model.vocab_size,
    }  # fmt: skip


@dataclass(frozen=True)
class Designed:
    """A designed model, its merges, and what changed."""

    model: ByteLevelBPE
    merges: tuple[Merge, ...]
    added: tuple[bytes, ...] = ()  # tokens new to the vocabulary (extend)
    joined: tuple[bytes, ...] = ()  # words that now encode as one token (extend)


def prune(model: ByteLevelBPE, counts: Counter[int], min_count: int) -> Designed:
    """Keep the merges whose token is used `min_count`+ times, and those that build them."""
    if min_count < 1:
        raise ValueError(f"min_count is {min_count}; use 1 or more (1 drops unused tokens)")
    merges = learned_merges(model)
    made_by: dict[bytes, Merge] = {}
    for a, b in merges:
        made_by.setdefault(a + b, (a, b))  # the first merge that made a token is its id's
    keep = {t for t in made_by if counts[model.encoder[t]] >= min_count}
    todo = list(keep)
    while todo:  # the parts of a kept token are kept, down to single bytes
        for part in made_by[todo.pop()]:
            if part in made_by and part not in keep:
                keep.add(part)
                todo.append(part)
    kept = [(a, b) for a, b in merges if a + b in keep and _spellable(a, keep)
            and _spellable(b, keep)]  # fmt: skip
    return Designed(_rebuilt(model, kept, f"{model.name} pruned <{min_count}"), tuple(kept))


def _spellable(part: bytes, keep: set[bytes]) -> bool:
    return len(part) == 1 or part in keep


def domain_words(model: ByteLevelBPE, text: str, n: int, min_tokens: int = 3) -> list[str]:
    """The n most frequent word chunks of `text` (chunks holding a letter) that the model cuts
    into `min_tokens` or more tokens; ties by first appearance."""
    counts = Counter(c for c in regex_chunks(text, model.pat_str) if any(ch.isalpha() for ch in c))
    words = [w for w, _ in counts.most_common()]
    return [w for w in words
            if len(model.encode_ordinary_ids(w)) >= min_tokens][:n]  # fmt: skip


def extend(model: ByteLevelBPE, words: Sequence[str]) -> Designed:
    """Append the merges that join each word (a pre-tokenized chunk) into one token."""
    if len(words) > MAX_DOMAIN_WORDS:
        raise ValueError(f"{len(words):,} words; one extension adds at most {MAX_DOMAIN_WORDS}")
    merges = learned_merges(model)
    pairs = set(merges)
    added: list[bytes] = []
    current = model
    for word in words:
        data = word.encode("utf-8")
        if len(data) > MAX_WORD_BYTES:
            raise ValueError(f"{word[:20]!r}… is {len(data)} bytes; words are bounded at "
                             f"{MAX_WORD_BYTES}")
        ids = current.encode_ordinary_ids(word)
        if len(ids) < 2:
            continue
        parts = [current.decoder[i] for i in ids]
        joined = parts[0]
        for part in parts[1:]:
            if (joined, part) not in pairs:
                pairs.add((joined, part))
                merges.append((joined, part))
                if joined + part not in current.encoder:
                    added.append(joined + part)
            joined += part
        current = _rebuilt(model, merges, f"{model.name} + domain")
    whole = tuple(w.encode("utf-8") for w in words
                  if len(current.encode_ordinary_ids(w)) == 1)  # fmt: skip
    return Designed(current, tuple(merges), tuple(added), whole)


@dataclass(frozen=True)
class Cost:
    """Tokens for the same text before and after a design change."""

    before: int
    after: int

    @property
    def saved(self) -> int:
        return self.before - self.after


def cost(before: ByteLevelBPE, after: ByteLevelBPE, text: str) -> Cost:
    return Cost(len(before.encode_ordinary_ids(text)), len(after.encode_ordinary_ids(text)))
