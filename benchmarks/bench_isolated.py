"""Time an uploaded tokenizer.json encoded in its worker process against the same file in-process.

    python benchmarks/bench_isolated.py [--repeats 7] [--vocab 30000]

The file: HF's byte-level BPE trained here (train_hf) on Python's documentation to --vocab
tokens, saved as tokenizer.json text. The text: 20,000 characters, English (Python docs) and a
mixed English/Chinese/code/emoji sample, as in bench_playground.py. Each row is the median of
--repeats wall-clock runs:
  load          HFTokenizer.from_str in this process, vs IsolatedTokenizer(...): start a worker
                (Python, the core's imports), load the file there and encode the probe text
  encode        .encode(text, disallowed_special=()) -> Token records, the worker already warm
                (the request and the Token records cross a pipe, pickled)
Every isolated result is checked equal to the in-process one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from timing import median_seconds  # noqa: E402  (benchmarks/timing.py, beside this file)

from tokenizer_core.reference.hf import HFTokenizer
from tokenizer_core.reference.hf_train import train_hf
from tokenizer_core.reference.isolated import IsolatedTokenizer
from tokenizer_core.samples import english_reference_corpus, sample_text

CHARS = 20_000
TIMEOUT = 60.0


def texts() -> dict[str, str]:
    mixed = "\n".join(sample_text(n) for n in ("english", "chinese", "code", "emoji"))
    return {
        "English (Python docs)": english_reference_corpus()[:CHARS],
        "mixed EN/ZH/code/emoji": (mixed * (CHARS // len(mixed) + 1))[:CHARS],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--vocab", type=int, default=30_000)
    args = parser.parse_args()

    lines = english_reference_corpus().splitlines()
    json_text = train_hf("bpe", lines, args.vocab, byte_level=True).tokenizer.to_str()
    here = HFTokenizer.from_str(json_text, "bench.json")
    print(f"tokenizer.json: byte-level BPE, {here.vocab_size:,} tokens, "
          f"{len(json_text.encode()):,} bytes; {args.repeats} repeats, median seconds\n")
    print("| measured | in-process | isolated worker | ratio |")
    print("|---|---:|---:|---:|")

    started: list[IsolatedTokenizer] = []

    def start() -> None:
        started.append(IsolatedTokenizer(json_text, "bench.json", timeout=TIMEOUT))

    load_here = median_seconds(lambda: HFTokenizer.from_str(json_text, "bench.json"), args.repeats)
    load_isolated = median_seconds(start, args.repeats, before=lambda: [t.close() for t in started])
    print(f"| load the file (isolated: start a worker, load, encode the probe) | {load_here:.3f} "
          f"| {load_isolated:.3f} | {load_isolated / load_here:.0f}x |")

    isolated = started[-1]
    for label, text in texts().items():
        assert isolated.encode(text, disallowed_special=()) == here.encode(
            text, disallowed_special=()
        ), label
        in_process = median_seconds(lambda: here.encode(text, disallowed_special=()), args.repeats)
        worker = median_seconds(lambda: isolated.encode(text, disallowed_special=()), args.repeats)
        tokens = len(here.encode(text, disallowed_special=()))
        print(f"| encode {CHARS:,} characters, {label} ({tokens:,} tokens) | {in_process:.3f} "
              f"| {worker:.3f} | {worker / in_process:.1f}x |")
    for tokenizer in started:
        tokenizer.close()


if __name__ == "__main__":
    main()
