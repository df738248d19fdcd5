"""The command line: train and encode, JSON on stdout, one clear line and a non-zero exit on bad input.

    python -m tokenizer_core train --algorithm bpe|wordpiece --level word|sentence|byte
           --merges N [--tie-break first|lexical] [--counts] [--output MODEL.json] CORPUS|-
    python -m tokenizer_core train --algorithm unigram --vocab-size N [--level word|sentence]
           [--counts] [--output MODEL.json] CORPUS|-
    python -m tokenizer_core encode --tokenizer NAME [--model MODEL.json] [TEXTFILE|-]
    python -m tokenizer_core windows --tokenizer NAME [--model MODEL.json] --max-length N
           --stride S [--boundaries none|paragraph] [TEXTFILE|-]
    python -m tokenizer_core warm [--prune]
    python -m tokenizer_core vocab --tokenizer NAME [--model MODEL.json]
    python -m tokenizer_core pretokenize --pattern gpt2|cl100k_base|o200k_base|NAME [TEXTFILE|-]
    python -m tokenizer_core export --model MODEL.json --output tokenizer.json

This is the contract outside checks use (see DESIGN.md); everything it prints is JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from . import bounds, store
from .interface import DisallowedSpecialToken, Tokenizer, resolve_special
from .levels import LEVELS
from .modelfile import bpe_from_json, training_to_json
from .pretokenize import PATTERNS
from .reference.tiktoken_encodings import TiktokenTokenizer
from .registry import NAMES, TRAINED, load_tokenizer, trained_tokenizer
from .trainers.bpe import TIE_BREAKS, check_num_merges, train_bpe
from .trainers.corpus import Corpus, corpus_from_counts, corpus_from_text


class UsageError(Exception):
    """Bad input: the message is the one line the user sees."""


def read_bytes(source: str, what: str, limit: int) -> bytes:
    if source == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        path = Path(source)
        if not path.is_file():
            raise UsageError(f"{what} {source!r} does not exist or is not a file")
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    if len(data) > limit:
        raise UsageError(f"{what} {source!r} is larger than the bound of {limit:,} bytes")
    return data


def read_text(source: str, what: str, limit: int) -> str:
    data = read_bytes(source, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UsageError(
            f"{what} {source!r} is not valid UTF-8 (byte 0x{data[error.start]:02x} at offset "
            f"{error.start}); save it as UTF-8"
        ) from None


def load_corpus(args: argparse.Namespace) -> Corpus:
    text = read_text(args.corpus, "corpus", bounds.MAX_TRAIN_CHARS * 4)
    if len(text) > bounds.MAX_TRAIN_CHARS:
        raise UsageError(f"corpus has {len(text):,} characters; the bound is {bounds.MAX_TRAIN_CHARS:,}")
    if not args.counts:
        if args.algorithm == "wordpiece":
            # WordPiece learns from words cut the way it will encode them: whitespace and
            # punctuation (BERT's rule), so a comma is a word of its own, not glued to one.
            from .trainers.wordpiece import bert_word_counts

            return corpus_from_counts(bert_word_counts(text), "word")
        return corpus_from_text(text, args.level, PATTERNS[args.pattern], args.special_token)
    try:
        table = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"--counts corpus is not JSON: {error}") from None
    if not isinstance(table, dict):
        raise UsageError('--counts corpus must be a JSON object like {"low": 5, "lower": 2}')
    if len(table) > bounds.MAX_COUNT_TABLE_ENTRIES:
        raise UsageError(f"count table has more than {bounds.MAX_COUNT_TABLE_ENTRIES:,} entries")
    return corpus_from_counts(table, args.level, PATTERNS[args.pattern])


def train_unigram_model(args: argparse.Namespace) -> dict[str, Any]:
    """`train --algorithm unigram`: pieces with log probabilities, pruned to --vocab-size."""
    from .modelfile import train_unigram_json

    if args.vocab_size is None:
        raise UsageError("--algorithm unigram needs --vocab-size N (pieces, <unk> included)")
    if args.merges is not None:
        raise UsageError("--merges is for bpe and wordpiece; Unigram takes --vocab-size N")
    if args.level not in ("word", "sentence"):
        raise UsageError("Unigram trains on words or lines: use --level word or sentence")
    if not 2 <= args.vocab_size <= bounds.MAX_UNIGRAM_VOCAB:
        raise UsageError(f"--vocab-size {args.vocab_size} is outside 2 to "
                         f"{bounds.MAX_UNIGRAM_VOCAB:,}")
    return train_unigram_json(load_corpus(args), args.vocab_size)


def train(args: argparse.Namespace) -> dict[str, Any]:
    if args.algorithm == "unigram":
        model = train_unigram_model(args)
        if args.output:
            Path(args.output).write_text(json.dumps(model, ensure_ascii=False), encoding="utf-8")
        return model
    if args.algorithm == "wordpiece" and args.level != "word":
        raise UsageError("WordPiece trains on words: use --level word (the default)")
    if args.merges is None:
        raise UsageError(f"--algorithm {args.algorithm} needs --merges N")
    merges = check_num_merges(args.merges)
    if merges > bounds.MAX_MERGES:
        raise UsageError(f"--merges {merges} is over the bound of {bounds.MAX_MERGES:,}")
    corpus = load_corpus(args)
    if args.algorithm == "wordpiece":
        from .modelfile import train_wordpiece_json

        model = train_wordpiece_json(corpus, merges, args.tie_break, args.score)
    else:
        specials = tuple(dict.fromkeys(args.special_token))
        model = training_to_json(train_bpe(corpus, merges, args.tie_break, special_tokens=specials))
    if args.output:
        Path(args.output).write_text(json.dumps(model, ensure_ascii=False), encoding="utf-8")
    return model


def load_model(path: str) -> Tokenizer:
    text = read_text(path, "model file", bounds.MAX_MODEL_FILE_BYTES)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"model file {path!r} is not JSON: {error}") from None
    algorithm = data.get("algorithm") if isinstance(data, dict) else None
    if algorithm == "wordpiece":
        from .models.wordpiece import wordpiece_from_json

        return wordpiece_from_json(data)
    if algorithm == "unigram":
        from .models.unigram import unigram_from_json

        return unigram_from_json(data)
    return bpe_from_json(data)


def chosen_tokenizer(args: argparse.Namespace, trained: bool = False) -> Tokenizer:
    """--tokenizer NAME, or `model` with --model MODEL.json; `trained` also takes the app's own
    trained tokenizers by name (ours:bpe ...)."""
    if args.tokenizer == "model":
        if not args.model:
            raise UsageError("--tokenizer model needs --model MODEL.json (a file `train` wrote)")
        return load_model(args.model)
    if args.model:
        raise UsageError("--model goes with --tokenizer model")
    if trained and args.tokenizer in TRAINED:
        return trained_tokenizer(args.tokenizer)
    return load_tokenizer(args.tokenizer)


def bounded_text(args: argparse.Namespace) -> str:
    """The text to encode, within MAX_ENCODE_CHARS."""
    text = read_text(args.text, "text", bounds.MAX_ENCODE_CHARS * 4)
    if len(text) > bounds.MAX_ENCODE_CHARS:  # the byte ceiling alone lets 4x as much ASCII in
        raise UsageError(
            f"text has {len(text):,} characters; the bound is {bounds.MAX_ENCODE_CHARS:,} "
            "(split it and encode the parts)"
        )
    return text


# --special: what a special-token string in the text becomes.
SPECIAL_MODES: dict[str, dict[str, Any]] = {
    "refuse": {}, "allow": {"allowed_special": "all"}, "plain": {"disallowed_special": ()},
}


def special_refused(error: DisallowedSpecialToken) -> UsageError:
    # its own remedy names Python arguments, not flags
    return UsageError(
        f"the text holds the special token {error.token!r} at character {error.position}; "
        "pass --special allow to encode it as a special token, or --special plain to read "
        "it as ordinary text"
    )


def encode(args: argparse.Namespace) -> dict[str, Any]:
    tokenizer = chosen_tokenizer(args)
    text = bounded_text(args)
    try:
        tokens = tokenizer.encode(text, **SPECIAL_MODES[args.special])
    except DisallowedSpecialToken as error:
        raise special_refused(error) from None
    return {
        "tokenizer": args.tokenizer,
        "tokens": [
            {"id": t.id, "hex": t.hex, "start": t.start, "end": t.end, "text": t.piece}
            for t in tokens
        ],
    }


def windows(args: argparse.Namespace) -> dict[str, Any]:
    """Cut a long text into windows of --max-length tokens overlapping by --stride (DESIGN.md)."""
    from .measure.sequences_windows import (
        boundary_windows_of,
        check_window_args,
        sliding_windows_of,
    )

    try:
        check_window_args(args.max_length, args.stride)  # before reading a megabyte of text
    except ValueError as error:
        raise UsageError(str(error)) from None
    text, ids, spans = ids_and_spans(args)
    if args.boundaries == "paragraph":
        cut = boundary_windows_of(text, spans, args.max_length, args.stride)
    else:
        cut = sliding_windows_of(spans, args.max_length, args.stride)
    return {
        "tokenizer": args.tokenizer,
        "windows": [{"ids": ids[w.first : w.stop], "start": w.start, "end": w.end} for w in cut],
    }


def token_sizes(tokenizer: TiktokenTokenizer) -> list[int]:
    """Bytes per token id of a tiktoken encoding, from its ranks and special tokens."""
    sizes = [0] * tokenizer.vocab_size
    for data, rank in tokenizer.spec.mergeable_ranks.items():
        sizes[rank] = len(data)
    for name, token_id in tokenizer.spec.special_tokens.items():
        sizes[token_id] = len(name.encode("utf-8"))
    return sizes


def ids_and_spans(args: argparse.Namespace) -> tuple[str, list[int], Any]:
    """The text, its ids and their character spans, by the same rules as `encode` (tokenizer,
    bounds, --special). tiktoken's ids come without Token records (building them is most of the
    time for a megabyte); their spans follow the same rule (char_spans, tested equal)."""
    from .measure.sequences_windows import char_spans, spans_of

    tokenizer = chosen_tokenizer(args)
    text = bounded_text(args)
    if not text:
        raise UsageError("the text is empty; there is nothing to cut into windows")
    special = SPECIAL_MODES[args.special]
    try:
        if isinstance(tokenizer, TiktokenTokenizer):
            allowed = resolve_special(text, tokenizer.special_tokens, **special)
            ids = tokenizer.encoding.encode(text, allowed_special=allowed, disallowed_special=())
            sizes = token_sizes(tokenizer)
            return text, ids, char_spans(text, [sizes[i] for i in ids])
        tokens = tokenizer.encode(text, **special)
        return text, [t.id for t in tokens], spans_of(tokens)
    except DisallowedSpecialToken as error:
        raise special_refused(error) from None


def warm(args: argparse.Namespace) -> dict[str, Any]:
    """Train the app's own tokenizers, and the Compression page's curves and HF lines for the
    built-in corpora, into the on-disk store (store.py) ahead of a lesson."""
    folder = store.store_dir()
    if folder is None:
        raise UsageError(f"the store is off ({store.CACHE_ENV}={store.OFF}); nothing to warm")
    removed = store.prune() if args.prune else 0
    built = []
    for name in TRAINED:
        started = time.perf_counter()
        trained_tokenizer(name)
        built.append({"name": name, "seconds": round(time.perf_counter() - started, 3)})
    # the Compression page's curves, HF lines, reference points and default quality rows
    # (imported here: they load HF tokenizers, which the other commands do not need)
    from .measure import stored

    started = time.perf_counter()
    corpora = stored.warm()
    compression = {"corpora": corpora, "seconds": round(time.perf_counter() - started, 3)}
    return {"store": str(folder), "tokenizers": built, "compression": compression,
            "pruned": removed}


def vocab(args: argparse.Namespace) -> dict[str, Any]:
    """Every token of a tokenizer in id order; ids no token holds (cl100k's gaps) are left out
    and listed in "gaps", and "size" is the tokenizer's own count (tiktoken's n_vocab)."""
    from .measure.vocabulary import vocabulary

    tokenizer = chosen_tokenizer(args, trained=True)
    table = vocabulary(tokenizer)
    return {
        "tokenizer": args.tokenizer,
        "size": table.size,
        "gaps": list(table.gaps),
        "tokens": [{"id": r.id, "hex": r.hex, "text": r.text} for r in table.rows],
    }


def pretokenize(args: argparse.Namespace) -> dict[str, Any]:
    """The chunks a pre-tokenization regex cuts, with character offsets (end exclusive), and
    which of the regex's top-level alternatives cut each (lessons/pre_split.py)."""
    if args.pattern in PATTERNS:
        pat_str = PATTERNS[args.pattern]
    elif args.pattern in NAMES:  # a registry tokenizer's own regex (Llama 3, Qwen, ...)
        pat_str = getattr(getattr(load_tokenizer(args.pattern), "spec", None), "pat_str", None)
        if pat_str is None:
            raise UsageError(f"{args.pattern!r} has no pre-tokenization regex of its own")
    else:
        raise UsageError(
            f"unknown pattern {args.pattern!r}; choose one of {', '.join(PATTERNS)} or a "
            f"tokenizer name ({', '.join(NAMES)})"
        )
    text = read_text(args.text, "text", bounds.MAX_ENCODE_CHARS * 4)
    if len(text) > bounds.MAX_ENCODE_CHARS:
        raise UsageError(f"text has {len(text):,} characters; the bound is {bounds.MAX_ENCODE_CHARS:,}")
    from .lessons.pre_split import alternatives, describe, split_named

    parts = alternatives(pat_str)
    return {
        "pattern": args.pattern,
        "alternatives": [{"regex": a, "name": describe(a)[0], "words": describe(a)[1]}
                         for a in parts],
        "chunks": [{"text": c.text, "start": c.start, "end": c.end, "alternative": c.alternative}
                   for c in split_named(text, pat_str)],
    }


