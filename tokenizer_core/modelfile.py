"""The model file: a trained tokenizer as JSON, written by `train` and read by `encode --model`.

    {"algorithm": "bpe", "level": "word"|"sentence"|"byte", "merges": [[a, b], ...],
     "counts": [...], "vocab_size": N, ...}

At the byte level each merge part is the lowercase hex of its bytes (`"6c6f"` for `lo`), so any
bytes survive JSON; at the word and sentence levels it is the string itself. Besides the keys
the command line promises, a BPE file holds what encoding needs: the alphabet (word and
sentence levels), special tokens, the unknown token, the pre-tokenization regex (byte level),
the tie-break and why training stopped. WordPiece files are read and written by
models/wordpiece.py (`to_dict` / `from_dict`); `train_wordpiece_json` is the command line's entry.
Unigram files (`"algorithm": "unigram"`, `"pieces": [[piece, log_prob], ...]`, `<unk>` first)
are read by models/unigram.py (`unigram_from_json`); `train_unigram_json` writes them.
SentencePiece files (`"algorithm": "sentencepiece-unigram"` or `"sentencepiece-bpe"`) hold the
same `"pieces"` ([piece, score] by id, as the library scores them: log probabilities, or merge
order for bpe) and the library's own serialized model, base64 in `"model_proto"`, which is what
encoding loads; `train_sentencepiece_json` writes them. `tokenizer_from_json` reads any of them.

Leaves out: training and encoding themselves.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any, Mapping

from .interface import Tokenizer
from .levels import check_level
from .models.byte_bpe import ByteLevelBPE
from .models.char_bpe import CharLevelBPE
from .models.wordpiece import WordPieceTokenizer
from .pretokenize import PATTERNS, compile_pattern
from .trainers.bpe import BPETraining
from .trainers.corpus import Corpus
from .trainers.unigram import train_unigram
from .trainers.wordpiece import train_wordpiece, wordpiece_corpus
from .user_regex import check_pattern

Model = CharLevelBPE | ByteLevelBPE
MAX_MODEL_PATTERN_CHARS = 5_000  # a file's own pre-tokenization regex (BERT's is 758)
SENTENCEPIECE = ("sentencepiece-unigram", "sentencepiece-bpe")  # the algorithm names in files


def bpe_model(
    training: BPETraining, name: str = "bpe", unk_token: str | None = None, k: int | None = None
) -> Model:
    """The tokenizer that a training run learned (with k, only its first k merges)."""
    corpus, merges = training.corpus, training.merges[:k]
    if corpus.level == "byte":
        return ByteLevelBPE.from_merges(
            name, merges, corpus.pat_str, training.special_tokens,  # type: ignore[arg-type]
        )
    return CharLevelBPE(
        corpus.level, merges, corpus.alphabet,  # type: ignore[arg-type]
        training.special_tokens, unk_token, name,
    )


def _pattern_name(pat_str: str) -> str | None:
    return next((name for name, pat in PATTERNS.items() if pat == pat_str), None)


def training_to_json(training: BPETraining, unk_token: str | None = None) -> dict[str, Any]:
    level = training.corpus.level

    def part(symbol: str | bytes) -> str:
        return symbol.hex() if isinstance(symbol, bytes) else symbol

    data: dict[str, Any] = {
        "algorithm": "bpe",
        "level": level,
        "merges": [[part(a), part(b)] for a, b in training.merges],
        "counts": training.counts,
        "vocab_size": training.vocab_size,
        "special_tokens": list(training.special_tokens),
        "tie_break": training.tie_break,
        "stop_reason": training.stop_reason,
    }
    if level == "byte":
        pat_str = training.corpus.pat_str
        data["pattern"] = _pattern_name(pat_str) or pat_str
    else:
        data["alphabet"] = list(training.corpus.alphabet)
        data["unk_token"] = unk_token
    return data


def _require(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise ValueError(f"model file has no {key!r}; was it written by `train`?")
    value = data[key]
    if not isinstance(value, kind):
        raise ValueError(f"model file's {key!r} should be {getattr(kind, '__name__', kind)}")
    return value


def _merges(data: Mapping[str, Any], level: str) -> list[tuple[Any, Any]]:
    merges = []
    for i, merge in enumerate(_require(data, "merges", list)):
        if not (isinstance(merge, list) and len(merge) == 2 and all(isinstance(p, str) for p in merge)):
            raise ValueError(f"model file's merge {i} should be a pair of strings, got {merge!r}")
        if level == "byte":
            try:
                merge = [bytes.fromhex(p) for p in merge]
            except ValueError:
                raise ValueError(f"model file's merge {i} {merge!r} is not hex bytes") from None
        merges.append((merge[0], merge[1]))
    return merges


def bpe_from_json(data: Mapping[str, Any], name: str = "model") -> Model:
    """A BPE tokenizer from a model file's JSON; ValueError saying what is wrong otherwise."""
    if not isinstance(data, Mapping):
        raise ValueError("model file should hold a JSON object")
    if data.get("algorithm") != "bpe":
        raise ValueError(f"model file's algorithm is {data.get('algorithm')!r}, expected 'bpe'")
    level = check_level(_require(data, "level", str))
    merges = _merges(data, level)
    specials = _require(data, "special_tokens", list) if "special_tokens" in data else []
    if not all(isinstance(s, str) and s for s in specials):
        raise ValueError("model file's special_tokens should be non-empty strings")
    if level == "byte":
        pattern = data.get("pattern", "gpt2")
        pat_str = PATTERNS.get(pattern, pattern) if isinstance(pattern, str) else None
        if pat_str is not None and pattern not in PATTERNS:  # a file's own regex: check it first
            try:
                check_pattern(pat_str, MAX_MODEL_PATTERN_CHARS)
            except ValueError as error:
                raise ValueError(f"model file's pattern is refused: {error}") from None
        try:
            compile_pattern(pat_str)  # type: ignore[arg-type]
        except Exception:
            raise ValueError(f"model file's pattern {pattern!r} is not a valid regex") from None
        model: Model = ByteLevelBPE.from_merges(name, merges, pat_str, tuple(specials))  # type: ignore[arg-type]
    else:
        alphabet = _require(data, "alphabet", list)
        if not all(isinstance(a, str) and a for a in alphabet):
            raise ValueError("model file's alphabet should be a list of non-empty strings")
        unk = data.get("unk_token")
        if unk is not None and not isinstance(unk, str):
            raise ValueError("model file's unk_token should be a string or null")
        model = CharLevelBPE(level, merges, alphabet, tuple(specials), unk, name)  # type: ignore[arg-type]
    stated = data.get("vocab_size")
    if stated is not None and stated != model.vocab_size:
        raise ValueError(
            f"model file says vocab_size {stated!r} but its merges make {model.vocab_size}; "
            "the file was edited or truncated"
        )
    return model


