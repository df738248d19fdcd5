"""Time opening a vocabulary table and searching it (issue 12's budgets: under 1 s, under 0.2 s).

    python benchmarks/bench_vocabulary.py [--repeats 5]

For GPT-2, cl100k_base and o200k_base, with the tokenizer already loaded (the app caches it):
  - open: `vocabulary(tokenizer)`, every row built (bytes, text, lengths, script, start mark,
    merge rank); the peer is tiktoken listing every token's bytes, `decode_single_token_bytes`
    for each id, which any table must do at least;
  - text / bytes / regex: a search over the whole table (`ing`, the bytes E4 BD, and
    `^ [A-Z][a-z]+ing$`); the peer is the plain filter `[i for i, t in texts if "ing" in t]` over
    a ready list of (id, text) pairs.
Median wall-clock seconds of --repeats runs (benchmarks/timing.py) and, for the budgets, median
CPU seconds of the process too, with the ratio to the peer; the load average is printed first,
since other work on the shared machine stretches wall-clock times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import median_seconds  # noqa: E402  (benchmarks/timing.py, beside this file)

from tokenizer_core.measure.vocabulary import (  # noqa: E402
    search_bytes,
    search_regex,
    search_text,
    vocabulary,
)
from tokenizer_core.registry import load_tokenizer  # noqa: E402

NAMES = ("gpt2", "cl100k_base", "o200k_base")
REGEX = r"^ [A-Z][a-z]+ing$"


def cpu_seconds(run, repeats: int) -> float:
    """Median CPU seconds of this process (the wall-clock median grows with the machine's load)."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


def tiktoken_bytes(encoding) -> list[bytes]:
    found = []
    for i in range(encoding.n_vocab):
        try:
            found.append(encoding.decode_single_token_bytes(i))
        except KeyError:  # a gap in the id space
            pass
    return found


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("--repeats", type=int, default=5)
    repeats = args.parse_args().repeats
    # wall-clock medians: on a shared machine they grow with the load, so say what it was
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n")
    print("| vocabulary | tokens | open: wall / CPU s | tiktoken bytes: wall / CPU s | ratio (CPU) "
          "| text | bytes | regex: wall / CPU s | plain filter | text ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in NAMES:
        tokenizer = load_tokenizer(name)
        table = vocabulary(tokenizer)

        def both(run):
            return median_seconds(run, repeats), cpu_seconds(run, repeats)

        opened = both(lambda: vocabulary(tokenizer))
        peer = both(lambda: tiktoken_bytes(tokenizer.encoding))
        text = median_seconds(lambda: search_text(table, "ing"), repeats)
        data = median_seconds(lambda: search_bytes(table, "e4 bd"), repeats)
        found = both(lambda: search_regex(table, REGEX))
        pairs = table.texts()
        plain = median_seconds(lambda: [i for i, t in pairs if "ing" in t], repeats)
        print(f"| {name} | {len(table.rows):,} | {opened[0]:.3f} / {opened[1]:.3f} "
              f"| {peer[0]:.3f} / {peer[1]:.3f} | {opened[1] / peer[1]:.1f}x | {text:.3f} "
              f"| {data:.3f} | {found[0]:.3f} / {found[1]:.3f} | {plain:.3f} | {text / plain:.1f}x |")

if __name__ == "__main__":
    main()
