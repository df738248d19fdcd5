"""WordPiece, shown: the greedy longest-match search word by word, and BPE vs WordPiece per step.

What it adds to models/wordpiece.py and bpe_vs_wordpiece.py:
- `match_trace(tokenizer, word)`: the search `WordPieceTokenizer` runs on one word, recorded:
  at each position, how many candidates were tried (longest first), which one matched, and
  where it failed when the word becomes `[UNK]`. Tests check it against the tokenizer's own
  encoding, so the replay cannot drift from what encoding does; `why_unknown` says in words
  which character could not be spelled, and why;
- `race_steps(corpus, k)`: compare.race (BPE and WordPiece trained on the same `</w>` symbols)
  with each rule's ranking of the pairs at every step, count(a) and count(b) included for both,
  and the first step where their choices differ.

Leaves out: BERT pre-tokenization details (the tokenizer does it; words here are single words),
training itself and drawing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from ..messages import N_, Say, in_english
from ..models.wordpiece import CONTINUATION, WordPieceTokenizer
from ..trace import Candidate
from ..trainers.corpus import Corpus
from ..trainers.wordpiece import rank_by_count, rank_by_score
from .bpe_vs_wordpiece import Race, race
from .narration import quoted

MAX_TRIES_SHOWN = 6  # tried candidates kept per position (the longest ones and the match)


@dataclass(frozen=True, slots=True)
class MatchStep:
    """One position of the greedy search."""

    start: int  # character offset in the word
    tried: tuple[str, ...]  # candidates tried, longest first (at most MAX_TRIES_SHOWN kept)
    tries: int  # how many were tried in all
    match: str | None  # the piece found (`##able`), or None: no piece fits, the word is [UNK]


@dataclass(frozen=True, slots=True)
class MatchTrace:
    word: str
    steps: tuple[MatchStep, ...]
    pieces: tuple[str, ...]  # the pieces found, or (unk_token,) when the search failed
    unknown: bool
    too_long: bool  # longer than max_input_chars_per_word: [UNK] without a search


def match_trace(tokenizer: WordPieceTokenizer, word: str) -> MatchTrace:
    """Greedy longest-match-first on one word, recorded (no cache, no pre-tokenization)."""
    if len(word) > tokenizer.max_input_chars_per_word:
        return MatchTrace(word, (), (tokenizer.unk_token,), True, True)
    steps: list[MatchStep] = []
    start = 0
    while start < len(word):
        prefix = CONTINUATION if start else ""
        tried: list[str] = []
        match = None
        for end in range(len(word), start, -1):
            candidate = prefix + word[start:end]
            tried.append(candidate)
            if tokenizer.token_to_id(candidate) is not None:
                match = candidate
                break
        kept = tried if len(tried) <= MAX_TRIES_SHOWN else tried[: MAX_TRIES_SHOWN - 1] + tried[-1:]
        steps.append(MatchStep(start, tuple(kept), len(tried), match))
        if match is None:
            return MatchTrace(word, tuple(steps), (tokenizer.unk_token,), True, False)
        start += len(match) - len(prefix)
    pieces = tuple(s.match for s in steps if s.match is not None)
    return MatchTrace(word, tuple(steps), pieces, False, False)


def why_unknown(tokenizer: WordPieceTokenizer, trace: MatchTrace, corpus: bool = False,
                say: Say = in_english) -> str | None:
    """Why a word became `[UNK]`, in one sentence (None when it did not), said through `say`.

    The greedy search stops at the first position where no piece fits, and then not even the
    one-character piece (`q`, or `##q` inside a word) is in the vocabulary: the sentence names
    that character and why it is missing. `corpus` says the vocabulary was trained on a corpus,
    which holds every character the corpus uses, as `q` where a word starts with it and as `##q`
    where one goes on with it; so a missing piece is a fact about the corpus.
    """
    if not trace.unknown:
        return None
    word = trace.word
    if trace.too_long:
        return say(N_("{n} characters is over the model's limit of {limit} per word, so it is "
                      "[UNK] without a search"),
                   n=len(word), limit=tokenizer.max_input_chars_per_word)
    start = trace.steps[-1].start
    ch, done = word[start], word[:start]
    needed = (CONTINUATION if start else "") + ch
    specials = {*tokenizer.special_tokens, tokenizer.unk_token}
    spelled = {c for piece in tokenizer.vocab if piece not in specials
               for c in piece.removeprefix(CONTINUATION)}
    q = {"ch": quoted(ch), "word": quoted(word), "done": quoted(done), "needed": quoted(needed)}
    if ch not in spelled:
        if corpus:
            return say(N_("{ch} never appears in the corpus, so no piece can spell it"), ch=q["ch"])
        return say(N_("no piece of the vocabulary holds {ch}, so nothing can spell it (add "
                      "{needed})"), ch=q["ch"], needed=q["needed"])
    if corpus:
        if not start:
            return say(N_("no word of the corpus starts with {ch}, so no piece can start {word}"),
                       ch=q["ch"], word=q["word"])
        return say(N_("{ch} only ever starts words in the corpus, so no piece ({needed}) can "
                      "continue {done}"), ch=q["ch"], needed=q["needed"], done=q["done"])
    if not start:
        return say(N_("no piece of the vocabulary can start {word}, not even {ch}"),
                   word=q["word"], ch=q["ch"])
    return say(N_("no piece of the vocabulary continues {done} with {ch}, not even {needed}"),
               done=q["done"], ch=q["ch"], needed=q["needed"])


# --- BPE vs WordPiece, step by step --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RaceStep:
    """Before merge number k + 1: each rule's top pairs (winner first) and how many tie."""

    k: int
    bpe: tuple[Candidate, ...]  # score = count(ab); count_a, count_b filled in
    wordpiece: tuple[Candidate, ...]
    bpe_ties: int
    wordpiece_ties: int
    wordpiece_total: int = 0  # N: WordPiece's symbols at this step (the likelihood's P = count / N)


@dataclass(frozen=True)
class RaceView(Race):
    """compare.Race plus each step's rankings (`steps`, one per step of the longer run)."""

    steps: tuple[RaceStep, ...] = ()


def race_steps(
    corpus: Corpus, num_merges: int, score: str = "ratio", tie_break: str = "first", top_k: int = 8
) -> RaceView:
    """compare.race with every step's rankings kept (a rescan per step: classroom corpora)."""
    result = race(corpus, num_merges, score, tie_break, record_history=True)
    bpe, wordpiece = result.bpe, result.wordpiece
    score_kind, tie = wordpiece.score, wordpiece.tie_break  # as race checked them
    steps = []
    for k in range(max(len(bpe.steps), len(wordpiece.steps))):
        b_seqs = bpe.segmentation_at(min(k, len(bpe.steps)))
        w_seqs = wordpiece.segmentation_at(min(k, len(wordpiece.steps)))
        b_splits = cast("list[list[str]]", [list(s) for s in b_seqs])  # `</w>` words: all str
        w_splits = [list(s) for s in w_seqs]
        b_ranked, b_ties = rank_by_count(b_splits, corpus.counts, tie, top_k)
        w_ranked, w_ties = rank_by_score(w_splits, corpus.counts, score_kind, tie)
        total = sum(len(split) * n for split, n in zip(w_splits, corpus.counts))
        steps.append(
            RaceStep(k, tuple(b_ranked), tuple(w_ranked[:top_k]), b_ties, w_ties, total)
        )
    return RaceView(bpe, wordpiece, result.first_difference, tuple(steps))
