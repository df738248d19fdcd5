"""The command line's counting commands, for practitioners who want numbers, not tokens:

    python -m tokenizer_core count --tokenizer A [--tokenizer B ...] [--model MODEL.json]
           [--special refuse|allow|plain] [TEXTFILE|-]
    python -m tokenizer_core premium --tokenizer A [--tokenizer B ...] [--model MODEL.json]
           PARALLEL.tsv

`count` prints {"characters", "bytes", "tokenizers": [{"name", "tokens"}]}: the text read once,
within encode's bound (MAX_ENCODE_BYTES), and each tokenizer's count equal to the length of what
`encode` prints for it. `premium` prints {"languages", "tokens": {name: {language: total}},
"premium": {name: {language: ratio}}} for a parallel file read as the Languages page reads one
(samples.parse_multilingual), with the page's numbers (counting.parallel_costs).

Adds to cli.py (which registers these commands and owns the input rules both follow): any
registry name, a trained one (ours:bpe ...) or `model` with --model; each tokenizer is loaded,
used and dropped in turn.
Leaves out: tokens, offsets and ids (encode), and the page's labels.
"""

from __future__ import annotations

import argparse
from typing import Any, Iterator

from . import bounds, cli
from .counting import count_tokens, parallel_costs
from .interface import DisallowedSpecialToken, Tokenizer
from .registry import NAMES, TRAINED, load_tokenizer, trained_tokenizer
from .samples import parse_multilingual


def tokenizer_names(args: argparse.Namespace) -> list[str]:
    """The --tokenizer names in the order given, each once, within bounds.MAX_COUNT_TOKENIZERS."""
    names = list(dict.fromkeys(args.tokenizer))
    if len(names) > bounds.MAX_COUNT_TOKENIZERS:
        raise cli.UsageError(f"{len(names)} tokenizers named; the bound is "
                             f"{bounds.MAX_COUNT_TOKENIZERS} a run (run the command again for "
                             "the others)")
    if args.model and "model" not in names:
        raise cli.UsageError("--model goes with --tokenizer model")
    return names


def each_tokenizer(names: list[str], model: str | None) -> Iterator[tuple[str, Tokenizer]]:
    """(name, tokenizer) in turn: one loaded at a time, so memory is one tokenizer's."""
    for name in names:
        if name == "model":
            if not model:
                raise cli.UsageError("--tokenizer model needs --model MODEL.json (a file "
                                     "`train` wrote)")
            yield name, cli.load_model(model)
        elif name in TRAINED:
            yield name, trained_tokenizer(name)
        else:
            yield name, load_tokenizer(name)


def count(args: argparse.Namespace) -> dict[str, Any]:
    """`count`: characters and UTF-8 bytes of the text, and each tokenizer's tokens."""
    names = tokenizer_names(args)
    text = cli.read_text(args.text, "text", bounds.MAX_ENCODE_BYTES,
                         " (split it and count the parts)")
    rows = []
    for name, tokenizer in each_tokenizer(names, args.model):
        try:
            rows.append({"name": name,
                         "tokens": count_tokens(tokenizer, text, cli.SPECIAL_MODES[args.special])})
        except DisallowedSpecialToken as error:
            raise cli.UsageError(f"--tokenizer {name}: {cli.special_refused(error)}") from None
    return {"characters": len(text), "bytes": len(text.encode("utf-8")), "tokenizers": rows}


def premium(args: argparse.Namespace) -> dict[str, Any]:
    """`premium`: each language's tokens and its premium over the first column, per tokenizer."""
    names = tokenizer_names(args)
    text = cli.read_text(args.parallel, "parallel file", bounds.MAX_PARALLEL_FILE_BYTES)
    parallel = parse_multilingual(text, source=args.parallel)
    tokens: dict[str, dict[str, int]] = {}
    ratios: dict[str, dict[str, float]] = {}
    for name, tokenizer in each_tokenizer(names, args.model):
        costs = parallel_costs(parallel, tokenizer)
        tokens[name] = {code: t.tokens for code, t in zip(costs.languages, costs.totals)}
        ratios[name] = costs.ratios()
    return {"languages": list(parallel.languages), "tokens": tokens, "premium": ratios}


def add_parsers(commands: Any) -> None:
    """The two subcommands, on cli.py's subparsers."""
    which = (f"one of {', '.join(NAMES)}, {', '.join(TRAINED)}, or model (with --model); "
             "repeat it for more")
    c = commands.add_parser("count", help="count a text's characters, bytes and tokens, for "
                            "several tokenizers at once")
    c.add_argument("--tokenizer", action="append", required=True, metavar="NAME", help=which)
    c.add_argument("--model", help="model file written by train (with --tokenizer model)")
    c.add_argument("--special", choices=("refuse", "allow", "plain"), default="refuse",
                   help="special-token strings in the text, as for encode")
    c.add_argument("text", nargs="?", default="-", help="text file, or - for standard input")

    p = commands.add_parser("premium", help="tokens per language of a parallel file and each "
                            "language's premium over the first column, as the Languages page")
    p.add_argument("--tokenizer", action="append", required=True, metavar="NAME", help=which)
    p.add_argument("--model", help="model file written by train (with --tokenizer model)")
    p.add_argument("parallel", help="a .tsv with a header of language codes (en<TAB>zh<TAB>...), "
                   "one row per line; - for standard input")


COMMANDS = {"count": count, "premium": premium}
