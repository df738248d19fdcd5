"""The command line: train and encode, JSON on stdout, one clear line and a non-zero exit on bad input.

    python -m tokenizer_core train --algorithm bpe|wordpiece --level word|sentence|byte
           --merges N [--tie-break first|lexical] [--counts] [--output MODEL.json] CORPUS|-
    python -m tokenizer_core train --algorithm unigram --vocab-size N [--level word|sentence]
           [--counts] [--output MODEL.json] CORPUS|-
    python -m tokenizer_core train --algorithm sentencepiece-unigram|sentencepiece-bpe
           --vocab-size N [--output MODEL.json] CORPUS|-
    python -m tokenizer_core encode --tokenizer NAME [--model MODEL.json] [TEXTFILE|-]
    python -m tokenizer_core count --tokenizer A [--tokenizer B ...] [TEXTFILE|-]
    python -m tokenizer_core premium --tokenizer A [--tokenizer B ...] PARALLEL.tsv
    python -m tokenizer_core windows --tokenizer NAME [--model MODEL.json] --max-length N
           --stride S [--boundaries none|paragraph] [TEXTFILE|-]
    python -m tokenizer_core warm [--prune]
    python -m tokenizer_core vocab --tokenizer NAME [--model MODEL.json]
    python -m tokenizer_core pretokenize --pattern gpt2|cl100k_base|o200k_base|NAME [TEXTFILE|-]
    python -m tokenizer_core export --model MODEL.json --output tokenizer.json

This is the contract outside checks use (see DESIGN.md); everything it prints is JSON, and the
long lists (tokens, windows, chunks) are written while they are produced, never held as one string.
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
from .json_output import JsonStream, write_json
from .levels import LEVELS
from .modelfile import SENTENCEPIECE, tokenizer_from_json, training_to_json
from .pretokenize import PATTERNS
from .reference.tiktoken_encodings import TiktokenTokenizer
from .registry import NAMES, TRAINED, load_tokenizer, trained_tokenizer
from .trainers.bpe import TIE_BREAKS, check_num_merges, train_bpe
from .trainers.corpus import Corpus, corpus_from_counts, corpus_from_text


class UsageError(Exception):
    """Bad input: the message is the one line the user sees."""


def read_bytes(source: str, what: str, limit: int, remedy: str = "") -> bytes:
    if source == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        path = Path(source)
        if not path.is_file():
            raise UsageError(f"{what} {source!r} does not exist or is not a file")
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    if len(data) > limit:
        raise UsageError(f"{what} {source!r} is larger than the bound of {limit:,} bytes{remedy}")
    return data


def read_text(source: str, what: str, limit: int, remedy: str = "") -> str:
    data = read_bytes(source, what, limit, remedy)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UsageError(
            f"{what} {source!r} is not valid UTF-8 (byte 0x{data[error.start]:02x} at offset "
            f"{error.start}); save it as UTF-8"
        ) from None


def parse_json(text: str, what: str) -> Any:
    """json.loads with its two failures as one line: not JSON, or nested too deeply.

    subtle: Python's JSON decoder recurses once per level, so `[[[[...]]]]` 100,000 deep raises
    RecursionError, not JSONDecodeError; no file `train` writes is nested more than 3 deep.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"{what} is not JSON: {error}") from None
    except RecursionError:
        raise UsageError(f"{what} is nested too deeply to read (thousands of [ or {{ inside one "
                         "another); no file `train` writes is nested more than 3 deep") from None


def corpus_text(args: argparse.Namespace) -> str:
    text = read_text(args.corpus, "corpus", bounds.MAX_TRAIN_CHARS * 4)
    if len(text) > bounds.MAX_TRAIN_CHARS:
        raise UsageError(f"corpus has {len(text):,} characters; the bound is {bounds.MAX_TRAIN_CHARS:,}")
    return text


def load_corpus(args: argparse.Namespace) -> Corpus:
    text = corpus_text(args)
    if not args.counts:
        if args.algorithm == "wordpiece":
            # WordPiece learns from words cut the way it will encode them: whitespace and
            # punctuation (BERT's rule), so a comma is a word of its own, not glued to one.
            from .trainers.wordpiece import bert_word_counts

            return corpus_from_counts(bert_word_counts(text), "word")
        return corpus_from_text(text, args.level, PATTERNS[args.pattern], args.special_token)
    table = parse_json(text, "--counts corpus")
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


