"""Time the Compression page's curve for Python's documentation and print a Markdown table.

    python benchmarks/bench_compression.py [--repeats 5] [--merges 4000] [--hf-repeats 3]

Corpus: `english_reference_corpus()` (pydoc_data.topics, ~465 KB), cut by `split_held_out` into
80% training text (~372 KB) and 20% held-out text (~93 KB), as the page does by default.
Steps, each a median of --repeats wall-clock runs (time.perf_counter):
  split + pre-tokenize  split_held_out and corpus_from_text (regex chunks counted once)
  training              train_bpe up to --merges, with a progress callback as the page passes
  points, held-out      token_counts_by_merges: tokens for EVERY k, one pass over distinct chunks
  points, training      the same on the training part (the page's over-fitting line)
  curve                 compression_curve end to end = the four steps above
  references            tiktoken counts for GPT-2, cl100k_base and o200k_base (loaded before)
  HF lines              train_hf BPE (byte-level), WordPiece and Unigram at 500 / 1,000 / 2,000 /
                        4,000 on the training part, each counted on the held-out part
  quality table         compression_quality.measure for the 7 rows at one size (ours, 3 HF, 3 refs)
For comparison, "points, naive": ByteLevelBPE.from_merges(merges[:k]) encoding the held-out part
once per drawn point (60 log-spaced k, each with a fresh per-chunk cache). Every naive count is
checked equal to the one-pass count.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import median_seconds  # noqa: E402  (benchmarks/timing.py, beside this file)

from tokenizer_core import corpus_from_text, train_bpe
from tokenizer_core.measure.compression import (
    BYTE_VOCAB,
    compression_curve,
    log_spaced,
    split_held_out,
)
from tokenizer_core.measure.merge_prefix import token_counts_by_merges
from tokenizer_core.measure.metrics import word_set
from tokenizer_core.measure.quality import hf_lines, measure
from tokenizer_core.registry import load_tokenizer
from tokenizer_core.samples import english_reference_corpus

HF_SIZES = (500, 1_000, 2_000, 4_000)
HF_FAMILIES = ("bpe_bytes", "wordpiece", "unigram")
REFERENCES = ("gpt2", "cl100k_base", "o200k_base")
POINTS = 60


Row = tuple[str, float, str]


def curve_rows(text: str, merges_asked: int, repeats: int) -> tuple[list[Row], dict]:
    """Training and the one-pass points, each timed alone, then the curve end to end."""
    split = split_held_out(text, 0.2)
    corpus = corpus_from_text(split.train, "byte")
    merges = train_bpe(corpus, merges_asked).merges
    ticks: list[int] = []

    def pre_tokenize() -> None:
        corpus_from_text(split_held_out(text, 0.2).train, "byte")

    def train() -> None:
        train_bpe(corpus, merges_asked, progress=lambda done, total: ticks.append(done))

    def points(part: str) -> Callable[[], object]:
        return lambda: token_counts_by_merges(merges, part)  # type: ignore[arg-type]

    held_bytes = len(split.held_out.encode())
    rows = [
        ("split + pre-tokenize", median_seconds(pre_tokenize, repeats), ""),
        ("training", median_seconds(train, repeats), f"{len(merges):,} merges learned"),
        ("points, held-out (every k)", median_seconds(points(split.held_out), repeats),
         f"{len(merges) + 1:,} counts over {held_bytes:,} bytes"),
        ("points, training part (every k)", median_seconds(points(split.train), repeats), ""),
        ("**curve, end to end**", median_seconds(
            lambda: compression_curve(split, merges_asked), repeats), "target < 5 s"),
    ]
    curve = compression_curve(split, merges_asked)
    sizes = log_spaced(BYTE_VOCAB, BYTE_VOCAB + len(merges), POINTS)

    def naive() -> None:
        for vocab in sizes:
            k = vocab - BYTE_VOCAB
            count = len(curve.tokenizer(k).encode_ordinary_ids(split.held_out))
            assert count == curve.held_out_tokens[k], f"one pass differs from encoding at k={k}"

    t_naive = median_seconds(naive, max(1, repeats // 2))
    rows.append((f"points, naive ({len(sizes)} encodings)", t_naive,
                 f"the one pass is {t_naive / rows[2][1]:.0f}x faster and gives every k"))
    return rows, {"split": split, "curve": curve}


def other_rows(split, curve, repeats: int, hf_repeats: int) -> list[Row]:
    """References, HF lines and the quality table, on the same split."""
    refs = {name: load_tokenizer(name) for name in REFERENCES}

    def count_references() -> None:
        for reference in refs.values():
            reference.encoding.encode_ordinary(split.held_out)  # type: ignore[attr-defined]

    rows = [("references (3 tiktoken counts)", median_seconds(count_references, repeats),
             "tokenizers loaded beforehand")]
    hf_points = {}
    for family in HF_FAMILIES:
        def train_family() -> None:
            hf_points[family] = hf_lines(
                family, split.train, split.held_out, HF_SIZES)  # type: ignore[arg-type]

        rows.append((f"HF lines: {family}", median_seconds(train_family, hf_repeats),
                     f"{len(HF_SIZES)} sizes, trained and counted"))
    seen = word_set(split.train)
    at_1000 = [next(p for p in points if p.requested == 1_000).tokenizer()
               for points in hf_points.values()]
    table = [curve.tokenizer(1_000 - BYTE_VOCAB), *at_1000, *refs.values()]

    def measure_table() -> None:
        for tokenizer in table:
            measure(tokenizer, split.held_out, seen)

    rows.append(("quality table (7 rows at 1,000)", median_seconds(measure_table, hf_repeats),
                 "encode to Tokens + every metric"))
    return rows


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--repeats", type=int, default=5)
    options.add_argument("--hf-repeats", type=int, default=3, help="HF lines and the quality table")
    options.add_argument("--merges", type=int, default=4_000)
    args = options.parse_args()
    text = english_reference_corpus()
    rows, made = curve_rows(text, args.merges, args.repeats)
    rows += other_rows(made["split"], made["curve"], args.repeats, args.hf_repeats)
    split = made["split"]
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"English {len(text.encode()):,} bytes (train {len(split.train.encode()):,}, held-out "
          f"{len(split.held_out.encode()):,}); up to {args.merges:,} merges; medians of "
          f"{args.repeats} runs ({args.hf_repeats} for HF and the table)")
    print()
    print("| step | seconds | note |")
    print("|---|---:|---|")
    for name, seconds, note in rows:
        print(f"| {name} | {seconds:.3f} | {note} |")
    by_name = {name: seconds for name, seconds, _ in rows}
    cold = by_name["**curve, end to end**"] + sum(
        seconds for name, seconds, _ in rows
        if name.startswith(("references", "HF lines", "quality table")))
    print(f"| **page's work, cold (curve + references + HF lines + table)** | {cold:.3f} "
          "| all but the naive row |")


if __name__ == "__main__":
    main()