def export(args: argparse.Namespace) -> dict[str, Any]:
    """Write a byte-level BPE, WordPiece or Unigram model file as an HF tokenizer.json that gives
    the same ids."""
    from .measure.vocabulary_export import hf_tokenizer_json

    text = read_text(args.model, "model file", bounds.MAX_MODEL_FILE_BYTES)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"model file {args.model!r} is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise UsageError(f"model file {args.model!r} should hold a JSON object")
    hf = hf_tokenizer_json(data)
    Path(args.output).write_text(json.dumps(hf, ensure_ascii=False), encoding="utf-8")
    return {"model": args.model, "output": args.output, "vocab_size": len(hf["model"]["vocab"])}


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m tokenizer_core", description=__doc__.split("\n")[0])
    commands = top.add_subparsers(dest="command", required=True)

    t = commands.add_parser("train", help="learn merges from a corpus, print the model JSON")
    t.add_argument("--algorithm", choices=("bpe", "wordpiece", "unigram"), default="bpe")
    t.add_argument("--level", choices=LEVELS, default="word")
    t.add_argument("--merges", type=int, help="number of merges (>= 0; bpe and wordpiece)")
    t.add_argument("--vocab-size", type=int, help="pieces to keep, <unk> included (unigram)")
    t.add_argument("--tie-break", choices=TIE_BREAKS, default="first")
    t.add_argument("--counts", action="store_true", help='CORPUS is a JSON {"word": count} table')
    t.add_argument("--pattern", choices=sorted(PATTERNS), default="gpt2", help="byte-level regex")
    t.add_argument("--score", choices=("ratio", "likelihood"), default="ratio", help="WordPiece score")
    t.add_argument(
        "--special-token", action="append", default=[], metavar="TOKEN",
        help="a special token (repeatable): ids before everything else, cut out of the corpus, "
        "never merged (BPE)",
    )
    t.add_argument("--output", help="also write the model JSON to this file")
    t.add_argument("corpus", help="corpus file, or - for standard input")

    e = commands.add_parser("encode", help="encode text, print the tokens as JSON")
    e.add_argument("--tokenizer", required=True, help=f"one of {', '.join(NAMES)}, or model")
    e.add_argument("--model", help="model file written by train (with --tokenizer model)")
    e.add_argument(
        "--special", choices=("refuse", "allow", "plain"), default="refuse",
        help="special-token strings in the text: refuse (default, like tiktoken), "
        "allow them as special tokens, or read them as plain text",
    )
    e.add_argument("text", nargs="?", default="-", help="text file, or - for standard input")

    x = commands.add_parser(
        "windows", help="cut a text into windows of --max-length tokens, --stride overlapping"
    )
    x.add_argument("--tokenizer", required=True, help=f"one of {', '.join(NAMES)}, or model")
    x.add_argument("--model", help="model file written by train (with --tokenizer model)")
    x.add_argument("--max-length", type=int, required=True, help="tokens per window (>= 1)")
    x.add_argument("--stride", type=int, default=0, help="tokens shared with the next window (< N)")
    x.add_argument(
        "--boundaries", choices=("none", "paragraph"), default="none",
        help="none: window k = ids[k(N-S) : k(N-S)+N]; paragraph: end each window at the best "
        "paragraph, sentence or word break within reach, never inside a character",
    )
    x.add_argument("--special", choices=("refuse", "allow", "plain"), default="refuse",
                   help="special-token strings in the text, as for encode")
    x.add_argument("text", nargs="?", default="-", help="text file, or - for standard input")

    w = commands.add_parser(
        "warm", help="train the app's own tokenizers and the Compression page's curves and HF "
        f"lines into the on-disk store (${store.CACHE_ENV})"
    )
    w.add_argument("--prune", action="store_true", help="first delete entries of older versions")
    v = commands.add_parser("vocab", help="print every token of a tokenizer as JSON, in id order")
    v.add_argument("--tokenizer", required=True,
                   help=f"one of {', '.join(NAMES)}, {', '.join(TRAINED)}, or model")
    v.add_argument("--model", help="model file written by train (with --tokenizer model)")

    p = commands.add_parser("pretokenize", help="print the chunks a pre-tokenization regex cuts")
    p.add_argument("--pattern", required=True,
                   help=f"{', '.join(PATTERNS)}, or a tokenizer name whose regex to use")
    p.add_argument("text", nargs="?", default="-", help="text file, or - for standard input")

    o = commands.add_parser("export", help="write a byte-level BPE, WordPiece or Unigram model as an HF tokenizer.json")
    o.add_argument("--model", required=True, help="model file written by train --level byte")
    o.add_argument("--output", required=True, help="where to write tokenizer.json")
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        result = {"train": train, "encode": encode, "windows": windows, "warm": warm,
                  "vocab": vocab, "pretokenize": pretokenize, "export": export}[args.command](args)
    except (UsageError, ValueError, OSError) as error:
        sys.stderr.write(f"error: {error}\n")
        return 1
    sys.stdout.buffer.write(json.dumps(result, ensure_ascii=False).encode("utf-8") + b"\n")
    return 0