def train_wordpiece_json(
    corpus: Corpus, num_merges: int, tie_break: str = "first", score: str = "ratio"
) -> dict[str, Any]:
    """`train --algorithm wordpiece`: a word-level corpus in, the model file out."""
    training = train_wordpiece(wordpiece_corpus(corpus), num_merges, score, tie_break)
    return WordPieceTokenizer.from_training(training).to_dict()


def train_unigram_json(corpus: Corpus, vocab_size: int) -> dict[str, Any]:
    """`train --algorithm unigram`: a word- or sentence-level corpus in, the model file out."""
    return train_unigram(corpus, vocab_size).to_dict()


def train_sentencepiece_json(text: str, vocab_size: int, model_type: str) -> dict[str, Any]:
    """`train --algorithm sentencepiece-unigram|sentencepiece-bpe`: the real library trains on
    the text, one sentence per line (reference/sentencepiece_models.py's parameters)."""
    from .reference.sentencepiece_models import train_sentencepiece

    tokenizer = train_sentencepiece(text, vocab_size, model_type)  # type: ignore[arg-type]
    return {
        "algorithm": f"sentencepiece-{tokenizer.model_type}",
        "level": "sentence",
        "pieces": [[piece, score] for piece, score in tokenizer.pieces()],
        "vocab_size": tokenizer.vocab_size,
        "model_proto": base64.b64encode(tokenizer.model_proto).decode("ascii"),
    }


def sentencepiece_from_json(data: Mapping[str, Any], name: str = "model") -> Tokenizer:
    """A SentencePieceTokenizer from its model file; ValueError saying what is wrong otherwise.

    The library's model is what encodes; the file's pieces must be the model's own, so a file
    whose pieces were edited (and would mislead whoever reads them) is refused."""
    from .reference.sentencepiece_models import SentencePieceTokenizer

    proto = _require(data, "model_proto", str)
    try:
        tokenizer = SentencePieceTokenizer(base64.b64decode(proto, validate=True), name)
    except (binascii.Error, RuntimeError, ValueError):
        raise ValueError("model file's model_proto is not a SentencePiece model in base64; "
                         "was it written by `train --algorithm sentencepiece-...`?") from None
    if f"sentencepiece-{tokenizer.model_type}" != data.get("algorithm"):
        raise ValueError(f"model file says {data.get('algorithm')!r} but its model_proto is a "
                         f"{tokenizer.model_type} model")
    pieces = [[piece, score] for piece, score in tokenizer.pieces()]
    if _require(data, "pieces", list) != pieces:
        raise ValueError("model file's pieces are not its model_proto's own; the file was "
                         "edited or truncated")
    return tokenizer


def tokenizer_from_json(data: Any, name: str = "model") -> Tokenizer:
    """The tokenizer a model file describes, whichever algorithm `train` wrote it with."""
    algorithm = data.get("algorithm") if isinstance(data, Mapping) else None
    if algorithm == "wordpiece":
        from .models.wordpiece import wordpiece_from_json

        return wordpiece_from_json(data, name)
    if algorithm == "unigram":
        from .models.unigram import unigram_from_json

        return unigram_from_json(data, name)
    if algorithm in SENTENCEPIECE:
        return sentencepiece_from_json(data, name)
    return bpe_from_json(data, name)
