"""Unigram LM encoding: pieces with log probabilities, the best segmentation by Viterbi.

A Unigram model gives every piece x a probability p(x) and a segmentation x1..xk of a text the
probability p(x1)...p(xk). Encoding picks the most probable segmentation: the Viterbi path
through the lattice of every piece that matches at every position.

What it adds (trainers/unigram.py learns the pieces):
- `viterbi_textbook`: the lesson's dynamic programme, plain: dp[i] = max over j of
  dp[j] + log p(text[j:i]), back-pointers, then a walk back from the end. The oracle.
- `UnigramModel.viterbi`: the same programme pushed forward from each reachable position, and
  only over pieces that can match there (a prefix set stops the scan as soon as no piece
  starts that way), so it costs positions x longest piece, not positions squared. Tie rule of
  both: on equal scores the path found first is kept, which is the one whose last piece starts
  earliest (the longest last piece).
- `lattice` (every matching piece at every position with its log probability), the Viterbi
  trace (dp table and back-pointers), `nbest` (the k most probable segmentations, exactly) and
  `sample` (one segmentation drawn in proportion to its probability, subword regularization).
- levels: `sentence` reads each line as characters, spaces included (line breaks are no
  tokens); `word` cuts on whitespace and starts every word with `▁` (U+2581), as SentencePiece
  does, so pieces never cross words and a piece like `▁the` says "at a word's start". A `▁`
  covers no character of the input: a lone `▁` token has empty bytes and start == end.
- unseen characters, SentencePiece's rule: at a position where no one-character piece exists,
  the lattice gets a one-character `<unk>` arc (id 0) scoring the lowest log probability minus
  10, so it is used only where nothing else can spell the text; consecutive `<unk>`s become one
  Token covering all of them (its bytes are the text it stands for).

Round trip: decode(encode(text)) == text at sentence level for one line whose characters are
all pieces; at word level for words joined by single spaces. `<unk>` decodes to `⁇` (U+2047).

Leaves out: byte fallback (an unseen character is `<unk>`, never its bytes), normalization
(SentencePiece's NFKC), special tokens other than `<unk>`, training (trainers/unigram.py).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..bounds import MAX_NBEST
from ..interface import AllowedSpecial, DisallowedSpecial, encode_with_specials, unknown_id_error
from ..pretokenize import line_pieces, word_pieces
from ..tokens import Token, require_unicode

UNK_TOKEN = "<unk>"
UNK_PENALTY = 10.0  # SentencePiece's kUnkPenalty: <unk> scores the lowest log prob minus this
UNK_SURFACE = "\u2047"  # ⁇, what SentencePiece decodes <unk> to
WORD_START = "\u2581"  # ▁
UNIGRAM_LEVELS = ("word", "sentence")
_CACHE_SIZE = 50_000
_NEG_INF = -math.inf


@dataclass(frozen=True, slots=True)
class LatticeArc:
    """One piece that matches text[start:end], with its id and log probability."""

    start: int
    end: int
    id: int
    piece: str
    log_prob: float


@dataclass(frozen=True, slots=True)
class ViterbiTrace:
    """The dynamic programme on one sequence: dp[i] is the best score of text[:i] (-inf: no
    segmentation), back[i] where its last piece starts; path the best segmentation's spans."""

    text: str
    dp: tuple[float, ...]
    back: tuple[int | None, ...]
    path: tuple[tuple[int, int], ...]
    ids: tuple[int, ...]
    pieces: tuple[str, ...]
    score: float


@dataclass(frozen=True, slots=True)
class Segmentation:
    """One way to cut a sequence, with its spans, ids and total log probability."""

    pieces: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    ids: tuple[int, ...]
    score: float


def viterbi_textbook(text: str, log_probs: Mapping[str, float]) -> tuple[float, list[str] | None]:
    """The lesson's Viterbi, readable: (best score, pieces), or (-inf, None) when no segmentation.

    Unlike the lesson's version, "unset" is -inf, not 0: 0 is a real score (a piece of
    probability 1) and an unreachable position must never look like the best one.
    """
    n = len(text)
    dp = [_NEG_INF] * (n + 1)
    dp[0] = 0.0
    back: list[int | None] = [None] * (n + 1)
    for i in range(1, n + 1):
        for j in range(i):
            piece = text[j:i]
            if piece in log_probs and dp[j] > _NEG_INF:
                score = dp[j] + log_probs[piece]
                if score > dp[i]:
                    dp[i], back[i] = score, j
    if dp[n] == _NEG_INF:
        return _NEG_INF, None
    pieces, i = [], n
    while i > 0:
        j = back[i]
        assert j is not None, "a reachable position has a back-pointer"
        pieces.append(text[j:i])
        i = j
    return dp[n], pieces[::-1]


