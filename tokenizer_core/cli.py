"""The command line: train and encode, JSON on stdout, one clear line and a non-zero exit on bad input.

    python -m tokenizer_core train --algorithm bpe|wordpiece --level word|sentence|byte
           --merges N [--tie-break first|lexical] [--counts] [--output MODEL.json] CORPUS|-
    python -m tokenizer_core encode --tokenizer NAME [--model MODEL.json] [TEXTFILE|-]
    python -m tokenizer_core warm [--prune]

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
from .interface import DisallowedSpecialToken, Tokenizer
from .levels import LEVELS
from .modelfile import bpe_from_json, training_to_json
from .pretokenize import PATTERNS
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


def train(args: argparse.Namespace) -> dict[str, Any]:
    if args.algorithm == "wordpiece" and args.level != "word":
        raise UsageError("WordPiece trains on words: use --level word (the default)")
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
    return bpe_from_json(data)


def encode(args: argparse.Namespace) -> dict[str, Any]:
    if args.tokenizer == "model":
        if not args.model:
            raise UsageError("--tokenizer model needs --model MODEL.json (a file `train` wrote)")
        tokenizer = load_model(args.model)
    else:
        if args.model:
            raise UsageError("--model goes with --tokenizer model")
        tokenizer = load_tokenizer(args.tokenizer)
    text = read_text(args.text, "text", bounds.MAX_ENCODE_CHARS * 4)
    if len(text) > bounds.MAX_ENCODE_CHARS:  # the byte ceiling alone lets 4x as much ASCII in
        raise UsageError(
            f"text has {len(text):,} characters; the bound is {bounds.MAX_ENCODE_CHARS:,} "
            "(split it and encode the parts)"
        )
    special = {"refuse": {}, "allow": {"allowed_special": "all"}, "plain": {"disallowed_special": ()}}
    try:
        tokens = tokenizer.encode(text, **special[args.special])
    except DisallowedSpecialToken as error:  # its own remedy names Python arguments, not flags
        raise UsageError(
            f"the text holds the special token {error.token!r} at character {error.position}; "
            "pass --special allow to encode it as a special token, or --special plain to read "
            "it as ordinary text"
        ) from None
    return {
        "tokenizer": args.tokenizer,
        "tokens": [
            {"id": t.id, "hex": t.hex, "start": t.start, "end": t.end, "text": t.piece}
            for t in tokens
        ],
    }


def warm(args: argparse.Namespace) -> dict[str, Any]:
    """Train the app's own tokenizers into the on-disk store (store.py) ahead of a lesson."""
    folder = store.store_dir()
    if folder is None:
        raise UsageError(f"the store is off ({store.CACHE_ENV}={store.OFF}); nothing to warm")
    removed = store.prune() if args.prune else 0
    built = []
    for name in TRAINED:
        started = time.perf_counter()
        trained_tokenizer(name)
        built.append({"name": name, "seconds": round(time.perf_counter() - started, 3)})
    return {"store": str(folder), "tokenizers": built, "pruned": removed}


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m tokenizer_core", description=__doc__.split("\n")[0])
    commands = top.add_subparsers(dest="command", required=True)

    t = commands.add_parser("train", help="learn merges from a corpus, print the model JSON")
    t.add_argument("--algorithm", choices=("bpe", "wordpiece"), default="bpe")
    t.add_argument("--level", choices=LEVELS, default="word")
    t.add_argument("--merges", type=int, required=True, help="number of merges (>= 0)")
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

    w = commands.add_parser(
        "warm", help=f"train the app's own tokenizers into the on-disk store (${store.CACHE_ENV})"
    )
    w.add_argument("--prune", action="store_true", help="first delete entries of older versions")
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        result = {"train": train, "encode": encode, "warm": warm}[args.command](args)
    except (UsageError, ValueError, OSError) as error:
        sys.stderr.write(f"error: {error}\n")
        return 1
    sys.stdout.buffer.write(json.dumps(result, ensure_ascii=False).encode("utf-8") + b"\n")
    return 0