def train_sentencepiece_model(args: argparse.Namespace) -> dict[str, Any]:
    """`train --algorithm sentencepiece-unigram|sentencepiece-bpe`: the real library, which
    reads the text itself, one sentence per line, so the flags that shape our corpus are refused."""
    from .modelfile import train_sentencepiece_json

    given = {"--merges": args.merges is not None, "--level": args.level is not None,
             "--counts": args.counts, "--special-token": bool(args.special_token)}
    refused = next((flag for flag, on in given.items() if on), None)
    if refused:
        raise UsageError(f"{refused} is not for {args.algorithm}: SentencePiece trains on the "
                         "text itself, one sentence per line, spaces included; give --vocab-size N")
    if args.vocab_size is None:
        raise UsageError(f"--algorithm {args.algorithm} needs --vocab-size N (every piece: the "
                         "4 special ones, the line break and the 256 byte pieces included)")
    if not 1 <= args.vocab_size <= bounds.MAX_UNIGRAM_VOCAB:
        raise UsageError(f"--vocab-size {args.vocab_size} is outside 1 to "
                         f"{bounds.MAX_UNIGRAM_VOCAB:,}")
    return train_sentencepiece_json(corpus_text(args), args.vocab_size,
                                    args.algorithm.removeprefix("sentencepiece-"))


def trained_model(args: argparse.Namespace) -> dict[str, Any]:
    if args.algorithm in SENTENCEPIECE:
        return train_sentencepiece_model(args)
    args.level = args.level or "word"
    if args.algorithm == "unigram":
        return train_unigram_model(args)
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

        return train_wordpiece_json(corpus, merges, args.tie_break, args.score)
    specials = tuple(dict.fromkeys(args.special_token))
    return training_to_json(train_bpe(corpus, merges, args.tie_break, special_tokens=specials))


def train(args: argparse.Namespace) -> dict[str, Any]:
    model = trained_model(args)
    if args.output:
        Path(args.output).write_text(json.dumps(model, ensure_ascii=False), encoding="utf-8")
    return model


def load_model(path: str) -> Tokenizer:
    data = parse_json(read_text(path, "model file", bounds.MAX_MODEL_FILE_BYTES),
                      f"model file {path!r}")
    return tokenizer_from_json(data)


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
    """The text to encode, within MAX_ENCODE_BYTES: a bound on bytes is a bound on tokens (a
    byte-level tokenizer makes at most one a byte), and tokens are what take the memory."""
    return read_text(args.text, "text", bounds.MAX_ENCODE_BYTES, " (split it and encode the parts)")


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


def encode(args: argparse.Namespace) -> JsonStream:
    tokenizer = chosen_tokenizer(args)
    text = bounded_text(args)
    try:
        tokens = tokenizer.encode(text, **SPECIAL_MODES[args.special])
    except DisallowedSpecialToken as error:
        raise special_refused(error) from None
    rows = ({"id": t.id, "hex": t.hex, "start": t.start, "end": t.end, "text": t.piece}
            for t in tokens)
    return JsonStream({"tokenizer": args.tokenizer}, "tokens", rows)