def check_unigram_level(level: str) -> str:
    if level not in UNIGRAM_LEVELS:
        raise ValueError(f"a Unigram model works at level 'word' or 'sentence', not {level!r}")
    return level


class UnigramModel:
    """Pieces with log probabilities and Viterbi encoding (an interface.Tokenizer).

    `pieces` are (piece, log_prob) pairs without `<unk>`; ids: `<unk>` is 0, then the pieces in
    the order given.
    """

    def __init__(
        self,
        pieces: Sequence[tuple[str, float]],
        level: str = "sentence",
        unk_token: str = UNK_TOKEN,
        name: str = "unigram",
    ) -> None:
        self.name = name
        self.level = check_unigram_level(level)
        self.unk_token = unk_token
        checked = _check_pieces(pieces, unk_token)
        self.unk_log_prob = min(lp for _, lp in checked) - UNK_PENALTY
        self.pieces: tuple[tuple[str, float], ...] = ((unk_token, self.unk_log_prob), *checked)
        self.log_probs: tuple[float, ...] = tuple(lp for _, lp in self.pieces)
        self._ids = {p: i for i, (p, _) in enumerate(self.pieces) if i}
        self._prefixes = {p[:k] for p in self._ids for k in range(1, len(p) + 1)}
        self._longest = max(len(p) for p in self._ids)
        self._cache: dict[str, tuple[tuple[int, int, int], ...]] = {}

    # -- the Tokenizer interface -----------------------------------------------------------------

    @property
    def vocab_size(self) -> int:
        return len(self.pieces)

    @property
    def special_tokens(self) -> dict[str, int]:
        return {}

    def token_to_id(self, piece: str) -> int | None:
        return 0 if piece == self.unk_token else self._ids.get(piece)

    def id_to_token(self, token_id: int) -> str | None:
        return self.pieces[token_id][0] if 0 <= token_id < len(self.pieces) else None

    def encode(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: DisallowedSpecial = "all",
    ) -> list[Token]:
        """Tokens of the Viterbi segmentation with character offsets (see the module docstring)."""
        if not isinstance(text, str):
            raise ValueError(f"text to encode should be a str, got {type(text).__name__}")
        require_unicode(text)
        return encode_with_specials(text, {}, allowed_special, disallowed_special, self._encode_plain)

    def decode(self, ids: Sequence[int]) -> str:
        """Pieces joined; at word level `▁` becomes a space and the first one is dropped."""
        if not all(isinstance(i, int) and 0 <= i < len(self.pieces) for i in ids):
            raise unknown_id_error(ids, lambda i: isinstance(i, int) and 0 <= i < len(self.pieces))
        text = "".join(UNK_SURFACE if i == 0 else self.pieces[i][0] for i in ids)
        if self.level == "word":
            text = text.replace(WORD_START, " ")
            return text[1:] if text.startswith(" ") else text
        return text

    # -- the lattice and the Viterbi path --------------------------------------------------------

    def sequence(self, word: str) -> str:
        """What the model segments for one word or line: `▁word` at word level."""
        return WORD_START + word if self.level == "word" else word

    def _arcs_from(self, text: str, i: int) -> list[tuple[int, int]]:
        """(end, id) of every piece starting at i, shortest first; `<unk>` where no character
        piece exists."""
        arcs: list[tuple[int, int]] = []
        prefixes, ids = self._prefixes, self._ids
        for end in range(i + 1, min(len(text), i + self._longest) + 1):
            part = text[i:end]
            if part not in prefixes:
                break  # no piece starts this way, so no longer one does either
            piece_id = ids.get(part)
            if piece_id is not None:
                arcs.append((end, piece_id))
        if not arcs or arcs[0][0] != i + 1:
            arcs.insert(0, (i + 1, 0))
        return arcs

    def lattice(self, text: str) -> list[LatticeArc]:
        """Every piece that matches at every position (by start, then length)."""
        return [
            LatticeArc(i, end, pid, self.pieces[pid][0], self.log_probs[pid])
            for i in range(len(text))
            for end, pid in self._arcs_from(text, i)
        ]

    def viterbi(self, text: str) -> ViterbiTrace:
        """The best segmentation of one sequence, with its dp table and back-pointers."""
        n, lp = len(text), self.log_probs
        dp = [_NEG_INF] * (n + 1)
        dp[0] = 0.0
        back: list[int | None] = [None] * (n + 1)
        last = [0] * (n + 1)
        for i in range(n):
            base = dp[i]
            if base == _NEG_INF:
                continue
            for end, pid in self._arcs_from(text, i):
                score = base + lp[pid]
                if score > dp[end]:  # strict: the earliest start wins a tie, as in the textbook
                    dp[end], back[end], last[end] = score, i, pid
        spans, ids = [], []
        i = n
        while i > 0:
            j = back[i]
            assert j is not None, "every position is reachable: <unk> spells any character"
            spans.append((j, i))
            ids.append(last[i])
            i = j
        spans.reverse()
        ids.reverse()
        return ViterbiTrace(
            text, tuple(dp), tuple(back), tuple(spans), tuple(ids),
            tuple(self.pieces[k][0] for k in ids), dp[n],
        )

    def nbest(self, text: str, k: int) -> list[Segmentation]:
        """The k most probable segmentations, best first (ties: as Viterbi breaks them).

        Each position keeps its k best partial paths; the k best of the whole text are among
        the k best extensions of those (the list Viterbi with k slots instead of one).
        """
        if type(k) is not int or not 1 <= k <= MAX_NBEST:
            raise ValueError(f"n-best takes k from 1 to {MAX_NBEST}, got {k!r}")
        n, lp = len(text), self.log_probs
        # entry: (score, previous position, rank there, piece id)
        candidates: list[list[tuple[float, int, int, int]]] = [[] for _ in range(n + 1)]
        best: list[list[tuple[float, int, int, int]]] = [[] for _ in range(n + 1)]
        best[0] = [(0.0, -1, -1, -1)]
        for i in range(n + 1):
            if i:
                # stable sort: equal scores keep the order found (earliest start first)
                best[i] = sorted(candidates[i], key=lambda c: -c[0])[:k]
            if i == n:
                break
            arcs = self._arcs_from(text, i)
            for rank, (score, *_) in enumerate(best[i]):
                for end, pid in arcs:
                    candidates[end].append((score + lp[pid], i, rank, pid))
        return [self._walk(text, best, n, rank) for rank in range(len(best[n]))]

    def _walk(self, text: str, best: list[list[tuple[float, int, int, int]]], n: int,
              rank: int) -> Segmentation:
        spans, ids = [], []
        i, r = n, rank
        score = best[n][rank][0] if n else 0.0
        while i > 0:
            _, j, r_prev, pid = best[i][r]
            spans.append((j, i))
            ids.append(pid)
            i, r = j, r_prev
        spans.reverse()
        ids.reverse()
        return Segmentation(tuple(self.pieces[p][0] for p in ids), tuple(spans), tuple(ids), score)

    def sample(self, text: str, rng: random.Random, alpha: float = 1.0) -> Segmentation:
        """One segmentation drawn with probability proportional to p(segmentation) ** alpha.

        Forward sums (in logs) give the weight of every prefix; walking back from the end, the
        last piece is drawn in proportion to weight(prefix before it) * p(piece) ** alpha.
        alpha < 1 flattens the choice (more variety), alpha > 1 sharpens it toward Viterbi.
        """
        if not (isinstance(alpha, (int, float)) and alpha > 0 and math.isfinite(alpha)):
            raise ValueError(f"alpha should be a positive number, got {alpha!r}")
        n, lp = len(text), self.log_probs
        ending: list[list[tuple[int, int]]] = [[] for _ in range(n + 1)]
        forward = [_NEG_INF] * (n + 1)
        forward[0] = 0.0
        for i in range(n):
            for end, pid in self._arcs_from(text, i):
                ending[end].append((i, pid))
        for i in range(1, n + 1):
            forward[i] = _logsumexp([forward[j] + alpha * lp[p] for j, p in ending[i]])
        spans, ids = [], []
        i = n
        while i > 0:
            weights = [math.exp(forward[j] + alpha * lp[p] - forward[i]) for j, p in ending[i]]
            j, pid = ending[i][_draw(weights, rng)]
            spans.append((j, i))
            ids.append(pid)
            i = j
        spans.reverse()
        ids.reverse()
        score = sum(lp[p] for p in ids)
        return Segmentation(tuple(self.pieces[p][0] for p in ids), tuple(spans), tuple(ids), score)

    # -- encoding --------------------------------------------------------------------------------

    def _path(self, seq: str) -> tuple[tuple[int, int, int], ...]:
        """(id, start, end) of the Viterbi path of one sequence, cached by sequence."""
        cached = self._cache.get(seq)
        if cached is None:
            if len(self._cache) >= _CACHE_SIZE:
                self._cache.clear()
            trace = self.viterbi(seq)
            cached = tuple((pid, a, b) for pid, (a, b) in zip(trace.ids, trace.path))
            self._cache[seq] = cached
        return cached

    def _encode_plain(self, text: str, offset: int) -> list[Token]:
        tokens: list[Token] = []
        word_level = self.level == "word"
        pieces = word_pieces(text) if word_level else line_pieces(text)
        for part in pieces:
            base = offset + part.start
            for pid, a, b in self._path(self.sequence(part.text)):
                if word_level:  # `▁` is sequence position 0 and covers no character
                    a, b = max(a - 1, 0), max(b - 1, 0)
                start, end = base + a, base + b
                data = text[start - offset : end - offset].encode("utf-8")
                prev = tokens[-1] if tokens else None
                if pid == 0 and prev is not None and prev.unknown and prev.end == start:
                    tokens[-1] = Token(0, prev.bytes + data, prev.start, end,
                                       piece=self.unk_token, unknown=True)
                elif pid == 0:
                    tokens.append(Token(0, data, start, end, piece=self.unk_token, unknown=True))
                else:
                    tokens.append(Token(pid, data, start, end, piece=self.pieces[pid][0]))
        return tokens

    # -- the model file --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The model file: `"pieces": [[piece, log_prob], ...]`, `<unk>` first (id 0)."""
        return {
            "algorithm": "unigram",
            "level": self.level,
            "pieces": [[p, lp] for p, lp in self.pieces],
            "vocab_size": self.vocab_size,
            "unk_token": self.unk_token,
        }


_FILE_KEYS = frozenset({"algorithm", "level", "pieces", "vocab_size", "unk_token", "training"})


def unigram_from_json(data: Mapping[str, Any], name: str = "model") -> UnigramModel:
    """A Unigram model from its model file; ValueError saying what is wrong otherwise.

    The first piece must be the unknown token; its log probability is recomputed from the
    others (lowest minus 10), so it is not checked.
    """
    if not isinstance(data, Mapping):
        raise ValueError(f"a Unigram model file holds a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - _FILE_KEYS)
    if unknown:
        raise ValueError(f"Unigram model file has unknown key(s) {unknown}; the keys are "
                         f"{sorted(_FILE_KEYS)}")
    if data.get("algorithm") != "unigram":
        raise ValueError(f"model file's algorithm is {data.get('algorithm')!r}, expected 'unigram'")
    level = data.get("level", "sentence")
    if level not in UNIGRAM_LEVELS:
        raise ValueError(f"model file's level should be 'word' or 'sentence', got {level!r}")
    unk = data.get("unk_token", UNK_TOKEN)
    if not isinstance(unk, str) or not unk:
        raise ValueError(f"model file's unk_token should be a non-empty string, got {unk!r}")
    pieces = data.get("pieces")
    if not isinstance(pieces, list) or not all(isinstance(p, list) and len(p) == 2 for p in pieces):
        raise ValueError("model file's 'pieces' should be a list of [piece, log_prob] pairs")
    if not pieces or pieces[0][0] != unk:
        raise ValueError(f"model file's first piece should be the unknown token {unk!r} (id 0)")
    model = UnigramModel([(p, lp) for p, lp in pieces[1:]], level, unk, name)
    stated = data.get("vocab_size", model.vocab_size)
    if stated != model.vocab_size:
        raise ValueError(f"model file says vocab_size {stated!r} but has {model.vocab_size} "
                         "pieces; the file was edited or truncated")
    return model


def _check_pieces(pieces: Sequence[tuple[str, float]], unk_token: str) -> list[tuple[str, float]]:
    if not pieces:
        raise ValueError("a Unigram model needs at least one piece besides <unk>")
    seen: set[str] = set()
    checked = []
    for i, (piece, log_prob) in enumerate(pieces):
        if not isinstance(piece, str) or not piece:
            raise ValueError(f"piece {i} should be a non-empty string, got {piece!r}")
        if piece == unk_token:
            raise ValueError(f"piece {i} is the unknown token {unk_token!r}, which is id 0 by "
                             "rule; leave it out of the pieces")
        if piece in seen:
            raise ValueError(f"piece {piece!r} is in the vocabulary twice; keep one")
        if isinstance(log_prob, bool) or not isinstance(log_prob, (int, float)) or not (
            math.isfinite(log_prob) and log_prob <= 0
        ):
            raise ValueError(f"piece {piece!r}: log probability should be a finite number <= 0, "
                             f"got {log_prob!r}")
        seen.add(piece)
        checked.append((piece, float(log_prob)))
    return checked


def _logsumexp(values: list[float]) -> float:
    top = max(values)
    if top == _NEG_INF:
        return _NEG_INF
    return top + math.log(sum(math.exp(v - top) for v in values))


def _draw(weights: list[float], rng: random.Random) -> int:
    """An index drawn in proportion to the weights (they sum to about 1)."""
    x = rng.random() * sum(weights)
    for k, w in enumerate(weights):
        x -= w
        if x < 0:
            return k
    return len(weights) - 1