def sliding_ids_fed(n: int, max_length: int, stride: int) -> tuple[int, int]:
    """(windows, ids in all of them) of sliding windows over n tokens, without cutting them:
    every window but the last holds max_length ids, and the last ends at the last token."""
    step = max_length - stride
    count = 1 if n <= max_length else -(-(n - max_length) // step) + 1
    return count, (count - 1) * max_length + (n - (count - 1) * step)


def check_window_ids(windows: int, ids: int, max_length: int, stride: int) -> None:
    if ids > bounds.MAX_WINDOW_IDS:
        raise UsageError(
            f"these windows would hold {ids:,} token ids in all ({windows:,} windows of up to "
            f"{max_length:,} tokens, each starting {max_length - stride:,} after the last); the "
            f"bound is {bounds.MAX_WINDOW_IDS:,}: lower the stride, or cut the text shorter"
        )


def windows(args: argparse.Namespace) -> JsonStream:
    """Cut a long text into windows of --max-length tokens overlapping by --stride (DESIGN.md).

    Each token is written once per window that holds it, so the output is bounded by ids in all
    (MAX_WINDOW_IDS), checked before anything is cut: a stride one below the max length on a
    megabyte would otherwise write billions of ids.
    """
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
    # paragraph windows are about as many as sliding ones (each starts up to the stride back
    # from where the last ended), so the sliding count bounds the search before it runs
    check_window_ids(*sliding_ids_fed(len(ids), args.max_length, args.stride),
                     args.max_length, args.stride)
    if args.boundaries == "paragraph":
        cut = boundary_windows_of(text, spans, args.max_length, args.stride)
        check_window_ids(len(cut), sum(len(w) for w in cut), args.max_length, args.stride)
    else:
        cut = sliding_windows_of(spans, args.max_length, args.stride)
    rows = ({"ids": ids[w.first : w.stop], "start": w.start, "end": w.end} for w in cut)
    return JsonStream({"tokenizer": args.tokenizer}, "windows", rows)


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
        # (a model that normalizes this text first cuts other bytes than it has: Token records)
        if isinstance(tokenizer, TiktokenTokenizer) and not tokenizer.changes(text):
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


def pretokenize(args: argparse.Namespace) -> JsonStream:
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
    text = read_text(args.text, "text", bounds.MAX_ENCODE_BYTES, " (split it and cut the parts)")
    from .lessons.pre_split import alternatives, describe, split_named

    head = {"pattern": args.pattern,
            "alternatives": [{"regex": a, "name": describe(a)[0], "words": describe(a)[1]}
                             for a in alternatives(pat_str)]}
    rows = ({"text": c.text, "start": c.start, "end": c.end, "alternative": c.alternative}
            for c in split_named(text, pat_str))
    return JsonStream(head, "chunks", rows)


def export(args: argparse.Namespace) -> dict[str, Any]:
    """Write a byte-level BPE, WordPiece or Unigram model file as an HF tokenizer.json that gives
    the same ids."""
    from .measure.vocabulary_export import hf_tokenizer_json

    data = parse_json(read_text(args.model, "model file", bounds.MAX_MODEL_FILE_BYTES),
                      f"model file {args.model!r}")
    if not isinstance(data, dict):
        raise UsageError(f"model file {args.model!r} should hold a JSON object")
    hf = hf_tokenizer_json(data)
    Path(args.output).write_text(json.dumps(hf, ensure_ascii=False), encoding="utf-8")
    return {"model": args.model, "output": args.output, "vocab_size": len(hf["model"]["vocab"])}


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m tokenizer_core", description=__doc__.split("\n")[0])
    commands = top.add_subparsers(dest="command", required=True)

    t = commands.add_parser("train", help="learn merges from a corpus, print the model JSON")
    t.add_argument("--algorithm", choices=("bpe", "wordpiece", "unigram", *SENTENCEPIECE),
                   default="bpe", help="sentencepiece-*: the real sentencepiece library")
    t.add_argument("--level", choices=LEVELS, help="word (the default), sentence or byte")
    t.add_argument("--merges", type=int, help="number of merges (>= 0; bpe and wordpiece)")
    t.add_argument("--vocab-size", type=int, help="pieces to keep, <unk> included (unigram, "
                   "sentencepiece-*)")
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
    from . import cli_count  # count and premium (imported here: it imports this module)

    cli_count.add_parsers(commands)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    from .cli_count import COMMANDS as COUNTING

    args = parser().parse_args(argv)
    try:
        result = {"train": train, "encode": encode, "windows": windows, "warm": warm,
                  "vocab": vocab, "pretokenize": pretokenize, "export": export,
                  **COUNTING}[args.command](args)
        write_json(result, sys.stdout.buffer)
    except (UsageError, ValueError, OSError) as error:
        sys.stderr.write(f"error: {error}\n")
        return 1
    except MemoryError:
        # within every bound this should not happen (tests/core/test_cli.py measures the peaks);
        # a machine with little memory, or a bound set too high, still gets one line
        sys.stderr.write(f"error: ran out of memory in {args.command}; give it a shorter input "
                         "(split the text and run each part)\n")
        return 1
    except Exception as error:  # noqa: BLE001 - a bug still gets one line, never a traceback
        sys.stderr.write(f"error: {args.command} failed unexpectedly ({type(error).__name__}: "
                         f"{error}); please report it with the command that caused it\n")
        return 1
    return 0
